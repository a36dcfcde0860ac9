/**
 * The lexer's scan of one line (`syntax.ts`): from the state the line starts in, by the language's
 * table (`syntaxTables.ts`), the kind of the place reached and the state the next line starts in.
 */
import { isIdentifierChar } from './identifiers';
import type { Syntax } from './syntaxTables';

/**
 * What a place of the text is. Strings are told apart by their quote: an edit in `'…'` repeats in
 * `'…'`; C#'s verbatim and Rust's raw strings count as `"`, heredocs as `"""`.
 */
export type TokenKind = 'code' | 'comment' | 'doc' | 'directive' | "string'" | 'string"' | 'string`' | "string'''" | 'string"""';

/**
 * Where a line starts: `code`, or inside a construct that spans lines: `block`, `doc`, `bq`
 * (backquotes), `'''`, `"""`, `verbatim`, `raw` plus its hashes (`raw##`), `heredoc:` plus its
 * terminator, `begin` (Ruby's `=begin`), `dq` (a plain `"…"` string left open, where the table's
 * `spanning` lets it run on).
 */
export type Open = string;

const OPEN_KIND: Readonly<Record<string, TokenKind>> = {
	code: 'code',
	block: 'comment',
	doc: 'doc',
	bq: 'string`',
	"'''": "string'''",
	'"""': 'string"""',
	verbatim: 'string"',
	dq: 'string"',
	begin: 'comment',
};

function kindOfOpen(open: Open): TokenKind {
	return OPEN_KIND[open] ?? (open.startsWith('raw') ? 'string"' : 'string"""');
}

const specials = new WeakMap<Syntax, RegExp>();

/** Characters that can start a comment, a string or a heredoc: a line without any stays in the state it starts in. */
export function special(syntax: Syntax): RegExp {
	let re = specials.get(syntax);
	if (!re) {
		re = syntax.beginEnd ? /['"`#/*<]|^=begin/ : syntax.heredoc !== 'none' ? /['"`#/*<]/ : /['"`#/*]/;
		specials.set(syntax, re);
	}
	return re;
}

const DIRECTIVE = /^\s*#\s*(?:if|elif|else|endif|region|endregion|define|undef|pragma|nullable|warning|error|line)\b/;
const RUBY_HEREDOC = /^<<([~-]?)(['"`]?)([A-Za-z_]\w*)\2/y;
const PHP_HEREDOC = /^<<<[ \t]*(['"]?)([A-Za-z_]\w*)\1/;

/** Lines whose state is decided by the whole line: inside a heredoc or `=begin`, or a directive. */
function wholeLine(text: string, open: Open, until: number, syntax: Syntax): { kind: TokenKind; open: Open } | undefined {
	if (open === 'begin') {
		return { kind: 'comment', open: /^=end\b/.test(text) ? 'code' : 'begin' };
	}
	if (open.startsWith('heredoc:')) {
		const word = open.slice(8);
		const at = text.search(/\S/);
		if (at !== -1 && text.startsWith(word, at) && !isIdentifierChar(text.charCodeAt(at + word.length))) {
			return { kind: until <= at + word.length ? 'string"""' : 'code', open: 'code' };
		}
		return { kind: 'string"""', open };
	}
	if (open === 'code' && syntax.beginEnd && /^=begin\b/.test(text)) {
		return { kind: 'comment', open: 'begin' };
	}
	if (open === 'code' && syntax.directives && DIRECTIVE.test(text)) {
		return { kind: 'directive', open: 'code' };
	}
	return undefined;
}

/** A heredoc opened at `i` of a code line: its terminator and the opener's length. */
function heredocAt(text: string, i: number, syntax: Syntax): { word: string; length: number } | undefined {
	if (syntax.heredoc === 'php') {
		const m = PHP_HEREDOC.exec(text.slice(i, i + 80));
		return m ? { word: m[2]!, length: m[0].length } : undefined;
	}
	RUBY_HEREDOC.lastIndex = 0;
	const m = RUBY_HEREDOC.exec(text.slice(i, i + 80));
	if (!m) {
		return undefined;
	}
	// A bare `<<WORD` is a heredoc only as an argument or a value (`puts <<EOS`, `x = <<EOS`), in capitals; `a << B` shifts.
	const before = text.slice(0, i).trimEnd();
	if (m[1] === '' && (!/^[A-Z_][A-Z0-9_]*$/.test(m[3]!) || !/(?:^|[\s(,=]|[\w?!]\s)$/.test(text.slice(0, i)) || /[\w)\]]$/.test(before) && !/\s$/.test(text.slice(0, i)))) {
		return undefined;
	}
	return { word: m[3]!, length: m[0].length };
}

const starters = new WeakMap<Syntax, Uint8Array>();

/** The characters that may start something in code, by the table: any other is passed at once. */
function startersOf(syntax: Syntax): Uint8Array {
	let table = starters.get(syntax);
	if (!table) {
		table = new Uint8Array(128);
		const chars = syntax.lineComments.map((o) => o[0]).join('') + '/\'"`' + (syntax.verbatim ? '@$' : '') + (syntax.rawHash ? 'rb' : '') + (syntax.heredoc !== 'none' ? '<' : '');
		for (const c of chars) {
			table[c.charCodeAt(0)] = 1;
		}
		starters.set(syntax, table);
	}
	return table;
}

/** Code state at `i`: what starts here, if anything (the new state, or a quote, and how far to move). */
function startsAt(text: string, i: number, syntax: Syntax): { open?: Open; quote?: number; line?: true; heredoc?: string; skip: number } | undefined {
	const c = text.charCodeAt(i);
	const next = text.charCodeAt(i + 1);
	for (const opener of syntax.lineComments) {
		if (text.startsWith(opener, i) && !(opener === '#' && syntax.hashAttribute && next === 0x5b)) {
			return { line: true, skip: 1 };
		}
	}
	if (c === 0x2f && next === 0x2a && syntax.blockComments) {
		return { open: text.charCodeAt(i + 2) === 0x2a && text.charCodeAt(i + 3) !== 0x2f ? 'doc' : 'block', skip: 2 };
	}
	if ((c === 0x27 || c === 0x22) && syntax.triple.includes(text[i]!) && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) {
		return { open: c === 0x27 ? "'''" : '"""', skip: 3 };
	}
	if (syntax.verbatim && (c === 0x40 || c === 0x24)) {
		const opener = /^(?:@\$?|\$@)"/.exec(text.slice(i, i + 3));
		return opener ? { open: 'verbatim', skip: opener[0].length } : undefined;
	}
	if (syntax.rawHash && (c === 0x72 || (c === 0x62 && next === 0x72)) && (i === 0 || !isIdentifierChar(text.charCodeAt(i - 1)))) {
		const raw = /^b?r(#*)"/.exec(text.slice(i, i + 12));
		return raw ? { open: `raw${raw[1]!}`, skip: raw[0].length } : undefined;
	}
	if (c === 0x27 && syntax.singleQuote === 'charOrLifetime') {
		// `'a'`, `'\n'`: a character; `'a` (a lifetime, a label) is code.
		return next === 0x5c || text.charCodeAt(i + 2) === 0x27 ? { quote: c, skip: 1 } : { skip: 1 };
	}
	if ((c === 0x27 || c === 0x22) && syntax.quotes.includes(text[i]!)) {
		return { quote: c, skip: 1 };
	}
	if (c === 0x60 && syntax.backquote !== 'none') {
		return syntax.backquote === 'line' ? { quote: c, skip: 1 } : { open: 'bq', skip: 1 };
	}
	if (c === 0x3c && next === 0x3c && syntax.heredoc !== 'none') {
		const heredoc = heredocAt(text, i, syntax);
		return heredoc ? { heredoc: heredoc.word, skip: heredoc.length } : undefined;
	}
	return undefined;
}

/** Inside a construct that spans lines at `i`: how far to move, and the state after (`code` once it closes). */
function inside(text: string, i: number, state: Open, syntax: Syntax, interpolation: boolean): { skip: number; open: Open; interpolation: boolean } {
	const c = text.charCodeAt(i);
	switch (state) {
		case 'block':
		case 'doc':
			return c === 0x2a && text.charCodeAt(i + 1) === 0x2f ? { skip: 2, open: 'code', interpolation } : { skip: 1, open: state, interpolation };
		case 'bq':
			if (syntax.backquote === 'raw') {
				return { skip: 1, open: c === 0x60 ? 'code' : state, interpolation };
			}
			if (c === 0x5c) {
				return { skip: 2, open: state, interpolation };
			}
			// `${…}` in a template literal is code (on one line; braces inside it are not followed).
			if (interpolation) {
				return { skip: 1, open: state, interpolation: c !== 0x7d };
			}
			if (c === 0x24 && text.charCodeAt(i + 1) === 0x7b) {
				return { skip: 2, open: state, interpolation: true };
			}
			return { skip: 1, open: c === 0x60 ? 'code' : state, interpolation };
		case "'''":
		case '"""': {
			if (c === 0x5c) {
				return { skip: 2, open: state, interpolation };
			}
			const q = state.charCodeAt(0);
			return c === q && text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q ? { skip: 3, open: 'code', interpolation } : { skip: 1, open: state, interpolation };
		}
		case 'dq':
			if (c === 0x5c) {
				return { skip: 2, open: state, interpolation };
			}
			return { skip: 1, open: c === 0x22 ? 'code' : state, interpolation };
		case 'verbatim':
			if (c === 0x22) {
				return text.charCodeAt(i + 1) === 0x22 ? { skip: 2, open: state, interpolation } : { skip: 1, open: 'code', interpolation };
			}
			return { skip: 1, open: state, interpolation };
		default: {
			// `raw` plus hashes: closed by `"` and as many hashes.
			const hashes = state.slice(3);
			return c === 0x22 && text.startsWith(hashes, i + 1) ? { skip: 1 + hashes.length, open: 'code', interpolation } : { skip: 1, open: state, interpolation };
		}
	}
}

/**
 * Scans `text` from the state `open` up to `until`: the kind of the place
 * reached, and the state the next line starts in (when `until` is the end).
 */
export function scan(text: string, open: Open, until: number, syntax: Syntax): { kind: TokenKind; open: Open } {
	const whole = wholeLine(text, open, until, syntax);
	if (whole) {
		return whole;
	}
	let state = open;
	/** A one-line string's quote, or 0. */
	let quote = 0;
	let lineComment = false;
	let interpolation = false;
	let heredoc: string | undefined;
	const starting = startersOf(syntax);
	let i = 0;
	while (i < text.length && i < until && !lineComment) {
		const c = text.charCodeAt(i);
		if (quote !== 0) {
			if (c === 0x5c && quote !== 0x60) {
				i += 2;
				continue;
			}
			if (c === quote) {
				quote = 0;
			}
			i++;
			continue;
		}
		if (state === 'code') {
			// Most characters start nothing: only those the table names are looked at.
			const found = c < 128 && starting[c] === 1 ? startsAt(text, i, syntax) : undefined;
			if (found) {
				// A construct that closes within `until` is passed whole; one that reaches it makes the kind.
				lineComment = found.line === true;
				quote = found.quote ?? 0;
				state = found.open ?? state;
				heredoc = found.heredoc ?? heredoc;
				i += lineComment ? 0 : found.skip;
				continue;
			}
			i++;
			continue;
		}
		if (state === 'block' || state === 'doc') {
			// A block comment is passed to its end at once.
			const close = text.indexOf('*/', i);
			if (close === -1 || close + 2 > until) {
				break;
			}
			state = 'code';
			i = close + 2;
			continue;
		}
		const step = inside(text, i, state, syntax, interpolation);
		if (step.open === 'code' && i + step.skip > until) {
			break;
		}
		state = step.open;
		interpolation = step.interpolation;
		i += step.skip;
	}
	let kind: TokenKind;
	if (lineComment) {
		kind = syntax.docLine?.test(text) ? 'doc' : 'comment';
	} else if (quote !== 0) {
		kind = quote === 0x27 ? "string'" : quote === 0x60 ? 'string`' : 'string"';
	} else {
		kind = interpolation ? 'code' : kindOfOpen(state);
	}
	// A line comment and a one-line string end with their line (a spanning one left open runs on); a
	// heredoc opened on it starts on the next.
	if (quote === 0x22 && until >= text.length && syntax.spanning.includes('"')) {
		return { kind, open: 'dq' };
	}
	return { kind, open: state === 'code' && heredoc !== undefined ? `heredoc:${heredoc}` : state };
}
