/**
 * The clock and timers of the parts that wait (the Tab chain, snooze, time limits), given to them so
 * that tests pass a clock of their own (test/shared/fakeClock.ts). Pure.
 */
export interface Timers {
	now(): number;
	setTimeout(run: () => void, ms: number): unknown;
	clearTimeout(handle: unknown): void;
}

/** The real clock and timers. */
export const systemTimers: Timers = {
	now: () => Date.now(),
	setTimeout: (run, ms) => setTimeout(run, ms),
	clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
};
