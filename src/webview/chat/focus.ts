/**
 * The page moves the keyboard on its own (the input after a prompt was answered or a tab chosen, a
 * new permission prompt, the sign-in card, the input when the host asks for it) only while the page
 * has the keyboard. `focus()` in a page without it takes the keyboard from the part of the workbench
 * the user moved to (the command palette, an editor), and what they type there lands in the chat.
 * When VS Code gives the page the keyboard (a view shown and focused), the page's `focus` listener
 * puts it where it belongs.
 */

/** Whether this page has the keyboard (its document is the focused one of the workbench). */
export function pageHasKeyboard(): boolean {
	return document.hasFocus();
}

/** Focuses `element` if this page has the keyboard; says whether it did. */
export function focusInPage(element: HTMLElement | null | undefined): boolean {
	if (!element || !pageHasKeyboard()) {
		return false;
	}
	element.focus();
	return true;
}
