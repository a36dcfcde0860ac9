// The Tab chain (src/common/nes/tabChain.ts, README "Tab, Tab, Tab") on a fake clock: an accept
// keeps Tab for the next suggestion until the answer and at least waitMs, at most limitMs; the
// user ends it early; an answer for an older accept changes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TabChain } from '../../src/common/nes/tabChain';
import { FakeClock } from '../shared/fakeClock';

const timing = { waitMs: 1000, limitMs: 5000 };

function chain() {
	const clock = new FakeClock();
	const changes: boolean[] = [];
	const tab: TabChain = new TabChain(() => changes.push(tab.pending), timing, clock);
	return { tab, clock, changes };
}

/** Whether `promise` has settled (after the microtasks queued so far). */
async function settled(promise: Promise<unknown> | undefined): Promise<boolean> {
	let done = false;
	void promise?.then(() => (done = true));
	await new Promise((resolve) => setImmediate(resolve));
	return done;
}

describe('TabChain', () => {
	it('an accept keeps Tab for the next suggestion and tells of the change', () => {
		const { tab, changes } = chain();
		assert.equal(tab.pending, false);
		assert.equal(tab.current, undefined);
		tab.begin();
		assert.equal(tab.pending, true);
		assert.notEqual(tab.current, undefined);
		assert.deepEqual(changes, [true]);
	});

	it('never longer than limitMs when no answer comes; waiting Tabs go on then', async () => {
		const { tab, clock, changes } = chain();
		tab.begin();
		const waiting = tab.current?.answered;
		clock.advance(timing.limitMs - 1);
		assert.equal(tab.pending, true);
		assert.equal(await settled(waiting), false, 'a Tab waits while the agent has not answered');
		clock.advance(1);
		assert.equal(tab.pending, false);
		assert.equal(await settled(waiting), true);
		assert.deepEqual(changes, [true, false]);
		assert.equal(clock.pendingTimers, 0);
	});

	it('an answer of nothing lets waiting Tabs go on, and keeps Tab until waitMs after the accept', async () => {
		const { tab, clock } = chain();
		tab.begin();
		const link = tab.current;
		clock.advance(300);
		tab.answered(link, false);
		assert.equal(await settled(link?.answered), true, 'the Tabs that waited go on (and do nothing)');
		assert.equal(tab.pending, true, 'a Tab just after an answer of nothing still does nothing');
		clock.advance(699);
		assert.equal(tab.pending, true);
		clock.advance(1);
		assert.equal(tab.pending, false, 'waitMs after the accept, Tab is Tab again');
	});

	it('an answer later than waitMs gives Tab back at once', () => {
		const { tab, clock } = chain();
		tab.begin();
		const link = tab.current;
		clock.advance(2500);
		tab.answered(link, false);
		assert.equal(tab.pending, true, 'until the timer runs');
		clock.advance(0);
		assert.equal(tab.pending, false);
		assert.equal(clock.pendingTimers, 0);
	});

	it('a suggestion that Tab applies showing ends the chain: Tab is its key now', async () => {
		const { tab, clock, changes } = chain();
		tab.begin();
		const link = tab.current;
		clock.advance(100);
		tab.answered(link, true);
		assert.equal(tab.pending, false);
		assert.equal(await settled(link?.answered), true);
		assert.deepEqual(changes, [true, false]);
		assert.equal(clock.pendingTimers, 0);
	});

	it('typing, moving or Escape ends it early; ending twice tells once', async () => {
		const { tab, clock, changes } = chain();
		tab.begin();
		const link = tab.current;
		tab.end();
		tab.end();
		assert.equal(tab.pending, false);
		assert.equal(await settled(link?.answered), true, 'a Tab waiting for the answer goes on');
		assert.deepEqual(changes, [true, false]);
		assert.equal(clock.pendingTimers, 0);
	});

	it('the answer for an older accept changes nothing in the chain of a newer one', () => {
		const { tab, clock } = chain();
		tab.begin();
		const first = tab.current;
		clock.advance(100);
		tab.begin();
		const second = tab.current;
		assert.notEqual(first, second);
		tab.answered(first, true);
		assert.equal(tab.pending, true, 'not ended by the older answer');
		tab.answered(undefined, true);
		assert.equal(tab.pending, true);
		clock.advance(timing.limitMs - 1);
		assert.equal(tab.pending, true, 'the newer accept has its own limit');
		clock.advance(1);
		assert.equal(tab.pending, false);
	});

	it('a new accept ends the chain before: its waiting Tabs go on', async () => {
		const { tab, changes } = chain();
		tab.begin();
		const first = tab.current;
		tab.begin();
		assert.equal(await settled(first?.answered), true);
		assert.equal(await settled(tab.current?.answered), false);
		assert.deepEqual(changes, [true, false, true]);
	});

	it('an answer after the chain ended does not start it again', () => {
		const { tab, clock } = chain();
		tab.begin();
		const link = tab.current;
		tab.end();
		tab.answered(link, false);
		assert.equal(tab.pending, false);
		assert.equal(clock.pendingTimers, 0);
	});

	it('dispose ends it and leaves no timer', () => {
		const { tab, clock } = chain();
		tab.begin();
		tab.dispose();
		assert.equal(tab.pending, false);
		assert.equal(clock.pendingTimers, 0);
	});
});
