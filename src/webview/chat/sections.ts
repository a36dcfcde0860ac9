/**
 * The sections above the chat's input: the files the agent changed (review, keep or undo each, or
 * all) and the sign-in card (a button per method the agent offers, and Not now). Each is drawn
 * from the tab's state and sends the user's choice to the host; it keeps nothing of its own.
 * {@link SectionRedraw} draws a section again only when what it shows changed, so that a state
 * that changed nothing there keeps the focus where the user left it.
 */
import { PageCommands, type CommandType, type Tab } from '../../common/chat/messages';
import { h, icon } from './dom';
import { focusInPage } from './focus';

/** What the sections need of the host: to send it the user's choice. */
export interface Sender {
	send<M extends string, P>(type: CommandType<M, P>, params: P): void;
}

export class SectionRedraw {
	/** What each section shows now, by its signature. */
	private readonly drawn = new Map<HTMLElement, string | undefined>();

	/** `focusInput`: where the keyboard goes when a section it was in empties. */
	constructor(private readonly focusInput: () => void) {}

	/**
	 * Draws `section` again only when what it shows (`signature`) changed, so a state that changed
	 * nothing there keeps its focus; undefined hides it. The focus goes to `focus` inside it when it
	 * had the focus (or `always`), and to the input when it empties with the focus in it.
	 */
	redraw(section: HTMLElement, signature: string | undefined, focus: { readonly focus: string; readonly always: boolean }, draw: () => void): void {
		if (this.drawn.get(section) === signature) {
			return;
		}
		this.drawn.set(section, signature);
		const hadFocus = section.contains(document.activeElement);
		section.hidden = signature === undefined;
		section.replaceChildren();
		if (signature === undefined) {
			if (hadFocus) {
				this.focusInput();
			}
			return;
		}
		draw();
		if (hadFocus || focus.always) {
			focusInPage(section.querySelector<HTMLElement>(focus.focus));
		}
	}
}

/** The changed files: name (opens the review), lines added and removed, keep and undo; keep all and undo all. */
export function drawChanges(section: HTMLElement, tab: Tab, files: NonNullable<Tab['changes']>, host: Sender): void {
	const sessionKey = tab.sessionKey;
	const iconButton = (name: string, label: string, click: () => void) => h('button', { class: 'icon-button small', attrs: { type: 'button', title: label, 'aria-label': label }, on: { click } }, icon(name));
	section.append(
		h(
			'div',
			{ class: 'changes-header' },
			h('span', { class: 'changes-title' }, `${files.length} file${files.length === 1 ? '' : 's'} changed`),
			h('button', { class: 'link-button changes-keep-all', attrs: { type: 'button' }, on: { click: () => host.send(PageCommands.keepChanges, { sessionKey }) } }, 'Keep all'),
			h('button', { class: 'link-button changes-undo-all', attrs: { type: 'button' }, on: { click: () => host.send(PageCommands.undoChanges, { sessionKey }) } }, 'Undo all'),
		),
		h(
			'ul',
			{ class: 'changes-list' },
			...files.map((file) =>
				h(
					'li',
					{ class: 'changed-file' },
					icon(file.note !== undefined ? 'warning' : file.created ? 'new-file' : file.deleted ? 'trash' : 'diff'),
					h('button', { class: 'link-button changed-file-name', attrs: { type: 'button', title: file.note ?? `Review the changes to ${file.path}${file.deleted ? ' (deleted)' : ''}` }, on: { click: () => host.send(PageCommands.reviewFile, { sessionKey, path: file.path }) } }, file.name),
					file.note !== undefined
						? h('span', { class: 'changed-note', attrs: { title: file.note } }, 'cannot undo')
						: h('span', { class: 'changed-lines' }, h('span', { class: 'added' }, `+${file.added}`), ' ', h('span', { class: 'removed' }, `−${file.removed}`)),
					iconButton('check', `Keep the changes to ${file.name}`, () => host.send(PageCommands.keepChanges, { sessionKey, path: file.path })),
					file.note === undefined ? iconButton('discard', `Undo the changes to ${file.name}`, () => host.send(PageCommands.undoChanges, { sessionKey, path: file.path })) : null,
				),
			),
		),
	);
}

export function drawSignIn(section: HTMLElement, tab: Tab, methods: NonNullable<Tab['authMethods']>, host: Sender): void {
	const sessionKey = tab.sessionKey;
	const buttons = methods.map((method, index) =>
		h(
			'li',
			{ class: 'sign-in-method' },
			h(
				'button',
				{
					class: index === 0 ? 'primary' : 'secondary',
					attrs: { type: 'button', ...(method.description ? { 'aria-describedby': `sign-in-detail-${index}` } : {}) },
					on: { click: () => host.send(PageCommands.authenticate, { sessionKey, methodId: method.id }) },
				},
				icon(method.type === 'terminal' ? 'terminal' : method.type === 'env_var' ? 'key' : 'account'),
				` ${method.name}`,
			),
			method.description ? h('span', { class: 'sign-in-detail', attrs: { id: `sign-in-detail-${index}` } }, method.description) : null,
		),
	);
	section.append(
		h('h2', { attrs: { id: 'sign-in-title' } }, `Sign in to ${tab.agentName}`),
		h('p', {}, `${tab.agentName} needs you to sign in before it can chat. Choose how:`),
		h('ul', { class: 'sign-in-methods' }, ...buttons),
		h('button', { class: 'link-button sign-in-dismiss', attrs: { type: 'button' }, on: { click: () => host.send(PageCommands.dismissSignIn, { sessionKey }) } }, 'Not now'),
	);
}
