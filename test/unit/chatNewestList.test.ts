import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { NewestList, WAIT_MS } from '../../src/webview/chat/newestList';

describe('chat @-mention lists (src/webview/chat/newestList.ts)', () => {
	it('shows the newest list and drops one that comes after a newer was asked for', () => {
		const lists = new NewestList();
		const re = lists.ask();
		const read = lists.ask();
		assert.equal(lists.came(re), 'drop', 'the list for @RE came late');
		assert.equal(lists.waiting, true);
		assert.equal(lists.came(read), 'show');
		assert.equal(lists.waiting, false);
	});

	it('takes the first item of the newest list when Enter came before it, not the older one on screen', () => {
		const lists = new NewestList();
		assert.equal(lists.came(lists.ask()), 'show', 'the list for @RE on screen');
		const read = lists.ask();
		assert.equal(lists.waiting, true, 'the list for @READ on its way');
		lists.takeFirstWhenItComes();
		assert.equal(lists.came(read), 'take');
		assert.equal(lists.came(read), 'drop', 'one list, once');
	});

	it('lets typing on cancel an Enter that waited, and drops what comes after the lists were put away', () => {
		const lists = new NewestList();
		lists.ask();
		lists.takeFirstWhenItComes();
		const more = lists.ask();
		assert.equal(lists.came(more), 'show', 'typed on: the Enter was for an older query');
		const late = lists.ask();
		lists.takeFirstWhenItComes();
		lists.settle();
		assert.equal(lists.waiting, false);
		assert.equal(lists.came(late), 'drop', 'put away (sent, accepted, Escape): nothing shows again, nothing is taken');
	});

	it('waits for a list on its way no longer than WAIT_MS: a host that does not answer leaves Enter to the input', () => {
		let now = 0;
		const lists = new NewestList(() => now);
		const ticket = lists.ask();
		now = WAIT_MS + 1;
		assert.equal(lists.waiting, false, 'Enter sends or takes what is on screen again');
		lists.takeFirstWhenItComes();
		now += WAIT_MS + 1;
		assert.equal(lists.came(ticket), 'show', 'a list that comes long after Enter is shown, not taken');
	});
});
