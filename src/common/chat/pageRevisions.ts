/**
 * What one chat page has of each tab's transcript: the transcript it was sent and at which
 * revision, per tab key. Decides what a state carries whole and when a patch is due; a transcript
 * the page does not have (one replaced since, after a reset) only ever comes whole with the next
 * state, never as a patch. Bookkeeping only: sends nothing, knows no page, webview or VS Code.
 */

/** A transcript as far as the bookkeeping sees it: an object whose revision grows as it changes. */
export interface Revisioned {
	readonly revision: number;
}

export class PageRevisions<T extends Revisioned> {
	/** Absent until the page asked for the state. */
	private readonly known = new Map<string, { readonly transcript: T; revision: number }>();

	/**
	 * A state goes to the page: the keys of the tabs whose transcript it carries whole (every one
	 * with `all`, else those the page does not have at their current revision). The page then has
	 * each tab's transcript at its current revision; tabs no longer given are forgotten.
	 */
	forState(tabs: Iterable<readonly [string, T]>, all: boolean): string[] {
		const had = new Map(this.known);
		this.known.clear();
		const whole: string[] = [];
		for (const [key, transcript] of tabs) {
			const before = had.get(key);
			if (all || !before || before.transcript !== transcript || before.revision !== transcript.revision) {
				whole.push(key);
			}
			this.known.set(key, { transcript, revision: transcript.revision });
		}
		return whole;
	}

	/**
	 * The revision the page has of tab `key`'s `transcript` when a patch up to its current revision
	 * is due (the page then counts as having it), else undefined: nothing changed, or the page does
	 * not have this transcript (it comes whole with the next state).
	 */
	patchFrom(key: string, transcript: T): number | undefined {
		const known = this.known.get(key);
		if (!known || known.transcript !== transcript || known.revision === transcript.revision) {
			return undefined;
		}
		const from = known.revision;
		known.revision = transcript.revision;
		return from;
	}
}
