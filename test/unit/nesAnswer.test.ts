// An answer's suggestions before any shows (src/common/nes/answer.ts): ids new to the ledger,
// repeats dropped, suggestions whose document could not be read owed a refusal; and the hints'
// words for each kind.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ghostHint, hintPlace, jumpHint, previewHint, replaceHint, sortAnswer } from '../../src/common/nes/answer';

/** A ledger's register: false for an id it knows already. */
function ledger(known: string[] = []) {
	const ids = new Set(known);
	return (id: string) => !ids.has(id) && ids.add(id) !== undefined;
}

const s = (id: string, text = id) => ({ id, text });

describe('sortAnswer', () => {
	it('keeps new ids in the answer order', () => {
		const sorted = sortAnswer([s('a'), s('b')], [s('a'), s('b')], ledger());
		assert.deepEqual(sorted, { fresh: [s('a'), s('b')], reused: [], lost: [] });
	});
	it('an id the ledger knew is reused: dropped, owed nothing more', () => {
		const sorted = sortAnswer([s('old'), s('new')], [s('old'), s('new')], ledger(['old']));
		assert.deepEqual(sorted, { fresh: [s('new')], reused: ['old'], lost: [] });
	});
	it('an id twice in one answer: the first shows, the repeat is reused', () => {
		const sorted = sortAnswer([s('a'), s('a')], [s('a', 'first'), s('a', 'second')], ledger());
		assert.deepEqual(sorted, { fresh: [s('a', 'first')], reused: ['a'], lost: [] });
	});
	it('a suggestion whose document could not be read is lost: registered, owed a refusal', () => {
		const register = ledger();
		const sorted = sortAnswer([s('a'), s('b')], [s('b')], register);
		assert.deepEqual(sorted, { fresh: [s('b')], reused: [], lost: ['a'] });
		assert.equal(register('a'), false, 'registered, so its refusal is its one outcome');
	});
	it('an empty answer', () => {
		assert.deepEqual(sortAnswer([], [], ledger()), { fresh: [], reused: [], lost: [] });
	});
});

describe('hints', () => {
	it('the place: the line in the active file, the file and line elsewhere', () => {
		assert.equal(hintPlace(12, true, 'src/a.ts'), 'line 12');
		assert.equal(hintPlace(12, false, 'src/a.ts'), 'src/a.ts:12');
	});
	it('each kind says what Tab does', () => {
		assert.deepEqual(ghostHint, { hint: 'Tab to accept', action: 'accept' });
		assert.deepEqual(previewHint('line 3'), { hint: '⇥ Tab: apply edit at line 3 · Esc: dismiss', action: 'apply edit at line 3' });
		assert.deepEqual(jumpHint('b.ts:7'), { hint: '⇥ Tab: go to b.ts:7', action: 'go to b.ts:7' });
		assert.deepEqual(replaceHint(1, 'a.ts'), { hint: '⇥ Tab: replace 1 place in a.ts', action: 'replace 1 place in a.ts' });
		assert.deepEqual(replaceHint(3, 'a.ts'), { hint: '⇥ Tab: replace 3 places in a.ts', action: 'replace 3 places in a.ts' });
	});
});
