/**
 * The Tab chain (README, "Tab, Tab, Tab"): just after an accept, Tab is for the next suggestion
 * until the agent has answered the request for it and at least `waitMs` have passed since the
 * accept, and never longer than `limitMs` (an agent that is slow to answer gives Tab back).
 *
 * Only the chain's state and its timers. It must not touch the editor, the context keys or the
 * request: the caller says when an accept begins a chain, when the user ends it and what the
 * answer brought, and hears of every change through `onChange`.
 */
import { systemTimers, type Timers } from '../timers';

export interface ChainTiming {
	/** Tab stays for the next suggestion at least this long after the accept. */
	readonly waitMs: number;
	/** …and never longer than this, answered or not. */
	readonly limitMs: number;
}

export const DEFAULT_CHAIN_TIMING: ChainTiming = { waitMs: 1000, limitMs: 5000 };

/** One accept's wait for the next suggestion; opaque to callers but for telling one from another. */
export interface ChainLink {
	/** Settles once the request for the next suggestion is answered (or the chain ends). */
	readonly answered: Promise<void>;
}

interface Link extends ChainLink {
	readonly answer: () => void;
	readonly since: number;
	timer: unknown;
}

export class TabChain {
	private link: Link | undefined;

	constructor(
		private readonly onChange: () => void,
		private readonly timing: ChainTiming = DEFAULT_CHAIN_TIMING,
		private readonly timers: Timers = systemTimers,
	) {}

	/** Whether Tab is waiting for the next suggestion. */
	get pending(): boolean {
		return this.link !== undefined;
	}

	/** The wait in progress, to hand to {@link answered} once the request is answered. */
	get current(): ChainLink | undefined {
		return this.link;
	}

	/** An accept: Tab is for the next suggestion until {@link end}, at most `limitMs`. */
	begin(): void {
		this.end();
		let answer = () => {};
		const answered = new Promise<void>((resolve) => (answer = resolve));
		this.link = { answered, answer, since: this.timers.now(), timer: this.timers.setTimeout(() => this.end(), this.timing.limitMs) };
		this.onChange();
	}

	/** Tab is Tab again: typing, moving, Escape, snoozing, the time being up. Waiting Tabs go on. */
	end(): void {
		const link = this.link;
		if (!link) {
			return;
		}
		this.link = undefined;
		this.timers.clearTimeout(link.timer);
		link.answer();
		this.onChange();
	}

	/**
	 * The request for `link`'s next suggestion is answered. When a suggestion Tab applies shows
	 * (`nextShows`), Tab is its key now and the chain ends; otherwise waiting Tabs go on (to do
	 * nothing, or to apply ghost text) and later ones do nothing until `waitMs` after the accept.
	 * Nothing happens when `link` is no longer the chain's.
	 */
	answered(link: ChainLink | undefined, nextShows: boolean): void {
		if (!link || this.link !== link) {
			return;
		}
		if (nextShows) {
			this.end();
			return;
		}
		const own = this.link;
		own.answer();
		this.timers.clearTimeout(own.timer);
		own.timer = this.timers.setTimeout(() => this.end(), Math.max(0, own.since + this.timing.waitMs - this.timers.now()));
	}

	dispose(): void {
		this.end();
	}
}
