/**
 * Edits that belong to their own line, which the repeated transformation (`repeatedTransformation.ts`)
 * therefore does not copy to other lines that merely share its anchors. Each guard is a family of
 * wrong suggestions found in real histories (the NES eval's training set, projects in Go, Rust,
 * Java, Kotlin, Ruby, PHP and C#), not single cases:
 *
 * - A declaration's modifier or keyword changed (`public` to `public sealed`, `protected` to
 *   `public`, `let mut` to `let`, `String x` to `final String x`, `void` to `async Task`) outside
 *   JavaScript and Python: one declaration's visibility or mutability is decided for that one.
 *   On the training set such templates were right 35 times in 53 (66%; keywords 11 in 22).
 *   JavaScript's `var`/`let` to `const` is kept, with its own checks (it was right on its dev set).
 * - A parameter declared (`f(a, b)` to `f(a, b, Type c)`, `, c = null`, `, m ...Middleware`): its
 *   calls pass a value, never the declaration; on the training set such an insertion was copied
 *   into calls as is.
 * - An insertion made of the line's own names (a Go struct tag `json:"allow_origins"` after the
 *   field `AllowOrigins`, `@param name` for its parameter): other lines need their own; only a
 *   line holding the same name may take it.
 * - Type arguments of a `new` expression dropped for the diamond (`new ArrayList<String>()` to
 *   `new ArrayList<>()`): declarations must keep theirs, so only other `new` expressions take it.
 *
 * - Prose in a comment or a doc comment reworded (`the banner` to `a banner`, `@param sb` to
 *   `@param appendable`) outside JavaScript and Python, where doc comments repeat the same lines
 *   for each overload and member and the author rewords the one they mean: only a rare word
 *   replaced (a misspelling) or a URL or path is repeated. A phrase replaced is rewording even
 *   when one of its words is rare (`Returns a source that reads from` to `Returns a sink that
 *   writes to`): on the training set three such wrong copies, no right one, went with that. Comment lines were the largest family of
 *   wrong suggestions in these languages (about 48 of 210 on the held-out and dev sets).
 *
 * - A test's description reworded (`it "prints a table with small numbers" do` given `, and
 *   right-aligns them`) outside JavaScript and Python: it names that one test, and the test beside it
 *   describes another behaviour; only a rare word replaced (a misspelling, `excepts` to `accepts`),
 *   a URL or path, or a word's case alone is repeated. On the training set one such wrong copy
 *   (Ruby), no right one lost; test descriptions there were right 6 times in 9.
 *
 * - A bracket added or removed (Ruby's `{ |x|` made `do |x|`, a call's parenthesis moved): only
 *   lines that leave brackets open as the edited line did, so a block opened on its line is not
 *   taken for one closed on it (`map { |x| x.to_s }`).
 *
 * Limits: words are matched by their letters alone (case, `_` and `-` ignored), so a name spelt
 * apart (`xss_protection` for `XSSProtection`) is seen, an abbreviation is not.
 */
import { isIdentifier } from './identifiers';
import type { SingleLineChange } from './lineChange';

/** Declaration modifiers and declaring keywords of the languages the guard applies to (Ruby's `attr_reader` and kin: which accessors one attribute gets). */
export const MODIFIERS: ReadonlySet<string> = new Set(
	'public private protected internal static final readonly abstract override virtual sealed async const var let val mut pub open lateinit suspend inline partial extern unsafe void synchronized transient volatile Override attr_reader attr_writer attr_accessor'.split(' '),
);

/** Languages whose templates of modifiers were judged on their own dev set and kept. */
const KEEPS_MODIFIERS = /^(?:javascript|python)$/;

/** The words of a text (letters, digits, `_`, `$`). */
function wordsOf(text: string): string[] {
	return text.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
}

/** A Java test source: under a `test` folder, or a class named `…Test`/`…Tests`. */
const JAVA_TEST_FILE = /(?:^|\/)(?:src\/)?test\/|Tests?\.java$/;

/**
 * Whether a declaration's modifier or keyword is what changed, in a language where that stays with
 * its declaration. One exception: `public` taken off in a Java test source. JUnit 5 runs test
 * classes and methods of any visibility but private, and dropping `public` from them is a
 * clean-up made to the whole file (`public void testX()` to `void testX()`), not a choice about one
 * member. Elsewhere a member made less visible is that member's own.
 */
export function modifierChanged(removed: string, inserted: string, syntaxName: string, uri = ''): boolean {
	if (KEEPS_MODIFIERS.test(syntaxName)) {
		return false;
	}
	const before = wordsOf(removed);
	const after = wordsOf(inserted);
	if (syntaxName === 'java' && before.length === 1 && before[0] === 'public' && after.length === 0 && JAVA_TEST_FILE.test(uri)) {
		return false;
	}
	return [...before, ...after].some((w) => MODIFIERS.has(w)) || (before.length === 0 && after.length === 1 && /^\s*@\w+\s*$/.test(inserted));
}

/** Whether the insertion declares a parameter (`, Type name`, `, name = default` in a declaration, `, m ...T`). */
export function declaresParameter(inserted: string): boolean {
	return /^\s*,\s*(?:(?:[\w$.?]+(?:<[^()]*>)?(?:\[\])*\??\s+|\.\.\.)+[\w$]+|[\w$]+\s+\.\.\.[\w$.]+)(?:\s*=\s*[^,()]+)?\s*$/.test(inserted) && !/^\s*,\s*(?:new|await|typeof|not|yield)\s/.test(inserted);
}

/** Letters only, lower case: `AllowOrigins`, `allow_origins` and `allow-origins` read the same. */
function letters(word: string): string {
	return word.toLowerCase().replace(/[^\p{L}\p{N}]/gu, '');
}

/**
 * The names of the edited line an insertion was made from (`allow_origins` from `AllowOrigins`):
 * each place that takes the insertion must hold them too. Empty when the insertion names nothing
 * of its line.
 */
export function derivedFrom(change: SingleLineChange, removed: string, inserted: string): string[] {
	if (removed.trim() !== '') {
		return [];
	}
	const rest = wordsOf(change.oldLine).filter((w) => w.length >= 4);
	const out: string[] = [];
	for (const word of inserted.match(/[\p{L}\p{N}_$-]{4,}/gu) ?? []) {
		const source = rest.find((w) => letters(w) === letters(word) && letters(w).length >= 4);
		if (source !== undefined && !out.includes(source)) {
			out.push(source);
		}
	}
	return out;
}

/**
 * Whether the change drops a `new` expression's type arguments (`new X<A>()` to `new X<>()` or
 * `new X()`): `before` and `after` are the line's text around the removed span.
 */
export function diamondOfNew(before: string, after: string, removed: string, inserted: string): boolean {
	if (inserted.trim() !== '' && inserted.trim() !== '<>') {
		return false;
	}
	return (/^<.+>$/.test(removed.trim()) && /\bnew\s+[\w$.]+\s*$/.test(before)) || (inserted.trim() === '' && /\bnew\s+[\w$.]+\s*<$/.test(before) && after.startsWith('>'));
}

/** Whether the place at `column` of `text` is right after `new Name` or `new Name<` (a `new` expression's type). */
export function afterNew(text: string, column: number): boolean {
	return /\bnew\s+[\w$.]+\s*<?$/.test(text.slice(0, column));
}

/** Whether `text` holds every one of `names` as a whole word. */
export function holdsAll(text: string, names: readonly string[]): boolean {
	return names.every((name) => isIdentifier(name) && new RegExp(`(?<![\\w$])${name.replace(/\$/g, '\\$')}(?![\\w$])`).test(text));
}

/**
 * Whether the change renames a parameter where a doc comment names it (`@param sb` to `@param
 * appendable`, `<param name="value">`), in a language whose doc comments repeat for each overload:
 * that parameter is the documented member's own.
 */
export function docParameterRenamed(oldLine: string, start: number, removed: string, inserted: string, syntaxName: string): boolean {
	return !KEEPS_MODIFIERS.test(syntaxName) && isIdentifier(removed.trim()) && isIdentifier(inserted.trim()) && /(?:@param\s+(?:\{[^}]*\}\s*)?(?:[^\s$]+\s+(?=\$))?\$?|<param\s+name\s*=\s*")$/.test(oldLine.slice(0, start));
}

/**
 * Whether an edit of comment prose stays on its line: reworded, in a language whose doc comments
 * repeat (not a misspelling, a URL or a path). A misspelling is one word: a phrase replaced
 * (`requires an argument` to `is mandatory`) is rewording even when one of its words is rare.
 */
export function proseKeptToItsLine(site: { readonly kind: string; readonly prose: boolean; readonly rare: boolean; readonly path: boolean }, removed: string, syntaxName: string): boolean {
	return !KEEPS_MODIFIERS.test(syntaxName) && (site.kind === 'comment' || site.kind === 'doc') && site.prose && (!site.rare || /\s/.test(removed.trim())) && !site.path;
}

/** A line that names a test or a group of tests by a string: `it "…" do`, `describe('…'`, `t.Run("…"`, `test('…'`. */
const TEST_DESCRIPTION = /^\s*(?:x?it|describe|context|specify|scenario|feature|test|[a-z]\.Run)\s*\(?\s*["']/;

/**
 * Whether an edit of a test's description stays on its line: reworded, outside JavaScript and
 * Python (not a misspelling, a URL or a path, nor a word's case alone: `ETag` to `etag` is a
 * convention).
 */
export function testDescriptionReworded(site: { readonly kind: string; readonly rare: boolean; readonly path: boolean }, oldLine: string, removed: string, inserted: string, syntaxName: string): boolean {
	return !KEEPS_MODIFIERS.test(syntaxName) && site.kind.startsWith('string') && TEST_DESCRIPTION.test(oldLine) && !site.rare && !site.path && removed.toLowerCase() !== inserted.toLowerCase();
}

/** How many of each bracket a line leaves open (negative: closes more than it opens), as `{1(0[0`. */
export function bracketBalance(text: string): string {
	let curly = 0;
	let round = 0;
	let square = 0;
	for (const c of text) {
		curly += c === '{' ? 1 : c === '}' ? -1 : 0;
		round += c === '(' ? 1 : c === ')' ? -1 : 0;
		square += c === '[' ? 1 : c === ']' ? -1 : 0;
	}
	return `{${curly}(${round}[${square}`;
}

/** Whether the change adds or removes a bracket: then the places must leave brackets open as the edited line did (a block opened, not closed on its line). */
export function touchesBrackets(removed: string, inserted: string): boolean {
	return /[{}()[\]]/.test(removed + inserted);
}
