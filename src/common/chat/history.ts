/**
 * Chat history: Agent Link's own record of each chat (agent, folder, title, the transcript as
 * drawn, the files it changed), kept for every agent whether or not it can list its sessions
 * (`session/list`), so a chat survives a window reload and can be read, searched by title and
 * continued where the agent can load or resume it.
 *
 * Pure: the shapes of what is stored (checked with zod when read back, since anything on disk may
 * be damaged or from another version), the bound on its size (oldest dropped first), search, and
 * what is derived from a chat (changed files, the picker's notes, a Markdown copy to link a new chat to). The
 * vscode layer (src/vscode/chat/chatHistory.ts) reads and writes the files.
 */
import * as z from 'zod/mini';
import { transcriptSnapshotSchema } from './transcriptWire';
import type { Block, Entry, TranscriptSnapshot } from './transcriptModel';
import { sameText, type FileChange } from './turnFiles';

/** The version of the stored format; another version reads as nothing stored. */
export const HISTORY_VERSION = 1;
/** Chats kept however small they are (the index is read whole when the history opens). */
export const MAX_HISTORY_RECORDS = 1000;
/** Changed files listed per chat. */
export const MAX_CHANGED_FILES = 100;

/** How a stored chat can go on with its agent: `session/resume`, `session/load`, or not at all (read-only). */
export type ContinueWith = 'resume' | 'load';

/** Ids name files in the store: nothing that could leave its folder. */
const idSchema = z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, { message: 'expected a history id' }));
const count = z.int().check(z.nonnegative());
const text = z.string().check(z.maxLength(32_768));

export const historyRecordSchema = z.object({
	/** Agent Link's key for the chat, and the name of its transcript's file. */
	id: idSchema,
	agentName: text,
	/** The agent's session id, once `session/new` answered. */
	sessionId: z.optional(text),
	cwd: text,
	title: z.optional(text),
	/** Milliseconds since the epoch. */
	createdAt: count,
	updatedAt: count,
	/** Bytes of the stored transcript: what the bound counts. */
	bytes: count,
	entries: count,
	/** The files whose content the agent changed: its writes ({@link noteWrite}) and its turns' changes ({@link noteTurnChanges}). */
	changedFiles: z.array(text).check(z.maxLength(MAX_CHANGED_FILES)),
	continueWith: z.optional(z.enum(['resume', 'load'])),
});
export type HistoryRecord = z.infer<typeof historyRecordSchema>;

/** `index.json`: every record, newest first. */
export interface HistoryIndex {
	readonly version: typeof HISTORY_VERSION;
	readonly records: readonly HistoryRecord[];
}

const indexEnvelope = z.object({ version: z.literal(HISTORY_VERSION), records: z.array(z.unknown()) });

/**
 * Reads `index.json`'s content. A file that is not JSON, or of another version, reads as empty
 * (`problem` says why); a record that does not check is dropped alone; duplicates keep the newest.
 */
export function parseHistoryIndex(content: string): { readonly records: HistoryRecord[]; readonly problem?: string; readonly dropped: number } {
	let raw: unknown;
	try {
		raw = JSON.parse(content);
	} catch {
		return { records: [], problem: 'the history index is not JSON', dropped: 0 };
	}
	const envelope = indexEnvelope.safeParse(raw);
	if (!envelope.success) {
		return { records: [], problem: 'the history index is of an unknown version or shape', dropped: 0 };
	}
	const byId = new Map<string, HistoryRecord>();
	let dropped = 0;
	for (const item of envelope.data.records) {
		const parsed = historyRecordSchema.safeParse(item);
		if (!parsed.success) {
			dropped++;
			continue;
		}
		const existing = byId.get(parsed.data.id);
		if (existing) {
			dropped++;
			if (existing.updatedAt >= parsed.data.updatedAt) {
				continue;
			}
		}
		byId.set(parsed.data.id, parsed.data);
	}
	return { records: sortNewestFirst([...byId.values()]), dropped };
}

export function serializeHistoryIndex(records: readonly HistoryRecord[]): string {
	return JSON.stringify({ version: HISTORY_VERSION, records } satisfies HistoryIndex);
}

/** A stored transcript: `<id>.json`. */
const storedTranscriptSchema = z.object({ version: z.literal(HISTORY_VERSION), id: idSchema, snapshot: transcriptSnapshotSchema });

export function serializeTranscript(id: string, snapshot: TranscriptSnapshot): string {
	return JSON.stringify({ version: HISTORY_VERSION, id, snapshot });
}

/** Reads a stored transcript back; undefined when it is damaged, of another version or another chat's. */
export function parseStoredTranscript(id: string, content: string): TranscriptSnapshot | undefined {
	let raw: unknown;
	try {
		raw = JSON.parse(content);
	} catch {
		return undefined;
	}
	const parsed = storedTranscriptSchema.safeParse(raw);
	return parsed.success && parsed.data.id === id ? parsed.data.snapshot : undefined;
}

export interface HistoryLimits {
	/** Bytes of transcripts kept in all. */
	readonly maxBytes: number;
	readonly maxRecords: number;
}

/**
 * Adds or replaces `record` and drops the oldest records beyond the limits (the bytes of their
 * transcripts, and their number). A record over the byte limit by itself is not kept (nor an older
 * copy of it); the others stay. Returns the records kept, newest first, and those dropped (whose
 * files go).
 */
export function putRecord(records: readonly HistoryRecord[], record: HistoryRecord, limits: HistoryLimits): { readonly records: HistoryRecord[]; readonly dropped: HistoryRecord[] } {
	const others = records.filter((r) => r.id !== record.id);
	if (record.bytes > limits.maxBytes || limits.maxRecords < 1) {
		// Not kept, and the others stay: one huge chat does not push out the whole history.
		const fitted = bound(others, limits);
		return { records: fitted.records, dropped: [...fitted.dropped, record] };
	}
	return bound(sortNewestFirst([record, ...others]), limits);
}

/** The oldest records dropped until the rest fit the limits (after the limit was lowered, say). `records` newest first. */
export function bound(records: readonly HistoryRecord[], limits: HistoryLimits): { readonly records: HistoryRecord[]; readonly dropped: HistoryRecord[] } {
	let bytes = records.reduce((sum, r) => sum + r.bytes, 0);
	let end = records.length;
	while (end > 0 && (end > limits.maxRecords || bytes > limits.maxBytes)) {
		end--;
		bytes -= records[end]!.bytes;
	}
	return { records: records.slice(0, end), dropped: records.slice(end).reverse() };
}

function sortNewestFirst(records: HistoryRecord[]): HistoryRecord[] {
	return records.sort((a, b) => b.updatedAt - a.updatedAt || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
}

/** Records whose title holds every word of `query` (any case), newest first; all of them for an empty query. */
export function searchByTitle(records: readonly HistoryRecord[], query: string): HistoryRecord[] {
	const words = query.toLowerCase().split(/\s+/).filter(Boolean);
	if (words.length === 0) {
		return [...records];
	}
	return records.filter((r) => {
		const title = (r.title ?? '').toLowerCase();
		return words.every((w) => title.includes(w));
	});
}

/**
 * Notes a write the agent made through the editor (`fs/write_text_file`, applied) in `files`, the
 * files a chat changed: it counts when it changed the file's content (`before` undefined: it made
 * the file). Only writes count: a tool call that names a file or carries a diff says what an agent
 * meant to do, not what happened (the ACP SDK's example agent names a file in an edit it never
 * makes). At most {@link MAX_CHANGED_FILES}; says whether the file was added.
 */
export function noteWrite(files: Set<string>, write: { readonly path: string; readonly before: string | undefined; readonly after: string }): boolean {
	if (write.before === write.after || files.has(write.path) || files.size >= MAX_CHANGED_FILES) {
		return false;
	}
	files.add(write.path);
	return true;
}

/**
 * Notes the files a turn changed in `files`, whoever wrote them (the agent's own tools, a shell
 * command, `fs/write_text_file`; found by comparing each file with its text before the turn): one
 * counts when its text at the turn's end is not the text before. At most {@link MAX_CHANGED_FILES}.
 */
export function noteTurnChanges(files: Set<string>, changes: readonly FileChange[]): void {
	for (const change of changes) {
		if (!sameText(change.before, change.after) && !files.has(change.path) && files.size < MAX_CHANGED_FILES) {
			files.add(change.path);
		}
	}
}

/**
 * What the history picker says of a stored chat after its folder: how many files it changed,
 * `read-only` when it cannot go on (open in a tab: as that tab is; else when its agent can neither
 * resume nor load it, or it never started), who lists it, and `open`.
 */
export function historyNotes(record: Pick<HistoryRecord, 'changedFiles' | 'continueWith' | 'sessionId'>, where: { readonly open?: { readonly readOnly: boolean }; readonly listedBy?: string }): string[] {
	const changed = record.changedFiles.length;
	const readOnly = where.open ? where.open.readOnly : record.continueWith === undefined || record.sessionId === undefined;
	return [changed > 0 ? `${changed} file${changed === 1 ? '' : 's'} changed` : undefined, readOnly ? 'read-only' : undefined, where.listedBy ? `kept by ${where.listedBy}` : undefined, where.open ? 'open' : undefined].filter(
		(note): note is string => note !== undefined,
	);
}

/** "just now", "5 minutes ago", "yesterday", "3 days ago", or the date for older times. */
export function relativeTime(then: number, now: number): string {
	const seconds = Math.round((now - then) / 1000);
	if (seconds < 45) {
		return 'just now';
	}
	const minutes = Math.round(seconds / 60);
	if (minutes < 60) {
		return minutes === 1 ? '1 minute ago' : `${minutes} minutes ago`;
	}
	const hours = Math.round(minutes / 60);
	if (hours < 24) {
		return hours === 1 ? '1 hour ago' : `${hours} hours ago`;
	}
	const days = Math.round(hours / 24);
	if (days < 2) {
		return 'yesterday';
	}
	if (days < 14) {
		return `${days} days ago`;
	}
	return new Date(then).toISOString().slice(0, 10);
}

/** Milliseconds since the epoch of an ISO 8601 time an agent sent, or undefined. */
export function parseTime(value: string | undefined): number | undefined {
	if (value === undefined) {
		return undefined;
	}
	const ms = Date.parse(value);
	return Number.isFinite(ms) && ms >= 0 ? ms : undefined;
}

/**
 * A chat as Markdown, to read or to hand a new chat as a link when the old one cannot go on:
 * the title, agent, folder and time, each message, tool calls with their status and changed
 * files, plans, notices and compaction summaries. Images and audio are named, not embedded.
 */
export function transcriptToMarkdown(snapshot: TranscriptSnapshot, record: Pick<HistoryRecord, 'agentName' | 'cwd' | 'updatedAt' | 'title' | 'changedFiles'>): string {
	const out: string[] = [`# ${oneLine(record.title ?? snapshot.session.title ?? 'Chat')}`, '', `Agent: ${record.agentName}  `, `Folder: ${record.cwd}  `, `Last active: ${new Date(record.updatedAt).toISOString()}`, ''];
	if (snapshot.dropped > 0) {
		out.push(`*(${snapshot.dropped} earlier entries were not kept.)*`, '');
	}
	for (const entry of snapshot.entries) {
		out.push(...entryMarkdown(entry), '');
	}
	const files = record.changedFiles;
	if (files.length > 0) {
		out.push('## Changed files', '', ...files.map((f) => `- ${f}`), '');
	}
	return `${out.join('\n').trimEnd()}\n`;
}

function entryMarkdown(entry: Entry): string[] {
	switch (entry.kind) {
		case 'user':
			return ['## You', '', blocksMarkdown(entry.blocks)];
		case 'agent':
			return ['## Agent', '', blocksMarkdown(entry.blocks)];
		case 'thought':
			return [quote(`Thought: ${blocksMarkdown(entry.blocks)}`)];
		case 'tool_call': {
			const lines = [`- Tool call: ${oneLine(entry.title || entry.name || entry.toolKind)} (${entry.toolKind}, ${entry.status})`];
			for (const item of entry.content) {
				if (item.type === 'diff') {
					lines.push(`  - ${item.oldText === undefined ? 'created' : 'changed'} ${item.path}`);
				}
			}
			return lines;
		}
		case 'plan':
			return ['Plan:', ...entry.items.map((i) => `- [${i.status === 'completed' ? 'x' : ' '}] ${oneLine(i.content)}`)];
		case 'notice':
			return [quote(`${entry.severity}: ${entry.title}${entry.description ? ` — ${entry.description}` : ''}`)];
		case 'compaction':
			return [quote(`Earlier context compacted${entry.blocks.length > 0 ? `: ${blocksMarkdown(entry.blocks)}` : '.'}`)];
		case 'turn_end':
			return entry.error !== undefined ? [`*The turn failed: ${oneLine(entry.error)}*`] : entry.stopReason && entry.stopReason !== 'end_turn' ? [`*Stopped: ${entry.stopReason}*`] : [];
		case 'elicitation':
			return [quote(`The agent asked: ${oneLine(entry.elicitation.message)} (${entry.elicitation.state})`)];
		case 'status':
			return [`*${entry.status === 'ended' ? `The conversation ended${entry.reason ? `: ${oneLine(entry.reason)}` : '.'}` : (entry.reason ?? 'The conversation went on.')}*`];
	}
}

function blocksMarkdown(blocks: readonly Block[]): string {
	return blocks
		.map((block) => {
			switch (block.type) {
				case 'text':
					return block.text;
				case 'image':
					return `[image: ${block.mimeType}]`;
				case 'audio':
					return `[audio: ${block.mimeType}]`;
				case 'resource_link':
					return `[${block.title ?? block.name}](${block.uri})`;
				case 'resource':
					return block.text !== undefined ? `\n\`\`\`\n${block.text}\n\`\`\`\n(${block.uri})` : `(${block.uri})`;
			}
		})
		.join(' ');
}

function quote(text: string): string {
	return text
		.split('\n')
		.map((line) => `> ${line}`)
		.join('\n');
}

function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim();
}
