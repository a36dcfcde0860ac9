import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FocusPending, fromReplacedLoad } from '../../src/common/chat/pageFocus';

describe('pageFocus (which chat page gets the keyboard)', () => {
	it('holds focus asked for while no page could take it, for the next page on screen to load, once', () => {
		const focus = new FocusPending();
		focus.asked(0);
		assert.equal(focus.waiting, true);
		assert.equal(focus.takeOnLoad(false), false, 'a hidden page does not take it');
		assert.equal(focus.waiting, true);
		assert.equal(focus.takeOnLoad(true), true);
		assert.equal(focus.takeOnLoad(true), false, 'taken once');
	});

	it('holds nothing when a page took the focus at once, and a later ask replaces an earlier one', () => {
		const focus = new FocusPending();
		focus.asked(1);
		assert.equal(focus.takeOnLoad(true), false);
		focus.asked(0);
		focus.asked(2);
		assert.equal(focus.waiting, false, 'given to the pages on screen');
		assert.equal(focus.takeOnLoad(true), false);
	});

	it('gives held focus only to a page that has just loaded, never to a loaded page asking for the state again', () => {
		const focus = new FocusPending();
		focus.asked(0);
		assert.equal(focus.takeOnLoad(true, false), false, 'a loaded page out of step, where the user may be typing, does not take it');
		assert.equal(focus.waiting, true, 'still held for the next load');
		assert.equal(focus.takeOnLoad(true, true), true);
	});

	it('holds nothing once a page was given the keyboard another way', () => {
		const focus = new FocusPending();
		focus.asked(0);
		focus.given();
		assert.equal(focus.waiting, false);
		assert.equal(focus.takeOnLoad(true), false, 'a page loading later does not take it');
	});

	it('does not answer a state request from a document the page replaced since', () => {
		assert.equal(fromReplacedLoad('load-1', 'load-2'), true);
		assert.equal(fromReplacedLoad('load-2', 'load-2'), false);
		assert.equal(fromReplacedLoad(undefined, 'load-2'), false, 'a page that names no load is answered');
		assert.equal(fromReplacedLoad('load-1', undefined), false, 'a host that knows no load answers');
	});
});
