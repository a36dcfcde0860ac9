/**
 * An answer's suggestions before any is shown, and the hint each shown one carries. Which ids
 * are new to the ledger (an agent reusing an id gets no second outcome), which suggestion is
 * dropped as a repeat in the same answer, which was lost because its document could not be
 * read; and the words saying what Tab does.
 *
 * Pure: it must not settle outcomes or read the editor. The caller registers through the
 * ledger, refuses what is lost and words the place (`line 12` or `src/a.ts:12`).
 */

export interface SortedAnswer<S extends { readonly id: string }> {
	/** The suggestions that may show: new ids, each once, in the answer's order. */
	readonly fresh: S[];
	/** Ids the ledger already knew (open or settled): dropped, no outcome of their own. */
	readonly reused: string[];
	/** Ids registered now with no suggestion left to show (their document could not be read): each owes a refusal. */
	readonly lost: string[];
}

/**
 * Sorts `raw` (as the agent sent it) and `converted` (those whose documents could be read, in
 * the editor's coordinates). `register` is the ledger's: false for an id it already knows.
 */
export function sortAnswer<S extends { readonly id: string }>(raw: readonly { readonly id: string }[], converted: readonly S[], register: (id: string) => boolean): SortedAnswer<S> {
	const registered: string[] = [];
	const reused: string[] = [];
	for (const s of raw) {
		(register(s.id) ? registered : reused).push(s.id);
	}
	const isNew = new Set(registered);
	// One suggestion per id: a repeated id in the same answer is dropped (its outcome is the first's).
	const seen = new Set<string>();
	const fresh = converted.filter((s) => isNew.has(s.id) && !seen.has(s.id) && seen.add(s.id) !== undefined);
	const lost = registered.filter((id) => !fresh.some((s) => s.id === id));
	return { fresh, reused, lost };
}

/** What a shown suggestion says Tab does: in the hint, and on its own for hints made elsewhere. */
export interface HintText {
	readonly hint: string;
	readonly action: string;
}

/** Where a suggestion points, for its hint: the line in the active file, the file and line elsewhere (1-based `line`). */
export function hintPlace(line: number, inActiveFile: boolean, name: string): string {
	return inActiveFile ? `line ${line}` : `${name}:${line}`;
}

export const ghostHint: HintText = { hint: 'Tab to accept', action: 'accept' };

export function previewHint(place: string): HintText {
	return { hint: `⇥ Tab: apply edit at ${place} · Esc: dismiss`, action: `apply edit at ${place}` };
}

export function jumpHint(place: string): HintText {
	return { hint: `⇥ Tab: go to ${place}`, action: `go to ${place}` };
}

/** A search and replace changing `count` places in the file `name`. */
export function replaceHint(count: number, name: string): HintText {
	const action = `replace ${count} place${count === 1 ? '' : 's'} in ${name}`;
	return { hint: `⇥ Tab: ${action}`, action };
}
