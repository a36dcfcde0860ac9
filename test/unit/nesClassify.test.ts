import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { asGhost, classify, followGhost, insertionOf, pickBest, type Presentation } from '../../src/common/nes/classify';
import type { NesSuggestion } from '../../src/common/nes/protocol';

const uri = 'file:///project/a.ts';
const other = 'file:///project/b.ts';
const lines = ['function add(a, b) {', '\treturn a', '}', '', 'const x = add(1, 2);'];
const lineText = (l: number) => lines[l];
const at = (line: number, character: number) => ({ line, character });
const range = (sl: number, sc: number, el: number, ec: number) => ({ start: at(sl, sc), end: at(el, ec) });
const edit = (id: string, edits: { range: ReturnType<typeof range>; newText: string }[], u = uri): NesSuggestion => ({ kind: 'edit', id, uri: u, edits });
const cursorAt = (line: number, character: number, u = uri) => ({ uri: u, position: at(line, character) });

describe('insertionOf', () => {
	it('finds one inserted run between a common prefix and suffix', () => {
		assert.deepEqual(insertionOf('ab', 'aXYb'), { offset: 1, text: 'XY' });
		assert.deepEqual(insertionOf('', 'new'), { offset: 0, text: 'new' });
		assert.deepEqual(insertionOf('abc', 'abcd'), { offset: 3, text: 'd' });
	});
	it('is undefined for replacements, deletions and two separate insertions', () => {
		assert.equal(insertionOf('abc', 'axc'), undefined);
		assert.equal(insertionOf('abc', 'ab'), undefined);
		assert.equal(insertionOf('ab', 'XaYb'), undefined);
		assert.equal(insertionOf('same', 'same'), undefined);
	});
});

describe('classify: edits', () => {
	it('an insertion at the cursor is ghost text', () => {
		const p = classify(edit('1', [{ range: range(1, 9, 1, 9), newText: ' + b;' }]), cursorAt(1, 9), lineText);
		assert.equal(p.kind, 'ghost');
		assert.ok(p.kind === 'ghost');
		assert.deepEqual(p.range, range(1, 9, 1, 9));
		assert.equal(p.insertText, ' + b;');
	});

	it('an insertion after the cursor on its line is ghost text that spans the text in between', () => {
		const p = classify(edit('1', [{ range: range(4, 18, 4, 18), newText: ', 3' }]), cursorAt(4, 14), lineText);
		assert.ok(p.kind === 'ghost');
		assert.deepEqual(p.range, range(4, 14, 4, 18));
		assert.equal(p.insertText, '1, 2, 3');
		assert.equal(p.text, ', 3');
	});

	it('a replacement whose new text keeps the old text around an insertion is ghost text', () => {
		// "\treturn a" -> "\treturn a + b" written as a replacement of the whole line content
		const p = classify(edit('1', [{ range: range(1, 0, 1, 9), newText: '\treturn a + b' }]), cursorAt(1, 9), lineText);
		assert.ok(p.kind === 'ghost');
		assert.equal(p.insertText, ' + b');
		assert.deepEqual(p.at, at(1, 9));
	});

	it('an insertion before the cursor is a preview (ghost text cannot show behind the cursor)', () => {
		assert.equal(classify(edit('1', [{ range: range(1, 1, 1, 1), newText: 'x' }]), cursorAt(1, 9), lineText).kind, 'preview');
	});

	it('edits on another line, deletions, replacements, several edits and other files are previews', () => {
		const cursor = cursorAt(1, 9);
		assert.equal(classify(edit('1', [{ range: range(4, 0, 4, 0), newText: 'export ' }]), cursor, lineText).kind, 'preview');
		assert.equal(classify(edit('2', [{ range: range(1, 1, 1, 7), newText: '' }]), cursor, lineText).kind, 'preview');
		assert.equal(classify(edit('3', [{ range: range(1, 8, 1, 9), newText: 'b' }]), cursor, lineText).kind, 'preview');
		assert.equal(
			classify(edit('4', [{ range: range(1, 9, 1, 9), newText: ';' }, { range: range(4, 0, 4, 0), newText: '// ' }]), cursor, lineText).kind,
			'preview',
		);
		assert.equal(classify(edit('5', [{ range: range(1, 9, 1, 9), newText: ';' }], other), cursor, lineText).kind, 'preview');
		assert.equal(classify(edit('6', [{ range: range(1, 9, 2, 0), newText: ';' }]), cursor, lineText).kind, 'preview');
	});

	it('keeps cursorPosition', () => {
		const s: NesSuggestion = { kind: 'edit', id: '1', uri, edits: [{ range: range(4, 0, 4, 0), newText: 'export ' }], cursorPosition: at(4, 7) };
		const p = classify(s, cursorAt(0, 0), lineText);
		assert.ok(p.kind === 'preview');
		assert.deepEqual(p.cursorPosition, at(4, 7));
	});

	it('refuses edits without edits, with reversed or overlapping ranges, and no-ops', () => {
		const cursor = cursorAt(0, 0);
		const reasons = [
			classify(edit('1', []), cursor, lineText),
			classify(edit('2', [{ range: range(1, 5, 1, 2), newText: 'x' }]), cursor, lineText),
			classify(edit('3', [{ range: range(1, 0, 1, 5), newText: 'x' }, { range: range(1, 3, 1, 7), newText: 'y' }]), cursor, lineText),
			classify(edit('4', [{ range: range(1, 1, 1, 7), newText: 'return' }]), cursor, lineText),
		];
		for (const p of reasons) {
			assert.equal(p.kind, 'invalid', JSON.stringify(p));
		}
	});
});

describe('classify: other kinds', () => {
	const cursor = cursorAt(0, 0);
	it('jump, rename and searchAndReplace pass through when enabled', () => {
		assert.equal(classify({ kind: 'jump', id: 'j', uri: other, position: at(3, 1) }, cursor, lineText).kind, 'jump');
		assert.equal(classify({ kind: 'rename', id: 'r', uri, position: at(0, 10), newName: 'sum' }, cursor, lineText).kind, 'rename');
		const s = classify({ kind: 'searchAndReplace', id: 's', uri, search: 'add', replace: 'sum' }, cursor, lineText);
		assert.ok(s.kind === 'searchAndReplace');
		assert.equal(s.isRegex, false);
	});

	it('kinds the client did not advertise are invalid', () => {
		const none = { jump: false, rename: false, searchAndReplace: false };
		assert.equal(classify({ kind: 'jump', id: 'j', uri, position: at(3, 1) }, cursor, lineText, none).kind, 'invalid');
		assert.equal(classify({ kind: 'rename', id: 'r', uri, position: at(0, 10), newName: 'sum' }, cursor, lineText, none).kind, 'invalid');
		assert.equal(classify({ kind: 'searchAndReplace', id: 's', uri, search: 'a', replace: 'b' }, cursor, lineText, none).kind, 'invalid');
	});

	it('seed actions rename and searchAndReplace become the same presentations', () => {
		const rename = classify({ kind: 'action', id: 'a', actionId: 'rename', arguments: { uri, position: at(0, 10), newName: 'sum' } }, cursor, lineText);
		assert.deepEqual(rename, { kind: 'rename', id: 'a', uri, position: at(0, 10), newName: 'sum' });
		const sr = classify({ kind: 'action', id: 'b', actionId: 'searchAndReplace', arguments: { uri, search: 'a+', replace: 'b', isRegex: true } }, cursor, lineText);
		assert.deepEqual(sr, { kind: 'searchAndReplace', id: 'b', uri, search: 'a+', replace: 'b', isRegex: true });
	});

	it('malformed or unknown actions are invalid with a reason', () => {
		const cases: NesSuggestion[] = [
			{ kind: 'action', id: '1', actionId: 'format', arguments: { uri } },
			{ kind: 'action', id: '2', actionId: 'rename', arguments: { uri, position: { line: -1, character: 0 }, newName: 'x' } },
			{ kind: 'action', id: '3', actionId: 'rename', arguments: { position: at(0, 0), newName: 'x' } },
			{ kind: 'action', id: '4', actionId: 'searchAndReplace', arguments: { uri, search: 'a', replace: 5 } },
			{ kind: 'action', id: '5', actionId: 'searchAndReplace', arguments: { uri, search: 'a', replace: 'b', isRegex: 'yes' } },
			{ kind: 'rename', id: '6', uri, position: at(0, 0), newName: '  ' },
			{ kind: 'searchAndReplace', id: '7', uri, search: '', replace: 'x' },
		];
		for (const s of cases) {
			const p = classify(s, cursor, lineText);
			assert.ok(p.kind === 'invalid' && p.reason.length > 0, `${s.id}: ${JSON.stringify(p)}`);
		}
	});
});

describe('pickBest', () => {
	const ps = (cursor: ReturnType<typeof cursorAt>, ...suggestions: NesSuggestion[]) => suggestions.map((s) => classify(s, cursor, lineText));

	it('prefers the cursor document, then the nearest line, then ghost text', () => {
		const cursor = cursorAt(1, 9);
		const list = ps(
			cursor,
			edit('far', [{ range: range(4, 0, 4, 0), newText: 'export ' }]),
			edit('other', [{ range: range(1, 0, 1, 0), newText: 'x' }], other),
			edit('ghost', [{ range: range(1, 9, 1, 9), newText: ';' }]),
			edit('near', [{ range: range(0, 0, 0, 0), newText: '// ' }]),
		);
		assert.equal(list[pickBest(list, cursor)]!.id, 'ghost');
	});

	it('skips invalid presentations and returns -1 when nothing can be shown', () => {
		const cursor = cursorAt(0, 0);
		const invalid: Presentation = { kind: 'invalid', id: 'x', reason: 'r' };
		assert.equal(pickBest([invalid], cursor), -1);
		const list = [invalid, ...ps(cursor, { kind: 'jump', id: 'j', uri: other, position: at(0, 0) })];
		assert.equal(pickBest(list, cursor), 1);
	});
});

describe('followGhost', () => {
	const ghostAt = (text: string[], line: number, character: number, insert: string) => {
		const g = classify(edit('g', [{ range: range(line, character, line, character), newText: insert }]), cursorAt(line, character), (l) => text[l]);
		assert.ok(g.kind === 'ghost');
		return g;
	};
	const reader = (text: string[]) => (from: number, count: number) => (from + count <= text.length ? text.slice(from, from + count).join('\n') : undefined);

	it('typing the first characters keeps the rest, at the new cursor', () => {
		const g = ghostAt(['\treturn a'], 0, 9, ' + b;');
		const next = followGhost(g, '\treturn a', reader(['\treturn a +']));
		assert.ok(next?.kind === 'advanced');
		assert.equal(next.ghost.insertText, ' b;');
		assert.deepEqual(next.ghost.range, range(0, 11, 0, 11));
		assert.equal(next.lineText, '\treturn a +');
		assert.deepEqual(followGhost(next.ghost, next.lineText, reader(['\treturn a + b;'])), { kind: 'consumed' });
	});

	it('the whole text in place is consumed, however it got there (VS Code may replace what was typed)', () => {
		const g = ghostAt(['x = ', 'next'], 0, 4, '1;');
		assert.deepEqual(followGhost(g, 'x = ', reader(['x = 1;', 'next'])), { kind: 'consumed' });
	});

	it('a multi-line insertion is consumed when all its lines are there', () => {
		const g = ghostAt(['if (a) {', '}'], 0, 8, '\n\tgo();');
		assert.deepEqual(followGhost(g, 'if (a) {', reader(['if (a) {', '\tgo();', '}'])), { kind: 'consumed' });
	});

	it('typing something else, a deletion, or a new line ends it', () => {
		const g = ghostAt(['\treturn a'], 0, 9, ' + b;');
		assert.equal(followGhost(g, '\treturn a', reader(['\treturn ax'])), undefined);
		assert.equal(followGhost(g, '\treturn a', reader(['\treturn '])), undefined);
		assert.equal(followGhost(g, '\treturn a', reader(['\treturn a', ''])), undefined);
		assert.equal(followGhost(g, '\treturn a', reader(['x\treturn a +'])), undefined, 'an edit before the cursor moves the text');
	});

	it('an insertion after existing text is not kept by typing (the text would move)', () => {
		const g = classify(edit('1', [{ range: range(4, 18, 4, 18), newText: ', 3' }]), cursorAt(4, 14), lineText);
		assert.ok(g.kind === 'ghost');
		assert.equal(followGhost(g, lines[4]!, reader(['', '', '', '', 'const x = add(11, 2);'])), undefined);
	});

	it('asGhost refuses ranges past the end of the line', () => {
		assert.equal(asGhost({ range: range(1, 9, 1, 40), newText: 'abc' }, at(1, 9), lineText), undefined);
	});
});
