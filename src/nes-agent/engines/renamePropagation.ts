/**
 * Rename propagation: the user changed one occurrence of an identifier, as a
 * whole word, and the old name still occurs; finish the rename.
 *
 * Silent when unsure: keywords and built-in type names never count; a new
 * name that already occurs elsewhere means the user pointed this place at
 * another symbol, not a rename (unless an earlier burst made the same
 * rename, as after accepting one of our own suggestions).
 */
import { KEYWORDS, isDeclarationAt, isIdentifier, isIdentifierChar, wholeWordColumns } from './identifiers';
import { singleLineChange } from './lineChange';
import type { EngineInput, LineEdit, Position, Range, RenameProposal } from './types';

/** At most this many occurrences are reported: enough for any suggestion list. */
const MAX_OCCURRENCES = 1000;

/** An identifier changed in place: where, and from what to what. */
export interface IdentifierChange {
	readonly line: number;
	readonly column: number;
	readonly oldName: string;
	readonly newName: string;
}

/**
 * The burst as an identifier changed in place, whole word: the line is the
 * same except that one or more whole-word occurrences of `oldName` now read
 * `newName` (two occurrences on a line happen once a suggestion for the
 * second is accepted). `column` is the first changed occurrence.
 */
export function identifierChange(edit: LineEdit): IdentifierChange | undefined {
	const change = singleLineChange(edit);
	if (!change) {
		return undefined;
	}
	const { oldLine, newLine } = change;
	let column = change.start;
	while (column > 0 && isIdentifierChar(oldLine.charCodeAt(column - 1))) {
		column--;
	}
	const oldName = oldLine.slice(column, identifierEnd(oldLine, column));
	const newName = newLine.slice(column, identifierEnd(newLine, column));
	if (oldName === newName || !isIdentifier(oldName) || !isIdentifier(newName) || KEYWORDS.has(oldName) || KEYWORDS.has(newName)) {
		return undefined;
	}
	return onlyRenamed(oldLine, newLine, oldName, newName) ? { line: change.line, column, oldName, newName } : undefined;
}

function identifierEnd(text: string, from: number): number {
	let end = from;
	while (end < text.length && isIdentifierChar(text.charCodeAt(end))) {
		end++;
	}
	return end;
}

/** Whether `newLine` is `oldLine` with some whole-word occurrences of `oldName` (at least one) replaced by `newName`, and nothing else. */
function onlyRenamed(oldLine: string, newLine: string, oldName: string, newName: string): boolean {
	let j = 0;
	let i = 0;
	let renamed = 0;
	for (const k of wholeWordColumns(oldLine, oldName)) {
		const same = k - i;
		if (oldLine.slice(i, k) !== newLine.slice(j, j + same)) {
			return false;
		}
		j += same;
		if (newLine.startsWith(newName, j) && !isIdentifierChar(newLine.charCodeAt(j + newName.length))) {
			j += newName.length;
			renamed++;
		} else if (newLine.startsWith(oldName, j)) {
			j += oldName.length;
		} else {
			return false;
		}
		i = k + oldName.length;
	}
	return renamed > 0 && oldLine.slice(i) === newLine.slice(j);
}

export function renamePropagation(input: EngineInput): RenameProposal | undefined {
	if (!input.lastEdit) {
		return undefined;
	}
	const change = identifierChange(input.lastEdit);
	if (!change) {
		return undefined;
	}
	const { document, cursor } = input;
	const { oldName, newName } = change;
	// Never suggest for a name that is no longer there.
	if (document.lineText(change.line).slice(change.column, change.column + newName.length) !== newName) {
		return undefined;
	}
	const occurrences: Range[] = [];
	let declaration: Position | undefined;
	let newNameElsewhere = false;
	for (let line = 0; line < document.lineCount; line++) {
		const text = document.lineText(line);
		if (!newNameElsewhere && text.includes(newName)) {
			newNameElsewhere = wholeWordColumns(text, newName).some((c) => line !== change.line || c !== change.column);
		}
		if (occurrences.length >= MAX_OCCURRENCES || !text.includes(oldName)) {
			continue;
		}
		for (const column of wholeWordColumns(text, oldName)) {
			occurrences.push({ start: { line, character: column }, end: { line, character: column + oldName.length } });
			if (!declaration && isDeclarationAt(text, column)) {
				declaration = { line, character: column };
			}
		}
	}
	if (occurrences.length === 0) {
		return undefined;
	}
	// Silent where the change points this place at another symbol rather than renaming one: the old name
	// is left only in imports (it is declared in another file), or a use was changed and nothing but the
	// declaration is left (a variable about to be replaced, not renamed).
	const outsideImports = occurrences.filter((o) => !isImportLine(document.lineText(o.start.line)));
	if (outsideImports.length === 0) {
		return undefined;
	}
	const editedDeclaration = isDeclarationAt(document.lineText(change.line), change.column);
	if (!editedDeclaration && declaration && outsideImports.length === 1 && outsideImports[0]!.start.line === declaration.line && outsideImports[0]!.start.character === declaration.character) {
		return undefined;
	}
	if (newNameElsewhere && !input.earlierEdits.some((e) => sameRename(identifierChange(e), change))) {
		return undefined;
	}
	occurrences.sort((a, b) => distance(a.start, cursor) - distance(b.start, cursor));
	return {
		kind: 'rename',
		oldName,
		newName,
		edited: { start: { line: change.line, character: change.column }, end: { line: change.line, character: change.column + newName.length } },
		editedDeclaration,
		declaration,
		occurrences,
	};
}

/** An import statement (ECMAScript, Python, Go, Rust, Java and the like): names there are declared elsewhere. */
function isImportLine(text: string): boolean {
	return /^\s*(?:import\b|from\s+\S+\s+import\b|use\s|using\s|#include\b|(?:const|let|var)\s+[^=]*=\s*require\s*\()/.test(text);
}

function sameRename(a: IdentifierChange | undefined, b: IdentifierChange): boolean {
	return a !== undefined && a.oldName === b.oldName && a.newName === b.newName;
}

/** Lines first, then columns: the nearest place to the cursor, in reading terms. */
export function distance(position: Position, cursor: Position): number {
	return Math.abs(position.line - cursor.line) * 10_000 + Math.abs(position.character - cursor.character);
}
