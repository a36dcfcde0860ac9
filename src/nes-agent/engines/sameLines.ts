/**
 * The same line elsewhere: when the line just edited read, trimmed, exactly like a few other lines
 * of the file, those get the same edit. The whole line is the evidence, not a pattern, so this
 * takes edits the templates leave alone (a path in a `require` rewritten, `1/0` made `1 // 0`), but
 * only where the line says something of its own: it names something, is longer than a bare
 * statement, and occurs at most `MAX_COPIES` times besides (a line found everywhere, like
 * `with app.test_request_context():`, is edited where it needs it). The rules of the edited place
 * hold as they do for the templates (`siteOf`: a declaration renamed, a block's structure
 * rewritten, a function named, a negation in prose keep it silent; `sameSite` for each copy).
 */
import { exampleChange, widenToTokens } from './lineChange';
import { nearestFirst } from './renamePropagation';
import { assignments } from './assignments';
import { sameSite, siteOf } from './site';
import { docParameterRenamed } from './lineSpecific';
import { namesPatternVariable } from './bindings';
import { replacedLocalScope } from './locals';
import { lexerOf } from './syntax';
import type { EditsProposal, EngineInput, TextEdit } from './types';

/**
 * A line found more often than this besides the edited one is too common to say where it goes.
 * On the NES eval's dev set every copy was edited up to six copies (a docstring's `:param` line),
 * and no limit up to 20 proposed a wrong one; eight keeps a margin from code found everywhere.
 */
const MAX_COPIES = 8;
/** Shorter lines (`method,`, `} else {`) are too plain to be a place of their own. */
const MIN_LENGTH = 10;

export function sameLines(input: EngineInput): EditsProposal | undefined {
	const change = exampleChange(input.lastEdit);
	if (!change) {
		return undefined;
	}
	const trimmed = change.oldLine.trim();
	if (trimmed.length < MIN_LENGTH || !/[\p{L}_$][\p{L}\p{N}_$]/u.test(trimmed)) {
		return undefined;
	}
	const { document, cursor } = input;
	const copies: number[] = [];
	for (let line = 0; line < document.lineCount; line++) {
		const text = document.lineText(line);
		if (line !== change.line && text.length >= trimmed.length && text.includes(trimmed) && text.trim() === trimmed) {
			copies.push(line);
			if (copies.length > MAX_COPIES) {
				return undefined;
			}
		}
	}
	if (copies.length === 0) {
		return undefined;
	}
	const lexer = lexerOf(document, input.languageId, input.uri);
	const site = siteOf(change, lexer);
	if (!site) {
		return undefined;
	}
	const wide = widenToTokens(change);
	const removed = wide.oldLine.slice(wide.start, wide.oldEnd);
	const inserted = wide.newLine.slice(wide.start, wide.newEnd);
	const before = wide.oldLine.slice(0, wide.start);
	if ((site.kind !== 'code' && docParameterRenamed(wide.oldLine, wide.start, removed, inserted, lexer.syntax.name)) || (site.kind === 'code' && namesPatternVariable(before, removed, inserted))) {
		return undefined;
	}
	// A local's use replaced: only where that local is declared (another function's is another variable).
	const local = replacedLocalScope(document, change.line, site.kind, before, removed, inserted);
	const indent = change.oldLine.length - change.oldLine.trimStart().length;
	let counts: Map<string, number> | undefined;
	const assigned = () => (counts ??= assignments(document));
	const edits: TextEdit[] = [];
	for (const line of copies) {
		const text = document.lineText(line);
		const at = wide.start - indent + (text.length - text.trimStart().length);
		if (at < 0 || text.slice(at, at + removed.length) !== removed || (local !== undefined && (line < local.start || line >= local.end)) || !sameSite(site, text, line, at, document, lexer, assigned)) {
			continue;
		}
		edits.push({ range: { start: { line, character: at }, end: { line, character: at + removed.length } }, newText: inserted });
	}
	return edits.length > 0 ? { kind: 'edits', edits: nearestFirst(edits, cursor) } : undefined;
}

