/**
 * Repeated transformation: the user's last edit of a line, with its common
 * prefix and suffix trimmed (`var ` to `const `, an added `await `, a new
 * argument), becomes a template; other lines of the document that share its
 * anchors (the tokens around the change) get the same edit, nearest first.
 *
 * Built to be precise rather than eager: the anchors are literal where the
 * change itself says little (an insertion, one identifier replaced by
 * another), a template must name at least one identifier or keyword, and a
 * whitespace-only edit is never repeated.
 */
import { KEYWORDS, escapeRegExp, isIdentifier, isIdentifierChar, wholeWordColumns } from './identifiers';
import { declarationScope, enclosingBlock, opensBlock, type LineSpan } from './scope';
import { exampleChange, MAX_LINE_LENGTH, widenToTokens, type SingleLineChange } from './lineChange';
import { nearestFirst, similarNames } from './renamePropagation';
import { afterNew, bracketBalance, declaresParameter, derivedFrom, diamondOfNew, holdsAll, modifierChanged, proseKeptToItsLine, touchesBrackets } from './lineSpecific';
import { lexerOf, type Lexer, type TokenKind } from './syntax';
import type { EditsProposal, EngineInput, TextEdit, TextLines } from './types';

/** At most this many places are proposed. */
const MAX_EDITS = 200;
/** A template changes a few tokens; a rewrite of most of a line is not an example of anything. */
const MAX_REMOVED_TOKENS = 4;
const MAX_INSERTED_TOKENS = 8;
/** A new argument is anchored by the function it is passed to, so it may be longer. */
const MAX_ARGUMENT_TOKENS = 16;

const IDENTIFIER = '[A-Za-z_$\\u00C0-\\uFFFF][\\w$\\u00C0-\\uFFFF]*';
const NUMBER = '[0-9][\\w$.]*';
const NOT_AFTER_IDENTIFIER = '(?<![\\w$\\u00C0-\\uFFFF])';
const NOT_BEFORE_IDENTIFIER = '(?![\\w$\\u00C0-\\uFFFF])';
const DECLARATION_KEYWORDS = '(?:function|def|fn|func|void|async)';

interface Token {
	readonly text: string;
	readonly identifier: boolean;
	/** Whitespace separates it from the token before it. */
	readonly spaced: boolean;
}

function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	let spaced = false;
	while (i < text.length) {
		const code = text.charCodeAt(i);
		if (code === 0x20 || code === 0x09) {
			spaced = true;
			i++;
			continue;
		}
		let end = i + 1;
		const identifier = isIdentifierChar(code);
		if (identifier) {
			while (end < text.length && isIdentifierChar(text.charCodeAt(end))) {
				end++;
			}
		}
		tokens.push({ text: text.slice(i, end), identifier, spaced });
		spaced = false;
		i = end;
	}
	return tokens;
}

/** A template ready to be matched against lines. */
export interface Template {
	/** Matches one place; group 1 is the text before the replaced span. */
	readonly pattern: RegExp;
	/** A string every matching line contains (a fast filter before the expression). */
	readonly needle: string;
	readonly removed: string;
	readonly inserted: string;
}

/** The template the burst's change makes, or `undefined` when it is not one worth repeating. */
export function templateOf(change: SingleLineChange): Template | undefined {
	const { oldLine, newLine, start, oldEnd, newEnd } = widenToTokens(change);
	const removed = oldLine.slice(start, oldEnd);
	const inserted = newLine.slice(start, newEnd);
	if (removed.trim() === '' && inserted.trim() === '') {
		return undefined;
	}
	const removedTokens = tokenize(removed).length;
	const insertedTokens = tokenize(inserted).length;
	const before = oldLine.slice(0, start);
	const after = oldLine.slice(oldEnd);
	const leftTokens = tokenize(before);
	const rightTokens = tokenize(after);
	const spacedBefore = /[ \t]$/.test(before);
	const spacedAfter = /^[ \t]/.test(after);
	// Identifiers or keywords the template names: without one it is too vague to repeat.
	const literals: string[] = [];
	const anchorLiterals: string[] = [];
	if (/[\p{L}_$]/u.test(removed) || /[\p{L}_$]/u.test(inserted)) {
		literals.push(removed.trim() || inserted.trim());
	}

	// A new last argument: `f(a, b)` to `f(a, b, c)` repeats on every call of `f` that has arguments.
	const call = removed === '' && inserted.trimStart().startsWith(',') && rightTokens[0]?.text === ')' ? callee(before) : undefined;
	// A new parameter where the function is declared (`function f(a: T)` to `f(a: T, b: U)`) says nothing
	// about its calls, which get a value, not `b: U`: silent.
	if (call !== undefined && (new RegExp(`${DECLARATION_KEYWORDS}[ \\t]+${escapeRegExp(call)}\\s*\\($`).test(before.slice(0, before.lastIndexOf('(') + 1)) || /^\s*,\s*[\w$]+\??\s*:/.test(inserted))) {
		return undefined;
	}
	if (call !== undefined && insertedTokens <= MAX_ARGUMENT_TOKENS) {
		// Not where the function is declared (`function f(a: T)`): only calls.
		const left = `${NOT_AFTER_IDENTIFIER}(?<!${DECLARATION_KEYWORDS}[ \\t]+)${escapeRegExp(call)}\\s*\\([^()]*[^()\\s]`;
		return { pattern: new RegExp(`(${left})(?=\\s*\\)(?!\\s*(?:[{:]|=>)))`, 'g'), needle: call, removed, inserted };
	}

	// A first argument: `f()` to `f(x)` repeats at the calls of `f` that have none (not where `f` is declared).
	const first = removed === '' && rightTokens[0]?.text === ')' ? /(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*\(\s*$/.exec(before)?.[1] : undefined;
	if (first !== undefined && !KEYWORDS.has(first) && insertedTokens <= MAX_ARGUMENT_TOKENS && /[\p{L}_$]/u.test(inserted)) {
		if (new RegExp(`${DECLARATION_KEYWORDS}[ \\t]+${escapeRegExp(first)}\\s*\\($`).test(before.trimEnd()) || /^\s*[\w$]+\??\s*:/.test(inserted)) {
			return undefined;
		}
		const left = `${NOT_AFTER_IDENTIFIER}(?<!${DECLARATION_KEYWORDS}[ \\t]+)(?<![.\\w$])${escapeRegExp(first)}\\s*\\([ \\t]*`;
		return { pattern: new RegExp(`(${left})(?=\\)(?!\\s*(?:[{:]|=>)))`, 'g'), needle: `${first}(`, removed, inserted };
	}

	if (removedTokens > MAX_REMOVED_TOKENS || insertedTokens > MAX_INSERTED_TOKENS) {
		return undefined;
	}

	const identifierSwap = isIdentifier(removed) && isIdentifier(inserted) && !KEYWORDS.has(removed) && !KEYWORDS.has(inserted);
	// How many tokens anchor each side, and whether identifiers among them are kept literally.
	let leftCount = removed === '' || identifierSwap ? 2 : 1;
	let rightCount = removed === '' ? 2 : 1;
	// Anchors that name nothing (`X, e` to `X as e`: any name, a comma, any name) match far too much:
	// one more token on each side, keywords kept as they are (`except X, e:` lines only).
	const names = (tokens: Token[]) => tokens.some((t) => t.identifier && !KEYWORDS.has(t.text));
	const nearLiteral = removed === '' || identifierSwap;
	let widened = false;
	if (!nearLiteral && !identifierSwap && !names(tokenize(removed)) && !names(tokenize(inserted)) && !leftTokens.slice(-leftCount).concat(rightTokens.slice(0, rightCount)).some((t) => t.identifier && KEYWORDS.has(t.text))) {
		leftCount++;
		rightCount++;
		widened = true;
	}
	const literalNear = removed === '' || identifierSwap;
	const literalFar = identifierSwap;

	const anchor = (tokens: Token[], near: 'last' | 'first', count: number): string | undefined => {
		const picked = near === 'last' ? tokens.slice(-count) : tokens.slice(0, count);
		if (picked.length === 0) {
			return undefined;
		}
		let out = '';
		picked.forEach((token, index) => {
			const isNear = near === 'last' ? index === picked.length - 1 : index === 0;
			const named = !token.identifier || (isNear ? literalNear : literalFar);
			// Keywords are the code's structure, never a name: always literal.
			const literal = named || KEYWORDS.has(token.text);
			if (named && token.identifier) {
				literals.push(token.text);
				anchorLiterals.push(token.text);
			}
			const piece = literal ? escapeRegExp(token.text) : widened && /^[0-9]/.test(token.text) ? NUMBER : IDENTIFIER;
			if (index > 0) {
				const previous = picked[index - 1]!;
				out += token.spaced ? (previous.identifier && token.identifier ? '[ \\t]+' : '[ \\t]*') : '';
			}
			out += piece;
		});
		return out;
	};

	const leftAnchor = anchor(leftTokens, 'last', leftCount);
	const rightAnchor = anchor(rightTokens, 'first', rightCount);
	// An insertion is placed by its anchors alone: they must name something.
	if (literals.length === 0 || (removed === '' && anchorLiterals.length === 0)) {
		return undefined;
	}
	let left: string;
	if (leftAnchor === undefined) {
		left = '^[ \\t]*';
	} else {
		const first = leftTokens.slice(-leftCount)[0]!;
		const bounded = first.identifier ? NOT_AFTER_IDENTIFIER : '';
		const fewer = leftTokens.length < leftCount ? '^[ \\t]*' : '';
		left = `${fewer}${bounded}${leftAnchor}${spacedBefore ? '[ \\t]+' : ''}`;
	}
	let right: string;
	if (rightAnchor === undefined) {
		right = '[ \\t]*$';
	} else {
		const picked = rightTokens.slice(0, rightCount);
		const last = picked[picked.length - 1]!;
		const fewer = rightTokens.length < rightCount ? '[ \\t]*$' : '';
		right = `${spacedAfter ? '[ \\t]+' : ''}${rightAnchor}${last.identifier ? NOT_BEFORE_IDENTIFIER : ''}${fewer}`;
	}
	const startsWord = removed !== '' && isIdentifierChar(removed.charCodeAt(0)) ? NOT_AFTER_IDENTIFIER : '';
	const endsWord = removed !== '' && isIdentifierChar(removed.charCodeAt(removed.length - 1)) ? NOT_BEFORE_IDENTIFIER : '';
	const pattern = new RegExp(`(${left})${startsWord}${escapeRegExp(removed)}${endsWord}(?=${right})`, 'g');
	const needle = removed !== '' ? removed : longest(anchorLiterals);
	return { pattern, needle, removed, inserted };
}

/** The function called by the innermost unclosed `(` of `text`, if its arguments so far hold no parentheses. */
function callee(text: string): string | undefined {
	const open = text.lastIndexOf('(');
	if (open === -1 || text.indexOf(')', open) !== -1 || text.slice(open + 1).trim() === '') {
		return undefined;
	}
	const name = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(0, open))?.[1];
	return name !== undefined && !KEYWORDS.has(name) ? name : undefined;
}

function longest(texts: readonly string[]): string {
	return texts.reduce((a, b) => (b.length > a.length ? b : a), '');
}

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
	if (modifierChanged(removed, inserted, lexer.syntax.name) || declaresParameter(inserted) || proseKeptToItsLine(site, lexer.syntax.name)) {
		return undefined;
	}
	const wide = widenToTokens(change);
	const derived = derivedFrom(change, removed, inserted);
	const balance = touchesBrackets(removed, inserted) ? bracketBalance(change.oldLine) : undefined;
	const diamond = diamondOfNew(wide.oldLine.slice(0, wide.start), wide.oldLine.slice(wide.oldEnd), removed, inserted);
	const edits = applyTemplate(wordOnly(template, site) ?? template, input, change.line, site, lexer).filter((edit) => {
		const text = input.document.lineText(edit.range.start.line);
		return holdsAll(text, derived) && (!diamond || afterNew(text, edit.range.start.character)) && (balance === undefined || bracketBalance(text) === balance);
	});
	return edits.length > 0 ? { kind: 'edits', edits } : undefined;
}

/**
 * A rare word of prose replaced by one word (`occured` to `occurred`): the word is the evidence,
 * wherever it stands in the sentence (`An HTTP error occured`, `A Connection error occured`), so
 * its neighbours are not asked for.
 */
function wordOnly(template: Template, site: Site): Template | undefined {
	const { removed, inserted } = template;
	if (site.kind === 'code' || !site.rare || !isIdentifier(removed) || !isIdentifier(inserted)) {
		return undefined;
	}
	return { pattern: new RegExp(`()${NOT_AFTER_IDENTIFIER}${escapeRegExp(removed)}${NOT_BEFORE_IDENTIFIER}`, 'g'), needle: removed, removed, inserted };
}

/** A line that is a comment (or a comment's continuation) in the common languages. */
export function isCommentLine(text: string): boolean {
	return /^\s*(?:\/\/|#(?![!\[])|\/?\*|<!--|--\s|;)/.test(text);
}

/**
 * What the edited place is, which every other place must also be: the kind of text (code, comment,
 * doc comment, string by quote), the call or declaration whose parentheses hold it, the name a
 * changed value belongs to, and the line itself when the edit comments it out.
 */
export interface Site {
	readonly kind: TokenKind;
	/** The edit is inside a URL or a path in text: any text kind will do, code still not. */
	readonly path: boolean;
	/** The edit is in a comment or in a string with spaces: a sentence. */
	readonly prose: boolean;
	/** The first word of the edited line: in prose, the other lines must begin with it too… */
	readonly firstWord: string | undefined;
	/** …unless the words removed occur on few lines (a misspelling, a rare name). */
	readonly rare: boolean;
	/** Inside parentheses: `call f` (only calls of `f`) or `declaration` (only other declarations' parameters). */
	readonly parens: string | undefined;
	/** A value changed (`= None` to `= ''`, `: any` to `: string`): the name it is assigned to, or undefined. */
	readonly owner: string | undefined;
	/** The edit comments the line out: only lines that read the same, trimmed. */
	readonly sameLine: string | undefined;
	/** `let`/`var` made `const`: not where the variable is assigned again. */
	readonly constant: boolean;
	/** A binding (`as e`) removed: the name, which must be unused in the block of the other places too. */
	readonly unusedBinding: string | undefined;
	/** Text removed, nothing inserted. */
	readonly removal: boolean;
	/** Names removed where they are bound (`const { a, b } = x` to `const { a } = x`): each other place must not use them in its block. */
	readonly unbound: readonly string[];
}

export function siteOf(change: SingleLineChange, lexer: Lexer): Site | undefined {
	const wide = widenToTokens(change);
	const { oldLine, start } = wide;
	const removed = oldLine.slice(start, wide.oldEnd);
	const inserted = change.newLine.slice(start, wide.newEnd);
	const kind = lexer.kindOfText(change.line, oldLine, start);
	// A preprocessor condition (`#if NET45`) says where its own block compiles; other conditions differ on purpose.
	if (kind === 'directive') {
		return undefined;
	}
	const parens = kind === 'code' ? parensOf(oldLine, start) : undefined;
	// Parameters of an anonymous function (a callback, `x = function (a)`) belong to that function alone.
	if (parens === 'anonymous') {
		return undefined;
	}
	// Names imported in one import line come from its module: adding or removing one is not repeated at other imports.
	if (kind === 'code' && inImportedNames(oldLine, start) && !/#|\/\//.test(removed + inserted)) {
		return undefined;
	}
	const commentsOut = removed === '' && /^(?:#|\/\/)\s*$/.test(inserted.trim() === '' ? 'x' : inserted.trimEnd() + ' ') && oldLine.slice(0, start).trim() === '';
	const constant = /^(?:let|var)$/.test(removed.trim()) && inserted.trim() === 'const';
	// A function or class renamed where it is declared: its uses follow (rename propagation); another
	// declaration of the old name is another thing. A whole line that opens a block rewritten (`try:` to
	// `if …:`) changes the block's structure, which is done by hand.
	const declares = /(?:^|[^\w$])(?:function\*?|def|class|fn|func)\s+$/.test(oldLine.slice(0, start));
	if ((declares && isIdentifier(removed.trim())) || (oldLine.slice(0, start).trim() === '' && /^[\s:{]*$/.test(oldLine.slice(wide.oldEnd)) && opensBlock(oldLine))) {
		return undefined;
	}
	// A name given to a function or class (`function () {` to `function load() {`) names that one alone.
	if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(inserted.trim()) && removed.trim() === '' && /(?:^|[^\w$])(?:function\*?|def|class|fn|func)\s*$/.test(oldLine.slice(0, start))) {
		return undefined;
	}
	// A negation (`should set` to `should not set`) turns a statement into its opposite: true of this one, not of its neighbours.
	if (kind !== 'code' && /^(?:not|no|never|n't|don't|doesn't|cannot|can't|won't|isn't)$/i.test(inserted.trim()) && removed.trim() === '') {
		return undefined;
	}
	// A binding removed (`except E as e:` to `except E:`) because this block does not use it: only where the name is unused too.
	const unusedBinding = kind === 'code' && inserted.trim() === '' ? /^\s*as\s+([\p{L}_$][\p{L}\p{N}_$]*)\s*$/u.exec(removed)?.[1] : undefined;
	// A URL or a path reads the same in a comment, a doc comment or any string: those kinds count as one there.
	const word = /\S*$/.exec(oldLine.slice(0, start))![0] + removed + /^\S*/.exec(oldLine.slice(wide.oldEnd))![0];
	const path = kind !== 'code' && /[\w-][/.][\w-]/.test(word.replace(/[.,;:!?)'"`]+$/, ''));
	// A string value (not a sentence, not a URL) under a key (`"when": "…"`, `{'k': '…'}`) belongs to that key.
	const owner = kind === 'code' && (isValue(removed) || isValue(inserted)) ? ownerOf(oldLine, start) : kind.startsWith('string') && !word.includes('/') ? ownerOf(oldLine, start, true) : undefined;
	// A string with no space in it is a value (a name, a key, a file), not a sentence.
	const quote = kind.startsWith('string') ? kind.charAt(kind.length - 1) : undefined;
	const prose = kind !== 'code' && !(quote !== undefined && word.split(quote).length >= 3);
	// Names dropped on the left of an assignment, nothing named in their place.
	const assignsAfter = /(?<![=!<>])=(?![=>])/;
	const unbound = kind === 'code' && parens === undefined && !/[\p{L}_$]/u.test(inserted) && assignsAfter.test(oldLine.slice(wide.oldEnd)) && !assignsAfter.test(oldLine.slice(0, start)) ? (removed.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []).filter((name) => !KEYWORDS.has(name)) : [];
	return { kind, path, prose, firstWord: firstWord(oldLine), rare: kind !== 'code' && rareWords(removed, lexer), parens, owner, unusedBinding, sameLine: commentsOut ? oldLine.trim() : undefined, constant, removal: inserted === '' && removed !== '', unbound };
}

/** Whether `column` of an import line is among the names it imports (`import { a, b } from`, `from m import a, b`), not its module. */
function inImportedNames(line: string, column: number): boolean {
	const js = /^\s*import\s+(?:type\s+)?(.*?)\s+from\s/.exec(line);
	if (js) {
		return column < js[0].length - 5 && column >= line.indexOf('import') + 6;
	}
	const py = /^\s*from\s+\S+\s+import\s/.exec(line);
	return py !== null && column >= py[0].length - 1;
}

/** The first two words (letters and digits) of a line: how a sentence, or a `:param name:` line, begins. */
function firstWord(text: string): string | undefined {
	return (text.match(/[\p{L}\p{N}_]+/gu) ?? []).slice(0, 2).join(' ');
}

/** Lines of the document at most that may hold the words removed for them to count as rare. */
const RARE_LINES = 3;

/** Whether `removed` holds a word of four letters or more found on at most `RARE_LINES` lines of the document. */
function rareWords(removed: string, lexer: Lexer): boolean {
	const words = removed.match(/[\p{L}\p{N}_]{4,}/gu) ?? [];
	return words.some((word) => lexer.linesWith(word, RARE_LINES + 1) <= RARE_LINES);
}

/** Literals and keyword values only (`None`, `'/'`, `789`, `{}`, `any`, ` | None`): a value, not code naming something. */
function isValue(text: string): boolean {
	const t = text.trim();
	if (t === '') {
		return false;
	}
	const words = t.replace(/(['"`])(?:\\.|(?!\1).)*\1/g, ' ').match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
	return words.every((w) => VALUE_WORDS.has(w));
}

const VALUE_WORDS: ReadonlySet<string> = new Set('None True False null undefined true false nil NaN any unknown never void string number boolean object int str float bool bytes dict list'.split(' '));

/**
 * The name a value at `column` is given to: the identifier or string key before the nearest `=`
 * or `:` (not `==`, `=>` or `::`) left of it on the line, as in `name = value`, `key: value`,
 * `{'key': value}`, `f(name=value)`.
 */
export function ownerOf(line: string, column: number, keysOnly = false): string | undefined {
	const before = line.slice(0, column);
	const at = keysOnly ? before.search(/['"\w$][?]?\s*:(?!:)[^=:]*$/) : before.search(/(?:[^=!<>:]=(?![=>])|[^:]:(?!:))[^=:]*$/);
	if (at === -1) {
		return undefined;
	}
	const head = before.slice(0, at + 1).trimEnd();
	const m = /(?:([\p{L}\p{N}_$]+)|(['"])([^'"]*)\2)[?!]?\s*(?:\]\s*)?$/u.exec(head);
	return m ? (m[1] ?? m[3]) : undefined;
}

/**
 * The role of the parentheses around `column`: `call NAME` inside a call of NAME, `declaration`
 * inside a named function's parameters, `anonymous` inside an anonymous function's, undefined outside any.
 */
export function parensOf(line: string, column: number): string | undefined {
	let depth = 0;
	for (let i = column - 1; i >= 0; i--) {
		const c = line.charCodeAt(i);
		if (c === 0x29) {
			depth++;
		} else if (c === 0x28) {
			if (depth > 0) {
				depth--;
				continue;
			}
			const head = line.slice(0, i);
			if (/(?:^|[^\w$])(?:function\*?|lambda)\s*$/.test(head)) {
				return 'anonymous';
			}
			const declared = /(?:^|[^\w$])(?:def|function\*?|fn|func|class)\s+([\w$]+)\s*(?:<[^()]*>)?\s*$/.exec(head) ?? (/\)\s*(?::[^=]*)?\{\s*$/.test(line) ? /^\s*(?:(?:public|private|protected|static|async|override|readonly)\s+)*(?!(?:if|for|while|switch|catch|with)\b)([\w$]+)\s*$/.exec(head) : null);
			if (declared) {
				return `declaration ${declared[1]!}`;
			}
			const name = /([\p{L}_$][\p{L}\p{N}_$]*)\s*$/u.exec(head)?.[1];
			return name !== undefined && !KEYWORDS.has(name) ? `call ${name}` : undefined;
		}
	}
	return undefined;
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

/**
 * Inside parentheses: another declaration's parameters for a declaration's (and, for a parameter
 * removed, the calls of that function), calls of the same function or one named alike for a call's
 * (`do_teardown_request`, `do_teardown_appcontext`). Outside: anywhere but an anonymous function's parameters.
 */
function sameParens(site: Site, parens: string | undefined): boolean {
	if (site.parens === undefined) {
		return parens !== 'anonymous';
	}
	if (parens === undefined) {
		return false;
	}
	const [role, name = ''] = site.parens.split(' ');
	const [otherRole, otherName = ''] = parens.split(' ');
	if (role === 'declaration') {
		return otherRole === 'declaration' || (site.removal && otherRole === 'call' && otherName.toLowerCase() === name.toLowerCase());
	}
	return otherRole === 'call' && (otherName === name || similarNames(otherName, name));
}

export function sameSite(site: Site, text: string, line: number, at: number, document: TextLines, lexer: Lexer, assigned: () => Map<string, number>): boolean {
	const kind = lexer.kindAt(line, at);
	if (kind !== site.kind && !(site.path && kind !== 'code')) {
		return false;
	}
	if (site.kind !== 'code') {
		if (site.owner !== undefined && ownerOf(text, at, true) !== site.owner) {
			return false;
		}
		// Prose: the same words say different things in different sentences (`:param data:` and
		// `:param params:`). Only lines that begin with the same word, unless the words replaced are rare
		// enough to be a mistake of their own (a misspelling), or it is a URL or a path.
		return site.path || !site.prose || site.rare || firstWord(text) === site.firstWord;
	}
	if (!sameParens(site, parensOf(text, at))) {
		return false;
	}
	if (site.owner !== undefined && ownerOf(text, at) !== site.owner) {
		return false;
	}
	if (site.unbound.length > 0 && usedOn(document, enclosingBlock(document, line), site.unbound, line)) {
		return false;
	}
	if (site.unusedBinding !== undefined && usedOn(document, { start: line + 1, end: declarationScope(document, line, true).end }, [site.unusedBinding])) {
		return false;
	}
	if (site.constant) {
		// The declaration's own line assigns it once; another line assigning it where the declaration holds means it varies.
		const name = /^\s*(?:let|var)\s+([\p{L}_$][\p{L}\p{N}_$]*)/u.exec(text)?.[1];
		if (name !== undefined && (assigned().get(name) ?? 0) > (/=/.test(text.slice(text.indexOf(name) + name.length)) ? 1 : 0) && reassignedInScope(document, line, name)) {
			return false;
		}
	}
	return true;
}

/** Whether a line of `span` (but `except`) uses one of `names` as a whole word. */
function usedOn(document: TextLines, span: LineSpan, names: readonly string[], except?: number): boolean {
	for (let i = span.start; i < span.end; i++) {
		if (i !== except && names.some((name) => wholeWordColumns(document.lineText(i), name).length > 0)) {
			return true;
		}
	}
	return false;
}

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
function reassignedInScope(document: TextLines, line: number, name: string): boolean {
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
