/**
 * Which chat page gets the keyboard when the host asks for the chat's input: focus asked for
 * while no page can take it (none loaded and on screen) waits for the next page on screen to load;
 * and a state request from a document the page has replaced since (it was loaded again) is not
 * answered, since answering it would mark the new document loaded and take its keyboard. Rules
 * only: sends nothing, knows no page, webview or VS Code.
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

	/** A page loaded: whether it takes the focus that waits (one on screen does, once). */
	takeOnLoad(visible: boolean): boolean {
		if (!this.pending || !visible) {
			return false;
		}
		this.pending = false;
		return true;
	}
}
