/**
 * The comment and string syntax of each language the lexer (`syntax.ts`) knows, one table each:
 * which line comments and block comments it has, which quotes make one-line strings, and the
 * strings that may span lines (Python's and Java's text blocks, C#'s verbatim strings, Rust's raw
 * and plain strings, Go's raw strings, Ruby's and PHP's heredocs). Enough to tell code from prose; not a
 * grammar: string interpolation (`${…}` aside), nested block comments and regular expression
 * literals are not followed, which only makes the lexer wrong inside those.
 */

/** How a language treats `'`: a string's quote, a character literal's, or (Rust) also a lifetime's (`'a`, `'static`). */
export type SingleQuote = 'string' | 'char' | 'charOrLifetime';

export interface Syntax {
	/** The table's name (for tests and the lexer's cache). */
	readonly name: string;
	/** Assignments declare names and `#` starts comments (Python, Ruby, shells): how rename propagation tells a declaration. */
	readonly hash: boolean;
	/** Line comment openers (`//`, `#`). */
	readonly lineComments: readonly string[];
	/** `#[…]` is an attribute, not a comment (PHP 8). */
	readonly hashAttribute: boolean;
	/** A line comment that documents (`///`, `//!`, `#:`) at the start of a line. */
	readonly docLine: RegExp | undefined;
	/** `/* … *\/` block comments (`/** … *\/` doc comments). */
	readonly blockComments: boolean;
	/** Quotes of one-line strings. */
	readonly quotes: string;
	/** Those of `quotes` whose strings run on across lines until closed (Rust's `"…"`, a test's expected output over several lines). */
	readonly spanning: string;
	readonly singleQuote: SingleQuote;
	/** `'''` and `"""` (Python), or only `"""` (Java, Kotlin and C# text blocks), strings that span lines. */
	readonly triple: string;
	/** Backquotes: a template literal with `${…}` (JavaScript), a raw string without escapes (Go, Kotlin names), or one-line (shell commands). */
	readonly backquote: 'template' | 'raw' | 'line' | 'none';
	/** C#'s `@"…"` verbatim strings (`""` for a quote, may span lines). */
	readonly verbatim: boolean;
	/** Rust's `r"…"`, `r#"…"#` raw strings (may span lines). */
	readonly rawHash: boolean;
	/** Heredocs: Ruby's `<<~EOS`/`<<-EOS`/`<<EOS`, PHP's `<<<EOT` (the body from the next line to the terminator). */
	readonly heredoc: 'ruby' | 'php' | 'none';
	/** Ruby's `=begin` … `=end` comments. */
	readonly beginEnd: boolean;
	/** Preprocessor directive lines (`#if NET45`, `#region`): a kind of their own, never code nor prose. */
	readonly directives: boolean;
}

const BASE: Syntax = {
	name: 'c-like',
	hash: false,
	lineComments: ['//'],
	hashAttribute: false,
	docLine: /^\s*\/\/\//,
	blockComments: true,
	quotes: '"\'',
	spanning: '',
	singleQuote: 'string',
	triple: '',
	backquote: 'template',
	verbatim: false,
	rawHash: false,
	heredoc: 'none',
	beginEnd: false,
	directives: false,
};

export const SYNTAXES: Readonly<Record<string, Syntax>> = {
	'c-like': BASE,
	javascript: { ...BASE, name: 'javascript' },
	python: { ...BASE, name: 'python', hash: true, lineComments: ['#'], docLine: /^\s*#:/, blockComments: false, triple: '\'"', backquote: 'none' },
	hash: { ...BASE, name: 'hash', hash: true, lineComments: ['#'], docLine: /^\s*#:/, blockComments: false, triple: '\'"', backquote: 'line' },
	go: { ...BASE, name: 'go', singleQuote: 'char', backquote: 'raw' },
	rust: { ...BASE, name: 'rust', docLine: /^\s*\/\/[/!]/, quotes: '"', spanning: '"', singleQuote: 'charOrLifetime', backquote: 'none', rawHash: true },
	java: { ...BASE, name: 'java', singleQuote: 'char', triple: '"', backquote: 'none' },
	kotlin: { ...BASE, name: 'kotlin', singleQuote: 'char', triple: '"', backquote: 'line' },
	csharp: { ...BASE, name: 'csharp', singleQuote: 'char', triple: '"', backquote: 'none', verbatim: true, directives: true },
	ruby: { ...BASE, name: 'ruby', hash: true, lineComments: ['#'], docLine: undefined, blockComments: false, backquote: 'line', heredoc: 'ruby', beginEnd: true },
	php: { ...BASE, name: 'php', lineComments: ['//', '#'], hashAttribute: true, docLine: undefined, backquote: 'line', heredoc: 'php' },
};

const BY_ID: Readonly<Record<string, string>> = {
	javascript: 'javascript',
	typescript: 'javascript',
	javascriptreact: 'javascript',
	typescriptreact: 'javascript',
	python: 'python',
	go: 'go',
	rust: 'rust',
	java: 'java',
	kotlin: 'kotlin',
	scala: 'kotlin',
	csharp: 'csharp',
	ruby: 'ruby',
	php: 'php',
};

const HASH_IDS = /^(?:shellscript|yaml|toml|perl|r|makefile|dockerfile|coffeescript|elixir|julia|powershell)$/;

const BY_EXTENSION: readonly (readonly [RegExp, string])[] = [
	[/\.pyi?$/i, 'python'],
	[/\.(?:rb|rake|gemspec)$/i, 'ruby'],
	[/\.(?:sh|ya?ml|toml|pl|r)$/i, 'hash'],
	[/\.go$/i, 'go'],
	[/\.rs$/i, 'rust'],
	[/\.java$/i, 'java'],
	[/\.kts?$/i, 'kotlin'],
	[/\.cs$/i, 'csharp'],
	[/\.php$/i, 'php'],
	[/\.(?:[cm]?[jt]sx?)$/i, 'javascript'],
];

/** The syntax of a document by its language id, or by its file name's extension when the id says nothing. */
export function syntaxOf(languageId: string | undefined, uri = ''): Syntax {
	const id = languageId ?? '';
	const known = BY_ID[id];
	if (known !== undefined) {
		return SYNTAXES[known]!;
	}
	if (HASH_IDS.test(id)) {
		return SYNTAXES['hash']!;
	}
	if (id !== '' && id !== 'plaintext') {
		return BASE;
	}
	const byFile = BY_EXTENSION.find(([pattern]) => pattern.test(uri));
	return byFile ? SYNTAXES[byFile[1]]! : BASE;
}
