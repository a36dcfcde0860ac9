/**
 * A copy of a document's text kept only to convert change ranges to UTF-8 or
 * UTF-32: those need the line text *before* each change, which VS Code's
 * change event no longer has. Held as lines so one keystroke costs one line's
 * worth of work, whatever the size of the file.
 */
import type { Range, TextLines } from '../positionEncoding';

/** `\r\n`, `\r` and `\n` are line breaks, as in VS Code and LSP. */
const LINE_BREAK = /\r\n|\r|\n/g;

export class ShadowDocument implements TextLines {
	private lines: string[] = [];
	/** The line break after each line: `''` after the last line only. */
	private breaks: string[] = [];

	constructor(text: string) {
		split(text, this.lines, this.breaks);
	}

	get lineCount(): number {
		return this.lines.length;
	}

	lineText(line: number): string {
		return this.lines[line] ?? '';
	}

	getText(): string {
		let text = '';
		for (let i = 0; i < this.lines.length; i++) {
			text += this.lines[i]! + this.breaks[i]!;
		}
		return text;
	}

	/**
	 * Replaces `range` (UTF-16, in the current text) with `text`. Ranges outside
	 * the document are clamped into it, as VS Code would.
	 */
	apply(range: Range, text: string): void {
		const last = this.lines.length - 1;
		let startLine = clamp(range.start.line, 0, last);
		const endLine = clamp(range.end.line, startLine, last);
		const startText = this.lines[startLine]!;
		const endText = this.lines[endLine]!;
		const startCharacter = clamp(range.start.line > last ? startText.length : range.start.character, 0, startText.length);
		const endCharacter = clamp(range.end.line > last ? endText.length : range.end.character, 0, endText.length);
		let head = startText.slice(0, startCharacter);
		const tail = endText.slice(startLine === endLine ? Math.max(startCharacter, endCharacter) : endCharacter);
		const tailBreak = this.breaks[endLine]!;
		let region = head + text + tail + tailBreak;
		// A `\n` landing right after a line that ends in a lone `\r` joins it into one `\r\n`.
		const joinsBreak = region.startsWith('\n') && startLine > 0 && this.breaks[startLine - 1] === '\r';
		if (!joinsBreak && text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
			// The common case (typing, deleting within or across lines): one line results.
			if (startLine === endLine) {
				this.lines[startLine] = head + text + tail;
			} else {
				this.lines.splice(startLine, endLine - startLine + 1, head + text + tail);
				this.breaks.splice(startLine, endLine - startLine + 1, tailBreak);
			}
			return;
		}
		if (joinsBreak) {
			startLine--;
			head = this.lines[startLine]! + '\r';
			region = head + text + tail + tailBreak;
		}
		const lines: string[] = [];
		const breaks: string[] = [];
		split(region, lines, breaks);
		// `region` ends with the end line's break, so splitting it leaves an empty last piece
		// (the start of the next line) unless the end line was the document's last.
		if (tailBreak !== '') {
			lines.pop();
			breaks.pop();
		}
		this.lines = replace(this.lines, startLine, endLine - startLine + 1, lines);
		this.breaks = replace(this.breaks, startLine, endLine - startLine + 1, breaks);
	}
}

/** `array.splice(start, count, ...items)`, without spreading a huge paste into call arguments. */
function replace(array: string[], start: number, count: number, items: string[]): string[] {
	if (items.length < 10_000) {
		array.splice(start, count, ...items);
		return array;
	}
	return array.slice(0, start).concat(items, array.slice(start + count));
}

function split(text: string, lines: string[], breaks: string[]): void {
	LINE_BREAK.lastIndex = 0;
	let from = 0;
	for (let match = LINE_BREAK.exec(text); match; match = LINE_BREAK.exec(text)) {
		lines.push(text.slice(from, match.index));
		breaks.push(match[0]);
		from = match.index + match[0].length;
	}
	lines.push(text.slice(from));
	breaks.push('');
}

function clamp(value: number, min: number, max: number): number {
	return value < min ? min : value > max ? max : value;
}
