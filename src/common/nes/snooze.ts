/**
 * Snoozing next edit suggestions: what the snooze command does with its argument and the
 * user's pick, and the snooze itself (until when, and the timer that ends it).
 *
 * Pure state and decisions. It must not touch the editor, the quick pick, the suggestion that
 * shows or the Tab chain: the caller asks, ends what shows and hears of every change through
 * `onChange`.
 */
import { systemTimers, type Timers } from '../timers';

/** What the snooze command does once the minutes are known. */
export type SnoozeOutcome = { readonly do: 'resume' } | { readonly do: 'nothing' } | { readonly do: 'snooze'; readonly minutes: number };
/** What the snooze command does next. */
export type SnoozeAction = SnoozeOutcome | { readonly do: 'ask' };

/** The minutes offered when the command is run with none. */
export const SNOOZE_CHOICES: readonly number[] = [5, 15, 30, 60];

/**
 * The command's argument, before asking: no argument while snoozed resumes; a finite number
 * is the choice; anything else asks the user.
 */
export function snoozeAction(minutes: unknown, snoozed: boolean): SnoozeAction {
	if (typeof minutes !== 'number' && snoozed) {
		return { do: 'resume' };
	}
	if (typeof minutes !== 'number' || !Number.isFinite(minutes)) {
		return { do: 'ask' };
	}
	return chosenAction(minutes);
}

/** The minutes chosen (undefined: the pick was dismissed); zero or fewer resume. */
export function chosenAction(chosen: number | undefined): SnoozeOutcome {
	if (chosen === undefined) {
		return { do: 'nothing' };
	}
	return chosen <= 0 ? { do: 'resume' } : { do: 'snooze', minutes: chosen };
}

export class Snooze {
	private untilValue: number | undefined;
	private timer: unknown;

	constructor(
		private readonly onChange: () => void,
		private readonly timers: Timers = systemTimers,
	) {}

	/** Snoozed until this time (ms since the epoch), if snoozed at all. */
	get until(): number | undefined {
		return this.untilValue;
	}

	get active(): boolean {
		return this.untilValue !== undefined && this.timers.now() < this.untilValue;
	}

	/** No automatic suggestions for `minutes`; the caller ends what shows. */
	start(minutes: number): void {
		this.untilValue = this.timers.now() + minutes * 60_000;
		this.timers.clearTimeout(this.timer);
		this.timer = this.timers.setTimeout(() => this.resume(), minutes * 60_000);
	}

	resume(): void {
		this.untilValue = undefined;
		this.timers.clearTimeout(this.timer);
		this.onChange();
	}

	dispose(): void {
		this.timers.clearTimeout(this.timer);
	}
}
