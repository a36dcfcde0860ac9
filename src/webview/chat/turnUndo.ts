/**
 * **Undo this turn** on the end of a turn that changed files: a button saying how many files go
 * back, or, once undone, a note saying so. The host then asks once, above the input: what goes
 * back and what is left alone (and why), with **Undo Turn** (focused: Enter) and **Cancel**
 * (Escape). The host sends each tab's turns and its question with its state.
 */
import type { Tab } from '../../common/chat/messages';
import { h, icon } from './dom';

export type TurnInfo = NonNullable<Tab['turns']>[number];

/** What a turn's end shows after how it ended: the button, the note, or nothing (no files changed, or nothing kept). */
export function turnUndoPart(info: TurnInfo | undefined, undo: () => void): HTMLElement | null {
	if (!info) {
		return null;
	}
	const files = `${info.files} file${info.files === 1 ? '' : 's'}`;
	if (info.undone) {
		return h('span', { class: 'turn-undone' }, icon('discard'), ` Undone: ${files} put back`);
	}
	return h(
		'button',
		{ class: 'link-button turn-undo', attrs: { type: 'button', title: `Put the ${files} this turn changed back as they were before it` }, on: { click: undo } },
		icon('discard'),
		` Undo this turn (${files})`,
	);
}

/** The turn ends whose button changed between two states of a tab. */
export function changedTurns(before: Tab['turns'], after: Tab['turns']): number[] {
	const key = (t: TurnInfo) => `${t.files}:${t.undone === true}`;
	const old = new Map((before ?? []).map((t) => [t.id, key(t)]));
	const now = new Map((after ?? []).map((t) => [t.id, key(t)]));
	return [...new Set([...old.keys(), ...now.keys()])].filter((id) => old.get(id) !== now.get(id));
}

export type UndoAsk = NonNullable<Tab['undoAsk']>;

/** The question, drawn into `section`: its title, a line per file, and the answers. */
export function drawUndoAsk(section: HTMLElement, ask: UndoAsk, answer: (undo: boolean) => void): void {
	const primary = ask.canUndo
		? h('button', { class: 'primary undo-ask-confirm', attrs: { type: 'button' }, on: { click: () => answer(true) } }, icon('discard'), ' Undo Turn')
		: h('button', { class: 'primary undo-ask-close', attrs: { type: 'button' }, on: { click: () => answer(false) } }, 'Close');
	section.append(
		h('h2', { attrs: { id: 'undo-ask-title' } }, ask.title),
		h('ul', { class: 'undo-ask-files' }, ...ask.lines.map((line) => h('li', {}, line))),
		h('div', { class: 'undo-ask-actions' }, primary, ask.canUndo ? h('button', { class: 'secondary undo-ask-cancel', attrs: { type: 'button' }, on: { click: () => answer(false) } }, 'Cancel') : null),
	);
}
