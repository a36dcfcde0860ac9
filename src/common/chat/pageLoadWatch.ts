/**
 * Watches that a chat page on screen loads. A webview that failed to load stays blank and never
 * asks for its state: a page shown that has not asked within `watchMs` is loaded again, at most
 * `maxReloads` times per showing, then given up on (said once). Each load after a reload is given
 * twice as long as the one before (5, 10, 20 s), and a page whose document has arrived (it says
 * so before its script has loaded: `started`) is given `startedWatchMs` from then: on a machine too
 * busy to load the page in 5 s, reloading it would throw away a load about to finish, again and
 * again. A hidden page is not watched; a page that loaded is left alone until it is hidden and
 * shown again (its webview may be recreated).
 *
 * Knows nothing of webviews or VS Code: the host says when the page is shown, hidden or loaded,
 * and is called back to reload it or to say it gave up.
 */
import { systemTimers, type Timers } from '../timers';

/** When a page is loaded again and given up on. */
export interface PageLoadSchedule {
	/** How long the first load has; each load after a reload has twice as long as the one before. */
	readonly watchMs: number;
	/** How long a page whose document has arrived has from then to ask for its state. */
	readonly startedWatchMs: number;
	readonly maxReloads: number;
}

/** The chat page's: 5 s for the first load, then 10 and 20 s; 30 s once its document has arrived. */
export const CHAT_PAGE_LOAD: PageLoadSchedule = { watchMs: 5000, startedWatchMs: 30_000, maxReloads: 2 };

/**
 * How long a page shown has before the watch gives up on it when none of its documents arrives:
 * every load given its time (35 s for the chat page's). What waits for a page shown again waits
 * at least this long: the loads after the first are the page's way through a slow or failed one.
 */
export function unstartedLoadsMs(schedule: PageLoadSchedule): number {
	return schedule.watchMs * (2 ** (schedule.maxReloads + 1) - 1);
}

export interface PageLoadWatchOptions extends PageLoadSchedule {
	/** Loads the page again; `attempt` counts from 1, `waitedMs`: how long the load it replaces was given. */
	readonly reload: (attempt: number, waitedMs: number) => void;
	/** The page did not load in `maxReloads + 1` tries. */
	readonly gaveUp: () => void;
	/** Timers (tests give a fake clock). */
	readonly timers?: Timers;
}

export class PageLoadWatch {
	private timer: unknown;
	/** Reloads since the page was shown. */
	private reloads = 0;
	private loadedNow = false;
	private visible = false;
	private readonly timers: Timers;

	constructor(private readonly options: PageLoadWatchOptions) {
		this.timers = options.timers ?? systemTimers;
	}

	/** Whether the page has asked for its state since it was last shown. */
	get loaded(): boolean {
		return this.loadedNow;
	}

	/** The page is on screen (again): watched unless it has loaded. */
	shown(): void {
		this.visible = true;
		if (!this.loadedNow) {
			this.watch(0);
		}
	}

	/** The page left the screen: not watched; shown again, it must load again. */
	hidden(): void {
		this.visible = false;
		this.loadedNow = false;
		this.stop();
	}

	/** The page's document arrived (its script is on the way): it has {@link PageLoadWatchOptions.startedWatchMs} from now. */
	started(): void {
		if (this.loadedNow || !this.visible) {
			return;
		}
		this.arm(this.options.startedWatchMs);
	}

	/** The page asked for its state. */
	markLoaded(): void {
		this.loadedNow = true;
		this.stop();
	}

	dispose(): void {
		this.visible = false;
		this.stop();
	}

	private watch(reloads: number): void {
		this.reloads = reloads;
		this.arm(this.options.watchMs * 2 ** reloads);
	}

	/** Reloads the page (or gives up) if it has not loaded within `ms`. */
	private arm(ms: number): void {
		this.stop();
		this.timer = this.timers.setTimeout(() => {
			this.timer = undefined;
			if (this.loadedNow || !this.visible) {
				return;
			}
			if (this.reloads >= this.options.maxReloads) {
				this.options.gaveUp();
				return;
			}
			this.options.reload(this.reloads + 1, ms);
			this.watch(this.reloads + 1);
		}, ms);
	}

	private stop(): void {
		if (this.timer !== undefined) {
			this.timers.clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
