/**
 * The model's rewrite of a region, as minimal edits of the current text:
 * `diff`'s line diff finds the groups of changed lines, each group is
 * trimmed to the characters that differ, and the groups are ordered nearest
 * to the cursor first (the first is the suggestion, the rest become jumps).
 */
import { diffLines } from 'diff';
import { isIdentifierChar } from '../engines/identifiers';
import { distance } from '../engines/renamePropagation';
import type { Position, TextEdit } from '../engines/types';

/**
 * Edits that turn `current` (the lines from `startLine` on, joined by `\n`)
 * into `updated`. Empty when they are the same.
 */
export function rewriteEdits(startLine: number, current: string, updated: string, cursor: Position): TextEdit[] {
	if (current === updated) {
		return [];
	}
	// A last line without its newline is a different line to the line diff; the trimming below
	// takes the group back to the characters that differ.
	const parts = diffLines(current, updated);
	const lineStarts = [0];
	for (let i = 0; i < current.length; i++) {
		if (current.charCodeAt(i) === 0x0a) {
			lineStarts.push(i + 1);
		}
	}
	const position = (offset: number): Position => {
		let low = 0;
		let high = lineStarts.length - 1;
		while (low < high) {
			const mid = (low + high + 1) >> 1;
			if (lineStarts[mid]! <= offset) {
				low = mid;
			} else {
				high = mid - 1;
			}
		}
		return { line: startLine + low, character: offset - lineStarts[low]! };
	};
	const edits: TextEdit[] = [];
	let offset = 0;
	for (let i = 0; i < parts.length; ) {
		const part = parts[i]!;
		if (!part.added && !part.removed) {
			offset += part.value.length;
			i++;
			continue;
		}
		// One group: the removed and added parts next to each other.
		let removed = '';
		let added = '';
		while (i < parts.length && (parts[i]!.added || parts[i]!.removed)) {
			if (parts[i]!.removed) {
				removed += parts[i]!.value;
			} else {
				added += parts[i]!.value;
			}
			i++;
		}
		let start = 0;
		while (start < removed.length && start < added.length && removed.charCodeAt(start) === added.charCodeAt(start)) {
			start++;
		}
		let end = 0;
		while (end < removed.length - start && end < added.length - start && removed.charCodeAt(removed.length - 1 - end) === added.charCodeAt(added.length - 1 - end)) {
			end++;
		}
		// Whole words: `r * r` to `radius * radius` reads better than an insertion after the first `r`.
		while (start > 0 && isIdentifierChar(removed.charCodeAt(start - 1)) && (isIdentifierChar(removed.charCodeAt(start)) || isIdentifierChar(added.charCodeAt(start)))) {
			start--;
		}
		while (
			end > 0 &&
			isIdentifierChar(removed.charCodeAt(removed.length - end)) &&
			(isIdentifierChar(removed.charCodeAt(removed.length - end - 1)) || isIdentifierChar(added.charCodeAt(added.length - end - 1)))
		) {
			end--;
		}
		const from = Math.min(offset + start, current.length);
		const to = Math.min(offset + removed.length - end, current.length);
		const newText = added.slice(start, added.length - end);
		if (current.slice(from, to) !== newText) {
			edits.push({ range: { start: position(from), end: position(to) }, newText });
		}
		offset += removed.length;
	}
	edits.sort((a, b) => distance(a.range.start, cursor) - distance(b.range.start, cursor));
	return edits;
}
