/**
 * Which chat page gets the keyboard when the host asks for the chat's input: focus asked for
 * while no page can take it (none loaded and on screen) waits for the next page on screen to load,
 * and only for a load: a page already loaded that asks for the state again (its transcript out of
 * step) is where the user may be typing, so it never takes focus held from long ago; a state
 * request from a document the page has replaced since (it was loaded again) is not answered,
 * since answering it would mark the new document loaded and take its keyboard. When the chat is
 * shown for a page that lacked the keyboard and VS Code does not pass it into the page, it is shown
 * once more (KeyboardHandOff). Rules only: sends nothing, knows no page, webview or VS Code.
 */
import { systemTimers, type Timers } from '../timers';

/**
 * How long after the chat was shown for the keyboard a page must say it has it before the chat is
 * shown again. VS Code passes the keyboard from a webview's frame into its page a moment after
 * focusing the view (a debounced step); now and then it does not, and the keys go nowhere. Not
 * shorter: showing the chat again while its page has the keyboard takes it away for a moment (keys
 * typed then are lost), so a page's word that it has it must have time to arrive on a busy machine.
 */
export const KEYBOARD_HANDOFF_MS = 2000;

/** Whether a state request naming load `load` comes from a document replaced since (the page's current load is `current`). */
export function fromReplacedLoad(load: string | undefined, current: string | undefined): boolean {
	return load !== undefined && current !== undefined && load !== current;
}

/** Focus asked for before any page could take it, held for the next page on screen to load. */
export class FocusPending {
	private pending = false;

	/** Whether focus waits for a page. */
	get waiting(): boolean {
		return this.pending;
	}

	/** Focus was asked for, and `ready` pages (loaded, on screen) were given it: with none, it waits. */
	asked(ready: number): void {
		this.pending = ready === 0;
	}

	/** A page was given the keyboard some other way (it had it, or was told to take it): nothing waits any more. */
	given(): void {
		this.pending = false;
	}

	/**
	 * A page asked for the state: whether it takes the focus that waits (one on screen does, once).
	 * `newLoad`: the page has just loaded (a new document), not a loaded page asking again.
	 */
	takeOnLoad(visible: boolean, newLoad = true): boolean {
		if (!this.pending || !visible || !newLoad) {
			return false;
		}
		this.pending = false;
		return true;
	}
}

/**
 * The keyboard handed to a page by showing the chat (`chat/showChat`, Focus Chat from outside the
 * chat): if no page says it got it (`chat/pageFocused`) within KEYBOARD_HANDOFF_MS, `showAgain`
 * shows the chat once more; once only, so a user who moved on is not pulled back twice.
 */
export class KeyboardHandOff {
	private timer: unknown;

	constructor(
		private readonly showAgain: () => void,
		private readonly timers: Timers = systemTimers,
	) {}

	/** The chat was shown for the keyboard: the wait for a page to take it starts (again). */
	shown(): void {
		this.stop();
		this.timer = this.timers.setTimeout(() => {
			this.timer = undefined;
			this.showAgain();
		}, KEYBOARD_HANDOFF_MS);
	}

	/** A page got the keyboard: nothing waits. */
	taken(): void {
		this.stop();
	}

	/** Whether a page is waited for. */
	get waiting(): boolean {
		return this.timer !== undefined;
	}

	dispose(): void {
		this.stop();
	}

	private stop(): void {
		if (this.timer !== undefined) {
			this.timers.clearTimeout(this.timer);
			this.timer = undefined;
		}
	}
}
