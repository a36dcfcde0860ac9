/**
 * A small lexer: enough to tell, at any place of a line, whether it is code,
 * a comment, a doc comment, or a string (and which kind of quote), for
 * JavaScript/TypeScript, Python and the C-like languages. Not a parser: it
 * knows nothing of regular expression literals or nested template literals,
 * which only make it wrong inside those, never elsewhere for long (every
 * state but block comments and multi-line strings ends with its line).
 */
import { wholeWordColumns } from './identifiers';
import type { TextLines } from './types';

/** What a place of the text is. Strings are told apart by their quote: an edit in `'…'` repeats in `'…'`. */
export type TokenKind = 'code' | 'comment' | 'doc' | "string'" | 'string"' | 'string`' | "string'''" | 'string"""';

/** The comment and string syntax of a language family. */
export interface Syntax {
	/** `#` line comments and `'''`/`"""` strings (Python, shell, Ruby, YAML). */
	readonly hash: boolean;
	/** `//` line comments and `/* … *\/` block comments (`/** … *\/` doc comments). */
	readonly slash: boolean;
	/** Backquoted strings that may span lines (JavaScript, TypeScript, Go). */
	readonly backquote: boolean;
}

const C_LIKE: Syntax = { hash: false, slash: true, backquote: true };
const HASH: Syntax = { hash: true, slash: false, backquote: false };

/** The syntax of a document by its language id, or by its file name's extension when the id says nothing. */
export function syntaxOf(languageId: string | undefined, uri = ''): Syntax {
	const id = languageId ?? '';
	if (/^(?:python|shellscript|ruby|yaml|toml|perl|r|makefile|dockerfile|coffeescript|elixir|julia|powershell)$/.test(id)) {
		return HASH;
	}
	if (id !== '' && id !== 'plaintext') {
		return C_LIKE;
	}
	return /\.(?:py|pyi|sh|rb|ya?ml|toml|pl|r)$/i.test(uri) ? HASH : C_LIKE;
}

/** Where a line starts: in code, or inside a construct that spans lines. */
const enum Open {
	Code = 0,
	Block = 1,
	Doc = 2,
	Backquote = 3,
	TripleSingle = 4,
	TripleDouble = 5,
}

const OPEN_KIND: readonly TokenKind[] = ['code', 'comment', 'doc', 'string`', "string'''", 'string"""'];

/** Characters that can start a comment or a string: a line without any stays in the state it starts in. */
const SPECIAL = /['"`#/*]/;

/**
 * The lexer's view of one document: the state each line starts in, computed
 * lazily from the top as far as a question needs, and the kind of any place.
 */
export class Lexer {
	private readonly starts: Open[] = [Open.Code];
	/** The text of each line scanned, so the next version's lexer can tell which lines are unchanged. */
	private readonly texts: string[] = [];
	private readonly before: { readonly starts: readonly Open[]; readonly texts: readonly string[] } | undefined;

	/** `previous`: the lexer of an earlier version of the document, whose work on unchanged lines is reused. */
	constructor(
		private readonly document: TextLines,
		readonly syntax: Syntax,
		previous?: Lexer,
	) {
		this.before = previous && previous.syntax === syntax ? { starts: previous.starts, texts: previous.texts } : undefined;
	}

	/** How many lines hold `word` as a whole word, counting up to `limit`. */
	linesWith(word: string, limit: number): number {
		let count = 0;
		for (let line = 0; line < this.document.lineCount && count < limit; line++) {
			const text = this.document.lineText(line);
			if (text.includes(word) && wholeWordColumns(text, word).length > 0) {
				count++;
			}
		}
		return count;
	}

	/** The kind of the place just before `column` of `line` (`column` 0: the state the line starts in). */
	kindAt(line: number, column: number): TokenKind {
		return kindIn(this.document.lineText(line), this.startOf(line), column, this.syntax);
	}

	/** The kind at `column` when the line reads `text` (an edited line's old text, say). */
	kindOfText(line: number, text: string, column: number): TokenKind {
		return kindIn(text, this.startOf(line), column, this.syntax);
	}

	private startOf(line: number): Open {
		const { starts, texts, document, syntax, before } = this;
		while (starts.length <= line && starts.length <= document.lineCount) {
			const at = starts.length - 1;
			const text = document.lineText(at);
			const open = starts[at]!;
			texts.push(text);
			// A line that reads the same and starts in the same state as in the earlier version ends the same
			// (unchanged lines are the same string, so the comparison is cheap).
			if (before && at + 1 < before.starts.length && before.starts[at] === open && before.texts[at] === text) {
				starts.push(before.starts[at + 1]!);
				continue;
			}
			starts.push(open === Open.Code && !SPECIAL.test(text) ? Open.Code : scan(text, open, text.length, syntax).open);
		}
		return starts[Math.min(line, starts.length - 1)]!;
	}
}

function kindIn(text: string, open: Open, column: number, syntax: Syntax): TokenKind {
	if (open === Open.Code && !SPECIAL.test(text)) {
		return 'code';
	}
	return scan(text, open, column, syntax).kind;
}

/**
 * Scans `text` from the state `open` up to `until`: the kind of the place
 * reached, and the state the next line starts in (when `until` is the end).
 */
function scan(text: string, open: Open, until: number, syntax: Syntax): { kind: TokenKind; open: Open } {
	let state = open;
	/** A one-line string's quote, or 0. */
	let quote = 0;
	/** In a line comment. */
	let lineComment = false;
	/** Inside `${…}` of a template literal. */
	let interpolation = false;
	let i = 0;
	const end = text.length;
	while (i < end) {
		if (i >= until) {
			break;
		}
		const c = text.charCodeAt(i);
		if (lineComment) {
			break;
		}
		if (quote !== 0) {
			if (c === 0x5c) {
				i += 2;
				continue;
			}
			if (c === quote) {
				quote = 0;
			}
			i++;
			continue;
		}
		switch (state) {
			case Open.Code:
				if (c === 0x27 || c === 0x22) {
					if (syntax.hash && text.charCodeAt(i + 1) === c && text.charCodeAt(i + 2) === c) {
						state = c === 0x27 ? Open.TripleSingle : Open.TripleDouble;
						i += 3;
						continue;
					}
					quote = c;
				} else if (c === 0x60 && syntax.backquote) {
					state = Open.Backquote;
				} else if (c === 0x23 && syntax.hash) {
					lineComment = true;
				} else if (c === 0x2f && syntax.slash) {
					const next = text.charCodeAt(i + 1);
					if (next === 0x2f) {
						lineComment = true;
					} else if (next === 0x2a) {
						state = text.charCodeAt(i + 2) === 0x2a && text.charCodeAt(i + 3) !== 0x2f ? Open.Doc : Open.Block;
						i += 2;
						continue;
					}
				}
				i++;
				continue;
			case Open.Block:
			case Open.Doc:
				if (c === 0x2a && text.charCodeAt(i + 1) === 0x2f) {
					if (i + 2 > until) {
						break;
					}
					state = Open.Code;
					i += 2;
					continue;
				}
				i++;
				continue;
			case Open.Backquote:
				if (c === 0x5c) {
					i += 2;
					continue;
				}
				// `${…}` in a template literal is code (on one line; braces inside it are not followed).
				if (interpolation) {
					if (c === 0x7d) {
						interpolation = false;
					}
					i++;
					continue;
				}
				if (c === 0x24 && text.charCodeAt(i + 1) === 0x7b) {
					interpolation = true;
					i += 2;
					continue;
				}
				if (c === 0x60) {
					state = Open.Code;
				}
				i++;
				continue;
			case Open.TripleSingle:
			case Open.TripleDouble: {
				if (c === 0x5c) {
					i += 2;
					continue;
				}
				const q = state === Open.TripleSingle ? 0x27 : 0x22;
				if (c === q && text.charCodeAt(i + 1) === q && text.charCodeAt(i + 2) === q) {
					if (i + 3 > until) {
						break;
					}
					state = Open.Code;
					i += 3;
					continue;
				}
				i++;
				continue;
			}
		}
		break;
	}
	let kind: TokenKind;
	if (lineComment) {
		kind = /^\s*(?:\/\/\/|#:)/.test(text) ? 'doc' : 'comment';
	} else if (quote !== 0) {
		kind = quote === 0x27 ? "string'" : 'string"';
	} else {
		kind = interpolation ? 'code' : OPEN_KIND[state]!;
	}
	// A line comment and a one-line string end with their line.
	return { kind, open: state };
}

/** Whether a kind is prose-like (comments and strings), where words are not code symbols. */
export function isTextKind(kind: TokenKind): boolean {
	return kind !== 'code';
}

const lexers = new WeakMap<TextLines, { readonly version: unknown; readonly lexer: Lexer }>();

/**
 * The lexer of a document, kept while its version stays the same (the agent's
 * documents carry a `version`; a plain `TextLines` gets a new one each time).
 */
export function lexerOf(document: TextLines, languageId: string | undefined, uri: string): Lexer {
	const version = (document as { readonly version?: unknown }).version;
	const known = lexers.get(document);
	if (known && version !== undefined && known.version === version) {
		return known.lexer;
	}
	const syntax = syntaxOf(languageId, uri);
	const lexer = new Lexer(document, syntax, known?.lexer);
	lexers.set(document, { version, lexer });
	return lexer;
}
