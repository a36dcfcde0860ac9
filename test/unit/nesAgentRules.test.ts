// The rules that keep engine 1 (edit-by-example) silent unless the evidence is strong: one small
// case each, in the language the rule is about.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { similarNames, wordsOf } from '../../src/nes-agent/engines/renamePropagation';
import { ownerOf, parensOf } from '../../src/nes-agent/engines/site';
import { declarationScope, isBlockBinding } from '../../src/nes-agent/engines/scope';
import { Lexer, lexerOf, syntaxOf } from '../../src/nes-agent/engines/syntax';
import type { Proposal } from '../../src/nes-agent/engines/types';
import { suggestAfterLineEdit } from '../shared/nesLineEdit';
import { toSuggestions } from '../../src/nes-agent/suggestions';

const LANGUAGES = { py: 'python', js: 'javascript', ts: 'typescript' } as const;

/** `lines` with line `line` changed to `now`, then engine 1 asked at the end of the change. */
function suggest(ext: keyof typeof LANGUAGES, lines: string[], line: number, now: string): Proposal | undefined {
	return suggestAfterLineEdit(ext, LANGUAGES[ext], lines, line, now);
}

/** The lines each proposed edit lands on, nearest first. */
function lines(p: Proposal | undefined): number[] {
	if (!p) {
		return [];
	}
	return p.kind === 'edits' ? p.edits.map((e) => e.range.start.line) : p.occurrences.map((o) => o.start.line);
}

describe('lexer', () => {
	const doc = (text: string, languageId: string) => new TrackedDocument('file:///x', languageId, 1, text);

	it('tells code, comments, doc comments and strings by quote apart, across lines', () => {
		const js = doc(['const a = "x"; // note', "/** Doc", ' * more */', "f('y', `z", 'w`);', '/* block */ g();'].join('\n'), 'javascript');
		const lexer = new Lexer(js, syntaxOf('javascript'));
		assert.equal(lexer.kindAt(0, 2), 'code');
		assert.equal(lexer.kindAt(0, 12), 'string"');
		assert.equal(lexer.kindAt(0, 19), 'comment');
		assert.equal(lexer.kindAt(1, 5), 'doc');
		assert.equal(lexer.kindAt(2, 4), 'doc');
		assert.equal(lexer.kindAt(3, 3), "string'");
		assert.equal(lexer.kindAt(3, 8), 'string`');
		assert.equal(lexer.kindAt(4, 1), 'string`');
		assert.equal(lexer.kindAt(5, 5), 'comment');
		assert.equal(lexer.kindAt(5, 14), 'code');
	});

	it('reads `${…}` in a template literal as code', () => {
		const js = doc('const s = `at ${place.name} now`;', 'javascript');
		const lexer = new Lexer(js, syntaxOf('javascript'));
		assert.equal(lexer.kindAt(0, 14), 'string`');
		assert.equal(lexer.kindAt(0, 18), 'code');
		assert.equal(lexer.kindAt(0, 30), 'string`');
	});

	it('knows Python: # comments, docstrings over several lines, and that // is code there', () => {
		const py = doc(['def f(a):', '    """Sum of', '    a\'s parts."""', '    return a // 2  # half', "s = 'it'"].join('\n'), 'python');
		const lexer = new Lexer(py, syntaxOf('python'));
		assert.equal(lexer.kindAt(1, 10), 'string"""');
		assert.equal(lexer.kindAt(2, 6), 'string"""');
		assert.equal(lexer.kindAt(3, 14), 'code');
		assert.equal(lexer.kindAt(3, 22), 'comment');
		assert.equal(lexer.kindAt(4, 6), "string'");
	});

	it('gives the same answers when it reuses an earlier version’s work', () => {
		const text = ['a = 1', '"""', 'b = 2', '"""', 'c = 3'];
		const d = doc(text.join('\n'), 'python');
		assert.equal(lexerOf(d, 'python', d.uri).kindAt(4, 1), 'code');
		d.applyChanges([{ range: { start: { line: 1, character: 0 }, end: { line: 1, character: 3 } }, text: '#' }], 2);
		const lexer = lexerOf(d, 'python', d.uri);
		assert.equal(lexer.kindAt(2, 1), 'code', 'the docstring opener became a comment');
		assert.equal(lexer.kindAt(3, 1), 'string"""', 'and its closer now opens one');
		assert.equal(lexer.kindAt(4, 1), 'string"""');
		// Lines inserted above shift every line after them: each is read again.
		d.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, text: 'z = 0\n"""\n' }], 3);
		const shifted = lexerOf(d, 'python', d.uri);
		assert.equal(shifted.kindAt(2, 1), 'string"""', 'the old first line is inside the new docstring');
		assert.equal(shifted.kindAt(4, 1), 'string"""');
		assert.equal(shifted.kindAt(5, 1), 'string"""', 'inside the closing quotes');
		assert.equal(shifted.kindAt(6, 1), 'code');
	});
});

describe('scope estimation', () => {
	const d = (text: string[]) => new TrackedDocument('file:///x.py', 'python', 1, text.join('\n'));

	it('a parameter lives in its function’s block, a local from its line to its block’s end, a top-level name everywhere', () => {
		const doc = d(['def f(a):', '    b = a', '    return b', 'def g(a):', '    return a', 'x = 1']);
		assert.ok(isBlockBinding('def f(a):', 6));
		assert.deepEqual(declarationScope(doc, 0, true), { start: 0, end: 3 });
		assert.deepEqual(declarationScope(doc, 1, false), { start: 1, end: 3 });
		assert.deepEqual(declarationScope(doc, 5, false), { start: 0, end: 6 });
		assert.ok(isBlockBinding('    except ValueError as err:', 25));
		assert.ok(isBlockBinding('for (const item of items) {', 11) === false, 'a for-of declaration is a variable, not a parameter');
		assert.ok(!isBlockBinding('    if (ready) {', 9));
	});
});

describe('renames only of symbols this file owns, where they are the same symbol', () => {
	it('a local renamed in one function leaves the same name in another', () => {
		const text = ['def first(rows):', '    total = 0', '    for r in rows:', '        total += r', '    return total', '', 'def second():', '    total = 1', '    return total'];
		const p = suggest('py', text, 1, '    subtotal = 0');
		assert.ok(p?.kind === 'rename');
		assert.deepEqual(lines(p), [3, 4]);
		assert.equal(p.complete, false, 'not every occurrence: no whole-file replace');
		const shaped = toSuggestions(p, 'file:///project/f.py', { features: { jump: true, rename: false, searchAndReplace: true }, newId: () => 'id', isRejected: () => false });
		assert.equal(shaped[0]?.kind, 'edit');
	});

	it('a parameter renamed: its function’s uses only; a new name used outside the function is no obstacle', () => {
		const text = ['function show(cb) {', '  run(cb);', '}', 'function level(cb) {', '  return cb;', '}'];
		assert.deepEqual(lines(suggest('js', text, 0, 'function show(level) {')), [1]);
	});

	it('a use of a name this file does not declare (a built-in, a member) is not renamed file-wide', () => {
		const builtin = ['try:', '    raise Exception("a")', 'except Exception:', '    pass'];
		assert.notEqual(suggest('py', builtin, 1, '    raise ValueError("a")')?.kind, 'rename');
		const member = ['const n = list.size;', 'const m = other.size;', 'print(size);'];
		assert.notEqual(suggest('js', member, 0, 'const n = list.length;')?.kind, 'rename');
	});

	it('a word changed in a comment or a string is not a rename of the code that shares it', () => {
		const text = ['# the timeout in seconds', 'timeout = 3', 'wait(timeout)'];
		assert.deepEqual(lines(suggest('py', text, 0, '# the delay in seconds')), []);
	});

	it('a second declaration of the old name is another symbol', () => {
		const text = ['def test_a():', '    def handler(e):', '        return 1', '    def handler(e):', '        return 2', '    use(handler)'];
		const p = suggest('py', text, 3, '    def forbidden(e):');
		assert.deepEqual(lines(p), [5]);
	});

	it('an import that brings another thing is not a rename: a whole module, a name sharing no word, a class for a function', () => {
		assert.equal(suggest('py', ['import platform', 'platform.system()'], 0, 'import sys'), undefined);
		assert.equal(suggest('py', ['from os import getcwd', 'getcwd()'], 0, 'from os import listdir'), undefined);
		assert.equal(suggest('py', ['from pool import ProxyManager', 'ProxyManager(x)'], 0, 'from pool import proxy_from_url'), undefined);
		assert.deepEqual(lines(suggest('py', ['from g import _cv_req', 'ctx = _cv_req.get(None)'], 0, 'from g import _cv_request')), [1]);
		assert.ok(similarNames('time', 'datetime') && similarNames('run_async', 'async_to_sync') && !similarNames('platform', 'sys'));
		assert.deepEqual(wordsOf('getHTTPResponse_v2'), ['get', 'http', 'response', 'v2']);
	});

	it('a naming convention changed: lines with other names in the old convention are left to the user', () => {
		const text = ['from tests import FlaskTestCase', 'class AppTestCase(FlaskTestCase):', '    pass', 'helper = FlaskTestCase'];
		assert.deepEqual(lines(suggest('py', text, 0, 'from tests import TestFlask')), [3]);
		// Another name merely ending in one of the words dropped is no convention.
		const shim = ['import {YargsWithShim} from "./y.js";', 'const Y = YargsWithShim(platformShim);'];
		assert.deepEqual(lines(suggest('js', shim, 0, 'import {YargsFactory} from "./y.js";')), [1]);
	});
});

describe('repeated edits only where the place is like the one edited', () => {
	it('strings of the same quote: an edit in a single-quoted string is not made in a double-quoted one', () => {
		const text = ["a = 'red green'", 'b = "red green"', "c = 'red green'"];
		assert.deepEqual(lines(suggest('py', text, 0, "a = 'red blue'")), [2]);
	});

	it('doc comments only in doc comments', () => {
		const text = ['/** Returns the cached value. */', '// Returns the cached value.', '/** Returns the cached value. */'];
		assert.deepEqual(lines(suggest('ts', text, 0, '/** Returns the stored value. */')), [2]);
	});

	it('a URL or a path is the same text in a comment and in any string', () => {
		const text = ['# see https://example.org/old/issues/1', "URL = 'https://example.org/old/'"];
		assert.deepEqual(lines(suggest('py', text, 0, '# see https://example.org/new/issues/1')), [1]);
	});

	it('prose: only lines that begin with the same word, unless the word replaced is rare', () => {
		const text = [':param data: sent in the body', ':param params: sent in the body', ':param data: sent in the body'];
		const docs = ['def f():', '    """', ...text, '    """'];
		assert.deepEqual(lines(suggest('py', docs, 2, ':param data: sent as the body')), [4]);
		const typo = ['# methods for ouputting help', '# other methods for ouputting help text'];
		assert.deepEqual(lines(suggest('py', typo, 0, '# methods for outputting help')), [1]);
	});

	it('a rare word of prose replaced: wherever the word stands, not only between the same words; a common one is not', () => {
		const docs = ['class HTTPError(Exception):', '    """An HTTP error occured."""', 'class ConnectionError(Exception):', '    """A Connection error occured."""'];
		assert.deepEqual(after(docs, suggest('py', docs, 1, '    """An HTTP error occurred."""')), ['    """A Connection error occurred."""']);
		const common = ['# the value is read', '# a value is kept', '# one value is sent', '# each value is logged', '# no value is lost'];
		assert.equal(suggest('py', common, 0, '# the number is read'), undefined);
	});

	it('a rare word of a path or a compound value goes only beside the same separator', () => {
		const path = ['x = load("rack/file")', '# see rack/file for details', '# matches every file here'];
		assert.deepEqual(lines(suggest('py', path, 0, 'x = load("rack/files")')), [1]);
		const value = ['if feature("unstable-dynamic"):', '    register("dynamic", "x")'];
		assert.equal(suggest('py', value, 0, 'if feature("unstable-command"):'), undefined);
	});

	it('a capital given to a rare word begins that sentence alone; a capital taken away holds everywhere', () => {
		const since = ['# deprecated since 1.3, use other', '# added since 1.0'];
		assert.equal(suggest('py', since, 0, '# deprecated Since 1.3, use other'), undefined);
		const expected = ['raise Error("Expected type but was " + arg)', 'raise Error("Expected name but was " + o)'];
		assert.deepEqual(lines(suggest('py', expected, 0, 'raise Error("expected type but was " + arg)')), [1]);
	});

	it('a negation added to prose, or taken away, is not repeated', () => {
		const text = ["it('should set the header', () => {});", "it('should set the cookie', () => {});"];
		assert.equal(suggest('js', text, 0, "it('should not set the header', () => {});"), undefined);
		const negated = ["it('should not set the header', () => {});", "it('should not set the cookie', () => {});"];
		assert.equal(suggest('js', negated, 0, "it('should set the header', () => {});"), undefined);
	});

	it('a changed value goes only where it belongs to the same name', () => {
		const text = ['def post(url, data=None, json=None):', '    pass', 'def put(url, data=None, json=None):', '    pass'];
		assert.deepEqual(lines(suggest('py', text, 0, "def post(url, data='', json=None):")), [2]);
		assert.equal(ownerOf("x = {'key': None}", 13), 'key');
		assert.equal(ownerOf('self.length = False', 14), 'length');
	});

	it('arguments: calls of the same function only; parameters: other named declarations, never an anonymous function', () => {
		const calls = ['check(a, verify=True)', 'get(b, verify=True)', 'check(c, verify=True)'];
		assert.deepEqual(lines(suggest('py', calls, 0, 'check(a)')), [2]);
		assert.equal(parensOf('self.fail = function (msg) {', 23), 'anonymous');
		assert.equal(parensOf('function total(items) {', 15), 'declaration total');
		assert.equal(parensOf('  x = total(items);', 13), 'call total');
		const callbacks = ['keys.forEach(function (key) {', '});', 'vals.forEach(function (key) {', '});'];
		assert.equal(suggest('js', callbacks, 0, 'keys.forEach(function (key, i) {'), undefined);
		// A parameter removed where the function is declared: its calls lose the argument.
		const removed = ['def load(req, cache):', '    pass', 'load(self, cache)'];
		assert.deepEqual(lines(suggest('py', removed, 0, 'def load(req):')), [2]);
	});

	it('a first argument given to a call of `f` with none goes to the other calls of `f` with none, never to its declaration or a method', () => {
		const text = ['function f() {', '  return 1;', '}', 'a = f();', 'b = f(2);', 'c = g();', 'd = obj.f();', 'e = f();'];
		assert.deepEqual(after(text, suggest('js', text, 3, 'a = f(ctx);')), ['e = f(ctx);']);
		assert.equal(suggest('py', ['def load():', '    pass', 'load()'], 0, 'def load(cache):'), undefined);
	});

	it('a name added to one import is not added to the others; a string value goes only under the same key', () => {
		const imports = ["import { a } from './one';", "import { b } from './two';"];
		assert.equal(suggest('ts', imports, 0, "import { a, c } from './one';"), undefined);
		const json = ['{', '  "enablement": "view.visible",', '  "when": "view.visible",', '  "enablement": "view.visible"', '}'];
		assert.deepEqual(lines(suggest('ts', json, 1, '  "enablement": "view.focused",')), [3]);
	});

	it('a name given to one function is not given to another', () => {
		const text = ['(function () {', '})();', '(function () {', '})();'];
		assert.equal(suggest('js', text, 0, '(function setup() {'), undefined);
	});

	it('let or var made const only where the variable is not assigned again', () => {
		const text = ['let a = [];', 'let b = {};', 'let c = 0;', 'c += 1;'];
		assert.deepEqual(lines(suggest('js', text, 0, 'const a = [];')), [1]);
		// Where it is assigned again counts only where that declaration holds: another function's `frozen` is another variable.
		const fns = ['function a() {', '  let frozens = [];', '  let frozen = {};', '}', 'function b() {', '  let frozen = {};', '  frozen = pop();', '}'];
		assert.deepEqual(lines(suggest('js', fns, 1, '  const frozens = [];')), [2]);
	});

	it('a line commented out: only where the same line stands', () => {
		const text = ['res.raw = raw', 'res.cookies = jar', 'res.raw = raw'];
		assert.deepEqual(lines(suggest('py', text, 0, '# res.raw = raw')), [2]);
	});

	it('a binding removed (`as e`): only where the name is unused too', () => {
		const text = ['try:', '    a()', 'except KeyError as e:', '    pass', 'try:', '    b()', 'except ValueError as e:', '    log(e)', 'try:', '    c()', 'except OSError as e:', '    pass'];
		assert.deepEqual(lines(suggest('py', text, 2, 'except KeyError:')), [10]);
	});

	it('a whole line that opens a block rewritten is not repeated', () => {
		const text = ['try:', '    a()', 'except E:', '    pass', 'try:', '    b()', 'except E:', '    pass'];
		assert.equal(suggest('py', text, 0, 'if ready:'), undefined);
	});

	it('anchors that name nothing widen, keywords kept: `except X, e:` lines only', () => {
		const text = ['try:', '    a()', 'except KeyError, e:', '    pass', 'assert_equal(first, second)', 'except ValueError, e:', '    pass'];
		assert.deepEqual(lines(suggest('py', text, 2, 'except KeyError as e:')), [5]);
	});
});

/** The lines `p`'s edits leave, for the lines they touch (nearest first). */
function after(text: string[], p: Proposal | undefined): string[] {
	assert.ok(p && p.kind === 'edits', 'plain edits proposed');
	return p.edits.map((e) => {
		const line = text[e.range.start.line]!;
		return line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
	});
}

describe('a version bumped: the same version elsewhere', () => {
	it('goes from a banner comment to the constant and a string, `v` before it or not', () => {
		const text = ['// Lib v1.7.8 Copyright (c) 2024', 'const VERSION = "1.7.8";', "const ua = 'lib/1.7.8 (node)';"];
		assert.deepEqual(after(text, suggest('js', text, 0, '// Lib v1.7.9 Copyright (c) 2024')), ['const VERSION = "1.7.9";', "const ua = 'lib/1.7.9 (node)';"]);
	});

	it('matches versions whole: not inside a longer version or number, and a pre-release is a version of its own', () => {
		const text = ["VERSION = '1.7.0-beta.2'", "other = '1.7.0'", "node = '11.7.0-beta.2'", "doc = 'see 1.7.0-beta.2.'"];
		assert.deepEqual(after(text, suggest('py', text, 0, "VERSION = '1.7.0'")), ["doc = 'see 1.7.0.'"]);
	});

	it('takes neither decimals nor major.minor pairs for versions, nor an edit that changes more than the version', () => {
		assert.equal(suggest('py', ['ratio = 1.5', 'limit = 1.5'], 0, 'ratio = 1.6'), undefined);
		assert.equal(suggest('py', ["python_requires = '3.8'", "doc = 'needs 3.8'"], 0, "python_requires = '3.9'"), undefined);
		assert.equal(suggest('js', ['// v1.2.3 (beta)', "const V = '1.2.3';"], 0, '// v1.2.4 (stable)'), undefined);
	});

	it("not a dependency's version: after a range or a pin, or one that many places name", () => {
		const deps = ['"dependencies": {', '  "left": "^2.0.0",', '  "right": "^2.0.0",', '  "version": "2.0.0"', '}'];
		assert.equal(suggest('js', deps, 1, '  "left": "^3.0.0",'), undefined);
		assert.equal(suggest('py', ['requests==2.31.0', 'urllib3==2.31.0'], 0, 'requests==2.32.0'), undefined);
		assert.equal(suggest('py', ["gem 'a', '~> 2.31.0'", "gem 'b', '~> 2.31.0'"], 0, "gem 'a', '~> 2.32.0'"), undefined);
		// A lone `=` assigns the version: that is the project's own.
		assert.deepEqual(after(['version=2.31.0', '# released as 2.31.0'], suggest('py', ['version=2.31.0', '# released as 2.31.0'], 0, 'version=2.32.0')), ['# released as 2.32.0']);
		const many = ["V = '2.0.0'", ...Array.from({ length: 6 }, (_, i) => `# dep${i} 2.0.0`)];
		assert.equal(suggest('py', many, 0, "V = '2.0.1'"), undefined);
	});
});

describe('a copyright year bumped: the other copyright lines with that year', () => {
	it('goes from the docstring to the constant; not to a year elsewhere, nor from a line that is no copyright', () => {
		const text = ['""":copyright: (c) 2014 by A. Author."""', "__copyright__ = 'Copyright 2014 A. Author'", "RELEASED = '2014-05-01'"];
		assert.deepEqual(after(text, suggest('py', text, 0, '""":copyright: (c) 2015 by A. Author."""')), ["__copyright__ = 'Copyright 2015 A. Author'"]);
		assert.equal(suggest('py', ["SINCE = '2014'", '# Copyright 2014 A. Author'], 0, "SINCE = '2015'"), undefined);
	});
});

describe('a Python string made bytes or unicode: the strings in the same place', () => {
	it('after the same code, whatever the string holds; not after other code, nor a first argument, nor outside Python', () => {
		const text = ["        assert rv.data == 'index'", "        assert rv.data == 'foo'", "        assert rv.status == '200 OK'", "        self.assert_equal(rv.data, 'x')", "        assert rv.data == b'done'"];
		assert.deepEqual(after(text, suggest('py', text, 0, "        assert rv.data == b'index'")), ["        assert rv.data == b'foo'"]);
		const first = ["        self.assert_('after' in evts)", "        self.assert_('before' not in evts)"];
		assert.equal(suggest('py', first, 0, "        self.assert_(b'after' in evts)"), undefined);
		assert.equal(suggest('js', ["expect(rv.data == 'index')", "expect(rv.data == 'foo')"], 0, "expect(rv.data == b'index')"), undefined);
	});
});

describe('the same line elsewhere gets the same edit', () => {
	it('copies of the edited line, each at its own indentation, even for an edit no template takes', () => {
		const text = ["const check = require('./helpers/utils').check", 'describe(() => {', "  const check = require('./helpers/utils').check", '})'];
		assert.deepEqual(after(text, suggest('js', text, 0, "const check = require('../build/test/helpers/utils').check")), ["  const check = require('../build/test/helpers/utils').check"]);
		const py = ['def a():', '    value = 1/0', 'def b():', '        value = 1/0'];
		assert.deepEqual(after(py, suggest('py', py, 1, '    value = 1 // 0')), ['        value = 1 // 0']);
	});

	it('not a line found more than eight times besides, nor a short one', () => {
		const common = Array.from({ length: 10 }, () => '    value = 1/0');
		assert.equal(suggest('py', common, 0, '    value = 1 // 0'), undefined);
		assert.deepEqual(lines(suggest('py', common.slice(0, 9), 0, '    value = 1 // 0')), [1, 2, 3, 4, 5, 6, 7, 8]);
		assert.equal(suggest('py', ['x = 1/0', 'x = 1/0'], 0, 'x = 1 // 0'), undefined);
	});

	it('a name the edit drops is dropped from a copy only where its block does not use it', () => {
		const text = ['function a(input) {', '  const { doc, cursor } = input;', '  return doc;', '}', 'function b(input) {', '  const { doc, cursor } = input;', '  return doc;', '}', 'function c(input) {', '  const { doc, cursor } = input;', '  return cursor;', '}'];
		assert.deepEqual(after(text, suggest('js', text, 1, '  const { doc } = input;')), ['  const { doc } = input;']);
		assert.deepEqual(lines(suggest('js', text, 1, '  const { doc } = input;')), [5]);
	});

	it('the rules of the edited place still hold: a declaration renamed, a block rewritten', () => {
		const handlers = ['def exception_handler(e):', '    pass', 'def exception_handler(e):', '    pass'];
		assert.equal(suggest('py', handlers, 0, 'def forbidden_handler(e):'), undefined);
		const blocks = ['for item in self.items:', '    a(item)', 'for item in self.items:', '    b(item)'];
		assert.equal(suggest('py', blocks, 0, 'while self.queue:'), undefined);
	});
});
