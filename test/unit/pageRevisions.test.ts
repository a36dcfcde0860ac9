import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PageRevisions } from '../../src/common/chat/pageRevisions';

/** A transcript as the bookkeeping sees it: an object with a revision. */
const transcript = (revision = 0) => ({ revision });

describe('PageRevisions (what a chat page has of each transcript)', () => {
	it('owes no patch before the page asked for the state', () => {
		const page = new PageRevisions<{ revision: number }>();
		const t = transcript(3);
		assert.equal(page.patchFrom('tab-1', t), undefined);
	});

	it('sends every transcript whole for a full state, and only the changed ones for a later state', () => {
		const page = new PageRevisions<{ revision: number }>();
		const a = transcript(1);
		const b = transcript(2);
		assert.deepEqual(page.forState([['a', a], ['b', b]], true), ['a', 'b']);
		assert.deepEqual(page.forState([['a', a], ['b', b]], false), [], 'nothing changed');
		b.revision = 3;
		assert.deepEqual(page.forState([['a', a], ['b', b]], false), ['b']);
		assert.deepEqual(page.forState([['a', a], ['b', b]], true), ['a', 'b'], 'all asked for');
	});

	it('owes a patch from the revision the page has, once, and then none until it changes again', () => {
		const page = new PageRevisions<{ revision: number }>();
		const t = transcript(4);
		page.forState([['a', t]], true);
		assert.equal(page.patchFrom('a', t), undefined, 'unchanged');
		t.revision = 7;
		assert.equal(page.patchFrom('a', t), 4);
		assert.equal(page.patchFrom('a', t), undefined, 'sent');
		t.revision = 9;
		assert.equal(page.patchFrom('a', t), 7);
	});

	it('never patches a transcript replaced since (a reset): the next state carries it whole', () => {
		const page = new PageRevisions<{ revision: number }>();
		page.forState([['a', transcript(5)]], true);
		const reset = transcript(6);
		assert.equal(page.patchFrom('a', reset), undefined);
		assert.deepEqual(page.forState([['a', reset]], false), ['a']);
		reset.revision = 8;
		assert.equal(page.patchFrom('a', reset), 6);
	});

	it('forgets a tab no longer given and sends a new tab whole', () => {
		const page = new PageRevisions<{ revision: number }>();
		const a = transcript(1);
		page.forState([['a', a]], true);
		const b = transcript(1);
		assert.deepEqual(page.forState([['b', b]], false), ['b'], 'the new tab whole');
		a.revision = 2;
		assert.equal(page.patchFrom('a', a), undefined, 'the closed tab is forgotten');
		assert.deepEqual(page.forState([['a', a], ['b', b]], false), ['a'], 'back again: whole');
	});
});
