import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CHAT_PAGE_LOAD, PageLoadWatch, unstartedLoadsMs } from '../../src/common/chat/pageLoadWatch';
import { FakeClock } from '../shared/fakeClock';

/** A watch on a fake clock: `advance` runs the timers due; the calls it made are counted. */
function watched(maxReloads = CHAT_PAGE_LOAD.maxReloads) {
	const clock = new FakeClock();
	const calls = { reloads: [] as number[], waited: [] as number[], gaveUp: 0 };
	const watch = new PageLoadWatch({
		...CHAT_PAGE_LOAD,
		maxReloads,
		reload: (attempt, waitedMs) => {
			calls.reloads.push(attempt);
			calls.waited.push(waitedMs);
		},
		gaveUp: () => calls.gaveUp++,
		timers: clock,
	});
	return { watch, calls, advance: (ms: number) => clock.advance(ms), pending: () => clock.pendingTimers };
}

describe('chat page load watch (src/common/chat/pageLoadWatch.ts)', () => {
	it('gives up on a chat page none of whose documents arrives after 35 s, not before: how long the tests wait for a page to come on screen', () => {
		assert.deepEqual(CHAT_PAGE_LOAD, { watchMs: 5000, startedWatchMs: 30_000, maxReloads: 2 });
		assert.equal(unstartedLoadsMs(CHAT_PAGE_LOAD), 35_000);
		assert.equal(unstartedLoadsMs({ watchMs: 1000, startedWatchMs: 0, maxReloads: 0 }), 1000, 'one load, no reload');
		const { watch, calls, advance } = watched();
		watch.shown();
		advance(unstartedLoadsMs(CHAT_PAGE_LOAD) - 1);
		assert.deepEqual([calls.reloads, calls.gaveUp], [[1, 2], 0], 'every load given its time');
		advance(1);
		assert.equal(calls.gaveUp, 1, 'and given up on at once after');
	});

	it('loads a page on screen again when it has not asked for its state within 5 s, twice at most (giving each load twice as long as the one before), then gives up once', () => {
		const { watch, calls, advance, pending } = watched();
		watch.shown();
		advance(4999);
		assert.deepEqual(calls.reloads, [], 'not before 5 s');
		advance(1);
		assert.deepEqual(calls.reloads, [1], 'loaded again after 5 s');
		advance(9999);
		assert.deepEqual(calls.reloads, [1], 'the load after it has 10 s: a slow machine may need them');
		advance(1);
		assert.deepEqual(calls.reloads, [1, 2], 'and once more');
		assert.deepEqual(calls.waited, [5000, 10_000], 'each reload says how long the load it replaced had');
		advance(19_999);
		assert.equal(calls.gaveUp, 0, 'the last load has 20 s');
		advance(1);
		assert.equal(calls.gaveUp, 1);
		advance(60_000);
		assert.deepEqual(calls.reloads, [1, 2], 'twice at most');
		assert.equal(calls.gaveUp, 1, 'then it says so, once');
		assert.equal(pending(), 0, 'and stops watching');
	});

	it('never reloads a page that has loaded, until it is hidden and shown again', () => {
		const { watch, calls, advance } = watched();
		watch.shown();
		advance(3000);
		watch.markLoaded();
		assert.equal(watch.loaded, true);
		advance(60_000);
		assert.deepEqual(calls.reloads, []);
		watch.shown(); // shown again while loaded (another view took the screen and gave it back): still loaded
		advance(60_000);
		assert.deepEqual(calls.reloads, []);
		watch.hidden();
		assert.equal(watch.loaded, false, 'a hidden page loses its content');
		watch.shown();
		advance(5000);
		assert.deepEqual(calls.reloads, [1], 'shown again, it must load again');
	});

	it('does not watch a hidden page, and counts its tries again from the start when it is shown again', () => {
		const { watch, calls, advance, pending } = watched();
		watch.shown();
		advance(15_000);
		assert.deepEqual(calls.reloads, [1, 2]);
		watch.hidden();
		assert.equal(pending(), 0);
		advance(60_000);
		assert.deepEqual(calls.reloads, [1, 2], 'nothing while hidden');
		watch.shown();
		advance(5000);
		assert.deepEqual(calls.reloads, [1, 2, 1], 'watched again once shown, its tries counted anew');
		watch.hidden();
		advance(5000);
		watch.shown();
		advance(4000);
		assert.deepEqual(calls.reloads, [1, 2, 1], 'the watch starts over when shown');
	});

	it('gives a page whose document arrived 30 s from then to ask for its state, instead of reloading it after 5 s', () => {
		const { watch, calls, advance } = watched();
		watch.shown();
		advance(3000);
		watch.started(); // its document arrived; its script is still on the way (a busy machine)
		advance(26_999);
		assert.deepEqual(calls.reloads, [], 'not reloaded while its script loads');
		watch.markLoaded();
		advance(60_000);
		assert.deepEqual(calls.reloads, [], 'it loaded');
	});

	it('reloads a page that started and never asked for its state once its 30 s are over, counting the tries as before', () => {
		const { watch, calls, advance } = watched();
		watch.shown();
		watch.started();
		advance(30_000);
		assert.deepEqual(calls.reloads, [1], 'a script that never ran: loaded again');
		assert.deepEqual(calls.waited, [30_000], 'after the 30 s it was given');
		advance(10_000);
		assert.deepEqual(calls.reloads, [1, 2], 'the next load, blank, has its 10 s');
		watch.started();
		advance(30_000);
		assert.equal(calls.gaveUp, 1, 'then it gives up');
	});

	it('takes no word of a start from a page that loaded or is hidden', () => {
		const { watch, calls, advance, pending } = watched();
		watch.started();
		assert.equal(pending(), 0, 'not shown: not watched');
		watch.shown();
		watch.markLoaded();
		watch.started();
		assert.equal(pending(), 0, 'loaded: left alone');
		advance(60_000);
		assert.deepEqual(calls.reloads, []);
	});

	it('stops when disposed', () => {
		const { watch, calls, advance, pending } = watched();
		watch.shown();
		watch.dispose();
		assert.equal(pending(), 0);
		advance(60_000);
		assert.deepEqual(calls.reloads, []);
		assert.equal(calls.gaveUp, 0);
	});
});
