/**
 * The @-mention lists the input asks the host for as the user types. Only the newest is shown; one
 * that comes after a newer was asked for, or after the lists were put away, is dropped. Enter (or
 * Tab) pressed while a newer list is on its way takes that list's first item when it comes, not
 * the older list still on screen (typing `@READ` and Enter at once attached what `@RE` had listed
 * first). No DOM: composer.ts draws the lists and asks this what to do with each.
 */
export class NewestList {
	private asked = 0;
	private shown = 0;
	private askedAt = 0;
	/** When Enter asked for the coming list's first item; undefined: nothing waits. */
	private takeAt: number | undefined;

	/** `now`: the clock, in milliseconds. */
	constructor(private readonly now: () => number = () => performance.now()) {}

	/** A list is asked for: its ticket. Typing on cancels an Enter that waited for an older one. */
	ask(): number {
		this.takeAt = undefined;
		this.askedAt = this.now();
		return ++this.asked;
	}

	/** The list for `ticket` came: `drop` it (a newer one was asked for, or the lists were put away), `show` it, or `take` its first item (Enter was pressed while it was on its way). */
	came(ticket: number): 'drop' | 'show' | 'take' {
		if (ticket !== this.asked || this.shown === this.asked) {
			return 'drop';
		}
		this.shown = ticket;
		const take = this.takeAt !== undefined && this.now() - this.takeAt <= WAIT_MS;
		this.takeAt = undefined;
		return take ? 'take' : 'show';
	}

	/** Whether a newer list than the one on screen (if any) is on its way, asked for at most {@link WAIT_MS} ago (a host that does not answer is not waited for). */
	get waiting(): boolean {
		return this.shown !== this.asked && this.now() - this.askedAt <= WAIT_MS;
	}

	/** Enter or Tab while a list is on its way: its first item is taken if it comes within {@link WAIT_MS}. */
	takeFirstWhenItComes(): void {
		this.takeAt = this.now();
	}

	/** A list shown at once (the agent's commands), or none: whatever is on its way is dropped, and nothing waits for it. */
	settle(): void {
		this.shown = ++this.asked;
		this.takeAt = undefined;
	}
}

/** How long Enter waits for a list on its way, in milliseconds (the host answers in a few). */
export const WAIT_MS = 1500;
