/**
 * The chat tabs above the transcript (an ARIA tablist): a tab per chat with its title, what it is
 * doing (asking, running, ended, read-only) and a close button. Arrow keys, Home and End move
 * between tabs and Delete closes one; a tab chosen with the mouse hands the keyboard to the chat's
 * input, so typing goes on there. The strip is drawn again on every change, and the tab (or close
 * button) that had the keyboard has it again after.
 */
import type { Tab } from '../../common/chat/messages';
import { h, icon } from './dom';
import { focusInPage } from './focus';

/** A tab as the strip draws it. */
export interface TabView {
	readonly tab: Tab;
	readonly title: string;
	readonly running: boolean;
	/** A permission prompt waits for an answer. */
	readonly asking: boolean;
}

export interface TabStripHost {
	select(key: string): void;
	close(key: string): void;
	/** Puts the keyboard in the shown chat's input; false when it has none (a read-only chat). */
	focusInput(): boolean;
}

export class TabStrip {
	readonly element = h('div', { class: 'tab-list', attrs: { role: 'tablist', 'aria-label': 'Chats' } });
	private tabs: readonly TabView[] = [];
	private shown: string | undefined;

	constructor(private readonly host: TabStripHost) {
		this.element.addEventListener('keydown', (e) => this.onKey(e));
	}

	/** Draws the tabs, `shown` selected; the keyboard stays on the tab it was on (or goes to `shown` if that tab closed). */
	render(tabs: readonly TabView[], shown: string | undefined): void {
		const active = document.activeElement;
		const focused = active instanceof HTMLElement && this.element.contains(active) ? active : undefined;
		const focusedKey = focused?.closest('.tab')?.querySelector<HTMLElement>('.tab-button')?.dataset.key;
		this.tabs = tabs;
		this.shown = shown;
		this.element.replaceChildren(...tabs.map((view) => this.draw(view)));
		if (focusedKey !== undefined) {
			const button = this.button(focusedKey);
			const target = button && focused?.classList.contains('tab-close') ? button.parentElement?.querySelector<HTMLElement>('.tab-close') : (button ?? (shown !== undefined ? this.button(shown) : null));
			focusInPage(target);
		}
	}

	private draw({ tab, title, running, asking }: TabView): HTMLElement {
		const selected = tab.sessionKey === this.shown;
		const state = asking
			? icon('shield', 'tab-state')
			: running
				? icon('loading', 'tab-state codicon-modifier-spin')
				: tab.state === 'failed' || tab.state === 'ended'
					? icon('debug-disconnect', 'tab-state')
					: tab.state === 'read_only'
						? icon('lock', 'tab-state')
						: null;
		return h(
			'div',
			{ class: `tab${selected ? ' selected' : ''}` },
			h(
				'button',
				{
					class: 'tab-button',
					attrs: { role: 'tab', type: 'button', 'aria-selected': selected, 'aria-controls': 'transcript-panel', tabindex: selected ? 0 : -1, title: `${title} — ${tab.agentName}`, 'data-key': tab.sessionKey },
					on: { click: (event) => this.onClick(tab.sessionKey, event) },
				},
				state,
				h('span', { class: 'tab-title' }, title),
				h('span', { class: 'visually-hidden tab-agent' }, `, ${tab.agentName}`),
			),
			h('button', { class: 'icon-button small tab-close', attrs: { type: 'button', 'aria-label': `Close ${title}`, title: 'Close chat', tabindex: selected ? 0 : -1 }, on: { click: () => this.host.close(tab.sessionKey) } }, icon('close')),
		);
	}

	/**
	 * Chosen with the mouse, the keyboard goes to the chat's input (the button clicked is drawn
	 * again, which would leave it on the page's body). Chosen with the keyboard (Enter or Space on
	 * the tab: `detail` 0), it stays on the tab.
	 */
	private onClick(key: string, event: MouseEvent): void {
		this.host.select(key);
		if (event.detail === 0 || !this.host.focusInput()) {
			focusInPage(this.button(key));
		}
	}

	private onKey(event: KeyboardEvent): void {
		const index = this.tabs.findIndex((t) => t.tab.sessionKey === this.shown);
		const count = this.tabs.length;
		let next: number | undefined;
		if (event.key === 'ArrowRight') {
			next = (index + 1) % count;
		} else if (event.key === 'ArrowLeft') {
			next = (index - 1 + count) % count;
		} else if (event.key === 'Home') {
			next = 0;
		} else if (event.key === 'End') {
			next = count - 1;
		} else if (event.key === 'Delete' && this.shown !== undefined) {
			this.host.close(this.shown);
			return;
		}
		const target = next !== undefined ? this.tabs[next]?.tab.sessionKey : undefined;
		if (target !== undefined) {
			event.preventDefault();
			this.host.select(target);
			focusInPage(this.button(target));
		}
	}

	private button(key: string): HTMLElement | null {
		return this.element.querySelector<HTMLElement>(`[data-key="${CSS.escape(key)}"]`);
	}
}
