/**
 * Scope estimation from indentation: which lines a local name declared on a
 * line can be used on. Not name resolution: real code is indented by its
 * blocks (Python by rule, the brace languages by every formatter), so the
 * lines a declaration's block spans are where its name means the same thing.
 */
import type { TextLines } from './types';

/** The width of a line's indentation (a tab counts 4), or -1 for a blank line. */
export function indentOf(text: string): number {
	let width = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === 0x20) {
			width++;
		} else if (c === 0x09) {
			width += 4;
		} else {
			return width;
		}
	}
	return -1;
}

/** A line that opens a block: it ends with `:` (Python) or `{` (the brace languages), a comment after it aside. */
export function opensBlock(text: string): boolean {
	return /[:{]\s*(?:(?:#|\/\/).*)?$/.test(text);
}

/** Lines `[start, end)`. */
export interface LineSpan {
	readonly start: number;
	readonly end: number;
}

/**
 * The lines where a name declared at `line` is in scope.
 * - At the top level (no indentation), a name that is not a block's
 *   parameter is the file's: every line.
 * - A parameter or binding of a line that opens a block (`def f(a):`,
 *   `function f(a) {`, `for x in xs:`, `except E as e:`): that line and its
 *   block, up to the next line indented no deeper than it.
 * - Any other local (`let x = 1;` inside a function, `x = 1` in a body): from
 *   that line to the end of the block it stands in (the next line indented
 *   less). Uses above it are another variable of the same name or not yet declared.
 */
export function declarationScope(document: TextLines, line: number, ownsBlock: boolean): LineSpan {
	const text = document.lineText(line);
	const indent = Math.max(0, indentOf(text));
	if (indent === 0 && !ownsBlock) {
		return { start: 0, end: document.lineCount };
	}
	const limit = ownsBlock ? indent : indent - 1;
	let end = line + 1;
	for (; end < document.lineCount; end++) {
		const next = indentOf(document.lineText(end));
		if (next !== -1 && next <= limit) {
			break;
		}
	}
	return { start: line, end };
}

/**
 * Whether the identifier at `column` of `line` is a parameter or a binding the
 * line's block owns: inside the parentheses of a function declaration
 * (`def`, `function`, a method, an arrow function's parameter list), or bound
 * by `for … in`, `except … as`, `with … as`, `catch (…)`.
 */
export function isBlockBinding(line: string, column: number): boolean {
	if (!opensBlock(line) && !/=>/.test(line)) {
		return false;
	}
	const before = line.slice(0, column);
	const open = before.lastIndexOf('(');
	if (open !== -1 && before.indexOf(')', open) === -1) {
		const head = before.slice(0, open);
		if (/(?:^|[^\w$])(?:def|function\*?|fn|func|catch)\s*[\w$]*\s*(?:<[^()]*>)?\s*$/.test(head) || /^\s*(?:(?:public|private|protected|static|async|override|readonly)\s+)*(?!(?:if|while|for|switch|with|return|await|typeof|new)\b)[\w$]+\s*$/.test(head)) {
			return true;
		}
		if (/=>/.test(line.slice(column))) {
			return true;
		}
	}
	return /(?:^|[^\w$])(?:for|as)\s+(?:[\w$]+\s*,\s*)*$/.test(before);
}

/** The block `line` stands in: from the nearest line above indented less (its opener) to the next line indented no deeper than that one. */
export function enclosingBlock(document: TextLines, line: number): LineSpan {
	const indent = Math.max(0, indentOf(document.lineText(line)));
	let start = line;
	let opener = -1;
	for (let i = line - 1; i >= 0; i--) {
		const width = indentOf(document.lineText(i));
		if (width !== -1 && width < indent) {
			start = i;
			opener = width;
			break;
		}
	}
	if (opener === -1) {
		return { start: 0, end: document.lineCount };
	}
	let end = line + 1;
	for (; end < document.lineCount; end++) {
		const width = indentOf(document.lineText(end));
		if (width !== -1 && width <= opener) {
			break;
		}
	}
	return { start, end };
}
