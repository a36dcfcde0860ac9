/**
 * Select All in the chat page acts where the keyboard is. Every key pressed in a webview also goes
 * to the workbench, and VS Code runs Ctrl+A (Cmd+A) there a second time as its own Select All: a
 * `document.execCommand('selectAll')` sent into the page. On a busy machine it lands late, after the
 * user has moved on (Ctrl+A in a form's number field, then Tab to a checkbox), and the browser's
 * own Select All then selects the text of the field the selection was last in and gives that field
 * the keyboard back. Here Select All selects the text of the field that has the keyboard, nothing
 * when a checkbox, choice or button has it, and the page's text when nothing does.
 *
 * Only `selectAll` is taken; every other command (copy, paste, cut, undo, redo) goes to the browser
 * as before.
 */

/** Input types without text to select. */
const NO_TEXT = new Set(['checkbox', 'radio', 'button', 'submit', 'reset', 'file', 'color', 'range', 'image', 'hidden']);

/** What Select All does in `doc`, given the element that has the keyboard: select a field's text, nothing, or the browser's own. */
export function selectAllTarget(active: Element | null, doc: Document): 'field' | 'nothing' | 'browser' {
	if (active instanceof HTMLTextAreaElement || (active instanceof HTMLInputElement && !NO_TEXT.has(active.type))) {
		return 'field';
	}
	if (active === null || active === doc.body || active === doc.documentElement || (active instanceof HTMLElement && active.isContentEditable)) {
		return 'browser';
	}
	return 'nothing';
}

/** Makes `doc.execCommand('selectAll')` act on the element that has the keyboard (see above). */
export function keepSelectAllWhereTheKeyboardIs(doc: Document): void {
	const browsers = doc.execCommand.bind(doc);
	Object.defineProperty(doc, 'execCommand', {
		configurable: true,
		value: (command: string, showUI?: boolean, value?: string): boolean => {
			if (command.toLowerCase() !== 'selectall') {
				return browsers(command, showUI, value);
			}
			const active = doc.activeElement;
			switch (selectAllTarget(active, doc)) {
				case 'field':
					(active as HTMLInputElement | HTMLTextAreaElement).select();
					return true;
				case 'nothing':
					return true;
				case 'browser':
					return browsers(command, showUI, value);
			}
		},
	});
}
