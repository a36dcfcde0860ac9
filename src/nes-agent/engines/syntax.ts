/**
 * A small lexer: enough to tell, at any place of a line, whether it is code,
 * a comment, a doc comment, a string (and which kind of quote) or a
 * preprocessor directive, by each language's table of comments and strings
 * (`syntaxTables.ts`; the scan of a line is `scanLine.ts`). Not a parser: it
 * knows nothing of regular expression literals or nested interpolation, which
 * only make it wrong inside those, never elsewhere for long (every state but
 * block comments and multi-line strings ends with its line).
 */
import { wholeWordColumns } from './identifiers';
import { scan, special, type Open, type TokenKind } from './scanLine';
import { syntaxOf, type Syntax } from './syntaxTables';
import type { TextLines } from './types';

export { syntaxOf, type Syntax, type TokenKind };

/**
 * The lexer's view of one document: the state each line starts in, computed
 * lazily from the top as far as a question needs, and the kind of any place.
 */
export class Lexer {
	private readonly starts: Open[] = ['code'];
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
		const starting = special(syntax);
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
			starts.push(open === 'code' && !starting.test(text) ? 'code' : scan(text, open, text.length, syntax).open);
		}
		return starts[Math.min(line, starts.length - 1)]!;
	}
}

function kindIn(text: string, open: Open, column: number, syntax: Syntax): TokenKind {
	if (open === 'code' && !special(syntax).test(text)) {
		return 'code';
	}
	return scan(text, open, column, syntax).kind;
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
