/**
 * How a suggestion is shown, decided from plain data (`shared/notes/nes-rendering.md`):
 *
 * - `ghost`: an `edit` that only inserts text at or after the cursor on the
 *   cursor's line: native ghost text, Tab is VS Code's own accept.
 * - `preview`: any other `edit` (other lines, several edits, deletions,
 *   replacements, another file): a preview, Tab applies it.
 * - `jump`, `rename`, `searchAndReplace`: their own hints; the seed revision's
 *   `action` suggestions with `actionId` `rename` / `searchAndReplace` map onto
 *   the latter two.
 * - `invalid`: nothing to show (the reason is logged and the suggestion rejected).
 *
 * Every position is already in the editor's coordinates (UTF-16).
 */
import type { NesSuggestion, Position, Range } from './protocol';

export interface TextEditData {
	readonly range: Range;
	readonly newText: string;
}

export type Presentation =
	| {
			readonly kind: 'ghost';
			readonly id: string;
			readonly uri: string;
			/** The range the inline completion item replaces: from the cursor to where the insertion goes. */
			readonly range: Range;
			/** The item's text: what the range holds now followed by the insertion. */
			readonly insertText: string;
			/** Where the inserted text goes, and the text itself. */
			readonly at: Position;
			readonly text: string;
			/** The full edit, as the agent sent it. */
			readonly edit: TextEditData;
			readonly cursorPosition?: Position;
	  }
	| { readonly kind: 'preview'; readonly id: string; readonly uri: string; readonly edits: readonly TextEditData[]; readonly cursorPosition?: Position }
	| { readonly kind: 'jump'; readonly id: string; readonly uri: string; readonly position: Position }
	| { readonly kind: 'rename'; readonly id: string; readonly uri: string; readonly position: Position; readonly newName: string }
	| { readonly kind: 'searchAndReplace'; readonly id: string; readonly uri: string; readonly search: string; readonly replace: string; readonly isRegex: boolean }
	| { readonly kind: 'invalid'; readonly id: string; readonly reason: string };

export type PresentationKind = Presentation['kind'];

/** The editor's cursor: the document it is in and where. */
export interface Cursor {
	readonly uri: string;
	readonly position: Position;
}

/** Line text of the document the cursor is in. */
export type LineText = (line: number) => string | undefined;

/** Which kinds the client can carry out (what it advertised). */
export interface EnabledKinds {
	readonly jump: boolean;
	readonly rename: boolean;
	readonly searchAndReplace: boolean;
}

const ALL_KINDS: EnabledKinds = { jump: true, rename: true, searchAndReplace: true };

export function comparePositions(a: Position, b: Position): number {
	return a.line - b.line || a.character - b.character;
}

/** Classifies one suggestion for display with the cursor at `cursor`. */
export function classify(suggestion: NesSuggestion, cursor: Cursor, lineText: LineText, enabled: EnabledKinds = ALL_KINDS): Presentation {
	const id = suggestion.id;
	switch (suggestion.kind) {
		case 'edit':
			return classifyEdit(id, suggestion.uri, suggestion.edits, suggestion.cursorPosition ?? undefined, cursor, lineText);
		case 'jump':
			return enabled.jump ? { kind: 'jump', id, uri: suggestion.uri, position: pos(suggestion.position) } : { kind: 'invalid', id, reason: 'jump suggestions were not advertised' };
		case 'rename':
			return classifyRename(id, suggestion.uri, suggestion.position, suggestion.newName, enabled);
		case 'searchAndReplace':
			return classifySearch(id, suggestion.uri, suggestion.search, suggestion.replace, suggestion.isRegex ?? false, enabled);
		case 'action':
			return classifyAction(id, suggestion.actionId, suggestion.arguments ?? {}, enabled);
	}
}

function pos(p: Position): Position {
	return { line: p.line, character: p.character };
}

function classifyEdit(id: string, uri: string, edits: readonly TextEditData[], cursorPosition: Position | undefined, cursor: Cursor, lineText: LineText): Presentation {
	if (edits.length === 0) {
		return { kind: 'invalid', id, reason: 'an edit suggestion without edits' };
	}
	for (const e of edits) {
		if (comparePositions(e.range.start, e.range.end) > 0) {
			return { kind: 'invalid', id, reason: 'an edit whose range ends before it starts' };
		}
	}
	const sorted = [...edits].sort((a, b) => comparePositions(a.range.start, b.range.start));
	for (let i = 1; i < sorted.length; i++) {
		if (comparePositions(sorted[i - 1]!.range.end, sorted[i]!.range.start) > 0) {
			return { kind: 'invalid', id, reason: 'edits that overlap' };
		}
	}
	const extra = cursorPosition ? { cursorPosition: pos(cursorPosition) } : {};
	const changing = sorted.filter((e) => !isNoOp(e, lineText, uri === cursor.uri));
	if (changing.length === 0) {
		return { kind: 'invalid', id, reason: 'edits that change nothing' };
	}
	const only = changing.length === 1 ? changing[0] : undefined;
	if (only && uri === cursor.uri) {
		const ghost = asGhost(only, cursor.position, lineText);
		if (ghost) {
			return { kind: 'ghost', id, uri, ...ghost, edit: only, ...extra };
		}
	}
	return { kind: 'preview', id, uri, edits: changing, ...extra };
}

function isNoOp(edit: TextEditData, lineText: LineText, sameDocument: boolean): boolean {
	if (!sameDocument || edit.range.start.line !== edit.range.end.line) {
		return edit.newText === '' && comparePositions(edit.range.start, edit.range.end) === 0;
	}
	const line = lineText(edit.range.start.line);
	return line !== undefined && line.slice(edit.range.start.character, edit.range.end.character) === edit.newText;
}

/**
 * The edit as a pure insertion at or after the cursor on the cursor's line, if
 * it is one: the replaced text must survive as the edit's common prefix and
 * suffix, leaving only inserted text in between.
 */
export function asGhost(edit: TextEditData, cursor: Position, lineText: LineText): { range: Range; insertText: string; at: Position; text: string } | undefined {
	const { start, end } = edit.range;
	if (start.line !== cursor.line || end.line !== cursor.line) {
		return undefined;
	}
	const line = lineText(cursor.line);
	if (line === undefined || end.character > line.length) {
		return undefined;
	}
	const old = line.slice(start.character, end.character);
	const insertion = insertionOf(old, edit.newText);
	if (!insertion) {
		return undefined;
	}
	const at = start.character + insertion.offset;
	if (at < cursor.character) {
		return undefined;
	}
	const between = line.slice(cursor.character, at);
	return {
		range: { start: pos(cursor), end: { line: cursor.line, character: at } },
		insertText: between + insertion.text,
		at: { line: cursor.line, character: at },
		text: insertion.text,
	};
}

/** `newText` as `old` with one run of text inserted: where (offset into `old`) and what. */
export function insertionOf(old: string, newText: string): { offset: number; text: string } | undefined {
	if (newText.length <= old.length) {
		return undefined;
	}
	let prefix = 0;
	while (prefix < old.length && old[prefix] === newText[prefix]) {
		prefix++;
	}
	let suffix = 0;
	while (suffix < old.length - prefix && old[old.length - 1 - suffix] === newText[newText.length - 1 - suffix]) {
		suffix++;
	}
	if (prefix + suffix !== old.length) {
		return undefined;
	}
	return { offset: prefix, text: newText.slice(prefix, newText.length - suffix) };
}

function classifyRename(id: string, uri: string, position: Position, newName: string, enabled: EnabledKinds): Presentation {
	if (!enabled.rename) {
		return { kind: 'invalid', id, reason: 'rename suggestions were not advertised' };
	}
	if (newName.trim() === '' || /[\r\n]/.test(newName)) {
		return { kind: 'invalid', id, reason: `${JSON.stringify(newName)} is not a name` };
	}
	return { kind: 'rename', id, uri, position: pos(position), newName };
}

function classifySearch(id: string, uri: string, search: string, replace: string, isRegex: boolean, enabled: EnabledKinds): Presentation {
	if (!enabled.searchAndReplace) {
		return { kind: 'invalid', id, reason: 'search-and-replace suggestions were not advertised' };
	}
	if (search === '') {
		return { kind: 'invalid', id, reason: 'an empty search' };
	}
	return { kind: 'searchAndReplace', id, uri, search, replace, isRegex };
}

function classifyAction(id: string, actionId: string, args: Record<string, unknown>, enabled: EnabledKinds): Presentation {
	const uri = args.uri;
	if (typeof uri !== 'string') {
		return { kind: 'invalid', id, reason: `action ${JSON.stringify(actionId)} without arguments.uri` };
	}
	switch (actionId) {
		case 'rename': {
			const position = args.position;
			if (!isPosition(position) || typeof args.newName !== 'string') {
				return { kind: 'invalid', id, reason: 'action "rename" needs arguments {uri, position, newName}' };
			}
			return classifyRename(id, uri, position, args.newName, enabled);
		}
		case 'searchAndReplace': {
			if (typeof args.search !== 'string' || typeof args.replace !== 'string' || (args.isRegex !== undefined && args.isRegex !== null && typeof args.isRegex !== 'boolean')) {
				return { kind: 'invalid', id, reason: 'action "searchAndReplace" needs arguments {uri, search, replace, isRegex?}' };
			}
			return classifySearch(id, uri, args.search, args.replace, args.isRegex === true, enabled);
		}
		default:
			return { kind: 'invalid', id, reason: `action ${JSON.stringify(actionId)} was never advertised` };
	}
}

function isPosition(value: unknown): value is Position {
	if (typeof value !== 'object' || value === null) {
		return false;
	}
	const { line, character } = value as Position;
	return Number.isInteger(line) && Number.isInteger(character) && line >= 0 && character >= 0;
}

/** Where a presentation is, for choosing the one nearest the cursor. */
export function anchorOf(p: Presentation): { uri: string; position: Position } | undefined {
	switch (p.kind) {
		case 'ghost':
			return { uri: p.uri, position: p.at };
		case 'preview':
			return { uri: p.uri, position: p.edits[0]!.range.start };
		case 'jump':
		case 'rename':
			return { uri: p.uri, position: p.position };
		case 'searchAndReplace':
			return { uri: p.uri, position: { line: Number.MAX_SAFE_INTEGER, character: 0 } };
		case 'invalid':
			return undefined;
	}
}

/**
 * The index of the best presentation to show: one in the cursor's document
 * before others, then the nearest to the cursor (ghost text wins ties); -1
 * when none can be shown.
 */
export function pickBest(presentations: readonly Presentation[], cursor: Cursor): number {
	let best = -1;
	let bestScore: [number, number, number] | undefined;
	presentations.forEach((p, index) => {
		const anchor = anchorOf(p);
		if (!anchor) {
			return;
		}
		const sameDoc = anchor.uri === cursor.uri ? 0 : 1;
		const lineDistance = sameDoc === 0 ? Math.abs(anchor.position.line - cursor.position.line) : 0;
		const score: [number, number, number] = [sameDoc, lineDistance, p.kind === 'ghost' ? 0 : 1];
		if (!bestScore || lexLess(score, bestScore)) {
			best = index;
			bestScore = score;
		}
	});
	return best;
}

function lexLess(a: readonly number[], b: readonly number[]): boolean {
	for (let i = 0; i < a.length; i++) {
		if (a[i] !== b[i]) {
			return a[i]! < b[i]!;
		}
	}
	return false;
}

export type GhostPresentation = Extract<Presentation, { kind: 'ghost' }>;

/**
 * What became of ghost text after an edit of its document, judged by the
 * resulting text rather than by the shape of the change (VS Code's own accept
 * may replace what was typed): `consumed` when the text now holds the whole
 * suggestion (accepted, or typed out), `advanced` when what was typed is how
 * the suggestion begins (the rest stays shown), `undefined` when it no longer
 * applies.
 *
 * @param lineBefore the cursor line as it was when the ghost text was shown
 * @param readLines the document's text now, lines `from` to `from + count - 1`
 *   joined with `\n` (`undefined` past the end)
 */
export function followGhost(
	ghost: GhostPresentation,
	lineBefore: string,
	readLines: (from: number, count: number) => string | undefined,
): { readonly kind: 'consumed' } | { readonly kind: 'advanced'; readonly ghost: GhostPresentation; readonly lineText: string } | undefined {
	const line = ghost.at.line;
	const before = lineBefore.slice(0, ghost.at.character);
	const after = lineBefore.slice(ghost.at.character);
	const accepted = before + ghost.text + after;
	if (readLines(line, accepted.split('\n').length) === accepted) {
		return { kind: 'consumed' };
	}
	if (ghost.insertText !== ghost.text) {
		// The insertion goes after existing text: typing inserts before that text instead of
		// walking through it, so the suggestion no longer describes the line.
		return undefined;
	}
	const now = readLines(line, 1);
	if (now === undefined || !now.startsWith(before) || !now.endsWith(after) || now.length <= lineBefore.length) {
		return undefined;
	}
	const typed = now.slice(before.length, now.length - after.length);
	if (!ghost.text.startsWith(typed) || typed.includes('\n')) {
		return undefined;
	}
	const cursor = { line, character: ghost.at.character + typed.length };
	return {
		kind: 'advanced',
		ghost: { ...ghost, range: { start: cursor, end: cursor }, insertText: ghost.insertText.slice(typed.length), at: cursor, text: ghost.text.slice(typed.length) },
		lineText: now,
	};
}
