import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { applyHunk, lineHunks, lineStats, mergeWrite, smallestEdit, splitLines, writeTextFileParamsSchema } from '../../src/common/fsWrite';

const lines = (...l: string[]) => l.map((x) => `${x}\n`).join('');

describe('fs/write_text_file: params', () => {
	it('takes a session, an absolute path and the content', () => {
		assert.ok(writeTextFileParamsSchema.safeParse({ sessionId: 's', path: '/w/a.ts', content: '' }).success);
		const missing = writeTextFileParamsSchema.safeParse({ sessionId: 's', path: '/w/a.ts' });
		assert.ok(!missing.success);
		assert.match(JSON.stringify(missing.error.issues), /content: expected the text to write/);
	});
});

describe('fs/write_text_file: merging with what the user typed since the agent read', () => {
	const base = lines('one', 'two', 'three', 'four', 'five', 'six');

	it('writes the agent’s text when the buffer is still what it read', () => {
		assert.deepEqual(mergeWrite(base, base, 'new'), { ok: true, text: 'new' });
	});

	it('keeps both when they changed different lines', () => {
		const user = lines('ONE (user)', 'two', 'three', 'four', 'five', 'six');
		const agent = lines('one', 'two', 'three', 'four', 'five', 'SIX (agent)');
		assert.deepEqual(mergeWrite(base, user, agent), { ok: true, text: lines('ONE (user)', 'two', 'three', 'four', 'five', 'SIX (agent)') });
	});

	it('keeps a line the user added above what the agent changed', () => {
		const user = lines('// a note', 'one', 'two', 'three', 'four', 'five', 'six');
		const agent = lines('one', 'two', 'three', 'four', 'FIVE', 'six');
		assert.deepEqual(mergeWrite(base, user, agent), { ok: true, text: lines('// a note', 'one', 'two', 'three', 'four', 'FIVE', 'six') });
	});

	it('refuses when both changed the same lines, naming where (never one over the other)', () => {
		const user = lines('one', 'two', 'THREE (user)', 'four', 'five', 'six');
		const agent = lines('one', 'two', 'THREE (agent)', 'four', 'five', 'six');
		assert.deepEqual(mergeWrite(base, user, agent), { ok: false, conflicts: 1, firstConflictLine: 3 });
	});

	it('takes the same change made by both once', () => {
		const both = lines('one', 'TWO', 'three', 'four', 'five', 'six');
		assert.deepEqual(mergeWrite(base, both, both), { ok: true, text: both });
	});

	it('never loses a line the user changed: any merge that succeeds holds the user’s line and the agent’s', () => {
		fc.assert(
			fc.property(fc.array(fc.stringMatching(/^[a-z]{1,6}$/), { minLength: 4, maxLength: 30 }), fc.nat(), fc.nat(), (words, i, j) => {
				const original = words.map((w, k) => `${k}:${w}\n`);
				const userAt = i % original.length;
				const agentAt = j % original.length;
				const user = original.map((l, k) => (k === userAt ? `user ${l}` : l)).join('');
				const agent = original.map((l, k) => (k === agentAt ? `agent ${l}` : l)).join('');
				const outcome = mergeWrite(original.join(''), user, agent);
				if (Math.abs(userAt - agentAt) > 1) {
					assert.ok(outcome.ok, 'lines apart merge');
				}
				if (outcome.ok) {
					assert.ok(outcome.text.includes(`user ${original[userAt]!}`) || userAt === agentAt);
					assert.ok(outcome.text.includes(`agent ${original[agentAt]!}`) || userAt === agentAt);
				}
			}),
		);
	});
});

describe('fs/write_text_file: the edit applied', () => {
	it('replaces only what changed', () => {
		assert.deepEqual(smallestEdit('let a = 1;\n', 'let b = 1;\n'), { start: 4, end: 5, text: 'b' });
		assert.equal(smallestEdit('same', 'same'), undefined);
	});

	it('never splits a surrogate pair, and always rebuilds the new text', () => {
		assert.deepEqual(smallestEdit('a😀', 'a😃'), { start: 1, end: 3, text: '😃' });
		fc.assert(
			fc.property(fc.string({ unit: 'grapheme' }), fc.string({ unit: 'grapheme' }), (before, after) => {
				const edit = smallestEdit(before, after);
				const rebuilt = edit ? before.slice(0, edit.start) + edit.text + before.slice(edit.end) : before;
				assert.equal(rebuilt, after);
			}),
		);
	});
});

describe('review: hunks between two texts', () => {
	it('finds each changed block with its lines on both sides', () => {
		const before = lines('a', 'b', 'c', 'd', 'e');
		const after = lines('a', 'B', 'c', 'd', 'e', 'f');
		assert.deepEqual(lineHunks(before, after), [
			{ beforeStart: 1, before: ['b\n'], afterStart: 1, after: ['B\n'] },
			{ beforeStart: 5, before: [], afterStart: 5, after: ['f\n'] },
		]);
		assert.deepEqual(lineStats(before, after), { added: 2, removed: 1 });
	});

	it('taking one hunk leaves the others: applying every hunk (last first) turns one text into the other', () => {
		const text = fc.array(fc.constantFrom('a', 'b', 'c', 'd', ''), { maxLength: 25 }).map((l) => l.map((x) => `${x}\n`).join(''));
		fc.assert(
			fc.property(text, text, (before, after) => {
				const hunks = lineHunks(before, after);
				let result = before;
				for (const hunk of [...hunks].reverse()) {
					result = applyHunk(result, hunk);
				}
				assert.equal(result, after);
				// One hunk taken: exactly one fewer remains.
				if (hunks.length > 0) {
					assert.equal(lineHunks(applyHunk(before, hunks[0]!), after).length, hunks.length - 1);
				}
			}),
		);
	});

	it('keeps line endings and a last line without one', () => {
		assert.deepEqual(splitLines('a\r\nb\nc'), ['a\r\n', 'b\n', 'c']);
		assert.deepEqual(splitLines(''), []);
	});
});
