/**
 * The input at the bottom of a chat: it grows with its text, sends on Enter (Shift+Enter: a new
 * line), walks the tab's history with Up and Down, stops the turn with Escape, suggests slash
 * commands after `/` and files after `@`, and carries attachments (the active file or selection,
 * @-mentioned files) as removable chips. Config options (or modes) and usage sit beside it.
 */
import type { Attachment, Mention } from '../../common/chat/messages';
import { attachmentLabel, formatTokens } from './labels';
import { NewestList } from './newestList';
import { readImages } from './images';
import type { Command, SessionInfo } from '../../common/chat/transcriptModel';
import { h, icon } from './dom';
import type { Draft } from './drafts';
import { focusInPage } from './focus';

export interface ComposerHost {
	send(text: string, attachments: Attachment[]): void;
	cancel(): void;
	activeEditorAttachment(): Promise<Attachment | null>;
	searchMentions(query: string): Promise<Mention[]>;
	/** Context providers offer for what is being written (OpenCtx message selectors). */
	suggestContext(text: string): Promise<Mention[]>;
	setConfigOption(configId: string, value: string | boolean): void;
	setMode(modeId: string): void;
	/** The draft changed (to keep it across reloads). */
	changed(): void;
}

interface Suggestion {
	readonly label: string;
	readonly detail?: string;
	/** A heading drawn above the first suggestion of its group (a context provider's name). */
	readonly group?: string;
	accept(): void;
}

const MAX_HISTORY = 100;
/** Whether the browser sizes the input to its text itself (`field-sizing: content` in chat.css). */
const SIZED_BY_BROWSER = typeof CSS !== 'undefined' && CSS.supports('field-sizing', 'content');
/** Typing pauses this long before providers are asked what they would offer for the text, in milliseconds. */
const OFFER_DELAY_MS = 400;
/** An @-mention being typed, at the caret: `@` at the start or after a space, then the query. */
const MENTION = /(?:^|\s)@([^\s@]*)$/;

export class Composer {
	readonly element: HTMLElement;
	readonly input: HTMLTextAreaElement;
	private readonly chips = h('div', { class: 'chips', attrs: { 'aria-label': 'Attachments' } });
	/** Context offered for the text (never sent unless the user adds it), and what the user turned down. */
	private offered: Mention[] = [];
	private readonly declined = new Set<string>();
	private offerTimer: ReturnType<typeof setTimeout> | undefined;
	private offerTicket = 0;
	private readonly suggestions = h('ul', { class: 'suggestions', attrs: { role: 'listbox', id: 'composer-suggestions', hidden: true } });
	private readonly options = h('div', { class: 'session-options' });
	private readonly usage = h('span', { class: 'usage', attrs: { 'aria-live': 'off' } });
	private readonly agent = h('span', { class: 'agent-name' });
	private readonly sendButton: HTMLButtonElement;
	private readonly stopButton: HTMLButtonElement;
	private items: Suggestion[] = [];
	private active = 0;
	private historyIndex: number | undefined;
	private commands: readonly Command[] = [];
	private running = false;
	private readonly lists = new NewestList();
	private draft: Draft = { text: '', attachments: [], history: [] };

	constructor(private readonly host: ComposerHost) {
		this.input = h('textarea', {
			class: 'prompt-input',
			attrs: { rows: 1, placeholder: 'Ask the agent; / for commands, @ for files', 'aria-label': 'Message', 'aria-autocomplete': 'list', 'aria-controls': 'composer-suggestions' },
			on: {
				input: () => this.onInput(),
				keydown: (e) => this.onKeyDown(e),
				// A blur followed at once by focus again (the view itself being focused, as Focus Chat
				// does) keeps the list: only an input still without focus hides it.
				blur: () =>
					setTimeout(() => {
						if (document.activeElement !== this.input) {
							this.hideSuggestions();
						}
					}, 150),
				paste: (e) => this.takeImages(e.clipboardData?.files, e),
			},
		});
		this.sendButton = h('button', { class: 'icon-button send', attrs: { type: 'button', title: 'Send (Enter)', 'aria-label': 'Send' }, on: { click: () => this.submit() } }, icon('send'));
		this.stopButton = h('button', { class: 'icon-button stop', attrs: { type: 'button', title: 'Stop (Escape)', 'aria-label': 'Stop', hidden: true }, on: { click: () => this.host.cancel() } }, icon('debug-stop'));
		const attach = h(
			'button',
			{ class: 'icon-button', attrs: { type: 'button', title: 'Add the active file or selection', 'aria-label': 'Add the active file or selection' }, on: { click: () => void this.attachActive() } },
			icon('attach'),
		);
		this.element = h(
			'div',
			{
				class: 'composer',
				on: {
					dragover: (e) => {
						if (e.dataTransfer?.types.includes('Files')) {
							e.preventDefault();
						}
					},
					drop: (e) => this.takeImages(e.dataTransfer?.files, e),
				},
			},
			this.suggestions,
			this.chips,
			h('div', { class: 'input-row' }, this.input),
			h('div', { class: 'composer-bar' }, attach, this.agent, this.options, h('span', { class: 'spacer' }), this.usage, this.stopButton, this.sendButton),
		);
	}

	/** Shows `draft` (another tab's input). */
	load(draft: Draft): void {
		this.draft = draft;
		this.input.value = draft.text;
		this.historyIndex = undefined;
		this.renderChips();
		this.grow();
		this.hideSuggestions();
	}

	/** The tab's session state: commands, options, usage, whether a turn runs, whether it can send. */
	setSession(session: SessionInfo | undefined, enabled: boolean, agentName: string | undefined): void {
		this.agent.textContent = agentName ?? '';
		this.agent.title = agentName ? `This chat's agent: ${agentName}` : '';
		this.commands = session?.commands ?? [];
		this.running = session?.turn === 'running';
		this.stopButton.hidden = !this.running;
		this.sendButton.hidden = this.running;
		// The input itself stays usable (a prompt can be written while the agent starts, and disabling
		// it would take the focus away); only sending waits.
		this.sendButton.disabled = !enabled;
		this.renderOptions(session);
		const usage = session?.usage;
		this.usage.textContent = usage ? `${formatTokens(usage.used)} / ${formatTokens(usage.size)} tokens${usage.cost ? ` · ${usage.cost.amount.toFixed(2)} ${usage.cost.currency}` : ''}` : '';
		this.usage.title = usage ? `${usage.used} of ${usage.size} tokens of context used` : '';
	}

	/** Puts the keyboard in the input, if the page has it (focus.ts). */
	focus(): void {
		focusInPage(this.input);
	}

	private submit(): void {
		const text = this.input.value;
		if (this.running || (text.trim() === '' && this.draft.attachments.length === 0) || this.sendButton.disabled) {
			return;
		}
		this.host.send(text, [...this.draft.attachments]);
		if (text.trim() !== '' && this.draft.history[this.draft.history.length - 1] !== text) {
			this.draft.history.push(text);
			this.draft.history.splice(0, Math.max(0, this.draft.history.length - MAX_HISTORY));
		}
		this.draft.text = '';
		this.draft.attachments = [];
		this.offered = [];
		this.load(this.draft);
		this.host.changed();
	}

	private onInput(): void {
		this.draft.text = this.input.value;
		this.historyIndex = undefined;
		this.grow();
		void this.suggest();
		this.scheduleOffers();
		this.host.changed();
	}

	/** Asks, once typing pauses, what context providers offer for the text; shown as chips to add. */
	private scheduleOffers(): void {
		clearTimeout(this.offerTimer);
		this.offerTimer = setTimeout(() => {
			const ticket = ++this.offerTicket;
			void this.host
				.suggestContext(this.input.value)
				.catch(() => [])
				.then((offered) => {
					const next = offered.filter((m) => !this.declined.has(JSON.stringify(m.attachment)));
					// Redrawn only when the offer changed: the chips stay the same elements while typing goes on.
					if (ticket === this.offerTicket && JSON.stringify(next) !== JSON.stringify(this.offered)) {
						this.offered = next;
						this.renderChips();
					}
				});
		}, OFFER_DELAY_MS);
	}

	/**
	 * Makes the input as tall as its text, up to its maximum, where the browser does not
	 * (`field-sizing` in chat.css): reading the height back lays the page out at once, on every key.
	 */
	private grow(): void {
		if (SIZED_BY_BROWSER) {
			return;
		}
		this.input.style.height = 'auto';
		// Its height counts the borders (border-box); scrollHeight does not.
		const borders = this.input.offsetHeight - this.input.clientHeight;
		this.input.style.height = `${Math.min(this.input.scrollHeight + borders, Math.max(120, window.innerHeight * 0.4))}px`;
	}

	private onKeyDown(event: KeyboardEvent): void {
		if (event.isComposing) {
			return;
		}
		// Enter or Tab on an @-mention whose newest list is still on its way: its first item, once it comes.
		if ((event.key === 'Enter' || event.key === 'Tab') && !event.shiftKey && this.lists.waiting && MENTION.test(this.input.value.slice(0, this.input.selectionStart))) {
			event.preventDefault();
			this.lists.takeFirstWhenItComes();
			return;
		}
		if (!this.suggestions.hidden && this.items.length > 0) {
			if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
				event.preventDefault();
				this.active = (this.active + (event.key === 'ArrowDown' ? 1 : this.items.length - 1)) % this.items.length;
				this.renderSuggestions();
				return;
			}
			if (event.key === 'Enter' || event.key === 'Tab') {
				event.preventDefault();
				this.items[this.active]?.accept();
				return;
			}
			if (event.key === 'Escape') {
				event.preventDefault();
				this.hideSuggestions();
				return;
			}
		}
		if (event.key === 'Enter' && !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey) {
			event.preventDefault();
			this.submit();
		} else if (event.key === 'Escape' && this.running) {
			event.preventDefault();
			this.host.cancel();
		} else if (event.key === 'ArrowUp' && !this.input.value.slice(0, this.input.selectionStart).includes('\n')) {
			this.walkHistory(-1, event);
		} else if (event.key === 'ArrowDown' && !this.input.value.slice(this.input.selectionEnd).includes('\n')) {
			this.walkHistory(1, event);
		}
	}

	private walkHistory(step: -1 | 1, event: KeyboardEvent): void {
		const history = this.draft.history;
		if (history.length === 0 || (this.historyIndex === undefined && (step === 1 || (this.input.value !== '' && this.input.value !== history[history.length - 1])))) {
			return;
		}
		event.preventDefault();
		const next = (this.historyIndex ?? history.length) + step;
		if (next < 0) {
			return;
		}
		this.historyIndex = next >= history.length ? undefined : next;
		this.input.value = this.historyIndex === undefined ? '' : history[this.historyIndex]!;
		this.draft.text = this.input.value;
		this.input.setSelectionRange(this.input.value.length, this.input.value.length);
		this.grow();
	}

	// --- Suggestions ---

	private async suggest(): Promise<void> {
		const before = this.input.value.slice(0, this.input.selectionStart);
		const slash = /^\/(\S*)$/.exec(before);
		if (slash && this.commands.length > 0) {
			const query = slash[1]!.toLowerCase();
			this.lists.settle();
			this.show(
				this.commands
					.filter((c) => c.name.toLowerCase().startsWith(query))
					.map((c) => ({
						label: `/${c.name}`,
						detail: c.hint ? `${c.description} — ${c.hint}` : c.description,
						accept: () => this.replaceBefore(this.input.selectionStart, `/${c.name} `),
					})),
			);
			return;
		}
		const mention = MENTION.exec(before);
		if (mention) {
			const ticket = this.lists.ask();
			const found = await this.host.searchMentions(mention[1]!).catch(() => []);
			const next = this.lists.came(ticket);
			if (next === 'drop') {
				return;
			}
			this.show(
				found.map((m) => ({
					label: m.label,
					...(m.detail !== undefined ? { detail: m.detail } : {}),
					...(m.group !== undefined ? { group: m.group } : {}),
					accept: () => {
						// The @-mention as it is now: typing may have gone on since this list was asked for.
						const typed = MENTION.exec(this.input.value.slice(0, this.input.selectionStart));
						this.replaceBefore(typed ? typed[1]!.length + 1 : 0, '');
						this.addAttachment(m.attachment);
					},
				})),
			);
			if (next === 'take') {
				this.items[0]?.accept();
			}
			return;
		}
		this.hideSuggestions();
	}

	/** Replaces the `length` characters before the caret with `text`. */
	private replaceBefore(length: number, text: string): void {
		const at = this.input.selectionStart;
		this.input.setRangeText(text, at - length, at, 'end');
		this.draft.text = this.input.value;
		this.hideSuggestions();
		this.focus();
		this.host.changed();
	}

	private show(items: Suggestion[]): void {
		this.items = items.slice(0, 100);
		this.active = 0;
		this.renderSuggestions();
	}

	private renderSuggestions(): void {
		this.suggestions.hidden = this.items.length === 0;
		this.input.setAttribute('aria-expanded', String(this.items.length > 0));
		this.suggestions.replaceChildren(
			...this.items.flatMap((item, index) => [
				item.group !== undefined && item.group !== this.items[index - 1]?.group ? h('li', { class: 'suggestion-group', attrs: { role: 'presentation' } }, item.group) : null,
				h(
					'li',
					{
						class: `suggestion${index === this.active ? ' active' : ''}`,
						attrs: { role: 'option', id: `suggestion-${index}`, 'aria-selected': index === this.active },
						on: { mousedown: (e) => (e.preventDefault(), item.accept()) },
					},
					h('span', { class: 'suggestion-label' }, item.label),
					item.detail !== undefined ? h('span', { class: 'suggestion-detail' }, item.detail) : null,
				),
			]).filter((li) => li !== null),
		);
		if (this.items.length > 0) {
			this.input.setAttribute('aria-activedescendant', `suggestion-${this.active}`);
		} else {
			this.input.removeAttribute('aria-activedescendant');
		}
	}

	private hideSuggestions(): void {
		this.lists.settle();
		this.items = [];
		this.renderSuggestions();
	}

	// --- Attachments ---

	/** Pasted or dropped images become attachments (the host sends them only to agents that take images, and says so otherwise). */
	private takeImages(files: FileList | undefined | null, event: Event): void {
		if (readImages(files, (image) => this.addAttachment(image))) {
			event.preventDefault();
		}
	}

	private async attachActive(): Promise<void> {
		const attachment = await this.host.activeEditorAttachment();
		if (attachment) {
			this.addAttachment(attachment);
		}
		this.focus();
	}

	private addAttachment(attachment: Attachment): void {
		const key = JSON.stringify(attachment);
		if (!this.draft.attachments.some((a) => JSON.stringify(a) === key)) {
			this.draft.attachments.push(attachment);
		}
		this.renderChips();
		this.host.changed();
	}

	private renderChips(): void {
		this.chips.replaceChildren(
			...this.draft.attachments.map((attachment, index) => {
				const label = attachmentLabel(attachment);
				return h(
					'span',
					{ class: 'chip' },
					icon(attachment.type === 'folder' ? 'folder' : attachment.type === 'image' ? 'file-media' : attachment.type === 'openctx' ? 'references' : 'file'),
					` ${label} `,
					h(
						'button',
						{
							class: 'icon-button small',
							attrs: { type: 'button', 'aria-label': `Remove ${label}`, title: 'Remove' },
							on: {
								click: () => {
									this.draft.attachments.splice(index, 1);
									this.renderChips();
									this.host.changed();
									this.focus();
								},
							},
						},
						icon('close'),
					),
				);
			}),
			...this.offered
				.filter((m) => !this.draft.attachments.some((a) => JSON.stringify(a) === JSON.stringify(m.attachment)))
				.map((m) => {
					const key = JSON.stringify(m.attachment);
					const label = `${m.label}: context for this message`;
					return h(
						'span',
						{ class: 'chip offered', attrs: { title: `Offered by ${m.group ?? m.label}; added only if you add it` } },
						h(
							'button',
							{
								class: 'icon-button small',
								attrs: { type: 'button', 'aria-label': `Add ${label}`, title: 'Add' },
								on: {
									click: () => {
										this.addAttachment(m.attachment);
										this.focus();
									},
								},
							},
							icon('add'),
						),
						` ${label} `,
						h(
							'button',
							{
								class: 'icon-button small',
								attrs: { type: 'button', 'aria-label': `Dismiss ${label}`, title: 'Dismiss' },
								on: {
									click: () => {
										this.declined.add(key);
										this.offered = this.offered.filter((o) => JSON.stringify(o.attachment) !== key);
										this.renderChips();
										this.focus();
									},
								},
							},
							icon('close'),
						),
					);
				}),
		);
	}

	// --- Options ---

	private renderOptions(session: SessionInfo | undefined): void {
		const controls: HTMLElement[] = [];
		for (const option of session?.configOptions ?? []) {
			if (option.type === 'boolean') {
				const box = h('input', { attrs: { type: 'checkbox' }, on: { change: () => this.host.setConfigOption(option.id, box.checked) } });
				box.checked = option.currentValue;
				controls.push(h('label', { class: 'option', attrs: { title: option.description ?? option.name } }, box, ` ${option.name}`));
				continue;
			}
			const select = h('select', { attrs: { 'aria-label': option.name, title: option.description ?? option.name }, on: { change: () => this.host.setConfigOption(option.id, select.value) } });
			for (const group of option.groups) {
				const parent = group.name !== undefined ? h('optgroup', { attrs: { label: group.name } }) : select;
				for (const choice of group.options) {
					const element = h('option', { attrs: { value: choice.value, title: choice.description } }, choice.name);
					element.selected = choice.value === option.currentValue;
					parent.append(element);
				}
				if (parent !== select) {
					select.append(parent);
				}
			}
			controls.push(select);
		}
		const modes = session?.modes;
		if (modes && !(session?.configOptions ?? []).some((o) => o.category === 'mode')) {
			const select = h('select', { attrs: { 'aria-label': 'Mode', title: 'Mode' }, on: { change: () => this.host.setMode(select.value) } });
			for (const mode of modes.available) {
				const element = h('option', { attrs: { value: mode.id, title: mode.description } }, mode.name);
				element.selected = mode.id === modes.currentModeId;
				select.append(element);
			}
			controls.push(select);
		}
		// Replaced only when they changed, so a dropdown the user has open is not closed by a patch.
		const signature = JSON.stringify([session?.configOptions, modes]);
		if (this.options.dataset.signature !== signature) {
			this.options.dataset.signature = signature;
			this.options.replaceChildren(...controls);
		}
	}
}
