/**
 * Declarations that carry no declaring keyword, in the languages where a type or an operator says
 * what a name is: a Java or C# local, field or parameter (`final OptionGroup group = …`,
 * `long ticks;`, `(final String[] args, …)`), a Go short variable declaration (`a, err := …`), and
 * a method declared by its return type (`public void Should_use_implicit()`). Rename propagation
 * reads them so a local renamed stays in its block, a parameter in its function, and a member
 * declared here is not taken for a use of a name declared elsewhere.
 *
 * Limits: read from the line alone, by its shape; a generic type spanning lines, or a declaration
 * split across lines, is not seen (the rule then treats the name as used, not declared).
 */

/** Words that stand where a type would but are not one: `return x;`, `new Foo(…)`, `throw e;`. */
const NOT_A_TYPE = /^(?:return|new|throw|else|case|goto|yield|await|in|out|ref|is|as|using|package|import|default|typeof|sizeof|nameof|delete|instanceof|not|and|or|echo|print|puts|assert|lock|fixed|checked|unchecked|when|var)$/;

/** A declaration's modifiers (Java and C#), and those a method may carry besides. */
const DECLARATION_MODIFIERS = ['final', 'readonly', 'const', 'static', 'private', 'public', 'protected', 'internal', 'volatile', 'transient', 'required', 'unsafe'];
const METHOD_MODIFIERS = [...DECLARATION_MODIFIERS, 'abstract', 'override', 'virtual', 'sealed', 'async', 'synchronized', 'default', 'extern', 'partial', 'new'];
/** Any of `words`, each followed by whitespace, any number of times. */
const modifiers = (words: readonly string[]) => String.raw`(?:(?:${words.join('|')})\s+)*`;
const MODIFIERS = modifiers(DECLARATION_MODIFIERS);
const TYPE = String.raw`([A-Za-z_][\w.]*)(?:<[^()=;]*>)?(?:\[\])*\??`;

/** A type then the name: at the line's start (after modifiers), or after `(` or `,` (a parameter). */
const TYPED_BEFORE = new RegExp(String.raw`(?:^\s*${MODIFIERS}|([(,])\s*${MODIFIERS})${TYPE}\s+$`);
/** What follows a declared local, field or parameter's name. */
const TYPED_AFTER = /^[\p{L}\p{N}_$]+\s*(?:=(?![=>])|;|,|\)|$)/u;
/** Go's `a, b := …` from the line's start. */
const GO_NAMES_BEFORE = /^\s*(?:[\p{L}\p{N}_]+\s*,\s*)*$/u;
const GO_SHORT_AFTER = /^[\p{L}\p{N}_]+\s*(?:,\s*[\p{L}\p{N}_]+\s*)*:=/u;

/**
 * What the name at `column` of `line` declares, read from the line: `local` (a local or a field:
 * its block from here on), `parameter` (a parameter of the function the line declares), or
 * `undefined` when the line does not declare it this way.
 */
export function typedDeclarationAt(line: string, column: number, syntax: string): 'local' | 'parameter' | undefined {
	if (syntax !== 'go' && syntax !== 'java' && syntax !== 'csharp') {
		return undefined;
	}
	const after = line.slice(column);
	// What follows the name is checked first: most places fail there, at once.
	if (!(syntax === 'go' ? GO_SHORT_AFTER : TYPED_AFTER).test(after)) {
		return undefined;
	}
	const before = line.slice(0, column);
	if (syntax === 'go') {
		return GO_NAMES_BEFORE.test(before) ? 'local' : undefined;
	}
	const m = TYPED_BEFORE.exec(before);
	if (!m || NOT_A_TYPE.test(m[2]!)) {
		return undefined;
	}
	return m[1] !== undefined ? 'parameter' : 'local';
}

/** What may come before a method's return type: annotations and attributes, then its modifiers (a declaration's, and a method's own). */
const METHOD_BEFORE = new RegExp(
	String.raw`^\s*(?:@\w+\s+|\[[^\]]*\]\s*)*${modifiers(METHOD_MODIFIERS)}${TYPE}\s+$`,
);
/** What follows a method's name where it is declared: type parameters, then its parameters' `(`. */
const METHOD_AFTER = /^\s*(?:<[^()]*>)?\s*\(/;

/** A method declared by its return type at `column`: `public void Should_use_implicit()`, `Task<int> RunAsync(` (Java, C#). */
export function declaresMethodAt(line: string, column: number, name: string, syntax: string): boolean {
	if ((syntax !== 'java' && syntax !== 'csharp') || !line.startsWith(name, column) || !METHOD_AFTER.test(line.slice(column + name.length))) {
		return false;
	}
	const m = METHOD_BEFORE.exec(line.slice(0, column));
	return m !== null && !NOT_A_TYPE.test(m[1]!);
}
