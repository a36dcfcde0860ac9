// A clock for unit tests of code that takes its timers as a parameter (Timers): time moves
// only when the test says, and the timers due by then run in order.
import type { Timers } from '../../src/common/timers';

/** A clock that moves only when told, with the timers due by then run in order. */
export class FakeClock implements Timers {
	private time = 0;
	private nextId = 1;
	private readonly timers = new Map<number, { at: number; run: () => void }>();
	now(): number {
		return this.time;
	}
	setTimeout(run: () => void, ms: number): unknown {
		const id = this.nextId++;
		this.timers.set(id, { at: this.time + ms, run });
		return id;
	}
	clearTimeout(handle: unknown): void {
		this.timers.delete(handle as number);
	}
	advance(ms: number): void {
		const until = this.time + ms;
		for (;;) {
			const due = [...this.timers].filter(([, t]) => t.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
			if (!due) {
				break;
			}
			this.timers.delete(due[0]);
			this.time = due[1].at;
			due[1].run();
		}
		this.time = until;
	}
	get pendingTimers(): number {
		return this.timers.size;
	}
}
