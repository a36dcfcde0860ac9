/**
 * What VS Code's completion list (the suggest widget) means for Tab while a
 * next edit suggestion shows.
 *
 * The stable API says nothing about the list directly. What an extension does
 * learn: VS Code asks inline completion providers again each time the list's
 * selected item changes, passing that item (`InlineCompletionContext.selectedCompletionInfo`:
 * its text and the range it would replace), and asks without one once the list
 * has closed. From that sequence this module tells whether the user moved the
 * selection (arrow keys, Page Up/Down, the mouse) and whether accepting the
 * selected item would change anything.
 *
 * The rule it serves (README, "Tab and the completion list"): Tab belongs to
 * the list. But a list that opened by itself as the user typed, whose
 * selection is VS Code's own and exactly the word already typed (`var`
 * changed to `const`, the list offering `const`), would only take a Tab that
 * changes nothing, while it covers the suggestion's preview: that list is
 * closed when a suggestion shows (see {@link inTheWay}).
 */

/** One report of the list's selected item. */
export interface CompletionListReport {
	/** The place the list is open at: document, version and cursor; a new place is a new list. */
	readonly at: string;
	/** The text the selected item inserts. */
	readonly selected: string;
	/** The text now in the range the item would replace. */
	readonly replaced: string;
}

/** The open completion list, as the reports so far describe it. */
export interface CompletionList {
	readonly at: string;
	/** The item selected when the list opened here: VS Code's choice. */
	readonly first: string;
	/** The user moved the selection since (even back to the first item). */
	readonly moved: boolean;
	/** Accepting the selected item would leave the text as it is. */
	readonly noOp: boolean;
}

/**
 * The list after `report`; `undefined` when the list is closed (a request
 * without a selected item). A report for another place starts a new list.
 */
export function observeCompletionList(before: CompletionList | undefined, report: CompletionListReport | undefined): CompletionList | undefined {
	if (!report) {
		return undefined;
	}
	const same = before !== undefined && before.at === report.at;
	const first = same ? before.first : report.selected;
	const moved = same && (before.moved || report.selected !== first);
	return { at: report.at, first, moved, noOp: report.selected === report.replaced };
}

/** Whether the list is only in the way of a suggestion: the user did not move its selection, and accepting it would change nothing. */
export function inTheWay(list: CompletionList | undefined): boolean {
	return list !== undefined && !list.moved && list.noOp;
}
