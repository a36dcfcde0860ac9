/**
 * Which names each line assigns (`name = …`, `name += …`, `name++`), counted over a document and
 * cached by line text: a variable made `const` is not one assigned again where it is in scope.
 */
import { declarationScope } from './scope';
import type { TextLines } from './types';


/** How many lines assign each name (`name = …`, `name += …`, `name++`), counted in one pass over the document. */
export function assignments(document: TextLines): Map<string, number> {
	const counts = new Map<string, number>();
	let known = assignedByLine.get(document);
	if (!known || known.size > 200_000) {
		known = new Map();
		assignedByLine.set(document, known);
	}
	for (let line = 0; line < document.lineCount; line++) {
		for (const name of assignedOn(document.lineText(line), known)) {
			counts.set(name, (counts.get(name) ?? 0) + 1);
		}
	}
	return counts;
}

const ASSIGNS = /(?<![\p{L}\p{N}_$.])([\p{L}_$][\p{L}\p{N}_$]*)\s*(?:[-+*/%&|^]|\*\*|<<|>>>?|\?\?|&&|\|\|)?=(?![=>])|(?:\+\+|--)([\p{L}_$][\p{L}\p{N}_$]*)|([\p{L}_$][\p{L}\p{N}_$]*)(?:\+\+|--)/gu;

/** The names a line assigns, through the document's cache of them by line text. */
function assignedOn(text: string, known: Map<string, readonly string[]>): readonly string[] {
	if (!text.includes('=') && !text.includes('++') && !text.includes('--')) {
		return [];
	}
	let names = known.get(text);
	if (!names) {
		names = [...new Set([...text.matchAll(ASSIGNS)].map((m) => m[1] ?? m[2] ?? m[3]!))];
		known.set(text, names);
	}
	return names;
}

/**
 * Whether `name`, declared on `line`, is assigned on another line where that declaration is in
 * scope (`declarationScope`): a `let frozen` in one function is not varied by a `let frozen` of
 * another. Only asked when some other line of the file assigns the name.
 */
export function reassignedInScope(document: TextLines, line: number, name: string): boolean {
	const known = assignedByLine.get(document) ?? new Map<string, readonly string[]>();
	const span = declarationScope(document, line, false);
	for (let i = span.start; i < span.end; i++) {
		if (i !== line && assignedOn(document.lineText(i), known).includes(name)) {
			return true;
		}
	}
	return false;
}

/** The names each line text assigns, kept per document across its versions (most lines do not change). */
const assignedByLine = new WeakMap<TextLines, Map<string, readonly string[]>>();
