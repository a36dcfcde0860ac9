/**
 * A Python string made bytes or unicode: when the user puts `b` or `u` before a string
 * (`assert rv.data == 'index'` to `assert rv.data == b'index'`), the other strings that stand in
 * the same place get it too: those after the same code, from the line's first token to the quote
 * (every string after `assert rv.data == `, or every one after `self.assert_equal(rv.data, `),
 * whatever the string holds.
 *
 * The place is the whole code before the string, never a pattern of it, so `x == 'a'` elsewhere
 * is left alone, and it must hold more than a function and its bracket (`self.assert_('x' in y)`
 * is any first argument); only Python files, where these prefixes mean something; only strings
 * without a prefix; at most `MAX_EDITS` places, nearest first.
 */
import { exampleChange } from './lineChange';
import { nearestFirst } from './renamePropagation';
import { lexerOf } from './syntax';
import type { EditsProposal, EngineInput, TextEdit } from './types';

const MAX_EDITS = 50;
/** Code shorter than this before the string (`x = `) says too little about where the string stands. */
const MIN_CONTEXT = 8;

export function stringPrefix(input: EngineInput): EditsProposal | undefined {
	const change = exampleChange(input.lastEdit);
	if (!change || change.oldEnd !== change.start || !(input.languageId === 'python' || input.uri.endsWith('.py'))) {
		return undefined;
	}
	const { oldLine, newLine, start, newEnd } = change;
	const prefix = newLine.slice(start, newEnd);
	const quote = oldLine.charAt(start);
	if (!/^[bBuU]$/.test(prefix) || (quote !== "'" && quote !== '"') || /[\w$]/.test(oldLine.charAt(start - 1))) {
		return undefined;
	}
	const { document, cursor } = input;
	const lexer = lexerOf(document, input.languageId, input.uri);
	const context = oldLine.slice(0, start).trim();
	// A first argument (`self.assert_('x' in y)`) has only the function before it: where it stands says little.
	if (context.length < MIN_CONTEXT || !/[A-Za-z_]/.test(context) || /[([{]$/.test(context) || lexer.kindOfText(change.line, oldLine, start) !== 'code') {
		return undefined;
	}
	const edits: TextEdit[] = [];
	for (let line = 0; line < document.lineCount; line++) {
		if (line === change.line) {
			continue;
		}
		const text = document.lineText(line);
		const indent = text.length - text.trimStart().length;
		if (!text.startsWith(context, indent)) {
			continue;
		}
		const rest = text.slice(indent + context.length);
		const at = text.length - rest.trimStart().length;
		const next = text.charAt(at);
		if ((next === "'" || next === '"') && lexer.kindAt(line, at) === 'code') {
			edits.push({ range: { start: { line, character: at }, end: { line, character: at } }, newText: prefix });
		}
	}
	return edits.length > 0 ? { kind: 'edits', edits: nearestFirst(edits, cursor).slice(0, MAX_EDITS) } : undefined;
}
