/** Identifiers, words and the small lexical facts the edit-by-example engine relies on. */

/** Letters, digits, `_` and `$` (JavaScript's `$` included: `$scope` is one name). */
export function isIdentifierChar(code: number): boolean {
	if (code < 0x80) {
		return (code >= 0x61 && code <= 0x7a) || (code >= 0x41 && code <= 0x5a) || (code >= 0x30 && code <= 0x39) || code === 0x5f || code === 0x24;
	}
	return IDENTIFIER_NON_ASCII.test(String.fromCharCode(code));
}

const IDENTIFIER_NON_ASCII = /[\p{L}\p{N}\p{Mn}\p{Mc}]/u;

/** A whole identifier: identifier characters, not starting with a digit. */
export function isIdentifier(text: string): boolean {
	if (text.length === 0) {
		return false;
	}
	const first = text.charCodeAt(0);
	if (first >= 0x30 && first <= 0x39) {
		return false;
	}
	for (let i = 0; i < text.length; i++) {
		if (!isIdentifierChar(text.charCodeAt(i))) {
			return false;
		}
	}
	return true;
}

/**
 * Keywords and built-in type names of the common languages: changing one of
 * these is a transformation (`var` to `const`), never a rename.
 */
export const KEYWORDS: ReadonlySet<string> = new Set(
	(
		'abstract and any as assert async attr_accessor attr_reader attr_writer auto await bigint bool boolean break byte case catch chan char class const constructor continue ' +
		'debugger declare def default defer del delete do double elif else enum except export extends extern false final finally float fn ' +
		'for from func function get go goto if impl implements import in instanceof int interface is keyof lambda let long loop match ' +
		'mod module mut namespace never new nil none None not null number object of or override package pass private protected pub ' +
		'public raise range readonly return satisfies select self Self set short signed static str string struct super switch symbol ' +
		'this throw throws trait true True False try type typeof u8 u16 u32 u64 usize i8 i16 i32 i64 isize f32 f64 undefined union ' +
		'unknown unsigned use var void volatile where while with yield'
	).split(' '),
);

/**
 * The columns where `word` occurs in `line` as a whole word (not part of a
 * longer identifier), left to right.
 */
export function wholeWordColumns(line: string, word: string): number[] {
	const out: number[] = [];
	if (word.length === 0) {
		return out;
	}
	for (let at = line.indexOf(word); at !== -1; at = line.indexOf(word, at + 1)) {
		const end = at + word.length;
		if ((at === 0 || !isIdentifierChar(line.charCodeAt(at - 1))) && (end === line.length || !isIdentifierChar(line.charCodeAt(end)))) {
			out.push(at);
		}
	}
	return out;
}

/** A regular expression (JavaScript syntax, as VS Code's search uses) matching `word` as a whole word, case-sensitively. */
export function wholeWordPattern(word: string): string {
	const escaped = escapeRegExp(word);
	// `\b` knows nothing of `$`; lookarounds do, and need no `u` flag on the client's side.
	return /^[A-Za-z0-9_]+$/.test(word) ? `\\b${escaped}\\b` : `(?<![\\w$])${escaped}(?![\\w$])`;
}

export function escapeRegExp(text: string): string {
	return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/** Declaration keywords: an identifier right after one of these (and spaces) is declared there. */
const DECLARATION_BEFORE =
	/(?:^|[^\p{L}\p{N}_$])(?:const|let|var|function\*?|class|interface|type|enum|def|fn|func|struct|trait|union|namespace|module|val|mut|macro_rules!)\s+$/u;

/** Whether the identifier starting at `column` of `line` is declared there (`const x`, `function f`, `def f`, …). */
export function isDeclarationAt(line: string, column: number): boolean {
	return DECLARATION_BEFORE.test(line.slice(Math.max(0, column - 40), column));
}
