// Engine 1 (edit-by-example) over plain data: a document, the user's typing, the cursor.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { editByExample } from '../../src/nes-agent/engines/editByExample';
import { KEYWORDS } from '../../src/nes-agent/engines/identifiers';
import { identifierChange } from '../../src/nes-agent/engines/renamePropagation';
import { templateOf } from '../../src/nes-agent/engines/template';
import { singleLineChange } from '../../src/nes-agent/engines/lineChange';
import type { EngineInput, Position, Proposal, TextEdit } from '../../src/nes-agent/engines/types';

const uri = 'file:///project/a.ts';

/** A document the user edits keystroke by keystroke, as the client would report it. */
class Editor {
	readonly doc: TrackedDocument;
	private version = 1;
	cursor: Position = { line: 0, character: 0 };
	constructor(text: string) {
		this.doc = new TrackedDocument(uri, 'typescript', 1, text);
	}
	/** Types `text` at (line, character), one character per change. */
	type(line: number, character: number, text: string): this {
		for (const ch of text) {
			const at = { line, character };
			this.doc.applyChanges([{ range: { start: at, end: at }, text: ch }], ++this.version);
			if (ch === '\n') {
				line++;
				character = 0;
			} else {
				character += ch.length;
			}
		}
		this.cursor = { line, character };
		return this;
	}
	/** Deletes `count` characters before (line, character), one backspace per change. */
	backspace(line: number, character: number, count: number): this {
		for (let i = 0; i < count; i++) {
			this.doc.applyChanges([{ range: { start: { line, character: character - 1 }, end: { line, character } }, text: '' }], ++this.version);
			character--;
		}
		this.cursor = { line, character };
		return this;
	}
	/** Replaces the first whole-word `word` on `line` by typing: backspaces over it, then types `replacement`. */
	retype(line: number, word: string, replacement: string): this {
		const column = new RegExp(`\\b${word}\\b`).exec(this.doc.lineText(line))!.index;
		return this.backspace(line, column + word.length, word.length).type(line, column, replacement);
	}
	/** Applies an edit as the client would when a suggestion is accepted (one change). */
	apply(edit: TextEdit): this {
		this.doc.applyChanges([{ range: edit.range, text: edit.newText }], ++this.version);
		return this;
	}
	input(): EngineInput {
		return { uri, document: this.doc, cursor: this.cursor, lastEdit: this.doc.lastEdit, earlierEdits: this.doc.earlierEdits };
	}
	suggest(): Proposal | undefined {
		return editByExample(this.input());
	}
	text(): string {
		return this.doc.getText();
	}
}

function edits(proposal: Proposal | undefined): TextEdit[] {
	if (!proposal) {
		return [];
	}
	return proposal.kind === 'edits' ? [...proposal.edits] : proposal.occurrences.map((range) => ({ range, newText: proposal.newName }));
}

/** Applies non-overlapping single-line edits to `text` (from the end, so earlier ones keep their positions). */
function applyAll(text: string, list: readonly TextEdit[]): string {
	const lines = text.split('\n');
	const sorted = [...list].sort((a, b) => b.range.start.line - a.range.start.line || b.range.start.character - a.range.start.character);
	for (const e of sorted) {
		const line = lines[e.range.start.line]!;
		lines[e.range.start.line] = line.slice(0, e.range.start.character) + e.newText + line.slice(e.range.end.character);
	}
	return lines.join('\n');
}

function replacedText(doc: TrackedDocument, edit: TextEdit): string {
	return doc.lineText(edit.range.start.line).slice(edit.range.start.character, edit.range.end.character);
}

describe('rename propagation', () => {
	const source = ['function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price;', '  }', '  return sum;', '}', ''].join('\n');

	it('finishes a rename the user typed at a use: every other occurrence, nearest first, the declaration recognized', () => {
		const e = new Editor(source).retype(5, 'sum', 'total');
		// `total` is also the function's name: pointing a use at another symbol is not a rename.
		assert.equal(e.suggest(), undefined);
		const f = new Editor(source).retype(5, 'sum', 'subtotal');
		const p = f.suggest();
		assert.ok(p?.kind === 'rename');
		assert.equal(p.oldName, 'sum');
		assert.equal(p.newName, 'subtotal');
		assert.equal(p.editedDeclaration, false);
		assert.deepEqual(p.declaration, { line: 1, character: 6 });
		assert.deepEqual(
			p.occurrences.map((r) => r.start),
			[
				{ line: 3, character: 4 },
				{ line: 1, character: 6 },
			],
		);
		assert.equal(applyAll(f.text(), edits(p)), source.replace(/\bsum\b/g, 'subtotal'));
	});

	it('knows when the user renamed the declaration itself', () => {
		const p = new Editor(source).retype(1, 'sum', 'acc').suggest();
		assert.ok(p?.kind === 'rename');
		assert.equal(p.editedDeclaration, true);
		assert.equal(p.declaration, undefined);
		assert.equal(p.occurrences.length, 2);
	});

	it('follows the new name while it is being typed, and is silent once the old name is gone', () => {
		const e = new Editor(source).backspace(1, 9, 3);
		assert.equal(e.suggest(), undefined, 'nothing typed yet: no new name');
		for (const [typed, name] of [
			['r', 'r'],
			['e', 're'],
			['s', 'res'],
		] as const) {
			e.type(1, 6 + name.length - 1, typed);
			const p = e.suggest();
			assert.ok(p?.kind === 'rename', name);
			assert.equal(p.newName, name);
		}
		// Accept every remaining edit, one at a time, as the client would.
		for (let guard = 0; guard < 10; guard++) {
			const p = e.suggest();
			if (!p) {
				break;
			}
			e.apply(edits(p)[0]!);
		}
		assert.equal(e.text(), source.replace(/\bsum\b/g, 'res'));
		assert.equal(e.suggest(), undefined);
	});

	it('keeps going after a suggestion is accepted on the same line as another occurrence', () => {
		const text = 'const a = width * width;\nconst width = 3;\n';
		const e = new Editor(text).retype(1, 'width', 'w');
		let p = e.suggest();
		assert.ok(p?.kind === 'rename');
		for (let guard = 0; p && guard < 5; guard++) {
			e.apply(edits(p)[0]!);
			p = e.suggest();
		}
		assert.equal(e.text(), 'const a = w * w;\nconst w = 3;\n');
	});

	it('is silent for keywords, for a non-identifier change, for a word that no longer occurs, and for a name now used elsewhere', () => {
		assert.equal(new Editor('let a = 1;\nlet b = 2;\n').retype(0, 'let', 'const').suggest()?.kind, 'edits', 'a keyword: a template, not a rename');
		assert.equal(new Editor('let x: i8 = 1;\nlet y: i8 = 2;\n').retype(0, 'i8', 'i16').suggest()?.kind, 'edits', 'a built-in type: a template, not a rename');
		assert.equal(new Editor('foo(1);\nfoo(2);\n').type(0, 3, '.bar').suggest(), undefined);
		assert.equal(new Editor('const only = 1;\n').retype(0, 'only', 'single').suggest(), undefined);
		assert.equal(new Editor('x = a + b;\ny = a;\n').retype(0, 'a', 'b').suggest(), undefined);
	});

	it('matches whole words only, case-sensitively', () => {
		const e = new Editor('const id = 1;\nconst idx = id;\nconst ID = id + Id;\n').retype(0, 'id', 'key');
		const p = e.suggest();
		assert.ok(p?.kind === 'rename');
		assert.deepEqual(
			p.occurrences.map((r) => `${r.start.line}:${r.start.character}`),
			['1:12', '2:11'],
		);
	});

	it('reads identifierChange only from single whole-word changes', () => {
		const change = (oldLine: string, newLine: string) => identifierChange({ startLine: 0, oldLines: [oldLine], newLines: [newLine] });
		assert.deepEqual(change('a(foo)', 'a(fooBar)'), { line: 0, column: 2, oldName: 'foo', newName: 'fooBar' });
		assert.deepEqual(change('a(fooBar)', 'a(foo)'), { line: 0, column: 2, oldName: 'fooBar', newName: 'foo' });
		assert.deepEqual(change('$el.x', '$root.x'), { line: 0, column: 0, oldName: '$el', newName: '$root' });
		assert.equal(change('a(foo)', 'a(foo, 1)'), undefined);
		assert.equal(change('a(foo)', 'a(f o)'), undefined);
		assert.equal(change('a(foo)', 'a(1foo)'), undefined);
		assert.equal(change('x = y', 'x = y'), undefined);
		assert.equal(identifierChange({ startLine: 0, oldLines: ['a', 'b'], newLines: ['a'] }), undefined);
	});

	// Property: for any identifier renamed at any occurrence, the engine proposes exactly the
	// remaining occurrences, and applying them all gives the document renamed everywhere.
	it('stays silent when a use is changed and only the declaration is left, or only imports', () => {
		const replaced = new Editor(['const killedAt = performance.now();', 'report(Date.now() - killedAt);', ''].join('\n')).retype(1, 'killedAt', 'exitedAt');
		assert.equal(replaced.suggest(), undefined);
		const imported = new Editor(["import { AgentManager } from './agentManager';", '', 'function f(agents: AgentManager) {}', ''].join('\n')).retype(2, 'AgentManager', 'NesAgentSource');
		assert.equal(imported.suggest(), undefined);
		// Unless a function's misspelt name was fixed at its one use: its declaration follows. A variable's does not.
		const misspelt = new Editor(['init(self);', '', 'function sigletonify (inst) {', '}', 'sigletonify(self);', ''].join('\n')).retype(4, 'sigletonify', 'singletonify');
		const fix = misspelt.suggest();
		assert.deepEqual(fix?.kind === 'rename' ? fix.occurrences.map((o) => o.start.line) : undefined, [2]);
		assert.equal(new Editor(['const total1 = 0;', 'log(total1);', ''].join('\n')).retype(1, 'total1', 'total2').suggest(), undefined);
		assert.equal(new Editor(['function loadAll() {}', 'loadAll();', ''].join('\n')).retype(1, 'loadAll', 'saveAll').suggest(), undefined);
		// With another use left, it is a rename: the declaration and that use follow.
		const renamed = new Editor(['const total = 0;', 'log(total);', 'send(total);', ''].join('\n')).retype(1, 'total', 'sum');
		assert.equal(renamed.suggest()?.kind, 'rename');
	});

	it('proposes exactly the remaining occurrences, for generated documents and renames', () => {
		const name = fc.stringMatching(/^[a-z][a-zA-Z0-9]{0,6}$/);
		fc.assert(
			fc.property(name, name, fc.array(fc.nat(4), { minLength: 2, maxLength: 12 }), fc.nat(), (oldName, newName, shapes, which) => {
				fc.pre(oldName !== newName && !KEYWORDS.has(oldName) && !KEYWORDS.has(newName));
				const templates = [`const ${oldName} = 1;`, `call(${oldName});`, `// ${oldName}x not this one`, `return ${oldName} + ${oldName};`, `other();`];
				const lines = shapes.map((s) => templates[s]!);
				const text = lines.join('\n') + '\n';
				fc.pre(!new RegExp(`\\b${newName}\\b`).test(text));
				const occurrences = lines.flatMap((l, line) => [...l.matchAll(new RegExp(`\\b${oldName}\\b`, 'g'))].map((m) => ({ line, character: m.index })));
				fc.pre(occurrences.length >= 2);
				// One declaration, which a rename at a use needs (a name this file does not declare is a
				// template's business); a second `const` of the same name is another variable.
				fc.pre(lines.filter((l) => l.startsWith('const')).length === 1);
				const at = occurrences[which % occurrences.length]!;
				// A use changed with nothing but the declaration left is a variable being replaced, not renamed: silent (tested below).
				const remaining = occurrences.filter((o) => o !== at);
				fc.pre(lines[at.line]!.startsWith('const') || !(remaining.length === 1 && lines[remaining[0]!.line]!.startsWith('const')));
				const e = new Editor(text).backspace(at.line, at.character + oldName.length, oldName.length).type(at.line, at.character, newName);
				const p = e.suggest();
				assert.ok(p?.kind === 'rename');
				assert.equal(p.occurrences.length, occurrences.length - 1);
				assert.equal(applyAll(e.text(), edits(p)), text.replace(new RegExp(`\\b${oldName}\\b`, 'g'), newName));
			}),
			{ numRuns: 300 },
		);
	});
});

describe('repeated transformation', () => {
	it('a new parameter where a function is declared is not repeated on its calls', () => {
		const text = ['function preset(name: string, install: string) {', '\treturn name;', '}', "preset('a', 'npm i a');", "preset('b', 'npm i b');", ''].join('\n');
		const declared = new Editor(text).type(0, text.indexOf(')'), ', registryId: string');
		assert.equal(declared.suggest(), undefined);
		const summary = ['function summary(samples: number[]) {}', 'summary(a);', 'summary(b);', ''].join('\n');
		const typed = new Editor(summary).type(0, summary.indexOf(')'), ', cpu?: number[]');
		assert.equal(typed.suggest(), undefined);
		// The same new argument typed at a call is repeated on the other calls.
		const call = new Editor(summary).type(1, 'summary(a'.length, ', cpu');
		assert.equal(call.suggest()?.kind, 'edits');
	});

	it('var to const: the other declarations, nearest first, never the edited line', () => {
		const text = ['var a = 1;', 'var b = 2;', 'foo(a, b);', 'var c = 3;', '  var d = 4;', 'const e = 5;', 'avar f = 6;', ''].join('\n');
		const e = new Editor(text).retype(1, 'var', 'const');
		const p = e.suggest();
		assert.ok(p?.kind === 'edits');
		assert.deepEqual(
			p.edits.map((x) => [x.range.start.line, x.range.start.character, x.newText]),
			[
				[0, 0, 'const'],
				[3, 0, 'const'],
				[4, 2, 'const'],
			],
		);
		assert.ok(p.edits.every((x) => replacedText(e.doc, x) === 'var'));
	});

	it('an added `await `: calls of the same function assigned the same way', () => {
		const text = ['const a = fetch(x);', 'const b = fetch(y);', 'let c = fetch(z);', 'const d = await fetch(w);', 'prefetch(q);', 'const e = other(v);', ''].join('\n');
		const p = new Editor(text).type(0, 10, 'await ').suggest();
		assert.ok(p?.kind === 'edits');
		assert.deepEqual(
			p.edits.map((x) => [x.range.start.line, x.range.start.character, x.newText]),
			[
				[1, 10, 'await '],
				[2, 8, 'await '],
			],
		);
	});

	it('a new last argument: every call of that function with arguments', () => {
		const text = ['log(a, b);', 'log(c);', 'log();', 'log(d, ctx);', 'blog(e);', 'x.log(f)', ''].join('\n');
		const e = new Editor(text).type(0, 8, ', ctx');
		const p = e.suggest();
		assert.ok(p?.kind === 'edits');
		const after = applyAll(e.text(), p.edits);
		assert.equal(after, ['log(a, b, ctx);', 'log(c, ctx);', 'log();', 'log(d, ctx);', 'blog(e);', 'x.log(f, ctx)', ''].join('\n'));
	});

	it('a method swapped for another where both names already occur: only the same call shape', () => {
		const text = ['assert.equal(a, 1);', 'assert.strictEqual(b, 2);', 'assert.equal(c, 3);', 'equal(d);', 'other.equal(e);', ''].join('\n');
		const p = new Editor(text).retype(0, 'equal', 'strictEqual').suggest();
		assert.ok(p?.kind === 'edits');
		assert.deepEqual(
			p.edits.map((x) => x.range.start),
			[{ line: 2, character: 7 }],
		);
	});

	it('stays silent on whitespace, on punctuation-only templates, and when nothing else matches', () => {
		assert.equal(new Editor('a();\nb();\n').type(0, 0, '  ').suggest(), undefined);
		assert.equal(new Editor('a()\nb()\n').type(0, 3, ';').suggest(), undefined);
		assert.equal(new Editor('var a = 1;\nlet b = 2;\n').retype(0, 'var', 'const').suggest(), undefined);
		assert.equal(new Editor('one\ntwo\n').suggest(), undefined, 'no edit yet');
	});

	it('after an accepted suggestion the next one follows (a chain), until every place is done', () => {
		const lines = Array.from({ length: 30 }, (_, i) => (i % 3 === 0 ? `var v${i} = ${i};` : `use(v${i - (i % 3)});`));
		const e = new Editor(lines.join('\n')).retype(0, 'var', 'let');
		let count = 0;
		for (let p = e.suggest(); p; p = e.suggest()) {
			e.apply(edits(p)[0]!);
			count++;
			assert.ok(count < 20);
		}
		assert.equal(count, 9);
		assert.equal(e.text(), lines.join('\n').replace(/^var /gm, 'let '));
	});

	it('templates: trimmed to whole tokens, anchors kept', () => {
		const change = singleLineChange({ startLine: 4, oldLines: ['  let x = 1;'], newLines: ['  const x = 1;'] })!;
		assert.deepEqual([change.line, change.start], [4, 2]);
		const t = templateOf(change)!;
		assert.equal(t.removed, 'let');
		assert.equal(t.inserted, 'const');
		assert.ok(t.pattern.test('\tlet yy = 2;'));
		t.pattern.lastIndex = 0;
		assert.ok(!t.pattern.test('x = let;'));
	});

	// Property: whatever the document and the edit, a proposal is never a no-op, never outside the
	// document, never on the line the user just edited, and never two edits at one place.
	it('never proposes a no-op or a place outside the document, over generated documents and edits', () => {
		const word = fc.constantFrom('var', 'let', 'const', 'foo', 'bar', 'await', 'x', 'y', '(', ')', ',', ' ', ';', '=', '1');
		const line = fc.array(word, { maxLength: 8 }).map((w) => w.join(''));
		fc.assert(
			fc.property(fc.array(line, { minLength: 1, maxLength: 15 }), fc.nat(), fc.nat(), fc.nat(3), word, (lines, l, c, del, ins) => {
				const text = lines.join('\n');
				const e = new Editor(text);
				const lineNo = l % lines.length;
				const col = c % (lines[lineNo]!.length + 1);
				const remove = Math.min(del, col);
				if (remove > 0) {
					e.backspace(lineNo, col, remove);
				}
				e.type(lineNo, col - remove, ins);
				const p = e.suggest();
				const list = edits(p);
				const places = new Set<string>();
				for (const x of list) {
					assert.ok(x.range.start.line >= 0 && x.range.start.line < e.doc.lineCount);
					assert.ok(x.range.end.character <= e.doc.lineText(x.range.start.line).length);
					assert.notEqual(replacedText(e.doc, x), x.newText, 'a no-op');
					const key = `${x.range.start.line}:${x.range.start.character}`;
					assert.ok(!places.has(key));
					places.add(key);
					if (p?.kind === 'edits') {
						assert.notEqual(x.range.start.line, lineNo);
					}
				}
			}),
			{ numRuns: 500 },
		);
	});
});

describe('repeated transformation: staying silent when unsure', () => {
	it('a new argument is added to calls, never to the function’s declaration', () => {
		const text = ['function toItem(choice: string, current: number) {', '}', 'toItem(a, b);', 'toItem(c, d);', 'class X {', '  toItem(e, f) {', '  }', '}', ''].join('\n');
		const p = new Editor(text).type(2, 11, ', true').suggest();
		assert.ok(p?.kind === 'edits');
		assert.deepEqual(
			p.edits.map((x) => x.range.start.line),
			[3],
		);
	});

	it('an insertion between punctuation and a generic name is not repeated (nothing literal anchors it)', () => {
		const text = ["files: ['**/*.mjs', '**/*.js'],", "other: ['a.ts', 'b.js'],", ''].join('\n');
		assert.equal(new Editor(text).type(0, 29, ", '**/*.cjs'").suggest(), undefined);
	});

	it('a rewrite of most of a line is not a template', () => {
		const text = ["import { A } from './a';", "import { A } from './a';", ''].join('\n');
		assert.equal(new Editor(text).backspace(0, 22, 13).type(0, 9, 'B, C, D } from "./b/c/d').suggest(), undefined);
	});
});

describe('repeated transformation: code for code, comments for comments', () => {
	it('an edit of code is not repeated in comments, nor the other way round', () => {
		const text = ['// usage: run [--port N] [--fresh]', "print('usage: run [--port N] [--fresh]');", "print('usage: run [--port N] [--fresh] [--quiet]');", '/* usage: run [--port N] [--fresh] */', ''].join('\n');
		const code = new Editor(text).type(1, 23, '[--folder D] ').suggest();
		assert.ok(code?.kind === 'edits');
		assert.deepEqual(
			code.edits.map((x) => x.range.start.line),
			[2],
		);
		const comment = new Editor(text).type(0, 20, '[--folder D] ').suggest();
		assert.ok(comment?.kind === 'edits');
		assert.deepEqual(
			comment.edits.map((x) => x.range.start.line),
			[3],
		);
	});
});
