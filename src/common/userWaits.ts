/**
 * Time limits that stop while the user is being asked something. An agent may ask for input
 * (`elicitation/create`) before it answers `initialize` or a session's setup; the time the user
 * takes to answer is not the agent being slow, so a limit on that call waits for the answer and
 * then goes on with the time it had left. Pure: the clock and timers are given.
 */
import { systemTimers, type Timers } from './timers';


/** The questions open on an agent's behalf, counted. */
export class UserWaits {
	private open = 0;
	private readonly listeners = new Set<() => void>();

	/** Whether a question is open. */
	get asking(): boolean {
		return this.open > 0;
	}

	/** A question opens; the function returned closes it (once, however often it is called). */
	begin(): () => void {
		this.open++;
		this.changed();
		let ended = false;
		return () => {
			if (!ended) {
				ended = true;
				this.open--;
				this.changed();
			}
		};
	}

	/** Calls `listener` when a question opens or the last one closes. */
	onDidChange(listener: () => void): { dispose(): void } {
		this.listeners.add(listener);
		return { dispose: () => this.listeners.delete(listener) };
	}

	private changed(): void {
		for (const listener of [...this.listeners]) {
			listener();
		}
	}
}

/**
 * `work`, or an Error with `message` once `ms` have passed outside the user's questions in
 * `waits`: the clock stops while one is open and goes on when the last one closes.
 */
export function withTimeoutOutsideWaits<T>(work: Promise<T>, ms: number, waits: UserWaits, message: string, timers: Timers = systemTimers): Promise<T> {
	return new Promise<T>((resolve, reject) => {
		let left = ms;
		let startedAt = 0;
		let timer: unknown;
		const stop = () => {
			if (timer !== undefined) {
				timers.clearTimeout(timer);
				timer = undefined;
				left -= timers.now() - startedAt;
			}
		};
		const run = () => {
			startedAt = timers.now();
			timer = timers.setTimeout(() => {
				subscription.dispose();
				reject(new Error(message));
			}, Math.max(0, left));
		};
		const subscription = waits.onDidChange(() => (waits.asking ? stop() : timer === undefined && run()));
		if (!waits.asking) {
			run();
		}
		const settle = () => {
			subscription.dispose();
			stop();
		};
		work.then(
			(value) => {
				settle();
				resolve(value);
			},
			(error: unknown) => {
				settle();
				reject(error);
			},
		);
	});
}
