/**
 * The site of a repeated transformation: what the edited place is (code, comment, string; the call
 * or declaration whose parentheses hold it; the name a value belongs to…), and whether another place
 * is the same kind of place (`sameSite`), which every place the template is applied to must be.
 */
import { KEYWORDS, isIdentifier, wholeWordColumns } from './identifiers';
import { declarationScope, enclosingBlock, indentOf, opensBlock, type LineSpan } from './scope';
import { widenToTokens, type SingleLineChange } from './lineChange';
import { similarNames, wordsOf } from './renamePropagation';
import { reassignedInScope } from './assignments';
import { declaresMember } from './members';
import { redeclaresLocal } from './locals';
import type { Lexer, TokenKind } from './syntax';
import type { TextLines } from './types';

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
	/** The edit is in a function's head, after its name (`def initialize tempfile`, `func (r *R) Set(`): only other heads; and not, when outside one. */
	readonly head: boolean;
	/** An attribute's or annotation's name changed (`#[clap(` to `#[arg(`, `@Before`): the indentation of its line, which other places must share. */
	readonly attribute: number | undefined;
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
	const member = kind === 'code' && isIdentifier(removed.trim()) && isIdentifier(inserted.trim()) && declaresMember(oldLine, start, wide.oldEnd, lexer.syntax.name);
	if ((declares && isIdentifier(removed.trim())) || member || (oldLine.slice(0, start).trim() === '' && /^[\s:{]*$/.test(oldLine.slice(wide.oldEnd)) && opensBlock(oldLine))) {
		return undefined;
	}
	// A name given to a function or class (`function () {` to `function load() {`) names that one alone.
	if (/^[\p{L}_$][\p{L}\p{N}_$]*$/u.test(inserted.trim()) && removed.trim() === '' && /(?:^|[^\w$])(?:function\*?|def|class|fn|func)\s*$/.test(oldLine.slice(0, start))) {
		return undefined;
	}
	// A negation added or taken away (`should set` to `should not set`, `it "not set …"` to `it "set …"`) turns a
	// statement into its opposite: true of this one, not of its neighbours.
	const negation = /^(?:not|no|never|n't|don't|doesn't|cannot|can't|won't|isn't)$/i;
	if (kind !== 'code' && ((negation.test(inserted.trim()) && removed.trim() === '') || (negation.test(removed.trim()) && inserted.trim() === ''))) {
		return undefined;
	}
	// So does a name or a value turned into its opposite (`Containsf` to `NotContainsf`, `true` to `false`):
	// what one assertion or one setting expects, not what its neighbours do.
	if (kind === 'code' && oppositeNames(removed.trim(), inserted.trim())) {
		return undefined;
	}
	// A local given another name where it is declared (`app := testApp()` to `cmd := testFishCommand()`) is that function's own.
	if (redeclaresLocal(wide.oldLine, wide.newLine, start, wide.oldEnd)) {
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
	return { kind, path, prose, firstWord: firstWord(oldLine), rare: kind !== 'code' && rareWords(removed, lexer), parens, owner, unusedBinding, sameLine: commentsOut ? oldLine.trim() : undefined, constant, removal: inserted === '' && removed !== '', unbound, head: kind === 'code' && inHead(oldLine, start), attribute: kind === 'code' && ATTRIBUTE_NAME.test(oldLine.slice(0, start)) ? indentOf(oldLine) : undefined };
}

/** The text before an attribute's or annotation's name at the start of a line: Rust's `#[`, `@` (Java, Kotlin, C#'s `[`, PHP's `#[`). */
const ATTRIBUTE_NAME = /^\s*(?:#!?\[|@|\[)\s*$/;

/**
 * Whether `column` is in a function's head after its name: a line that begins with a declaring
 * keyword (after modifiers), as `def initialize tempfile`, `pub fn f(`, `func (r *R) Set(`,
 * `function f(`. A change of parameters there (Ruby's parentheses added) is a change of
 * declarations, which calls are not (but a parameter removed there is removed at the calls too),
 * and the other way round.
 */
function inHead(line: string, column: number): boolean {
	return /^\s*(?:[\w()]+\s+)*?(?:def|fn|func|fun|function)(?![\p{L}\p{N}_$])\s*(?:\([^()]*\)\s*)?[\p{L}_$][\p{L}\p{N}_$.!?]*/u.test(line.slice(0, column));
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
	// An attribute names what the item it stands on is: the same name on an item nested deeper or
	// less deep (a struct's `#[clap(…)]` and its fields') is another kind of attribute.
	if (site.attribute !== undefined && indentOf(text) !== site.attribute) {
		return false;
	}
	// A parameter removed where the function is declared may go at its calls too (`sameParens`).
	const head = inHead(text, at);
	if ((site.head && !head && !site.removal) || (!site.head && head) || !sameParens(site, parensOf(text, at))) {
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

/** Words that turn a name into its opposite when added or taken away (`NotContains`, `no_verify`, `nonEmpty`). */
const NEGATIONS: ReadonlySet<string> = new Set(['not', 'no', 'non', 'never']);
/** Words that turn a name into its opposite when swapped for each other (`is_ok` and `is_err`, `assert_eq` and `assert_ne`). */
const OPPOSITES: readonly (readonly [string, string])[] = [['true', 'false'], ['ok', 'err'], ['eq', 'ne'], ['some', 'none']];

/** Whether two names say opposite things: one is the other with a negation added, or with one word swapped for its opposite. */
export function oppositeNames(a: string, b: string): boolean {
	if (!isIdentifier(a) || !isIdentifier(b)) {
		return false;
	}
	const wa = wordsOf(a);
	const wb = wordsOf(b);
	const [long, short] = wa.length > wb.length ? [wa, wb] : [wb, wa];
	if (long.length === short.length + 1) {
		return long.some((word, i) => NEGATIONS.has(word) && [...long.slice(0, i), ...long.slice(i + 1)].join(' ') === short.join(' '));
	}
	if (wa.length !== wb.length) {
		return false;
	}
	const differ = wa.flatMap((word, i) => (word === wb[i] ? [] : [[word, wb[i]!].sort().join(' ')]));
	return differ.length === 1 && OPPOSITES.some((pair) => [...pair].sort().join(' ') === differ[0]);
}
