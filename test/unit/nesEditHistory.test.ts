// Edit history: bursts, hunks and bounds. The property test replays random edits, then applies the
// diffs it produced, in order, to the original text with a strict patcher: the result must be the
// edited text (so every hunk's line numbers, context and "no newline" markers are right).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { EditHistory, unifiedHunk, utf8Length, type TextReplacement } from '../../src/common/nes/editHistory';

const URI = 'file:///project/src/main.ts';
const big = { maxCount: 1000, maxBytes: 1e9, maxEntryBytes: 1e9 };

/** The replacement of `length` code units at `offset` in `text` by `insert`, as a change event gives it. */
function replacement(text: string, offset: number, length: number, insert: string): TextReplacement {
	const at = (o: number) => {
		const before = text.slice(0, o);
		const line = before.split('\n').length - 1;
		return { line, character: o - (before.lastIndexOf('\n') + 1) };
	};
	const s = at(offset);
	const e = at(offset + length);
	return { startLine: s.line, startCharacter: s.character, endLine: e.line, endCharacter: e.character, text: insert };
}

class Doc {
	constructor(
		public text: string,
		readonly history: EditHistory,
		readonly uri = URI,
	) {
		history.track(uri, text);
	}

	edit(offset: number, length: number, insert: string, timeMs: number): void {
		assert.ok(this.history.apply(this.uri, [replacement(this.text, offset, length, insert)], timeMs));
		this.text = this.text.slice(0, offset) + insert + this.text.slice(offset + length);
	}

	type(offset: number, chars: string, startMs: number, stepMs = 50): number {
		let t = startMs;
		for (let i = 0; i < chars.length; i++) {
			this.edit(offset + i, 0, chars[i]!, t);
			t += stepMs;
		}
		return t;
	}
}

interface Line {
	text: string;
	noEol: boolean;
}

function toLines(text: string): Line[] {
	const parts = text.split('\n');
	const last = parts.pop()!;
	const lines = parts.map((t) => ({ text: t, noEol: false }));
	if (last !== '') {
		lines.push({ text: last, noEol: true });
	}
	return lines;
}

function fromLines(lines: readonly Line[]): string {
	return lines.map((l) => l.text + (l.noEol ? '' : '\n')).join('');
}

/** Applies one `--- / +++ / @@` diff, checking every context and removed line. */
function applyDiff(text: string, diff: string): string {
	const rows = diff.split('\n');
	assert.match(rows[0]!, /^--- a\//);
	assert.match(rows[1]!, /^\+\+\+ b\//);
	const header = /^@@ -(\d+),(\d+) \+(\d+),(\d+) @@$/.exec(rows[2]!);
	assert.ok(header, `hunk header: ${rows[2]}`);
	const [oldStart, oldCount, newStart, newCount] = header.slice(1).map(Number) as [number, number, number, number];
	const oldSide: Line[] = [];
	const newSide: Line[] = [];
	let lastSides: Line[][] = [];
	for (const row of rows.slice(3)) {
		if (row === '\\ No newline at end of file') {
			for (const side of lastSides) {
				side[side.length - 1]!.noEol = true;
			}
			continue;
		}
		const mark = row[0];
		const line = () => ({ text: row.slice(1), noEol: false });
		lastSides = mark === ' ' ? [oldSide, newSide] : mark === '-' ? [oldSide] : [newSide];
		assert.ok(mark === ' ' || mark === '-' || mark === '+', `row: ${JSON.stringify(row)}`);
		for (const side of lastSides) {
			side.push(line());
		}
	}
	assert.equal(oldSide.length, oldCount);
	assert.equal(newSide.length, newCount);
	const lines = toLines(text);
	const index = oldCount === 0 ? oldStart : oldStart - 1;
	assert.equal(newCount === 0 ? newStart : newStart - 1, index);
	assert.deepEqual(lines.slice(index, index + oldCount), oldSide, `context at line ${index}`);
	lines.splice(index, oldCount, ...newSide);
	return fromLines(lines);
}

describe('edit history', () => {
	it('merges typing on one line into one burst and shows it with context', () => {
		const h = new EditHistory();
		const doc = new Doc('a\nb\nconst x = 1;\nd\ne\nf\ng\n', h);
		doc.type(doc.text.indexOf('1'), '42 + ', 1000);
		assert.deepEqual(h.entries(big), [
			{
				uri: URI,
				diff: ['--- a/main.ts', '+++ b/main.ts', '@@ -1,6 +1,6 @@', ' a', ' b', '-const x = 1;', '+const x = 42 + 1;', ' d', ' e', ' f'].join('\n'),
			},
		]);
	});

	it('starts a new burst after a pause or far away, and lists bursts most recent last', () => {
		const h = new EditHistory({ burstGapMs: 1000, nearbyLines: 2, contextLines: 0 });
		const doc = new Doc(Array.from({ length: 30 }, (_, i) => `line ${i}`).join('\n') + '\n', h);
		let t = doc.type(doc.text.indexOf('line 3\n') + 6, 'a', 0);
		t = doc.type(doc.text.indexOf('line 4\n') + 6, 'b', t); // nearby: same burst
		t = doc.type(doc.text.indexOf('line 20\n') + 7, 'c', t); // far: new burst
		doc.type(doc.text.indexOf('line 21\n') + 7, 'd', t + 5000); // after a pause: new burst
		const diffs = h.entries(big).map((e) => e.diff.split('\n').slice(2).join('|'));
		assert.deepEqual(diffs, ['@@ -4,2 +4,2 @@|-line 3|-line 4|+line 3a|+line 4b', '@@ -21,1 +21,1 @@|-line 20|+line 20c', '@@ -22,1 +22,1 @@|-line 21|+line 21d']);
	});

	it('drops a burst that ends where it began (typed, then undone)', () => {
		const h = new EditHistory();
		const doc = new Doc('one\ntwo\n', h);
		doc.type(3, 'xyz', 0);
		doc.edit(3, 3, '', 200);
		assert.deepEqual(h.entries(big), []);
	});

	it('uses the GNU line numbers for pure insertions and deletions and marks a missing final newline', () => {
		assert.equal(unifiedHunk(0, ['a', 'b', ''], ['a', 'new', 'b', ''], true, 0), '@@ -1,0 +2,1 @@\n+new');
		assert.equal(unifiedHunk(0, ['a', 'b', ''], ['a', ''], true, 1), '@@ -1,2 +1,1 @@\n a\n-b');
		assert.equal(unifiedHunk(0, ['a', ''], ['a'], true, 3), '@@ -1,1 +1,1 @@\n-a\n+a\n\\ No newline at end of file');
		assert.equal(unifiedHunk(5, ['x'], ['x'], false, 3), undefined);
	});

	it('keeps one file per entry, per burst, with the path pathOf gives', () => {
		const h = new EditHistory();
		const a = new Doc('alpha\n', h, 'file:///w/a.ts');
		const b = new Doc('beta\n', h, 'file:///w/sub/b%20c.ts');
		a.type(5, '!', 0);
		b.type(4, '?', 10);
		a.type(6, '!', 20);
		const entries = h.entries({ ...big, pathOf: (uri) => uri.slice('file:///w/'.length) });
		assert.deepEqual(
			entries.map((e) => [e.uri, e.diff.split('\n')[0]]),
			[
				['file:///w/sub/b%20c.ts', '--- a/sub/b%20c.ts'],
				['file:///w/a.ts', '--- a/a.ts'],
			],
		);
		assert.deepEqual(new EditHistory().entries(big), []);
		assert.equal(h.entries(big)[0]!.diff.split('\n')[0], '--- a/b c.ts', 'the default path is the decoded last segment');
	});

	it('keeps the most recent entries within maxCount and the byte caps', () => {
		const h = new EditHistory({ burstGapMs: 10, contextLines: 0 });
		const doc = new Doc('x\n', h);
		for (let i = 0; i < 10; i++) {
			doc.edit(0, doc.text.length - 1, `v${i}é`, i * 100);
		}
		const all = h.entries(big);
		assert.equal(all.length, 10);
		assert.match(all.at(-1)!.diff, /\+v9é$/);
		assert.deepEqual(h.entries({ ...big, maxCount: 3 }), all.slice(-3));
		const size = utf8Length(all.at(-1)!.diff);
		assert.equal(size, Buffer.byteLength(all.at(-1)!.diff));
		assert.deepEqual(h.entries({ ...big, maxBytes: size * 2 + 1 }), all.slice(-2));
		const small = h.entries({ ...big, maxEntryBytes: size - 1 });
		assert.ok(small.length < all.length);
		assert.deepEqual(small, all.filter((e) => utf8Length(e.diff) < size));
		const lone = new EditHistory({ maxEntries: 4, burstGapMs: 10 });
		const d2 = new Doc('x\n', lone);
		for (let i = 0; i < 10; i++) {
			d2.edit(0, 1, `${i}`, i * 100);
		}
		assert.equal(lone.entries(big).length, 5, 'four finished bursts and the open one');
	});

	it('refuses a change that does not fit its copy, and resynchronizes on track', () => {
		const h = new EditHistory();
		assert.equal(h.apply(URI, [{ startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 0, text: 'x' }], 0), false, 'untracked');
		h.track(URI, 'ab\n');
		assert.equal(h.apply(URI, [{ startLine: 5, startCharacter: 0, endLine: 5, endCharacter: 0, text: 'x' }], 0), false);
		assert.equal(h.apply(URI, [{ startLine: 0, startCharacter: 9, endLine: 0, endCharacter: 9, text: 'x' }], 0), false);
		assert.ok(h.apply(URI, [{ startLine: 0, startCharacter: 2, endLine: 0, endCharacter: 2, text: 'c' }], 0));
		h.track(URI, 'abc\n');
		assert.equal(h.entries(big).length, 1, 'the burst ended at the resync and was kept');
		assert.ok(h.isTracked(URI));
		h.untrack(URI);
		assert.equal(h.isTracked(URI), false);
	});

	it('lets go of the least recently edited document beyond maxTrackedFiles, keeping its history', () => {
		const h = new EditHistory({ maxTrackedFiles: 2 });
		const a = new Doc('a\n', h, 'file:///w/a.ts');
		new Doc('b\n', h, 'file:///w/b.ts');
		a.type(1, '!', 0);
		new Doc('c\n', h, 'file:///w/c.ts');
		assert.deepEqual(
			['a', 'b', 'c'].map((n) => h.isTracked(`file:///w/${n}.ts`)),
			[true, false, true],
		);
		h.track('file:///w/d.ts', '');
		assert.equal(h.isTracked('file:///w/a.ts'), false);
		assert.deepEqual(
			h.entries(big).map((e) => e.diff.split('\n').at(-1)),
			['+a!'],
		);
	});

	it('handles a paste larger than the spread limit and skips bursts over the size cap', () => {
		const h = new EditHistory({ maxBurstChars: 1000 });
		const doc = new Doc('top\nbottom\n', h);
		doc.edit(4, 0, 'p\n'.repeat(20_000), 0);
		assert.equal(h.entries(big).length, 0, 'too large to diff');
		doc.edit(0, 3, 'TOP', 10_000);
		assert.equal(h.entries(big).length, 1);
		assert.equal(doc.text.split('\n').length, 20_003);
	});

	it('replays: the diffs, applied in order to the original, give the edited text', () => {
		const edit = fc.record({
			at: fc.nat(),
			length: fc.nat({ max: 12 }),
			text: fc.oneof(fc.constantFrom('', 'x', '\n', 'ab\ncd', '\n\n', 'é😀'), fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' '), maxLength: 8 })),
			gapMs: fc.oneof(fc.constant(10), fc.nat({ max: 4000 })),
		});
		const initial = fc.string({ unit: fc.constantFrom('a', 'b', 'c', '\n', ' '), maxLength: 120 });
		fc.assert(
			fc.property(initial, fc.array(edit, { maxLength: 40 }), fc.nat({ max: 4 }), fc.nat({ max: 5 }), (start, edits, context, nearby) => {
				const h = new EditHistory({ contextLines: context, nearbyLines: nearby, maxEntries: 1000, maxBurstChars: 1e9 });
				const doc = new Doc(start, h);
				let t = 0;
				for (const e of edits) {
					const offset = e.at % (doc.text.length + 1);
					const length = Math.min(e.length, doc.text.length - offset);
					t += e.gapMs;
					doc.edit(offset, length, e.text, t);
				}
				let replayed = start;
				for (const entry of h.entries(big)) {
					replayed = applyDiff(replayed, entry.diff);
				}
				assert.equal(replayed, doc.text);
			}),
			{ numRuns: 400 },
		);
	});
});
