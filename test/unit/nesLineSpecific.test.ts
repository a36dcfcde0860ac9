// Edits that belong to their own line (`lineSpecific.ts`) and the gate (`gate.ts`): one small case
// each, in the language whose histories showed the family of wrong suggestions.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { changeKind, confidence, languageOf, lineRole, speaks, type GateFeatures } from '../../src/nes-agent/engines/gate';
import { THRESHOLDS } from '../../src/nes-agent/engines/gateWeights';
import type { Proposal } from '../../src/nes-agent/engines/types';
import { places, suggestAfterLineEdit } from '../shared/nesLineEdit';

const FILES = { cs: 'csharp', go: 'go', java: 'java', kt: 'kotlin', rs: 'rust', php: 'php', rb: 'ruby', ts: 'typescript' } as const;

/**
 * `lines` with line `line` changed to `now`, then engine 1's rules asked at the end of the change:
 * where they propose, before the gate weighs it (the gate's own tests are below and in
 * `nesIntent.test.ts`). Silence asserted here is the rules' own, the gate aside.
 */
function suggest(ext: keyof typeof FILES, lines: string[], line: number, now: string): Proposal | undefined {
	return suggestAfterLineEdit(ext, FILES[ext], lines, line, now, true);
}

describe('edits that belong to their own line', () => {
	it("a declaration's modifier is not copied to other declarations (C#, Java)", () => {
		const cs = ['public class Parser', '{', '}', 'public class Writer', '{', '}'];
		assert.equal(suggest('cs', cs, 0, 'public sealed class Parser'), undefined);
		const java = ['    protected String name(String s) {', '    }', '    protected String title(String s) {', '    }'];
		assert.equal(suggest('java', java, 0, '    public String name(String s) {'), undefined);
	});

	it('a parameter declared is not passed at the calls (C#, Go)', () => {
		const cs = ['void Log(string message)', '{', '}', 'Log("started");', 'Log("stopped");'];
		assert.equal(suggest('cs', cs, 0, 'void Log(string message, int level)'), undefined);
		const go = ['func (e *Echo) File(path, file string) *Route {', '\treturn e.file(path, file)', '}', 'e.File(a, b)'];
		assert.equal(suggest('go', go, 0, 'func (e *Echo) File(path, file string, m ...MiddlewareFunc) *Route {'), undefined);
	});

	it("an insertion made of the line's own name goes only where that name is (a Go struct tag)", () => {
		const go = ['type Config struct {', '\tAllowOrigins []string', '\tAllowMethods []string', '}', 'var AllowOrigins []string'];
		assert.deepEqual(places(suggest('go', go, 1, '\tAllowOrigins []string `json:"allow_origins"`')), ['4:25']);
	});

	it("a new expression's type arguments dropped for the diamond: only other new expressions, never declarations", () => {
		const java = ['List<String> a = new ArrayList<String>();', 'List<String> b = new LinkedList<String>();', 'private List<String> names;'];
		assert.deepEqual(places(suggest('java', java, 0, 'List<String> a = new ArrayList<>();')), ['1:32']);
	});

	it('a bracket swapped: only lines that leave brackets open alike (a Ruby block opened, not one closed on its line)', () => {
		const rb = ['list.map { |x|', '  x * 2', '}', 'items.map { |x|', '  x + 1', '}', 'names.map { |x| x.to_s }'];
		assert.deepEqual(places(suggest('rb', rb, 0, 'list.map do |x|')), ['3:10']);
	});

	it("a function's head changed goes to other heads, not to calls (Ruby parentheses)", () => {
		const rb = ['class Response', '  def add_header key, v', '    set_header key, v', '  end', '  def set_header key, v', '    @headers[key] = v', '  end', 'end'];
		assert.deepEqual(places(suggest('rb', rb, 1, '  def add_header(key, v)')), ['4:16']);
	});

	it('a name imported renamed: not where it is qualified by another namespace (PHP), nor a path segment of an import (Rust)', () => {
		const php = ['<?php', 'use Monolog\\DateTimeImmutable;', 'function record(\\DateTimeImmutable $at = new DateTimeImmutable(true)) {}'];
		assert.deepEqual(places(suggest('php', php, 1, 'use Monolog\\JsonDateTimeImmutable;')), ['2:45']);
		const rs = ['use clap::Parser;', '', 'fn main() {', '    let cli = clap(1);', '    let other = clap(2);', '}'];
		assert.equal(suggest('rs', rs, 3, '    let cli = command(1);'), undefined);
	});

	it("a parameter renamed in a doc comment is the documented member's own (Java @param)", () => {
		const java = ['    /**', '     * @param sb The StringBuffer to place the rendered text into.', '     */', '    void render(StringBuffer sb) {}', '    /**', '     * @param sb The StringBuffer to place the rendered text into.', '     */', '    void renderAll(StringBuffer sb) {}'];
		assert.equal(suggest('java', java, 1, '     * @param appendable The StringBuffer to place the rendered text into.'), undefined);
	});

	it("an attribute's name changed goes only to attributes as deeply nested: a struct's is not its fields' (Rust)", () => {
		const rs = ['#[derive(Parser)]', '#[clap(author, version)]', 'struct Cli {', '    #[clap(short, long)]', '    verbose: bool,', '}', '#[clap(name = "other")]', 'struct Other {}'];
		assert.deepEqual(places(suggest('rs', rs, 1, '#[command(author, version)]')), ['6:2']);
	});

	it('a preprocessor condition is its own (C# #if)', () => {
		const cs = ['#if NET45', 'using A;', '#endif', '#if NET45', 'using B;', '#endif'];
		assert.equal(suggest('cs', cs, 0, '#if NET46'), undefined);
	});

	it('doc comment prose reworded stays on its line outside JavaScript and Python; a misspelling is still fixed', () => {
		const java = ['/**', ' * @param sb the buffer to write to', ' */', '/**', ' * @param sb the buffer', ' */'];
		assert.equal(suggest('java', java, 1, ' * @param out the buffer to write to'), undefined);
		const typo = ['// the recieved value', 'int a;', '// a recieved header'];
		assert.deepEqual(places(suggest('java', typo, 0, '// the received value')), ['2:5']);
		const phrase = ['    /** Returns a source that reads from `path`. */', '    fun source(path: Path): Source', '    /** Returns a source that reads from `file`. */', '    fun source(file: File): Source'];
		assert.equal(suggest('kt', phrase, 0, '    /** Returns a sink that writes to `path`. */'), undefined, 'a phrase replaced is rewording, its rare words notwithstanding');
	});

	it('a member renamed where it is declared is not copied to namesakes of other types (C# method, Go and Rust struct fields, a Java field)', () => {
		const cs = ['class A', '{', '    public void Should_use_implicit()', '    {', '    }', '}', 'class B', '{', '    public void Should_use_implicit()', '    {', '    }', '}'];
		assert.equal(suggest('cs', cs, 2, '    public void Should_use_explicit()'), undefined);
		const go = ['type A struct {', '\tApp    *Command', '}', 'type B struct {', '\tApp    *Command', '}'];
		assert.equal(suggest('go', go, 1, '\tCommand    *Command'), undefined);
		const rs = ['struct A {', '    pub name: String,', '}', 'struct B {', '    pub name: String,', '}'];
		assert.equal(suggest('rs', rs, 1, '    pub title: String,'), undefined);
		const java = ['class A {', '    private int count;', '}', 'class B {', '    private int count;', '}'];
		assert.equal(suggest('java', java, 1, '    private int total;'), undefined);
	});

	it('`public` taken off a Java test method goes to the other test methods; in other Java code it stays with its member', () => {
		const tests = ['class ParserTest {', '    @Test', '    public void testEmpty() {', '    }', '    @Test', '    public void testLong() {', '    }', '}'];
		assert.deepEqual(places(suggestAfterLineEdit('java', 'java', tests, 2, '    void testEmpty() {', true, 'src/test/java/ParserTest.java')), ['5:4']);
		assert.equal(suggestAfterLineEdit('java', 'java', tests, 2, '    void testEmpty() {', true, 'src/main/java/Parser.java'), undefined);
	});

	it('a name this file does not declare, respelt, is renamed where it is used (C#, Go); an unrelated name or a member is not', () => {
		const cs = ['private readonly IList<string> _names;', 'public IList<string> Names => _names;', 'IList<string> Copy() => _names;'];
		assert.deepEqual(places(suggest('cs', cs, 0, 'private readonly List<string> _names;')), ['1:7', '2:0']);
		const java = ['    public final Snippet fileComment;', '    Snippet header() {', '        return Snippet.of("x");', '    }'];
		assert.equal(suggest('java', java, 0, '    public final CodeBlock fileComment;')?.kind === 'rename', false, 'another type, not a new spelling');
		const go = ['func a(command *Command) {', '	if len(command.Subcommands) > 0 {', '		use(command.Subcommands)', '	}', '}'];
		assert.notEqual(suggest('go', go, 1, '	if len(command.Commands) > 0 {')?.kind, 'rename');
	});

	it('declarations by their type or by := stay in their block (Java local, Go): another function keeps its own', () => {
		const java = ['    void a() {', '        final OptionGroup grp = new OptionGroup();', '        grp.add(x);', '    }', '    void b() {', '        final OptionGroup grp = new OptionGroup();', '        grp.add(y);', '    }'];
		assert.deepEqual(places(suggest('java', java, 1, '        final OptionGroup optionGroup = new OptionGroup();')), ['2:8']);
		const go = ['func a() {', '	defaultTs, _ := parse()', '	use(defaultTs)', '}', 'func b() {', '	defaultTs, _ := parse()', '	use(defaultTs)', '}'];
		assert.deepEqual(places(suggest('go', go, 1, '	defaultTS, _ := parse()')), ['2:5']);
	});

	it('a name turned into its opposite is what one assertion expects (Go `NotContainsf`, Rust `is_err`); an attribute made read-only is that attribute (Ruby)', () => {
		const go = ['\tr.Containsf(', '\t\tout, "a")', '\tr.Containsf(', '\t\tout, "b")'];
		assert.equal(suggest('go', go, 0, '\tr.NotContainsf('), undefined);
		const rs = ['    assert!(parse("a").is_ok());', '    assert!(parse("b").is_ok());'];
		assert.equal(suggest('rs', rs, 0, '    assert!(parse("a").is_err());'), undefined);
		const rb = ['class Parser', '  attr_accessor :params_class', '  attr_accessor :limit', 'end'];
		assert.equal(suggest('rb', rb, 1, '  attr_reader :params_class'), undefined);
	});

	it("a local given another name where it is declared is that function's own (Go :=, JavaScript let)", () => {
		const go = ['func TestFish(t *testing.T) {', '\tapp := testApp()', '\tapp.Run()', '}', 'func TestZsh(t *testing.T) {', '\tapp := testApp()', '\tapp.Run()', '}'];
		assert.equal(suggest('go', go, 1, '\tcmd := testFishCommand()'), undefined);
		const ts = ['it("a", () => {', '  let result = round(1);', '});', 'it("b", () => {', '  let result = round(2);', '});'];
		assert.equal(suggest('ts', ts, 1, '  const resultA = roundWith(1);'), undefined);
	});

	it("a test's description reworded stays with its test (Ruby); a misspelling or a word's case is still repeated", () => {
		const rb = ['  it "prints a table with small numbers" do', '  end', '  it "prints a table with big numbers" do', '  end'];
		assert.equal(suggest('rb', rb, 0, '  it "prints a table with small numbers, and right-aligns them" do'), undefined);
		const typo = ['  it "excepts underscores in args" do', '  end', '  it "excepts dashes in args" do', '  end'];
		assert.deepEqual(places(suggest('rb', typo, 0, '  it "accepts underscores in args" do')), ['2:6']);
	});

	it("a local's use replaced by another name goes only where that local is declared (Go, Rust)", () => {
		const go = ['func a(f Flag) {', '\tfor _, flag := range flags {', '\t\tuse(flag.Names())', '\t\tuse(flag.Names())', '\t}', '}', 'func b() {', '\tfor _, flag := range other {', '\t\tuse(flag.Names())', '\t}', '}'];
		assert.deepEqual(places(suggest('go', go, 2, '\t\tuse(f.Names())')), ['3:6']);
		const rs = ['fn a(cmd: &Command, subcommand: &Command) {', '    let about = cmd', '        .get_about();', '}', 'fn b(cmd: &Command) {', '    let about = cmd', '        .get_about();', '}'];
		assert.equal(suggest('rs', rs, 1, '    let about = subcommand'), undefined);
	});

	it("a pattern variable named after a type test is that branch's own (C# is, Java instanceof)", () => {
		const cs = ['if (value is BigInteger)', '    Write((BigInteger)value);', 'if (value is BigInteger)', '    Write((BigInteger)value);', 'if (other is BigInteger)', '    Write((BigInteger)other);'];
		assert.equal(suggest('cs', cs, 0, 'if (value is BigInteger integer)'), undefined);
		const java = ['if (x instanceof Foo) {', '}', 'if (y instanceof Foo) {', '}'];
		assert.equal(suggest('java', java, 0, 'if (x instanceof Foo foo) {'), undefined);
	});

	it('a name added left of an assignment goes only where the same call is assigned (Go)', () => {
		const go = ['\tif val, ok := fromEnv(f.EnvVars); ok {', '\t}', '\tif slice, ok := f.Value.(*Slice); ok {', '\t}', '\tif v, ok := fromEnv(g.EnvVars); ok {', '\t}'];
		assert.deepEqual(places(suggest('go', go, 0, '\tif val, ok, source := fromEnv(f.EnvVars); ok {')), ['4:9']);
		const blank = ['\th := tr.Find(a)', '\th := other.Find(c)', '\th := tr.Find(b)'];
		assert.deepEqual(places(suggest('go', blank, 0, '\th, _ := tr.Find(a)')), ['2:2']);
	});
});

describe('gate', () => {
	const base: GateFeatures = { rule: 'repeated', lang: 'go', text: 'code', change: 'name', sites: '1', distance: '3', alike: 'same', line: 'call', where: 'middle', size: '2', covered: 'all', seen: '0', ratio: 'small', head: 'same', context: 'same', names: 'new' };

	it('names the language, the kind of change and the role of the line', () => {
		assert.equal(languageOf('csharp', 'file:///a.cs'), 'csharp');
		assert.equal(languageOf(undefined, 'file:///a/b.rs'), 'rust');
		assert.equal(languageOf('haskell', 'file:///a.hs'), 'other');
		assert.equal(changeKind('List', 'Set'), 'name');
		assert.equal(changeKind('', 'static '), 'modifier');
		assert.equal(changeKind('<String>', '<>'), 'generic');
		assert.equal(changeKind('1', '2'), 'literal');
		assert.equal(lineRole('import java.util.List;'), 'import');
		assert.equal(lineRole('    public void run() {'), 'declaration');
		assert.equal(lineRole('if (x) {'), 'control');
		assert.equal(lineRole('foo(bar);'), 'call');
	});

	it('says what is likelier right than wrong, keeps back the rest, and lets its own rules through in JavaScript and Python', () => {
		const worse: GateFeatures = { ...base, alike: 'unlike', sites: 'many', change: 'keyword', line: 'control' };
		assert.ok(confidence(base) > confidence(worse));
		assert.equal(speaks(base), confidence(base) >= THRESHOLDS['go']!);
		assert.equal(speaks({ ...worse, lang: 'js' }), true);
		assert.equal(speaks({ ...worse, lang: 'py' }), true);
		assert.equal(speaks({ ...worse, lang: 'other' }), true, 'a language the gate was not fitted on');
		assert.equal(confidence(base, {}, 0), 0.5, 'no weights: even odds');
	});
});
