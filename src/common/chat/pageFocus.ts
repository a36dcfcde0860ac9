/**
 * Which chat page gets the keyboard when the host asks for the chat's input: focus asked for
 * while no page can take it (none loaded and on screen) waits for the next page on screen to load,
 * and only for a load: a page already loaded that asks for the state again (its transcript out of
 * step) is where the user may be typing, so it never takes focus held from long ago; a state
 * request from a document the page has replaced since (it was loaded again) is not answered,
 * since answering it would mark the new document loaded and take its keyboard. Rules only: sends
 * nothing, knows no page, webview or VS Code.
 */

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
