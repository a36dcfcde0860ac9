// Snoozing next edit suggestions (src/common/nes/snooze.ts) on a fake clock: what the command
// does with its argument and the pick, the snooze ending by itself; and the status bar's state
// (src/common/nes/displayState.ts) from what the display reports.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { displayState, WAITING_AFTER_MS } from '../../src/common/nes/displayState';
import { chosenAction, Snooze, snoozeAction } from '../../src/common/nes/snooze';
import { FakeClock } from '../shared/fakeClock';

describe('snooze command', () => {
	it('with no argument: resumes while snoozed, asks otherwise', () => {
		assert.deepEqual(snoozeAction(undefined, true), { do: 'resume' });
		assert.deepEqual(snoozeAction(undefined, false), { do: 'ask' });
		assert.deepEqual(snoozeAction('15', true), { do: 'resume' }, 'a string is no number of minutes');
	});
	it('a number of minutes is the choice, snoozed or not; zero or fewer resume', () => {
		assert.deepEqual(snoozeAction(15, false), { do: 'snooze', minutes: 15 });
		assert.deepEqual(snoozeAction(5, true), { do: 'snooze', minutes: 5 });
		assert.deepEqual(snoozeAction(0, true), { do: 'resume' });
		assert.deepEqual(snoozeAction(-3, false), { do: 'resume' });
	});
	it('a number that is not finite asks', () => {
		assert.deepEqual(snoozeAction(Number.NaN, false), { do: 'ask' });
		assert.deepEqual(snoozeAction(Number.POSITIVE_INFINITY, true), { do: 'ask' });
	});
	it('the pick: dismissed does nothing, minutes snooze', () => {
		assert.deepEqual(chosenAction(undefined), { do: 'nothing' });
		assert.deepEqual(chosenAction(30), { do: 'snooze', minutes: 30 });
		assert.deepEqual(chosenAction(0), { do: 'resume' });
	});
});

describe('Snooze', () => {
	it('is active for the minutes given, then resumes by itself and tells', () => {
		const clock = new FakeClock();
		let changes = 0;
		const snooze = new Snooze(() => changes++, clock);
		assert.equal(snooze.active, false);
		snooze.start(5);
		assert.equal(snooze.active, true);
		assert.equal(snooze.until, 5 * 60_000);
		assert.equal(changes, 0, 'the caller updates after ending what shows');
		clock.advance(5 * 60_000 - 1);
		assert.equal(snooze.active, true);
		clock.advance(1);
		assert.equal(snooze.active, false);
		assert.equal(snooze.until, undefined);
		assert.equal(changes, 1);
		assert.equal(clock.pendingTimers, 0);
	});
	it('snoozing again replaces the time left; resuming clears the timer', () => {
		const clock = new FakeClock();
		const snooze = new Snooze(() => {}, clock);
		snooze.start(60);
		clock.advance(1000);
		snooze.start(5);
		assert.equal(snooze.until, 1000 + 5 * 60_000);
		assert.equal(clock.pendingTimers, 1);
		snooze.resume();
		assert.equal(snooze.active, false);
		assert.equal(clock.pendingTimers, 0);
	});
	it('dispose leaves no timer', () => {
		const clock = new FakeClock();
		const snooze = new Snooze(() => {}, clock);
		snooze.start(5);
		snooze.dispose();
		assert.equal(clock.pendingTimers, 0);
	});
});

describe('displayState', () => {
	const idle = { attached: true, shown: false, inFlightFor: undefined, snoozed: false };
	it('off without a session, whatever else', () => {
		assert.equal(displayState({ attached: false, shown: true, inFlightFor: 5000, snoozed: true }), 'off');
	});
	it('pending while a suggestion shows, before waiting and snoozed', () => {
		assert.equal(displayState({ ...idle, shown: true, inFlightFor: 5000, snoozed: true }), 'pending');
	});
	it('waiting only once a request has been in flight a while', () => {
		assert.equal(displayState({ ...idle, inFlightFor: WAITING_AFTER_MS - 1 }), 'idle');
		assert.equal(displayState({ ...idle, inFlightFor: WAITING_AFTER_MS }), 'waiting');
		assert.equal(displayState({ ...idle, inFlightFor: WAITING_AFTER_MS, snoozed: true }), 'waiting', 'a manual request while snoozed');
	});
	it('snoozed, else idle', () => {
		assert.equal(displayState({ ...idle, snoozed: true }), 'snoozed');
		assert.equal(displayState(idle), 'idle');
	});
});
