/**
 * Characters an entry holds, as the transcript's caps count them (see `TranscriptLimits`): text,
 * media data, labels and paths. Pure functions over the model; nothing is cut here.
 */
import type { Block, CompactionEntry, Elicitation, Entry, PlanItem, ToolCallEntry } from './transcriptModel';

export function blockSize(block: Block): number {
	switch (block.type) {
		case 'text':
			return block.text.length;
		case 'image':
		case 'audio':
			return block.data.length + block.mimeType.length;
		case 'resource_link':
			return block.uri.length + block.name.length + (block.title?.length ?? 0) + (block.description?.length ?? 0);
		case 'resource':
			return block.uri.length + (block.text?.length ?? 0);
	}
}

/** Characters an entry holds, as the caps count them. */
export function entrySize(entry: Entry): number {
	switch (entry.kind) {
		case 'user':
		case 'agent':
		case 'thought':
			return entry.blocks.reduce((sum, block) => sum + blockSize(block), 0);
		case 'tool_call':
			return toolCallSize(entry);
		case 'plan':
			return planSize(entry.items);
		case 'notice':
			return entry.title.length + (entry.description?.length ?? 0);
		case 'compaction':
			return compactionSize(entry, entry.blocks);
		case 'elicitation':
			return elicitationSize(entry.elicitation);
		case 'turn_end':
		case 'status':
			return 0;
	}
}

/** An elicitation's text: its message, title, address and fields (the caps bound each when it is made). */
export function elicitationSize(elicitation: Elicitation): number {
	return elicitation.message.length + (elicitation.title?.length ?? 0) + (elicitation.description?.length ?? 0) + (elicitation.url?.length ?? 0) + JSON.stringify(elicitation.fields).length;
}

export function toolCallSize(entry: ToolCallEntry): number {
	let size = entry.title.length + (entry.rawInput?.length ?? 0) + (entry.rawOutput?.length ?? 0);
	for (const item of entry.content) {
		size += item.type === 'content' ? blockSize(item.content) : item.type === 'diff' ? item.path.length + item.newText.length + (item.oldText?.length ?? 0) : item.terminalId.length;
	}
	for (const location of entry.locations) {
		size += location.path.length;
	}
	return size + (entry.elicitation ? elicitationSize(entry.elicitation) : 0);
}

export function planSize(items: readonly PlanItem[]): number {
	let size = 0;
	for (const item of items) {
		size += item.content.length;
	}
	return size;
}

export function compactionSize(entry: CompactionEntry, blocks: readonly Block[]): number {
	let size = entry.error?.length ?? 0;
	for (const block of blocks) {
		size += blockSize(block);
	}
	return size;
}
