/**
 * The shown chat's transcript: one {@link EntryView} per entry, in a log that follows its end until
 * the user scrolls up. Long chats stay smooth to scroll:
 * - Entries sit in groups of {@link GROUP_SIZE}, and the browser skips laying out and painting a
 *   group while it is off screen (`content-visibility` on the group). On each entry instead, the
 *   browser checked and laid out all 2 000 entries of a long chat on every frame of a scroll.
 * - An entry starts as a placeholder and is drawn when its group nears the screen, nearest first,
 *   {@link DRAW_BUDGET_MS} of each frame; the rest are drawn in the page's idle time, a slice at a
 *   time, from the screen outwards, so that a long chat is whole before the user scrolls to it.
 *   What is drawn so is old news: screen readers do not announce it (the log is a live region).
 *   While the user flings through the chat (half a screen a frame or more, `ScrollPace`), nothing is
 *   drawn: what was near the screen would have left it by the time it was drawn. A group whose
 *   entries were drawn off screen is laid out in idle time too, not in the frame it comes into view.
 * - A group the browser has not laid out yet is given the height its entries probably have
 *   (measured from the groups shown), so the scroll bar says roughly where the user is.
 */
import type { Entry } from '../../common/chat/transcriptModel';
import { BudgetQueue } from './budgetQueue';
import { h } from './dom';
import { EntryView, type EntryActions } from './entries';
import { HeightEstimate, ScrollPace, entryDistances, outward } from './nearness';
import { recordWork } from './work';

/** Entries per group. */
const GROUP_SIZE = 20;
/** How long entries are drawn for in one frame (placeholders, and a long text that came at once). */
export const DRAW_BUDGET_MS = 5;
/** How long placeholders are drawn for in one idle slice at most. */
const IDLE_BUDGET_MS = 8;
/** A page that is never idle (a busy machine) still gets a slice this often. */
const IDLE_WAIT_MS = 250;
/** The idle time left that another group drawn off screen is laid out in (a browser gives up to 50 ms when no frame is due). */
const LAYOUT_IDLE_MS = 30;
/** How long after the user's last scroll groups drawn off screen are laid out again. */
const SCROLL_QUIET_MS = 200;
/** How far beyond the screen entries are drawn ahead of the scroll. */
const NEAR_PX = 1200;
/** The space between entries (`.transcript`, `.entry-group` gap in chat.css). */
const ENTRY_GAP = 10;
/** A placeholder's height (`.entry.placeholder` in chat.css), the estimate before any entry is measured. */
const PLACEHOLDER_PX = 60;

interface Group {
	readonly key: number;
	readonly element: HTMLElement;
	/** Its entries' ids, in order. */
	readonly ids: number[];
	/** Laid out by the browser now (not skipped as off screen). */
	shown: boolean;
	/** Laid out at least once: the browser knows its height from then on. */
	everShown: boolean;
	/** Entries drawn while it was off screen: the browser has not laid them out yet. */
	unlaid: boolean;
	/** How far from the screen it was when it last came near. */
	distance: number;
}

export class TranscriptView {
	private readonly log = h('div', { class: 'transcript', attrs: { role: 'log', 'aria-live': 'polite', 'aria-label': 'Conversation' } });
	private views = new Map<number, EntryView>();
	/** By key (`Math.floor(id / GROUP_SIZE)`), in order. */
	private groups = new Map<number, Group>();
	/** Groups near the screen (within {@link NEAR_PX}). */
	private readonly near = new Set<number>();
	/** A group last seen on the screen: idle drawing goes outwards from it. */
	private center = Infinity;
	private readonly queue = new BudgetQueue<number>(() => performance.now());
	private readonly heights = new HeightEstimate(PLACEHOLDER_PX, ENTRY_GAP);
	/** The estimate last given to groups not yet laid out. */
	private estimated = 0;
	private readonly nearness: IntersectionObserver;
	private readonly sizes: ResizeObserver;
	private frame: number | undefined;
	private estimateFrame: number | undefined;
	/** Cancels the idle slice waiting to run. */
	private idle: (() => void) | undefined;
	/** An idle slice found no idle time: the page is busy, the next slices do not wait for it until all is drawn. */
	private busy = false;
	/** The transcript follows its end (new text, entries growing as they are drawn) until the user scrolls up. */
	private sticky = true;
	/** How fast the user scrolls: drawing waits while they fling through the transcript. */
	private readonly pace = new ScrollPace();
	/** The page scrolled itself (following the end): the next scroll event is not the user's. */
	private followed = false;
	/** Drawing held back until a fling is over. */
	private resume: ReturnType<typeof setTimeout> | undefined;
	/** The idle callback that lays out a group drawn off screen. */
	private layoutIdle: number | undefined;

	constructor(
		private readonly scroller: HTMLElement,
		private readonly actions: EntryActions,
		/** The shown chat's entry with this id, and whether it may still grow. */
		private readonly source: (id: number) => { entry: Entry; streaming: boolean } | undefined,
	) {
		scroller.append(this.log);
		this.nearness = new IntersectionObserver((items) => this.onNear(items), { root: scroller, rootMargin: `${NEAR_PX}px 0px` });
		this.sizes = new ResizeObserver((items) => this.onResize(items));
		scroller.addEventListener('scroll', () => this.onScroll(), { passive: true });
		// Followed once the browser has laid the log out (reading its height sooner would make the browser lay it out
		// then, and again if more is drawn in the same frame).
		new ResizeObserver(() => this.followEnd()).observe(this.log);
	}

	private onScroll(): void {
		const { scrollTop, clientHeight, scrollHeight } = this.scroller;
		this.sticky = scrollTop + clientHeight >= scrollHeight - 40;
		this.pace.scrolled(scrollTop, clientHeight, performance.now(), !this.followed);
		this.followed = false;
	}

	get(id: number): EntryView | undefined {
		return this.views.get(id);
	}

	/** Empties the transcript, for another chat; it follows the end again. */
	clear(): void {
		this.nearness.disconnect();
		this.sizes.disconnect();
		this.queue.clear();
		this.near.clear();
		this.views = new Map();
		this.groups = new Map();
		this.center = Infinity;
		this.log.replaceChildren();
		if (this.frame !== undefined) {
			cancelAnimationFrame(this.frame);
			this.frame = undefined;
		}
		this.idle?.();
		this.idle = undefined;
		clearTimeout(this.resume);
		this.resume = undefined;
		if (this.layoutIdle !== undefined) {
			cancelIdleCallback(this.layoutIdle);
			this.layoutIdle = undefined;
		}
		this.busy = false;
		this.sticky = true;
	}

	/** A view for a new entry at the end: drawn now with `draw`, else a placeholder drawn when it nears the screen. */
	add(id: number, draw?: { entry: Entry; streaming: boolean }): EntryView {
		const view = new EntryView(id, this.actions);
		this.views.set(id, view);
		const group = this.group(Math.floor(id / GROUP_SIZE));
		group.ids.push(id);
		group.element.append(view.element);
		if (draw) {
			view.render(draw.entry, draw.streaming);
		} else {
			if (this.near.has(group.key)) {
				this.queue.set(id, group.distance);
			}
			this.drawSoon();
		}
		if (!group.everShown) {
			group.element.style.containIntrinsicBlockSize = `auto ${this.heights.estimate(group.ids.length)}px`;
		}
		return view;
	}

	/**
	 * Draws an entry's view (or brings it up to date), stopping at `deadline` in a long text that
	 * came at once; the rest is then drawn in the frames after, before any placeholder.
	 */
	render(id: number, entry: Entry, streaming: boolean, deadline: number): void {
		if (this.views.get(id)?.render(entry, streaming, deadline) === false) {
			this.queue.set(id, -1);
			this.drawSoon();
		}
	}

	/** Drops the entries before `first` (the transcript keeps only its latest entries). */
	dropBefore(first: number): void {
		for (const group of this.groups.values()) {
			if (group.ids[0]! >= first) {
				break;
			}
			while (group.ids.length > 0 && group.ids[0]! < first) {
				const id = group.ids.shift()!;
				this.views.get(id)?.element.remove();
				this.views.delete(id);
				this.queue.delete(id);
			}
			if (group.ids.length === 0) {
				this.nearness.unobserve(group.element);
				this.sizes.unobserve(group.element);
				this.heights.forget(group.key);
				this.near.delete(group.key);
				group.element.remove();
				this.groups.delete(group.key);
			}
		}
	}

	/** Back to the end, and following it. */
	stick(): void {
		this.sticky = true;
		this.followEnd();
	}

	private followEnd(): void {
		if (this.sticky) {
			this.followed = true;
			this.scroller.scrollTop = this.scroller.scrollHeight;
		}
	}

	private group(key: number): Group {
		let group = this.groups.get(key);
		if (!group) {
			const element = h('div', { class: 'entry-group', attrs: { 'data-group': key } });
			group = { key, element, ids: [], shown: false, everShown: false, unlaid: false, distance: Infinity };
			const created = group;
			element.addEventListener('contentvisibilityautostatechange', (event) => {
				created.shown = !(event as ContentVisibilityAutoStateChangeEvent).skipped;
				created.everShown ||= created.shown;
				created.unlaid &&= !created.shown;
			});
			this.groups.set(key, group);
			this.log.append(element);
			this.nearness.observe(element);
			this.sizes.observe(element);
		}
		return group;
	}

	/** Queues the placeholders of groups that came near the screen, nearest first; those of groups that left wait for idle time. */
	private onNear(items: IntersectionObserverEntry[]): void {
		for (const item of items) {
			const group = this.groups.get(Number((item.target as HTMLElement).dataset.group));
			if (!group) {
				continue;
			}
			if (!item.isIntersecting) {
				this.near.delete(group.key);
				group.ids.forEach((id) => this.queue.delete(id));
				continue;
			}
			this.near.add(group.key);
			// Where the group is, as the observer measured it (reading layout here would force it).
			const rect = item.boundingClientRect;
			const root = item.rootBounds;
			const viewTop = root ? root.top + NEAR_PX : rect.top;
			const viewBottom = root ? root.bottom - NEAR_PX : rect.bottom;
			const distances = entryDistances(rect.top, rect.bottom, group.ids.length, viewTop, viewBottom);
			group.distance = Math.min(...distances);
			if (group.distance === 0) {
				this.center = group.key;
			}
			group.ids.forEach((id, i) => {
				if (!this.views.get(id)?.whole) {
					this.queue.set(id, distances[i]!);
				}
			});
		}
		this.drawSoon();
	}

	/** Learns how tall entries are from the groups laid out with all their entries drawn. */
	private onResize(items: ResizeObserverEntry[]): void {
		for (const item of items) {
			const group = this.groups.get(Number((item.target as HTMLElement).dataset.group));
			if (group?.everShown && group.ids.every((id) => this.views.get(id)?.whole)) {
				this.heights.measure(group.key, group.ids.length, item.borderBoxSize[0]?.blockSize ?? item.contentRect.height);
			}
		}
		// Groups not laid out yet are given the new estimate once it moved by a tenth, in the next
		// frame (sizes changed here would be left for the browser to report as a loop).
		const estimate = this.heights.estimate(GROUP_SIZE);
		if (Math.abs(estimate - this.estimated) > this.estimated / 10) {
			this.estimated = estimate;
			this.estimateFrame ??= requestAnimationFrame(() => {
				this.estimateFrame = undefined;
				for (const group of this.groups.values()) {
					if (!group.everShown) {
						group.element.style.containIntrinsicBlockSize = `auto ${this.heights.estimate(group.ids.length)}px`;
					}
				}
			});
		}
	}

	/** Whether a fling holds the drawing back: then it goes on once the fling is over. */
	private held(): boolean {
		const wait = this.pace.waitMs(performance.now());
		if (wait > 0) {
			this.resume ??= setTimeout(() => {
				this.resume = undefined;
				this.drawSoon();
			}, wait);
		}
		return wait > 0;
	}

	private drawSoon(): void {
		if (this.held()) {
			return;
		}
		if (this.queue.size > 0) {
			this.frame ??= requestAnimationFrame(() => this.drawNear());
		} else if (this.idle === undefined && this.frame === undefined) {
			this.idle = whenIdle(this.busy, (budget, busy) => {
				this.busy = busy;
				this.drawIdle(budget);
			});
		}
	}

	/** Draws placeholders near the screen, nearest first, for at most {@link DRAW_BUDGET_MS}; the rest wait for the next frame. */
	private drawNear(): void {
		this.frame = undefined;
		if (this.held()) {
			return;
		}
		const started = performance.now();
		this.queue.run(DRAW_BUDGET_MS, (id) => this.draw(id, started + DRAW_BUDGET_MS));
		recordWork(started);
		this.drawSoon();
	}

	/** Draws placeholders from the screen outwards while the page is idle. */
	private drawIdle(budgetMs: number): void {
		this.idle = undefined;
		if (this.held()) {
			return;
		}
		if (this.queue.size > 0) {
			this.drawSoon();
			return;
		}
		const started = performance.now();
		const budget = Math.min(budgetMs, IDLE_BUDGET_MS);
		const keys = [...this.groups.keys()];
		const center = this.center === Infinity ? keys.length - 1 : keys.indexOf(this.center);
		let left = false;
		let drawn = 0;
		for (const index of outward(keys.length, Math.max(center, 0))) {
			for (const id of this.groups.get(keys[index]!)!.ids) {
				if (this.views.get(id)?.whole !== false) {
					continue;
				}
				// At least one entry a slice, however short the idle time was: the drawing always gets on.
				if (drawn > 0 && performance.now() - started >= budget) {
					left = true;
					break;
				}
				this.draw(id, started + Math.max(budget, 1));
				drawn++;
			}
			if (left) {
				break;
			}
		}
		recordWork(started);
		// Entries left for the next slice, or a long text that goes on in the next frame.
		if (left || this.queue.size > 0) {
			this.drawSoon();
		} else {
			this.busy = false;
		}
	}

	/** Lays out the groups drawn off screen in the page's idle time (or within {@link IDLE_WAIT_MS} on a page never idle). */
	private layOutSoon(): void {
		if (this.layoutIdle === undefined && typeof requestIdleCallback === 'function') {
			this.layoutIdle = requestIdleCallback(
				(deadline) => {
					this.layoutIdle = undefined;
					this.layOutAhead(deadline);
				},
				{ timeout: IDLE_WAIT_MS },
			);
		}
	}

	/**
	 * Lays out the groups drawn off screen, nearest the screen first: one a slice, more while the idle
	 * time lasts ({@link LAYOUT_IDLE_MS} left at least for each), none while the user scrolls (a
	 * group's layout takes up to tens of milliseconds, which a frame of a scroll cannot spare).
	 */
	private layOutAhead(deadline: IdleDeadline): void {
		const now = performance.now();
		if (this.queue.size > 0 || now - this.pace.lastScrollAt < SCROLL_QUIET_MS) {
			this.layOutSoon();
			return;
		}
		const keys = [...this.groups.keys()];
		const center = this.center === Infinity ? keys.length - 1 : keys.indexOf(this.center);
		let laid = 0;
		for (const index of outward(keys.length, Math.max(center, 0))) {
			const group = this.groups.get(keys[index]!)!;
			if (group.unlaid && group.ids.every((id) => this.views.get(id)?.whole)) {
				if (laid > 0 && deadline.timeRemaining() < LAYOUT_IDLE_MS) {
					this.layOutSoon();
					break;
				}
				this.layOut(group);
				laid++;
			}
		}
		recordWork(now);
	}

	/**
	 * Lays out a group whose entries were drawn off screen, in idle time rather than in the frame it
	 * comes into view in (up to tens of milliseconds for 20 entries): shown, laid out at once, and
	 * skipped again before the next frame; the browser keeps what it laid out.
	 */
	private layOut(group: Group): void {
		const element = group.element;
		element.style.contentVisibility = 'visible';
		const height = element.getBoundingClientRect().height;
		element.style.contentVisibility = '';
		element.style.containIntrinsicBlockSize = `auto ${height}px`;
		this.heights.measure(group.key, group.ids.length, height);
		group.unlaid = false;
		group.everShown = true;
	}

	/** Draws a placeholder, or goes on drawing a long text, until `deadline`; what is left waits for the next frame. */
	private draw(id: number, deadline: number): void {
		const view = this.views.get(id);
		const drawn = this.source(id);
		if (!view || !drawn || view.whole) {
			return;
		}
		if (!view.rendered) {
			// An entry drawn after the fact is not news: the log's screen-reader announcements stay
			// with what arrives, not the whole chat read out as it is drawn.
			view.element.setAttribute('aria-live', 'off');
		}
		if (!view.render(drawn.entry, drawn.streaming, deadline)) {
			this.queue.set(id, -1);
		}
		const group = this.groups.get(Math.floor(id / GROUP_SIZE));
		if (group && !group.shown) {
			group.unlaid = true;
			this.layOutSoon();
		}
	}
}

interface TaskScheduler {
	postTask(task: () => void, options: { priority: 'background'; signal: AbortSignal }): Promise<void>;
}

/**
 * Runs `run` when the page is idle, with how long it may take and whether the page was busy (no
 * idle time came within {@link IDLE_WAIT_MS}); returns how to cancel it. Once the page was busy,
 * the next slices run as background tasks without waiting for idle time (`busy`): on a machine
 * that never leaves the page idle, a long chat is still drawn within seconds, a slice at a time.
 */
function whenIdle(busy: boolean, run: (budgetMs: number, busy: boolean) => void): () => void {
	const scheduler = (globalThis as { scheduler?: Partial<TaskScheduler> }).scheduler;
	if (busy && typeof scheduler?.postTask === 'function') {
		const abort = new AbortController();
		scheduler.postTask(() => run(IDLE_BUDGET_MS, true), { priority: 'background', signal: abort.signal }).catch(() => {});
		return () => abort.abort();
	}
	if (typeof requestIdleCallback === 'function') {
		// A slice that waited IDLE_WAIT_MS without the page going idle runs anyway, with the usual budget.
		const handle = requestIdleCallback((deadline) => run(deadline.didTimeout ? IDLE_BUDGET_MS : deadline.timeRemaining(), deadline.didTimeout), { timeout: IDLE_WAIT_MS });
		return () => cancelIdleCallback(handle);
	}
	const handle = setTimeout(() => run(IDLE_BUDGET_MS, false), busy ? 0 : 50);
	return () => clearTimeout(handle);
}
