import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { FocusPending, KEYBOARD_HANDOFF_MS, KeyboardHandOff, fromReplacedLoad } from '../../src/common/chat/pageFocus';
import { FakeClock } from '../shared/fakeClock';

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

	describe('KeyboardHandOff (the chat shown for the keyboard, shown once more if no page takes it)', () => {
		/** A hand-off on a fake clock; `advance` runs the timer when due. */
		function handOff() {
			const clock = new FakeClock();
			let shownAgain = 0;
			const keyboard = new KeyboardHandOff(() => shownAgain++, clock);
			return { keyboard, advance: (ms: number) => clock.advance(ms), shownAgain: () => shownAgain };
		}

		it('shows the chat again when no page says it got the keyboard in time, once only', () => {
			const { keyboard, advance, shownAgain } = handOff();
			keyboard.shown();
			advance(KEYBOARD_HANDOFF_MS - 1);
			assert.equal(shownAgain(), 0, 'not before its time');
			assert.ok(keyboard.waiting);
			advance(1);
			assert.equal(shownAgain(), 1, 'shown again');
			assert.ok(!keyboard.waiting, 'and no more waiting: a second failure does not pull the user back again');
			advance(10 * KEYBOARD_HANDOFF_MS);
			assert.equal(shownAgain(), 1);
		});

		it('does nothing more once a page got the keyboard, nor after it is disposed', () => {
			const { keyboard, advance, shownAgain } = handOff();
			keyboard.shown();
			advance(KEYBOARD_HANDOFF_MS / 2);
			keyboard.taken();
			advance(KEYBOARD_HANDOFF_MS);
			assert.equal(shownAgain(), 0, 'taken in time');
			keyboard.shown();
			keyboard.dispose();
			advance(KEYBOARD_HANDOFF_MS);
			assert.equal(shownAgain(), 0, 'disposed');
			keyboard.taken();
			assert.ok(!keyboard.waiting, 'a page taking the keyboard with nothing waited for changes nothing');
		});

		it('waits its whole time again when the chat is shown for the keyboard again before it ran out', () => {
			const { keyboard, advance, shownAgain } = handOff();
			keyboard.shown();
			advance(KEYBOARD_HANDOFF_MS - 10);
			keyboard.shown();
			advance(KEYBOARD_HANDOFF_MS - 10);
			assert.equal(shownAgain(), 0);
			advance(10);
			assert.equal(shownAgain(), 1);
		});
	});
});
