/**
 * How near the screen the parts of a long transcript are, from what the page knows without asking
 * the browser to lay anything out: a group of entries' box (as an IntersectionObserver reports it)
 * and the groups' order. The chat page draws the nearest first. Pure, for plain Node tests.
 */

/**
 * How far (in pixels) each of a group's `count` entries probably is from the screen
 * (`viewTop`..`viewBottom`), the group spanning `top`..`bottom`: the entries are taken as evenly
 * spread over the group, and one on the screen is 0 away.
 */
export function entryDistances(top: number, bottom: number, count: number, viewTop: number, viewBottom: number): number[] {
	const pitch = count > 0 ? (bottom - top) / count : 0;
	const out: number[] = [];
	for (let i = 0; i < count; i++) {
		const from = top + i * pitch;
		const to = from + pitch;
		out.push(to < viewTop ? viewTop - to : from > viewBottom ? from - viewBottom : 0);
	}
	return out;
}

/** The indexes of `length` items ordered from `center` outwards: center, the one after, the one before, … */
export function outward(length: number, center: number): number[] {
	const out: number[] = [];
	const start = Math.min(Math.max(Math.round(center), 0), length - 1);
	for (let step = 0; out.length < length; step++) {
		if (start + step < length) {
			out.push(start + step);
		}
		if (step > 0 && start - step >= 0) {
			out.push(start - step);
		}
	}
	return out;
}

/**
 * The likely height of entries not yet drawn: the mean pitch (height plus the gap after it) of
 * the entries measured so far, by group; a group measured again replaces its earlier figure.
 */
export class HeightEstimate {
	private readonly measured = new Map<number, { entries: number; height: number }>();
	private entries = 0;
	private height = 0;

	/** @param fallback the height of an entry while none has been measured; @param gap the space between entries */
	constructor(
		private readonly fallback: number,
		private readonly gap: number,
	) {}

	/** Group `key` holds `entries` drawn entries and is `height` pixels tall. */
	measure(key: number, entries: number, height: number): void {
		this.forget(key);
		if (entries > 0 && height > 0) {
			this.measured.set(key, { entries, height });
			this.entries += entries;
			this.height += height + this.gap;
		}
	}

	forget(key: number): void {
		const old = this.measured.get(key);
		if (old) {
			this.measured.delete(key);
			this.entries -= old.entries;
			this.height -= old.height + this.gap;
		}
	}

	/** The likely height of a group of `entries` entries. */
	estimate(entries: number): number {
		if (entries <= 0) {
			return 0;
		}
		const pitch = this.entries > 0 ? this.height / this.entries : this.fallback + this.gap;
		return Math.max(0, Math.round(pitch * entries - this.gap));
	}
}

/**
 * Whether the user is flinging through the transcript: scrolling half a screen or more a frame (30
 * screens a second, too fast to read anything). The page draws the entries near where the view was
 * in the frame before, so at that pace most of what it draws has left the screen by the time it is
 * drawn; it is never seen, and its layout is what makes such a frame long. The page waits until the
 * scroll slows or stops ({@link ScrollPace.quietMs} after its last event) and draws where it is.
 */
export class ScrollPace {
	/** How long after its last scroll event a fling is over. */
	static readonly quietMs = 100;
	/** A frame's time at 60 frames a second. */
	private static readonly frameMs = 1000 / 60;
	private lastTop: number | undefined;
	private lastAt = -Infinity;
	private lastUserAt = -Infinity;
	private fast = false;

	/** The scroller was scrolled to `top` at `now`, its view `viewHeight` tall; by the user, or by the page (`byUser` false: no fling). */
	scrolled(top: number, viewHeight: number, now: number, byUser = true): void {
		if (byUser && this.lastTop !== undefined && now - this.lastAt < ScrollPace.quietMs) {
			// Events of one frame come together: the pace is over at least a frame's time.
			const perFrame = (Math.abs(top - this.lastTop) * ScrollPace.frameMs) / Math.max(now - this.lastAt, ScrollPace.frameMs);
			this.fast = perFrame >= viewHeight / 2;
		} else {
			this.fast = false;
		}
		this.lastTop = top;
		this.lastAt = now;
		if (byUser) {
			this.lastUserAt = now;
		}
	}

	/** When the user last scrolled (-Infinity: never). */
	get lastScrollAt(): number {
		return this.lastUserAt;
	}

	/** How long to wait before drawing (0: draw now). */
	waitMs(now: number): number {
		const left = this.lastAt + ScrollPace.quietMs - now;
		return this.fast && left > 0 ? left : 0;
	}
}
