// Time limits that stop while the user is asked something on the agent's behalf
// (src/common/userWaits.ts), on a fake clock.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { UserWaits, withTimeoutOutsideWaits } from '../../src/common/userWaits';
import { FakeClock } from '../shared/fakeClock';

/** What the limited call has come to so far. */
function watch<T>(promise: Promise<T>): { state: string } {
	const seen = { state: 'pending' };
	promise.then(
		(value) => (seen.state = `resolved ${String(value)}`),
		(error: unknown) => (seen.state = `rejected ${(error as Error).message}`),
	);
	return seen;
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('withTimeoutOutsideWaits', () => {
	it('fails after the time with no question open', async () => {
		const clock = new FakeClock();
		const seen = watch(withTimeoutOutsideWaits(new Promise(() => {}), 1000, new UserWaits(), 'too slow', clock));
		clock.advance(999);
		await settle();
		assert.equal(seen.state, 'pending');
		clock.advance(1);
		await settle();
		assert.equal(seen.state, 'rejected too slow');
	});

	it('stops the clock while a question is open and goes on with the time left', async () => {
		const clock = new FakeClock();
		const waits = new UserWaits();
		const seen = watch(withTimeoutOutsideWaits(new Promise(() => {}), 1000, waits, 'too slow', clock));
		clock.advance(600);
		const first = waits.begin();
		const second = waits.begin();
		clock.advance(60_000);
		first();
		clock.advance(60_000);
		await settle();
		assert.equal(seen.state, 'pending', 'a question still open');
		second();
		second(); // closing twice counts once
		assert.equal(waits.asking, false);
		clock.advance(399);
		await settle();
		assert.equal(seen.state, 'pending', '400 ms were left');
		clock.advance(1);
		await settle();
		assert.equal(seen.state, 'rejected too slow');
	});

	it('starts stopped when a question is already open', async () => {
		const clock = new FakeClock();
		const waits = new UserWaits();
		const done = waits.begin();
		const seen = watch(withTimeoutOutsideWaits(new Promise(() => {}), 100, waits, 'too slow', clock));
		clock.advance(10_000);
		await settle();
		assert.equal(seen.state, 'pending');
		done();
		clock.advance(100);
		await settle();
		assert.equal(seen.state, 'rejected too slow');
	});

	it('passes on the result or the error, and leaves no timer behind', async () => {
		const clock = new FakeClock();
		const waits = new UserWaits();
		assert.equal(await withTimeoutOutsideWaits(Promise.resolve(7), 100, waits, 'too slow', clock), 7);
		await assert.rejects(withTimeoutOutsideWaits(Promise.reject(new Error('crashed')), 100, waits, 'too slow', clock), /crashed/);
		assert.equal(clock.pendingTimers, 0);
		waits.begin()();
		assert.equal(clock.pendingTimers, 0, 'a finished call no longer listens');
	});
});
