/**
 * The chat page. The host owns the state: the page asks for it when it loads
 * (`chat/getState`), keeps a {@link TranscriptMirror} per tab, and applies the host's patches once
 * per animation frame. The transcript itself (drawn near the screen first, the rest in idle time)
 * is transcriptView.ts.
 */
import { HostNotifications, PageCommands, PageLifecycle, PageRequests, type ChatState, type Tab } from '../../common/chat/messages';
import { TranscriptMirror } from '../../common/chat/transcriptMirror';
import type { TranscriptPatch } from '../../common/chat/transcriptModel';
import { Composer } from './composer';
import { Drafts, type SavedDrafts } from './drafts';
import { h, icon } from './dom';
import { asksInput } from './elicitationView';
import { type EntryActions } from './entries';
import { FormDrafts } from './formDrafts';
import { focusInPage, pageHasKeyboard } from './focus';
import { TabStrip } from './tabStrip';
import { Host, type HostNotification } from './host';
import { TerminalViews, type TerminalState } from './terminals';
import { DRAW_BUDGET_MS, TranscriptView } from './transcriptView';
import { drawChanges, drawSignIn, SectionRedraw } from './sections';
import { recordWork } from './work';
import { keepSelectAllWhereTheKeyboardIs } from './selectAll';
import { changedTurns, drawUndoAsk } from './turnUndo';

/** Entries drawn at once when a transcript is shown; the rest are drawn as they come near the screen, or while the page is idle. */
const EAGER_ENTRIES = 30;
/** How long after the host asks for the input the page gives it the keyboard back (VS Code's focusing of a view ends within it). */
const INPUT_FOCUS_GRACE_MS = 1000;

class ChatPage {
	private readonly host = new Host((n) => this.onNotification(n));
	private state: ChatState | undefined;
	private readonly mirrors = new Map<string, TranscriptMirror>();
	private readonly queued: { sessionKey: string; patch: TranscriptPatch }[] = [];
	private frame: number | undefined;
	private readonly drafts: Drafts;
	/** What is typed into pending forms, kept as the input's drafts are. */
	private readonly forms: FormDrafts;
	private readonly terminals = new TerminalViews((sessionKey, terminalId) => this.host.send(PageCommands.openTerminal, { sessionKey, terminalId }));

	private readonly tabStrip = new TabStrip({
		select: (key) => this.select(key),
		close: (key) => this.host.send(PageCommands.closeTab, { sessionKey: key }),
		focusInput: () => {
			if (this.composer.element.hidden) {
				return false;
			}
			this.composer.focus();
			return true;
		},
	});
	private readonly scroller = h('div', { class: 'scroller', attrs: { id: 'transcript-panel', role: 'tabpanel' } });
	private readonly banner = h('div', { class: 'banner', attrs: { role: 'status', hidden: true } });
	private readonly bannerText = h('span', { class: 'banner-text' });
	/** A read-only chat from history: a new chat that links to it. */
	private readonly bannerAction = h('button', { class: 'secondary banner-action', attrs: { type: 'button', hidden: true }, on: { click: () => this.shown && this.host.send(PageCommands.continueInNewChat, { sessionKey: this.shown }) } }, icon('add'), ' New chat from this one');
	/** The agent's sign-in methods, while it waits for the user to sign in. */
	private readonly signIn = h('section', { class: 'sign-in', attrs: { hidden: true, 'aria-labelledby': 'sign-in-title' } });
	/** The files this chat's agent changed, above the input: review, keep or undo each, or all. */
	private readonly changes = h('section', { class: 'changes', attrs: { hidden: true, 'aria-label': 'Files the agent changed' } });
	/** Undo this turn's question (turnUndo.ts); Escape answers no. */
	private readonly undoAsk = h('section', {
		class: 'undo-ask',
		attrs: { hidden: true, role: 'alertdialog', 'aria-labelledby': 'undo-ask-title' },
		on: { keydown: (e) => e.key === 'Escape' && (e.preventDefault(), this.answerUndo(false)) },
	});
	/** The sections above the input, each drawn again only when what it shows changed. */
	private readonly sections = new SectionRedraw(() => this.composer.focus());
	private readonly followButton = h('button', {
		class: 'icon-button follow',
		attrs: { type: 'button', title: 'Follow the agent: show each file it reads or edits', 'aria-label': 'Follow the agent', 'aria-pressed': 'false' },
		on: { click: () => this.toggleFollow() },
	});
	private readonly notices = h('div', { class: 'page-notices', attrs: { 'aria-live': 'assertive' } });
	private readonly composer: Composer;
	private readonly empty: HTMLElement;

	/** The shown tab's entries. */
	private readonly transcript: TranscriptView;
	private shown: string | undefined;
	/** The entry drawn as still streaming (its code not yet highlighted), drawn again once it is done. */
	private streamingId: number | undefined;

	constructor(root: HTMLElement) {
		this.drafts = new Drafts(this.host.saved as Partial<SavedDrafts> | undefined);
		this.forms = new FormDrafts((this.host.saved as { forms?: unknown } | undefined)?.forms, () => this.save());
		const actions: EntryActions = {
			copy: (code) => this.host.send(PageCommands.copy, { code }),
			insert: (code) => this.host.send(PageCommands.insertAtCursor, { code }),
			open: (path, line) => this.host.send(PageCommands.openLocation, line !== undefined ? { path, line } : { path }),
			answerPermission: (requestId, optionId) => this.shown && this.host.send(PageCommands.answerPermission, { sessionKey: this.shown, requestId, optionId }),
			answerElicitation: (requestId, action, content) => this.shown && this.host.send(PageCommands.answerElicitation, { sessionKey: this.shown, requestId, action, ...(content ? { content } : {}) }),
			formDraft: (elicitation) => this.forms.values(elicitation),
			keepFormDraft: (elicitation, values) => this.forms.keep(elicitation, values),
			review: (path) => this.shown && this.host.send(PageCommands.reviewFile, { sessionKey: this.shown, path }),
			terminal: (terminalId) => this.terminals.element(this.shown ?? '', terminalId),
			turn: (entryId) => this.currentTab()?.turns?.find((t) => t.id === entryId),
			undoTurn: (turnId) => this.shown && this.host.send(PageCommands.undoTurn, { sessionKey: this.shown, turnId }),
		};
		this.actions = actions;
		this.transcript = new TranscriptView(this.scroller, actions, (id) => {
			const mirror = this.shown !== undefined ? this.mirrors.get(this.shown) : undefined;
			const entry = mirror?.entries[id - (mirror.entries[0]?.id ?? 0)];
			return mirror && entry ? { entry, streaming: this.streaming(mirror, id) } : undefined;
		});
		this.composer = new Composer({
			send: (text, attachments) => this.shown && this.host.send(PageCommands.sendPrompt, { sessionKey: this.shown, text, attachments }),
			cancel: () => this.shown && this.host.send(PageCommands.cancel, { sessionKey: this.shown }),
			activeEditorAttachment: async () => (this.shown ? (await this.host.request(PageRequests.activeEditorAttachment, { sessionKey: this.shown })).attachment : null),
			searchMentions: async (query) => (this.shown ? (await this.host.request(PageRequests.searchMentions, { sessionKey: this.shown, query })).items : []),
			suggestContext: async (text) => (this.shown ? (await this.host.request(PageRequests.suggestContext, { sessionKey: this.shown, text })).items : []),
			setConfigOption: (configId, value) => this.shown && this.host.send(PageCommands.setConfigOption, { sessionKey: this.shown, configId, value }),
			setMode: (modeId) => this.shown && this.host.send(PageCommands.setMode, { sessionKey: this.shown, modeId }),
			changed: () => this.save(),
		});
		// Until the host's state says which tab is shown, what is typed is kept for the tab that comes.
		this.composer.load(this.drafts.unassigned);
		this.empty = h('div', { class: 'empty' }, h('p', {}, 'No chat open.'), h('button', { class: 'primary', attrs: { type: 'button' }, on: { click: () => this.newChat() } }, icon('add'), ' New Chat'));
		this.banner.append(this.bannerText, this.bannerAction);
		this.empty.append(h('button', { class: 'secondary', attrs: { type: 'button' }, on: { click: () => this.host.send(PageCommands.openHistory, {}) } }, icon('history'), ' Chat History…'));
		// New chat, another agent and the history are in the title bar (the view's, or the chat
		// editor's): VS Code draws them where it draws every view's and editor's actions.
		root.append(h('div', { class: 'tabs-bar' }, this.tabStrip.element, h('div', { class: 'tabs-actions' }, this.followButton)), this.banner, this.signIn, this.scroller, this.empty, this.notices, this.undoAsk, this.changes, this.composer.element);
		this.followButton.append(icon('eye'));
		document.addEventListener('keydown', (e) => {
			if (e.key === 'Escape' && !e.defaultPrevented && this.currentTab()?.sessionKey && this.mirrors.get(this.shown!)?.session.turn === 'running') {
				this.host.send(PageCommands.cancel, { sessionKey: this.shown! });
			}
		});
		void this.refresh();
		// The input takes the keyboard the first time the page gets it, and when the page gets it
		// back with nothing focused soon after the host asked for the input: VS Code, focusing the
		// view, may take the keyboard out of the page and give it back a moment later.
		// Undo this turn's question, drawn before the page had it (asked from the palette), takes it.
		window.addEventListener('focus', () => {
			// The host waits for this after showing the chat for the keyboard (it shows it again without).
			this.host.send(PageLifecycle.focused, {});
			const nothingFocused = document.activeElement === null || document.activeElement === document.body;
			if (nothingFocused && !this.undoAsk.hidden) {
				this.undoAsk.querySelector<HTMLElement>('button.primary')?.focus();
			} else if (this.firstFocus || (nothingFocused && performance.now() < this.inputWantedUntil)) {
				this.composer.focus();
			}
			this.firstFocus = false;
		});
		// A page that has the keyboard as it starts (VS Code focused the view while it loaded) gets no
		// focus event: the input takes the keyboard now, so what is typed goes there.
		if (pageHasKeyboard()) {
			this.host.send(PageLifecycle.focused, {});
			this.composer.focus();
			this.firstFocus = false;
		}
	}

	private firstFocus = true;
	/** Until when (`performance.now()`) the input takes the keyboard back when the page gets it with nothing focused. */
	private inputWantedUntil = 0;

	private readonly actions: EntryActions;

	private async refresh(): Promise<void> {
		// The host names each load of the page; it does not answer a page it has since replaced.
		const load = document.getElementById('app')?.dataset['load'];
		this.setState(await this.host.request(PageRequests.getState, load ? { load } : {}));
	}

	private onNotification(n: HostNotification): void {
		switch (n.method) {
			case HostNotifications.didChangeState.method:
				this.setState(n.params as ChatState);
				break;
			case HostNotifications.didPatchTranscript.method: {
				const { sessionKey, patch } = n.params as { sessionKey: string; patch: TranscriptPatch };
				this.queued.push({ sessionKey, patch });
				this.frame ??= requestAnimationFrame(() => this.applyQueued());
				break;
			}
			case HostNotifications.didUpdateTerminal.method:
				this.terminals.update(n.params as TerminalState);
				break;
			case HostNotifications.focusInput.method:
				// Asked only if the page has the keyboard, and it has not: the host shows the chat.
				if ((n.params as { ifFocused?: boolean }).ifFocused === true && !pageHasKeyboard()) {
					this.host.send(PageCommands.showChat, {});
					break;
				}
				// Without the keyboard the page waits for VS Code to give it (showing the chat focuses
				// it): taking it here would take it from wherever the user is.
				this.composer.focus();
				this.inputWantedUntil = performance.now() + INPUT_FOCUS_GRACE_MS;
				break;
			case HostNotifications.didShowNotice.method: {
				const { severity, message } = n.params as { severity: string; message: string };
				const note = h('div', { class: `page-notice severity-${severity}`, attrs: { role: severity === 'error' ? 'alert' : 'status' } }, icon(severity === 'error' ? 'error' : severity === 'warning' ? 'warning' : 'info'), ` ${message}`);
				this.notices.append(note);
				setTimeout(() => note.remove(), 8000);
				break;
			}
			case HostNotifications.didChangeAgentStatus.method:
				break;
		}
	}

	private setState(state: ChatState): void {
		// Patches that arrived before this state are applied first: they are older than it.
		if (this.queued.length > 0) {
			this.applyPatches();
		}
		const turnsBefore = this.currentTab()?.turns;
		this.state = state;
		const before = this.shown;
		const oldMirror = before !== undefined ? this.mirrors.get(before) : undefined;
		let missing = false;
		for (const key of [...this.mirrors.keys()]) {
			if (!state.tabs.some((t) => t.sessionKey === key)) {
				this.mirrors.delete(key);
			}
		}
		for (const tab of state.tabs) {
			const snapshot = state.transcripts[tab.sessionKey];
			if (snapshot) {
				this.mirrors.set(tab.sessionKey, new TranscriptMirror(snapshot));
			} else if (!this.mirrors.has(tab.sessionKey)) {
				missing = true;
			}
		}
		if (missing) {
			void this.refresh(); // the host thought this page had a transcript it has not: start again
			return;
		}
		this.terminals.keepOnly(new Set(state.tabs.map((t) => t.sessionKey)));
		this.drafts.keepOnly(new Set(state.tabs.map((t) => t.sessionKey)));
		const selected = state.selected ?? state.tabs[0]?.sessionKey;
		const mirror = selected !== undefined ? this.mirrors.get(selected) : undefined;
		if (selected !== this.shown || !oldMirror || !mirror || mirror.entries[0]?.id !== oldMirror.entries[0]?.id || mirror.revision < oldMirror.revision) {
			this.showTab(selected);
		} else if (mirror !== oldMirror) {
			// The same transcript, further on: draw only the entries that changed.
			const old = new Map(oldMirror.entries.map((e) => [e.id, e.rev]));
			this.renderEntries(mirror.entries.filter((e) => old.get(e.id) !== e.rev).map((e) => e.id));
		}
		if (selected === before && this.shown === before) {
			const turns = changedTurns(turnsBefore, this.currentTab()?.turns);
			if (turns.length > 0) {
				this.renderEntries(turns);
			}
		}
		// After the tab shown is settled, so the one the host selected (a chat reopened from history) is marked.
		this.renderTabs();
		this.renderChrome();
	}

	private applyQueued(): void {
		const started = performance.now();
		this.applyPatches();
		recordWork(started);
	}

	private applyPatches(): void {
		this.frame = undefined;
		const changed = new Map<string, Set<number>>();
		for (const { sessionKey, patch } of this.queued.splice(0)) {
			const mirror = this.mirrors.get(sessionKey);
			if (!mirror) {
				continue;
			}
			const ids = mirror.apply(patch);
			if (ids === undefined) {
				void this.refresh(); // out of step: start again from the whole state
				return;
			}
			let set = changed.get(sessionKey);
			if (!set) {
				changed.set(sessionKey, (set = new Set()));
			}
			ids.forEach((id) => set.add(id));
		}
		const ids = this.shown !== undefined ? changed.get(this.shown) : undefined;
		if (ids) {
			this.renderEntries([...ids]);
		}
		if (changed.size > 0) {
			this.renderTabs();
			this.renderChrome();
		}
	}

	// --- Tabs ---

	private currentTab(): Tab | undefined {
		return this.state?.tabs.find((t) => t.sessionKey === this.shown);
	}

	private renderTabs(): void {
		const views = (this.state?.tabs ?? []).map((tab) => {
			const mirror = this.mirrors.get(tab.sessionKey);
			return {
				tab,
				title: mirror?.session.title ?? 'New chat',
				running: mirror?.session.turn === 'running',
				asking: mirror?.entries.some((e) => (e.kind === 'tool_call' && e.permission?.state === 'pending') || asksInput(e)) === true,
			};
		});
		this.tabStrip.render(views, this.shown);
	}

	private newChat(): void {
		this.host.send(PageCommands.newChat, {});
	}

	private select(key: string): void {
		this.showTab(key);
		this.host.send(PageCommands.selectTab, { sessionKey: key });
		this.renderTabs();
		this.renderChrome();
	}

	// --- The transcript ---

	private showTab(key: string | undefined): void {
		if (this.shown !== undefined && this.shown !== key) {
			this.save();
		}
		this.shown = key;
		this.transcript.clear();
		const mirror = key !== undefined ? this.mirrors.get(key) : undefined;
		if (key !== undefined) {
			// A tab the host seeded (a chat going on from a read-only one) starts with its link in the
			// input; a tab shown after keys were typed with none shown gets them.
			this.composer.load(this.drafts.forTab(key, this.state?.tabs.find((t) => t.sessionKey === key)?.seed));
			this.save();
		} else {
			this.composer.load(this.drafts.unassigned);
		}
		if (mirror) {
			const entries = mirror.entries;
			entries.forEach((entry, index) => this.transcript.add(entry.id, index >= entries.length - EAGER_ENTRIES ? { entry, streaming: this.streaming(mirror, entry.id) } : undefined));
			const last = entries[entries.length - 1];
			this.streamingId = last && this.streaming(mirror, last.id) ? last.id : undefined;
		}
		this.transcript.stick();
	}

	/** Draws the given entries of the shown tab (new ones appended, removed ones dropped). */
	private renderEntries(ids: number[]): void {
		const mirror = this.shown !== undefined ? this.mirrors.get(this.shown) : undefined;
		if (!mirror) {
			return;
		}
		const first = mirror.entries[0]?.id ?? Infinity;
		this.transcript.dropBefore(first);
		const sorted = ids.sort((a, b) => a - b);
		// A long text that came at once (a burst of chunks) is drawn a frame's budget at a time.
		const deadline = performance.now() + DRAW_BUDGET_MS;
		// A burst of new entries (a replayed conversation) draws its last ones now, the rest as they near the screen.
		const eagerFrom = sorted.length > EAGER_ENTRIES ? sorted[sorted.length - EAGER_ENTRIES]! : -Infinity;
		for (const id of sorted) {
			const entry = mirror.entries[id - first];
			if (!entry) {
				continue;
			}
			let view = this.transcript.get(id);
			if (!view) {
				view = this.transcript.add(id);
				if (id < eagerFrom) {
					continue;
				}
			} else if (!view.rendered) {
				continue; // a placeholder: drawn from the mirror when it nears the screen
			}
			const wasAsking = view.element.querySelector('.permission.pending, .elicitation.pending') !== null;
			this.transcript.render(id, entry, this.streaming(mirror, id), deadline);
			const pending = (entry.kind === 'tool_call' && entry.permission?.state === 'pending') || asksInput(entry);
			// A new permission prompt takes the focus when the user is not typing; its buttons ignore
			// input for half a second, so a stray Enter cannot approve.
			// Only while the page has the keyboard (focus.ts): an answer, or the turn ending, after the
			// user moved to the command palette or an editor leaves the keyboard there.
			if (pending && !wasAsking && document.activeElement === this.composer.input && this.composer.input.value === '') {
				focusInPage(view.element.querySelector<HTMLElement>('.permission-option, .elicitation.pending :is(input, select, button)'));
			} else if (!pending && wasAsking && view.element.contains(document.activeElement) === false && document.activeElement === document.body) {
				this.composer.focus();
			}
		}
		const last = mirror.entries[mirror.entries.length - 1];
		const streamingNow = last && this.streaming(mirror, last.id) ? last.id : undefined;
		if (this.streamingId !== undefined && this.streamingId !== streamingNow) {
			const done = mirror.entries[this.streamingId - first];
			const view = this.transcript.get(this.streamingId);
			if (done && view?.rendered) {
				this.transcript.render(this.streamingId, done, false, deadline);
			}
		}
		this.streamingId = streamingNow;
	}

	/** Whether an entry may still grow: the last one while a turn runs. */
	private streaming(mirror: TranscriptMirror, id: number): boolean {
		return mirror.session.turn === 'running' && mirror.entries[mirror.entries.length - 1]?.id === id;
	}

	private renderChrome(): void {
		const tab = this.currentTab();
		const mirror = this.shown !== undefined ? this.mirrors.get(this.shown) : undefined;
		const hasTabs = (this.state?.tabs.length ?? 0) > 0;
		this.empty.hidden = hasTabs;
		this.scroller.hidden = !hasTabs;
		// A read-only chat takes no messages: its banner offers a new chat instead.
		this.composer.element.hidden = !hasTabs || tab?.state === 'read_only';
		let banner: string | undefined;
		if (tab?.state === 'starting') {
			banner = `Starting ${tab.agentName}…`;
		} else if (tab?.state === 'failed') {
			banner = `${tab.agentName} could not start this chat: ${tab.detail ?? 'unknown error'}`;
		} else if (tab?.state === 'auth_required') {
			banner = undefined; // the sign-in card says it
		} else if (tab?.state === 'ended') {
			banner = 'This conversation has ended. Start a new chat to go on.';
		} else if (tab?.state === 'read_only') {
			banner = `Read-only: ${tab.detail ?? `${tab.agentName} cannot go on with this conversation.`}`;
		} else if (tab?.state === 'stored') {
			banner = tab.detail ?? `From the history: the conversation goes on with ${tab.agentName} when you send a message.`;
		} else if (tab?.detail) {
			banner = tab.detail;
		}
		this.banner.hidden = banner === undefined;
		this.banner.classList.toggle('read-only', tab?.state === 'read_only');
		this.bannerText.textContent = banner ?? '';
		this.bannerAction.hidden = tab?.state !== 'read_only';
		this.renderSignIn(tab);
		this.renderChanges(tab);
		const ask = tab?.undoAsk;
		this.sections.redraw(this.undoAsk, tab && ask ? `${tab.sessionKey}\n${JSON.stringify(ask)}` : undefined, { focus: 'button.primary', always: true }, () => ask && drawUndoAsk(this.undoAsk, ask, (undo) => this.answerUndo(undo)));
		this.followButton.hidden = !tab;
		this.followButton.setAttribute('aria-pressed', String(tab?.follow === true));
		this.followButton.classList.toggle('on', tab?.follow === true);
		// A prompt may be sent while the agent starts (or a chat from history is taken up again): the host sends it once the chat is ready.
		this.composer.setSession(mirror?.session, (tab?.state === 'ready' || tab?.state === 'starting' || tab?.state === 'stored') && mirror?.session.turn !== 'running', tab?.agentName);
	}

	private answerUndo(undo: boolean): void {
		const ask = this.currentTab()?.undoAsk;
		if (this.shown && ask) {
			this.host.send(PageCommands.answerUndoTurn, { sessionKey: this.shown, turnId: ask.turnId, undo });
		}
	}

	private toggleFollow(): void {
		const tab = this.currentTab();
		if (tab) {
			this.host.send(PageCommands.setFollow, { sessionKey: tab.sessionKey, on: tab.follow !== true });
		}
	}

	/** The changed files above the input (sections.ts). */
	private renderChanges(tab: Tab | undefined): void {
		const files = tab?.changes ?? [];
		const signature = tab && files.length > 0 ? `${tab.sessionKey}\n${JSON.stringify(files)}` : undefined;
		this.sections.redraw(this.changes, signature, { focus: '.changed-file-name', always: false }, () => tab && drawChanges(this.changes, tab, files, this.host));
	}

	/** The sign-in card (sections.ts); its first button takes focus. */
	private renderSignIn(tab: Tab | undefined): void {
		const methods = tab?.state === 'auth_required' ? (tab.authMethods ?? []) : [];
		const signature = tab && methods.length > 0 ? `${tab.sessionKey}\n${JSON.stringify(methods)}` : undefined;
		this.sections.redraw(this.signIn, signature, { focus: 'button', always: true }, () => tab && drawSignIn(this.signIn, tab, methods, this.host));
	}

	private save(): void {
		this.host.save({ ...this.drafts.saved(), forms: this.forms.saved() });
	}
}

keepSelectAllWhereTheKeyboardIs(document);
new ChatPage(document.getElementById('app')!);
// The page runs: the notice that it did not start (the host puts it in every page) goes.
document.getElementById('page-problem')?.remove();
