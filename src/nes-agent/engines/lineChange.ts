/** What changed in a burst of editing, reduced to one span of one line when it is that simple. */
import { isIdentifierChar } from './identifiers';
import type { LineEdit } from './types';

/** Longer lines (minified code, data) are neither examples nor places to repeat one. */
export const MAX_LINE_LENGTH = 2000;

/**
 * A change inside one line: `oldLine[start, oldEnd)` became
 * `newLine[start, newEnd)`; the text before `start` and after the ends is the same.
 */
export interface SingleLineChange {
	/** The line's index in the current document. */
	readonly line: number;
	readonly oldLine: string;
	readonly newLine: string;
	readonly start: number;
	readonly oldEnd: number;
	readonly newEnd: number;
}

/**
 * The burst as one change inside one line, with the common prefix and suffix
 * trimmed, or `undefined` when it spans lines or changed nothing.
 */
export function singleLineChange(edit: LineEdit): SingleLineChange | undefined {
	if (edit.oldLines.length !== edit.newLines.length) {
		return undefined;
	}
	let changed = -1;
	for (let i = 0; i < edit.oldLines.length; i++) {
		if (edit.oldLines[i] !== edit.newLines[i]) {
			if (changed !== -1) {
				return undefined;
			}
			changed = i;
		}
	}
	if (changed === -1) {
		return undefined;
	}
	const oldLine = edit.oldLines[changed]!;
	const newLine = edit.newLines[changed]!;
	const limit = Math.min(oldLine.length, newLine.length);
	let start = 0;
	while (start < limit && oldLine.charCodeAt(start) === newLine.charCodeAt(start)) {
		start++;
	}
	let suffix = 0;
	while (suffix < limit - start && oldLine.charCodeAt(oldLine.length - 1 - suffix) === newLine.charCodeAt(newLine.length - 1 - suffix)) {
		suffix++;
	}
	return { line: edit.startLine + changed, oldLine, newLine, start, oldEnd: oldLine.length - suffix, newEnd: newLine.length - suffix };
}

/** The burst as one change inside one line, when it is one and both versions of the line are short enough to learn from. */
export function exampleChange(edit: LineEdit | undefined): SingleLineChange | undefined {
	const change = edit && singleLineChange(edit);
	return change && change.oldLine.length <= MAX_LINE_LENGTH && change.newLine.length <= MAX_LINE_LENGTH ? change : undefined;
}

/**
 * The change widened to whole tokens: a span that starts or ends inside an
 * identifier (`let` to `const` trims to `le` to `cons`) grows to the
 * identifier's edges, on both sides at once since they share that text.
 */
export function widenToTokens(change: SingleLineChange): SingleLineChange {
	const { oldLine, newLine } = change;
	let { start, oldEnd, newEnd } = change;
	const touchesLeft = () =>
		start > 0 &&
		isIdentifierChar(oldLine.charCodeAt(start - 1)) &&
		((start < oldEnd && isIdentifierChar(oldLine.charCodeAt(start))) || (start < newEnd && isIdentifierChar(newLine.charCodeAt(start))));
	while (touchesLeft()) {
		start--;
	}
	const touchesRight = () =>
		oldEnd < oldLine.length &&
		isIdentifierChar(oldLine.charCodeAt(oldEnd)) &&
		((oldEnd > start && isIdentifierChar(oldLine.charCodeAt(oldEnd - 1))) || (newEnd > start && isIdentifierChar(newLine.charCodeAt(newEnd - 1))));
	while (touchesRight()) {
		oldEnd++;
		newEnd++;
	}
	return { ...change, start, oldEnd, newEnd };
}
