/**
 * Content appended to a message or a compaction summary: text runs on into the last text block
 * (only the new piece is recorded, so a patch carries just that); anything else is a block of its
 * own. Past the entry's caps the entry is marked `truncated` once and further content is dropped.
 */
import type { EntryStore, Slot } from './entryStore';
import { blockSize } from './entrySizes';
import { clip, type Writable } from './modelValues';
import type { ToModel } from './toModel';
import type { CompactionEntry, MessageEntry } from './transcriptModel';
import type { KnownContentBlock } from './updates';

/**
 * Appends one content block to a message or compaction: text runs on into the last text
 * block; anything else is a block of its own. Past the entry's caps the entry is marked
 * `truncated` once and further content is dropped.
 */
export function appendContent(store: EntryStore, model: ToModel, slot: Slot, content: KnownContentBlock): void {
	const blocks = slot.blocks!;
	const entry = slot.entry as Writable<MessageEntry | CompactionEntry>;
	const room = model.limits.maxEntryChars - slot.size;
	const lastBlock = blocks[blocks.length - 1];
	if (content.type === 'text' && lastBlock?.type === 'text') {
		if (entry.truncated) {
			return; // past the cap: dropped
		}
		const piece = clip(content.text, room);
		if (piece.length > 0) {
			blocks[blocks.length - 1] = { type: 'text', text: lastBlock.text + piece };
			store.grow(slot, piece.length);
		}
		if (piece.length < content.text.length) {
			entry.truncated = true;
			store.touch(slot);
		} else {
			store.touchAppended(slot, piece);
		}
		return;
	}
	if (entry.truncated) {
		return; // past the cap: dropped
	}
	if (blocks.length >= model.limits.maxBlocks) {
		entry.truncated = true;
		store.touch(slot);
		return;
	}
	const block = model.block(content, room);
	blocks.push(block.block);
	store.grow(slot, blockSize(block.block));
	if (block.cut) {
		entry.truncated = true;
	}
	store.touch(slot);
}
