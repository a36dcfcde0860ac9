// The lexer's table of each language (`syntaxTables.ts`): comments, doc comments, strings that
// span lines and the syntax that looks like a string or a comment but is not (Rust lifetimes, PHP
// attributes), so comment prose and string text are told from code in every language engine 1 reads.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { Lexer, syntaxOf, type TokenKind } from '../../src/nes-agent/engines/syntax';

/** The kind just after the first occurrence of `marker` on each line that holds one (`@` marks nothing itself). */
function kinds(languageId: string, text: string, probes: readonly (readonly [number, string])[]): TokenKind[] {
	const doc = new TrackedDocument('file:///x', languageId, 1, text);
	const lexer = new Lexer(doc, syntaxOf(languageId));
	return probes.map(([line, marker]) => {
		const at = doc.lineText(line).indexOf(marker);
		assert.notEqual(at, -1, `${marker} on line ${line}`);
		return lexer.kindAt(line, at + 1);
	});
}

describe('lexer tables', () => {
	it('C#: #if directives, verbatim strings across lines, interpolated strings, /// docs', () => {
		const cs = ['#if NET45', 'var p = @"C:\\dir\\', 'more "" text";', 'var s = $"name {x}";', '/// <summary>Docs</summary>', 'int y = 1; // note', "char c = '\"'; x = 2;"].join('\n');
		assert.deepEqual(kinds('csharp', cs, [[0, 'NET45'], [1, 'dir'], [2, 'more'], [2, ';'], [3, 'name'], [4, 'Docs'], [5, 'note'], [6, 'x =']]), ['directive', 'string"', 'string"', 'code', 'string"', 'doc', 'comment', 'code']);
	});

	it('Rust: lifetimes and labels are code, raw strings span lines, //! and /// are docs', () => {
		const rs = ["fn f<'a>(x: &'a str) -> &'a str { x }", 'let r = r#"raw "quoted"', 'still raw"#; let z = 1;', "let c = '\\''; let d = 'x';", '//! crate docs', '/// item docs'].join('\n');
		assert.deepEqual(kinds('rust', rs, [[0, '{ x'], [1, 'quoted'], [2, 'still'], [2, 'z ='], [3, 'd ='], [4, 'crate'], [5, 'item']]), ['code', 'string"', 'string"', 'code', 'code', 'doc', 'doc']);
	});

	it('Rust: a plain string runs on across lines (escapes, a trailing backslash); a char quote does not open one', () => {
		const rs = ['static ERR: &str = "\\', "error: unexpected 'sub1' found", '  say \\"hi\\" here', 'Usage: test";', "let q = '\"'; let n = 1;", 'let s = "one line"; let m = 2;'].join('\n');
		assert.deepEqual(kinds('rust', rs, [[0, 'ERR'], [1, 'unexpected'], [2, 'here'], [3, 'Usage'], [3, ';'], [4, 'n ='], [5, 'm =']]), ['code', 'string"', 'string"', 'string"', 'code', 'code', 'code']);
	});

	it('Go: backquoted raw strings span lines and keep backslashes; runes', () => {
		const go = ['s := `raw \\', 'line two` + x', "r := '\\'' + y // tail"].join('\n');
		assert.deepEqual(kinds('go', go, [[0, 'raw'], [1, 'two'], [1, '+ x'], [2, '+ y'], [2, 'tail']]), ['string`', 'string`', 'code', 'code', 'comment']);
	});

	it('Ruby: # comments, =begin blocks, heredocs; a shift is not a heredoc', () => {
		const rb = ['x = 1 # note', '=begin', 'old prose', '=end', 'text = <<~EOS', '  body words', '  EOS', 'list << ITEM', 'y = 2'].join('\n');
		assert.deepEqual(kinds('ruby', rb, [[0, 'note'], [2, 'prose'], [4, 'text'], [5, 'body'], [7, 'ITEM'], [8, 'y']]), ['comment', 'comment', 'code', 'string"""', 'code', 'code']);
	});

	it('PHP: # and // comments, #[attributes], heredocs and nowdocs', () => {
		const php = ['$a = 1; # note', '#[Attribute]', '$t = <<<EOT', 'body $words', 'EOT;', "$n = <<<'NOW'", 'raw', 'NOW;', '$b = 2;'].join('\n');
		assert.deepEqual(kinds('php', php, [[0, 'note'], [1, 'Attribute'], [3, 'body'], [6, 'raw'], [8, 'b =']]), ['comment', 'code', 'string"""', 'string"""', 'code']);
	});

	it('Java: text blocks, char literals, /** docs */', () => {
		const java = ['String s = """', '    text block', '    """; int x;', "char c = '\"'; int y;", '/** Docs. */ int z;'].join('\n');
		assert.deepEqual(kinds('java', java, [[1, 'text'], [2, 'int x'], [3, 'int y'], [4, 'Docs'], [4, 'int z']]), ['string"""', 'code', 'code', 'doc', 'code']);
	});

	it('Python and JavaScript keep their tables (triple quotes, template literals)', () => {
		assert.deepEqual(kinds('python', ['s = """doc', 'more"""', 'x = `y`'].join('\n'), [[1, 'more'], [2, 'y']]), ['string"""', 'code']);
		assert.deepEqual(kinds('javascript', 'const s = `a ${b} c`; // d', [[0, '`a'], [0, 'b}'], [0, ' c`'], [0, 'd']]), ['string`', 'code', 'string`', 'comment']);
	});

	it('picks the table by language id, or by the file name when the id says nothing', () => {
		assert.equal(syntaxOf('csharp').name, 'csharp');
		assert.equal(syntaxOf(undefined, 'file:///a/b.rs').name, 'rust');
		assert.equal(syntaxOf('plaintext', 'file:///a/b.rb').name, 'ruby');
		assert.equal(syntaxOf('cpp').name, 'c-like');
	});
});
