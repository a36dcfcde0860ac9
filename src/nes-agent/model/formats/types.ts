/**
 * A prompt format of an open next-edit model: how the prompt is laid out and
 * how the reply is read (`shared/notes/nes-engines.md`, "Open next-edit
 * models"). Each format is its own file; all are pure.
 */
import type { LineEdit, Position, TextLines } from '../../engines/types';

export type FormatName = 'sweep' | 'zeta' | 'instinct';

/** What a prompt may be built from: the agent's copy of the document and what it saw the user do. */
export interface PromptContext {
	/** The file as the prompt names it (relative to the workspace when it is inside it). */
	readonly path: string;
	readonly document: TextLines;
	readonly cursor: Position;
	/** The user's latest burst of editing in this document, if any. */
	readonly lastEdit: LineEdit | undefined;
	/** Recent bursts in any document of the session, oldest first, the latest included. */
	readonly recentEdits: readonly { readonly path: string; readonly edit: LineEdit }[];
	/** Code the client sent as related (definitions of symbols near the cursor). */
	readonly snippets: readonly { readonly path: string; readonly text: string }[];
}

export type ModelRequest =
	| { readonly kind: 'completion'; readonly prompt: string; readonly stop: readonly string[] }
	| { readonly kind: 'chat'; readonly messages: readonly { readonly role: 'system' | 'user'; readonly content: string }[] };

export interface Prompt {
	readonly request: ModelRequest;
	/** The lines `[startLine, endLine)` the model rewrites; their text joined by `\n` is what its reply replaces. */
	readonly region: { readonly startLine: number; readonly endLine: number };
}

export interface PromptFormat {
	readonly name: FormatName;
	/** Throws {@link PromptError} when the document holds the format's own control tokens. */
	build(context: PromptContext): Prompt;
	/** The model's rewrite of the region, or `undefined` when the reply holds none. */
	parse(reply: string): string | undefined;
}

export class PromptError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'PromptError';
	}
}

/** Lines `[start, end)` of `document`, clamped. */
export function linesOf(document: TextLines, start: number, end: number): string[] {
	const out: string[] = [];
	for (let line = Math.max(0, start); line < Math.min(end, document.lineCount); line++) {
		out.push(document.lineText(line));
	}
	return out;
}

/** A span of lines `[startLine, endLine)`. */
export interface LineSpan {
	readonly startLine: number;
	readonly endLine: number;
}

/** The lines from `above` before `line` to `below` after it, clamped to the document. */
export function linesAround(document: TextLines, line: number, above: number, below: number): LineSpan {
	return { startLine: Math.max(0, line - above), endLine: Math.min(document.lineCount, line + below + 1) };
}

/** The burst with its unchanged first and last lines left out, as a diff shows it. */
export function trimmedEdit(edit: LineEdit): LineEdit {
	let head = 0;
	while (head < edit.oldLines.length && head < edit.newLines.length && edit.oldLines[head] === edit.newLines[head]) {
		head++;
	}
	let tail = 0;
	while (tail < edit.oldLines.length - head && tail < edit.newLines.length - head && edit.oldLines[edit.oldLines.length - 1 - tail] === edit.newLines[edit.newLines.length - 1 - tail]) {
		tail++;
	}
	return { startLine: edit.startLine + head, oldLines: edit.oldLines.slice(head, edit.oldLines.length - tail), newLines: edit.newLines.slice(head, edit.newLines.length - tail) };
}

/** A burst as a unified diff with one hunk and no context (`--- a/`, `+++ b/`, `@@`). */
export function unifiedDiff(path: string, edit: LineEdit): string {
	const e = trimmedEdit(edit);
	const start = e.startLine + 1;
	return [`--- a/${path}`, `+++ b/${path}`, `@@ -${start},${e.oldLines.length} +${start},${e.newLines.length} @@`, ...e.oldLines.map((l) => `-${l}`), ...e.newLines.map((l) => `+${l}`)].join('\n');
}

/** Whether a burst changed anything once its unchanged lines are left out. */
export function isChange(edit: LineEdit): boolean {
	const e = trimmedEdit(edit);
	return e.oldLines.length > 0 || e.newLines.length > 0;
}

/** Zeta's and Instinct's markers. */
export const EDITABLE_REGION_START = '<|editable_region_start|>';
export const EDITABLE_REGION_END = '<|editable_region_end|>';
export const USER_CURSOR = '<|user_cursor_is_here|>';

/**
 * The excerpt with Zeta's markers: `before` lines, the editable region (the
 * cursor marked), `after` lines.
 */
export function markedExcerpt(context: PromptContext, region: LineSpan, window: LineSpan): string {
	const { document, cursor } = context;
	const editable = linesOf(document, region.startLine, region.endLine);
	const at = cursor.line - region.startLine;
	if (at >= 0 && at < editable.length) {
		const line = editable[at]!;
		const character = Math.min(cursor.character, line.length);
		editable[at] = line.slice(0, character) + USER_CURSOR + line.slice(character);
	}
	return [...linesOf(document, window.startLine, region.startLine), EDITABLE_REGION_START, ...editable, EDITABLE_REGION_END, ...linesOf(document, region.endLine, window.endLine)].join('\n');
}

/** The text between exactly one start and one end marker, the cursor marker removed; `undefined` otherwise. */
export function betweenMarkers(reply: string): string | undefined {
	const start = reply.indexOf(EDITABLE_REGION_START);
	const end = reply.indexOf(EDITABLE_REGION_END);
	if (start === -1 || end === -1 || end < start || reply.indexOf(EDITABLE_REGION_START, start + 1) !== -1 || reply.indexOf(EDITABLE_REGION_END, end + 1) !== -1) {
		return undefined;
	}
	let inner = reply.slice(start + EDITABLE_REGION_START.length, end);
	if (inner.startsWith('\n')) {
		inner = inner.slice(1);
	}
	if (inner.endsWith('\n')) {
		inner = inner.slice(0, -1);
	}
	return inner.split(USER_CURSOR).join('');
}

/** Throws when `text` holds one of `tokens` (a document that contains a format's control tokens cannot be prompted safely). */
export function rejectTokens(format: FormatName, text: string, tokens: readonly string[]): void {
	for (const token of tokens) {
		if (text.includes(token)) {
			throw new PromptError(`the ${format} prompt would contain its control token ${token}`);
		}
	}
}
