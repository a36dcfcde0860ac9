/**
 * A member renamed where it is declared, in the languages that declare methods and fields without
 * a declaring keyword: a Java, C#, Kotlin or PHP method or field (`public void Should_use_implicit()`
 * to `…_explicit()`, `private int count;`), a Go struct field (`App *Command` to `Command
 * *Command`), a Rust struct field (`pub name: String,`). The rule for `function`, `def`, `fn`,
 * `func` and `class` (`site.ts`) holds for these too: the member's uses follow it (rename
 * propagation), while another declaration of the same name is another type's member or another
 * test, which the author names for itself. On the NES eval's training set the repeated
 * transformation made one such copy (a test method of a nested test class), wrong; on the dev sets
 * two (a Go struct field renamed, its namesake in another struct left alone), wrong; none right.
 *
 * Limits: read from the line's text: the words before the name are modifiers and a type, the
 * text after it opens a parameter list or ends a field. A field is told from a local variable
 * (`long ticks;`) only by a modifier that locals cannot take (`private`, `static`, `readonly`…),
 * so a field declared without one is not seen; a local is left to the other rules as before (the
 * same local renamed in sibling methods is a change an author makes).
 * JavaScript, Python and Ruby are not concerned (their declarations have keywords, or none).
 */

/** Modifiers before a member's type. */
const MODIFIERS = String.raw`(?:(?:public|private|protected|internal|static|final|readonly|abstract|override|virtual|sealed|async|const|open|suspend|inline|partial|extern|unsafe|synchronized|transient|volatile|new|required|lateinit)\s+)`;

/** Modifiers a member takes and a local variable does not (Java's `final` is both's). */
const MEMBER_ONLY = /(?:^|\s)(?:public|private|protected|internal|static|readonly|abstract|override|virtual|sealed|const|transient|volatile|required|lateinit)\s/;

/** Words that begin a statement, not a type: `return x;`, `else foo(…)`, `throw new X(…)`. */
const NOT_A_TYPE = /^(?:return|else|throw|new|await|yield|case|goto|using|if|while|for|foreach|switch|catch|do|in|is|as|of|echo|print|var|val|let)$/;

/** A type, as it stands before a member's name: `int`, `List<String>`, `string[]`, `int?`, `?Foo`, `Map.Entry<K, V>`. */
const TYPE = String.raw`\??[\p{L}_][\p{L}\p{N}_.]*(?:<[^()]*>)?(?:\[\])*\??`;

const TYPED = new RegExp(`^\\s*(?:@[\\w.]+(?:\\([^()]*\\))?\\s+)*${MODIFIERS}*(${TYPE})\\s+\\$?$`, 'u');

/**
 * Whether the name `removed` at `[start, end)` of `line` is the one the line declares (a method's
 * or a field's), in a language of `syntaxName` whose members are declared without a keyword.
 */
export function declaresMember(line: string, start: number, end: number, syntaxName: string): boolean {
	const before = line.slice(0, start);
	const after = line.slice(end);
	switch (syntaxName) {
		case 'java':
		case 'csharp':
		case 'kotlin':
		case 'php': {
			const type = TYPED.exec(before)?.[1];
			// A method (a parameter list follows), or a field (a modifier only a member takes: not a local).
			return type !== undefined && !NOT_A_TYPE.test(type) && (/^\s*\(/.test(after) || (MEMBER_ONLY.test(before) && /^\s*(?:[;=]|$)/.test(after)));
		}
		case 'go':
			// A struct field: its name first on the line, a type after it, a tag or a comment at most.
			return /^\s*$/.test(before) && /^\s+[*[\]\p{L}_][\p{L}\p{N}_.*[\]]*\s*(?:`[^`]*`)?\s*(?:\/\/.*)?$/u.test(after);
		case 'rust':
			// A struct field: `name: Type,` or `pub name: Type,`.
			return /^\s*(?:pub(?:\([\w:]+\))?\s+)?$/.test(before) && /^\s*:(?!:).*,\s*(?:\/\/.*)?$/.test(after);
		default:
			return false;
	}
}
