/**
 * Repeated transformation: the user's last edit of a line, with its common
 * prefix and suffix trimmed (`var ` to `const `, an added `await `, a new
 * argument), becomes a template; other lines of the document that share its
 * anchors (the tokens around the change) get the same edit, nearest first.
 *
 * Built to be precise rather than eager: the anchors are literal where the
 * change itself says little (an insertion, one identifier replaced by
 * another), a template must name at least one identifier or keyword, and a
 * whitespace-only edit is never repeated. The template is made in `template.ts`, the places
 * it may go judged in `site.ts`.
 */
import { escapeRegExp, isIdentifier } from './identifiers';
import { exampleChange, MAX_LINE_LENGTH, widenToTokens, type SingleLineChange } from './lineChange';
import { nearestFirst } from './renamePropagation';
import { boundFrom, calleeOfAssignment, namesPatternVariable } from './bindings';
import { replacedLocalScope } from './locals';
import { afterNew, bracketBalance, declaresParameter, derivedFrom, diamondOfNew, docParameterRenamed, holdsAll, modifierChanged, proseKeptToItsLine, testDescriptionReworded, touchesBrackets } from './lineSpecific';
import { lexerOf, type Lexer } from './syntax';
import { NOT_AFTER_IDENTIFIER, NOT_BEFORE_IDENTIFIER, templateOf, type Template } from './template';
import { sameSite, siteOf, type Site } from './site';
import { assignments } from './assignments';
import type { EditsProposal, EngineInput, TextEdit } from './types';

/** At most this many places are proposed. */
const MAX_EDITS = 200;

export function repeatedTransformation(input: EngineInput): EditsProposal | undefined {
	const change = exampleChange(input.lastEdit);
	if (!change) {
		return undefined;
	}
	const template = templateOf(change);
	if (!template) {
		return undefined;
	}
	const lexer = lexerOf(input.document, input.languageId, input.uri);
	const site = siteOf(change, lexer);
	if (!site) {
		return undefined;
	}
	const { removed, inserted } = template;
	const wide = widenToTokens(change);
	const before = wide.oldLine.slice(0, wide.start);
	const after = wide.oldLine.slice(wide.oldEnd);
	if (namesPatternVariable(before, removed, inserted) || modifierChanged(removed, inserted, lexer.syntax.name, input.uri) || declaresParameter(inserted) || proseKeptToItsLine(site, removed, lexer.syntax.name) || testDescriptionReworded(site, change.oldLine, removed, inserted, lexer.syntax.name) || (site.kind !== 'code' && docParameterRenamed(wide.oldLine, wide.start, removed, inserted, lexer.syntax.name))) {
		return undefined;
	}
	const derived = derivedFrom(change, removed, inserted);
	const balance = touchesBrackets(removed, inserted) ? bracketBalance(change.oldLine) : undefined;
	const diamond = diamondOfNew(before, after, removed, inserted);
	const callee = site.kind === 'code' ? boundFrom(before, after, removed, inserted) : undefined;
	const local = replacedLocalScope(input.document, change.line, site.kind, before, removed, inserted);
	const edits = applyTemplate(wordOnly(template, site, wide) ?? template, input, change.line, site, lexer).filter((edit) => {
		const text = input.document.lineText(edit.range.start.line);
		const at = edit.range.start.character;
		const line = edit.range.start.line;
		return holdsAll(text, derived) && (!diamond || afterNew(text, at)) && (balance === undefined || bracketBalance(text) === balance) && (callee === undefined || calleeOfAssignment(text, at) === callee) && (local === undefined || (line >= local.start && line < local.end));
	});
	return edits.length > 0 ? { kind: 'edits', edits } : undefined;
}

/**
 * A rare word of prose or of a string replaced by one word (`occured` to `occurred`, `asDraft` to
 * `castDraft`): the word is the evidence, wherever it stands in the sentence (`An HTTP error
 * occured`, `A Connection error occured`), so its neighbours are not asked for, except two:
 * - a word joined to others by a separator (`/`, `.`, `\`, `-`, `:`) is part of a path or a
 *   compound value (`rack/file`, `text/javascript`, `unstable-dynamic`): it is repeated only beside
 *   the same separator, not as a word of prose (`Matches every file`) or a value of its own (`"dynamic"`);
 * - a capital given to a word's first letter (`since` to `Since`) begins a sentence: that one alone
 *   (a capital taken away, `Expected` to `expected`, is a convention and holds everywhere).
 */
function wordOnly(template: Template, site: Site, change: SingleLineChange): Template | undefined {
	const { removed, inserted } = template;
	if (site.kind === 'code' || !site.rare || !isIdentifier(removed) || !isIdentifier(inserted) || capitalized(removed, inserted)) {
		return undefined;
	}
	// A separator between two words: not a sentence's full stop, nor a dash standing alone.
	const { oldLine, start, oldEnd } = change;
	const before = SEPARATORS.test(oldLine.charAt(start - 1)) && /[\p{L}\p{N}_]/u.test(oldLine.charAt(start - 2)) ? oldLine.charAt(start - 1) : '';
	const after = SEPARATORS.test(oldLine.charAt(oldEnd)) && /[\p{L}\p{N}_]/u.test(oldLine.charAt(oldEnd + 1)) ? oldLine.charAt(oldEnd) : '';
	const left = before !== '' ? `(?<=${escapeRegExp(before)})` : '';
	const right = after !== '' ? `(?=${escapeRegExp(after)})` : '';
	return { pattern: new RegExp(`()${left}${NOT_AFTER_IDENTIFIER}${escapeRegExp(removed)}${NOT_BEFORE_IDENTIFIER}${right}`, 'g'), needle: removed, removed, inserted };
}

/** What joins the words of a path or a compound value. */
const SEPARATORS = /^[/.\\:-]$/;

/** Whether `b` is `a` with a capital first letter and nothing else changed (lowering one, as in `Expires` to `expires`, is a convention that holds everywhere). */
export function capitalized(a: string, b: string): boolean {
	return a !== b && a.slice(1) === b.slice(1) && a.charAt(0) === b.charAt(0).toLowerCase();
}

/**
 * The places where `template` applies in the document (except `skipLine`),
 * nearest to the cursor first; only places of the same kind as the edited one
 * (see `Site`: code for code, strings of the same quote, the same call…).
 */
export function applyTemplate(template: Template, input: Pick<EngineInput, 'document' | 'cursor'>, skipLine: number, site: Site, lexer: Lexer): TextEdit[] {
	const { document, cursor } = input;
	const { pattern, needle, removed, inserted } = template;
	const edits: TextEdit[] = [];
	let counts: Map<string, number> | undefined;
	const assigned = () => (counts ??= assignments(document));
	// Outward from the cursor, nearest lines first, until enough places are found.
	const from = Math.min(Math.max(cursor.line, 0), document.lineCount - 1);
	for (let step = 0; step < 2 * document.lineCount && edits.length < MAX_EDITS; step++) {
		const line = step % 2 === 0 ? from + step / 2 : from - (step + 1) / 2;
		if (line === skipLine || line < 0 || line >= document.lineCount) {
			continue;
		}
		const text = document.lineText(line);
		if (text.length > MAX_LINE_LENGTH || !text.includes(needle) || (site.sameLine !== undefined && text.trim() !== site.sameLine)) {
			continue;
		}
		pattern.lastIndex = 0;
		for (let match = pattern.exec(text); match; match = pattern.exec(text)) {
			const at = match.index + match[1]!.length;
			if (match[0].length === 0) {
				pattern.lastIndex++;
			}
			// An insertion already made here (by hand, or an earlier acceptance) is not made twice.
			if (removed === '' && (text.startsWith(inserted, at) || text.slice(0, at).endsWith(inserted.trimEnd()))) {
				continue;
			}
			if (!sameSite(site, text, line, at, document, lexer, assigned)) {
				continue;
			}
			edits.push({ range: { start: { line, character: at }, end: { line, character: at + removed.length } }, newText: inserted });
		}
	}
	return nearestFirst(edits, cursor).slice(0, MAX_EDITS);
}
