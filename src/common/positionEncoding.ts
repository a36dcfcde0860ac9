/**
 * Position encodings: converting positions and ranges between VS Code (UTF-16
 * code units) and the encoding the agent picked.
 *
 * Implements `clientCapabilities.positionEncodings` /
 * `agentCapabilities.positionEncoding` of the merged NES revision
 * (`shared/specs/protocols.md` §2), which follows LSP 3.17's
 * `PositionEncodingKind`: a position is a zero-based line and a zero-based
 * `character` offset into that line, counted in
 *
 * - `utf-16`: UTF-16 code units (VS Code's own unit; the default),
 * - `utf-8`: UTF-8 bytes,
 * - `utf-32`: Unicode code points.
 *
 * Named for direction like vscode-languageclient's converters: `toAgent*`
 * takes a VS Code (UTF-16) position and gives the agent's; `fromAgent*` takes
 * the agent's and gives VS Code's. Pure: no `vscode`, no Node built-ins.
 *
 * Rules, the same in every direction and encoding (each conversion is total
 * and deterministic, so any input gives a valid position):
 *
 * 1. **Line text** is the line without its line break, so `\r\n` files need
 *    nothing special; a character offset that would fall after the text (for
 *    example between `\r` and `\n`) is past the end of the line (rule 3).
 * 2. **Lines outside the document**: a negative line becomes the start of the
 *    document; a line at or past `lineCount` becomes the end of the last line
 *    (as VS Code's `TextDocument.validatePosition` does, and as LSP peers use
 *    `{line: lineCount, character: 0}` for "end of document").
 * 3. **Characters outside the line**: negative becomes 0; past the end of the
 *    line becomes the end of the line (its length in the target encoding).
 * 4. **Inside a character**: a UTF-16 offset between the two halves of a
 *    surrogate pair, or a UTF-8 offset inside a multi-byte sequence, moves back
 *    to the start of that character. Offsets are never rounded forward, so the
 *    result never splits a character.
 * 5. **Lone surrogates** (text that is not well-formed UTF-16) count as one code
 *    point, and as 3 UTF-8 bytes: the size of the U+FFFD they become when the
 *    message is encoded as UTF-8.
 * 6. **Combining marks and grapheme clusters** are not special: offsets count
 *    code units or code points, so a position between a base letter and its
 *    combining mark is valid and kept as it is.
 *
 * Round trips: for a UTF-16 position that satisfies rules 2–4,
 * `fromAgent(toAgent(p))` is `p`; for an agent position that does,
 * `toAgent(fromAgent(q))` is `q`.
 */
import type { PositionEncoding } from './nes/protocol';

export type { PositionEncoding };

/** A zero-based line and character offset (LSP / ACP `Position`). */
export interface Position {
	readonly line: number;
	readonly character: number;
}

/** A half-open range between two positions (LSP / ACP `Range`). */
export interface Range {
	readonly start: Position;
	readonly end: Position;
}

/** The lines of a document, read on demand (a `vscode.TextDocument` adapts in two lines). */
export interface TextLines {
	/** At least 1: an empty document has one empty line. */
	readonly lineCount: number;
	/** Line `line` (0 ≤ line < lineCount) without its line break. */
	lineText(line: number): string;
}

/** Converts positions of one document between VS Code and the agent's encoding. */
export interface PositionConverter {
	readonly encoding: PositionEncoding;
	/** VS Code (UTF-16) position → the agent's encoding. */
	toAgentPosition(position: Position): Position;
	/** VS Code (UTF-16) range → the agent's encoding. */
	toAgentRange(range: Range): Range;
	/** The agent's position → VS Code (UTF-16), clamped into the document. */
	fromAgentPosition(position: Position): Position;
	/** The agent's range → VS Code (UTF-16), clamped into the document. */
	fromAgentRange(range: Range): Range;
}

/**
 * A converter over `lines` (read at each call, so it follows the document as it
 * changes). Positions must refer to the text `lines` holds at the time of the call.
 */
export function createPositionConverter(encoding: PositionEncoding, lines: TextLines): PositionConverter {
	function convert(position: Position, toAgent: boolean): Position {
		const lastLine = Math.max(0, lines.lineCount - 1);
		if (position.line < 0) {
			return { line: 0, character: 0 };
		}
		if (position.line > lastLine) {
			const text = lines.lineText(lastLine);
			return { line: lastLine, character: toAgent ? encodedLength(text, encoding) : text.length };
		}
		const text = lines.lineText(position.line);
		const character = toAgent ? toAgentCharacter(text, position.character, encoding) : fromAgentCharacter(text, position.character, encoding);
		return { line: position.line, character };
	}
	return {
		encoding,
		toAgentPosition: (position) => convert(position, true),
		toAgentRange: (range) => ({ start: convert(range.start, true), end: convert(range.end, true) }),
		fromAgentPosition: (position) => convert(position, false),
		fromAgentRange: (range) => ({ start: convert(range.start, false), end: convert(range.end, false) }),
	};
}

/**
 * A UTF-16 offset into `lineText` → the same place in `encoding`, under the
 * rules in this module's header (clamped to the line, moved out of a surrogate pair).
 */
export function toAgentCharacter(lineText: string, character: number, encoding: PositionEncoding): number {
	const end = clampUtf16(lineText, character);
	return encoding === 'utf-16' ? end : measure(lineText, end, encoding);
}

/**
 * An offset in `encoding` into `lineText` → the UTF-16 offset of the same
 * place, under the rules in this module's header (clamped to the line; an
 * offset inside a character moves to its start).
 */
export function fromAgentCharacter(lineText: string, character: number, encoding: PositionEncoding): number {
	if (encoding === 'utf-16') {
		return clampUtf16(lineText, character);
	}
	const length = lineText.length;
	let units = 0;
	let i = 0;
	while (i < length && units < character) {
		const code = lineText.charCodeAt(i);
		let width: number;
		let span = 1;
		if (code < 0x80) {
			width = 1;
		} else if (isPairAt(lineText, i, code)) {
			width = encoding === 'utf-8' ? 4 : 1;
			span = 2;
		} else {
			width = encoding === 'utf-32' ? 1 : code < 0x800 ? 2 : 3;
		}
		if (units + width > character) {
			break; // inside this character: stay at its start
		}
		units += width;
		i += span;
	}
	return i;
}

/** The length of `text` in `encoding`'s units (UTF-16 code units, UTF-8 bytes or code points). */
export function encodedLength(text: string, encoding: PositionEncoding): number {
	return encoding === 'utf-16' ? text.length : measure(text, text.length, encoding);
}

/** Clamps a UTF-16 offset into [0, length] and out of the middle of a surrogate pair. */
function clampUtf16(lineText: string, character: number): number {
	if (!(character > 0)) {
		return 0; // negative or NaN
	}
	if (character >= lineText.length) {
		return lineText.length;
	}
	const at = Math.floor(character);
	return at > 0 && isPairAt(lineText, at - 1, lineText.charCodeAt(at - 1)) ? at - 1 : at;
}

/** Units of `encoding` in `text[0, end)`; `end` never splits a surrogate pair. */
function measure(text: string, end: number, encoding: 'utf-8' | 'utf-32'): number {
	let units = 0;
	for (let i = 0; i < end; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) {
			units += 1;
		} else if (isPairAt(text, i, code)) {
			units += encoding === 'utf-8' ? 4 : 1;
			i++;
		} else {
			units += encoding === 'utf-32' ? 1 : code < 0x800 ? 2 : 3;
		}
	}
	return units;
}

/** Whether a high surrogate `code` at `i` is followed by a low surrogate. */
function isPairAt(text: string, i: number, code: number): boolean {
	if (code < 0xd800 || code > 0xdbff) {
		return false;
	}
	const next = text.charCodeAt(i + 1);
	return next >= 0xdc00 && next <= 0xdfff;
}
