/**
 * The chat panel's host: it owns the tabs (a {@link ChatSession} and a {@link Transcript} each),
 * feeds every update into the tab's transcript, and keeps each connected page (the chat view,
 * chats opened in editors) drawing the same state. Pages ask for the whole state when they load
 * (`chat/getState`) and then get patches, batched to about one per animation frame; what the page
 * sends is checked with the shared schemas (`src/common/chat/messages.ts`) before it is acted on.
 *
 * Every tab is kept in the chat history (chatHistory.ts) as its transcript changes, and the tabs
 * open when the window closes open again when it comes back, drawn from what was stored: such a
 * tab goes on with its agent (`session/resume` or `session/load`) when the user sends a message,
 * and one the agent cannot go on with is read-only, with a way to a new chat that links to it.
 *
 * Its parts: a tab's state (chatTab.ts); what each page command does (pageCommandHandlers.ts,
 * routed by common/chat/pageCommands.ts); when a page that did not load is loaded again
 * (common/chat/pageLoadWatch.ts); sign-ins and permissions asked of the user, by notification
 * when no chat is on screen (userAsks.ts); a prompt's content blocks (promptBlocks.ts); what `@`
 * can mention (mentions.ts); tabs to and from the history (tabStore.ts); what each turn changed
 * and its undo (turnChanges.ts, checkpoints.ts, review.ts).
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import {
	HostNotifications,
	PageRequests,
	decodePageMessage,
	encodeError,
	encodeNotification,
	encodeResult,
	type AgentInfo,
	type AgentStatus,
	type Attachment,
	type ChatState,
	type ParamsOf,
	type Tab,
	type WireMessage,
} from '../../common/chat/messages';
import { noteTurnChanges, noteWrite, type HistoryRecord } from '../../common/chat/history';
import { runPageCommand, type PageCommandHandlers } from '../../common/chat/pageCommands';
import { PageLoadWatch } from '../../common/chat/pageLoadWatch';
import { Transcript } from '../../common/chat/transcript';
import type { ContentBlock, ListedSession } from '../../common/chat/updates';
import type { FileChange } from '../../common/chat/turnFiles';
import { errorMessage } from '../../common/log';
import type { AgentChoice } from '../../common/presets';
import type { AgentState } from '../agentManager';
import type { AgentPool, AgentRole } from '../agentPool';
import type { FileAccessFeature } from './fileAccess';
import { recordedChange, type AgentChanges } from './review';
import type { Checkpoints } from './checkpoints';
import type { TurnChanges } from './turnChanges';
import type { ExtensionLog } from '../log';
import type { ChatHistory } from './chatHistory';
import { CannotContinueError, type ChatSession, type ChatSessionManager } from './chatSessions';
import { ChatTab } from './chatTab';
import { TabSaver, storedTab } from './tabStore';
import { promptBlocks } from './promptBlocks';
import { UserAsks } from './userAsks';
import { searchMentions } from './mentions';
import { openLocation, pageCommandHandlers, type ChatCommandHost } from './pageCommandHandlers';
import type { ChatTerminals } from './terminals';
import type { OpenCtxFeature } from '../openctx/feature';

/** How long updates are gathered before a patch goes to the pages: about one animation frame. */
export const PATCH_INTERVAL_MS = 16;

/** How long a page on screen has to ask for the state before it is loaded again. */
export const PAGE_LOAD_WATCH_MS = 5000;
/** How many times a page that does not load is loaded again, per showing. */
const PAGE_RELOADS = 2;

/** A connected page: the chat view or a chat in an editor. */
/** A chat page's webview, as its owner (chatView.ts) hands it to the controller. */
export interface PageHost {
	readonly webview: vscode.Webview;
	readonly isVisible: () => boolean;
	readonly onDidChangeVisibility: vscode.Event<unknown>;
	/** Sets the page's html again (a new load). */
	readonly reload: () => void;
	/** The id written into the page's current load; a request naming another comes from a document replaced since. */
	readonly currentLoad: () => string | undefined;
}

interface Page {
	readonly webview: vscode.Webview;
	readonly isVisible: () => boolean;
	readonly currentLoad: () => string | undefined;
	/** The transcript this page has, and at which revision, per tab; absent until it asked for the state. */
	readonly revisions: Map<string, { readonly transcript: Transcript; revision: number }>;
	/** Whether it loaded and asked for the state since it was last shown ({@link PageLoadWatch.loaded}). */
	readonly watch: PageLoadWatch;
}

let nextTabKey = 1;

export class ChatController implements vscode.Disposable {
	private readonly tabs = new Map<string, ChatTab>();
	/** What the page's commands do. */
	private readonly commands: PageCommandHandlers = pageCommandHandlers(this.commandHost());
	private readonly pages = new Set<Page>();
	private selected: string | undefined;
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	/** Focus was asked for before any page could take it. */
	private focusPending = false;
	private lastTextEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
	private readonly disposables: vscode.Disposable[] = [];
	private readonly tabsEmitter = new vscode.EventEmitter<void>();
	/** Fires when tabs open, close or change state. */
	readonly onDidChangeTabs = this.tabsEmitter.event;
	/** The tabs of the last window are not back yet: the list kept for them must not be overwritten. */
	private restoring = true;
	private disposing = false;
	/** Tabs from history being taken up again with their agents. */
	private readonly continuing = new Set<ChatTab>();
	/** Writes the tabs to the history. */
	private readonly saver: TabSaver;
	/** Sign-ins and permissions asked of the user. */
	private readonly asks: UserAsks;
	/** Settles once the tabs of the last window are open again. */
	readonly restored: Promise<void>;

	constructor(
		private readonly chat: ChatSessionManager,
		private readonly agents: AgentRole,
		private readonly pool: AgentPool,
		private readonly log: ExtensionLog,
		/** Shows the chat (the view, or a chat editor) and resolves once a page is there. */
		private readonly reveal: () => Promise<void>,
		private readonly terminals: ChatTerminals,
		readonly history: ChatHistory,
		/** The agents' file reads and writes, the review of their changes, and what each turn changed. */
		private readonly files?: { readonly access: FileAccessFeature; readonly changes: AgentChanges; readonly turns?: TurnChanges; readonly checkpoints?: Checkpoints },
		/** OpenCtx providers: their mentions in the @-picker, their items in prompts. */
		private readonly openctx?: OpenCtxFeature,
	) {
		this.saver = new TabSaver(history);
		this.asks = new UserAsks({
			log,
			visible: () => this.visible,
			showTab: (key) => this.showTab(key),
			broadcastState: () => this.broadcastState(),
			apply: (tab, event) => this.apply(tab, event),
		});
		if (files) {
			this.disposables.push(
				files.access.onDidWrite((write) => {
					const tab = this.tabOfSession(write.agentName, write.sessionId);
					if (tab) {
						// The review's text before is the file's before the turn, when a turn runs (the agent may have written it itself first).
						const before = files.turns?.noteWrite(tab.key, write);
						files.changes.record(tab.key, before ? recordedChange(write.uri, before) : write);
						noteWrite(tab.changedFiles, { path: write.uri.fsPath, before: write.before, after: write.after });
					}
				}),
				files.access.onDidTouch((event) => {
					const tab = this.tabOfSession(event.agentName, event.sessionId);
					if (tab?.follow) {
						files.access.showing(event.uri);
						void this.reveal1(event.uri, event.line);
					}
				}),
				files.changes.onDidChange(() => void this.refreshChanges()),
				...(files.checkpoints ? [files.checkpoints.onDidChange((key) => this.refreshTurns(key))] : []),
			);
		}
		this.disposables.push(
			terminals.onDidUpdate(({ session, terminal }) => {
				const tab = [...this.tabs.values()].find((t) => t.session === session);
				if (tab) {
					this.post(encodeNotification(HostNotifications.didUpdateTerminal, { sessionKey: tab.key, ...terminal }));
				}
			}),
			vscode.window.onDidChangeActiveTextEditor((editor) => {
				if (editor && editor.document.uri.scheme !== 'output') {
					this.lastTextEditor = editor;
				}
			}),
			this.onDidChangeTabs(() => this.keepOpenTabs()),
		);
		this.restored = this.restoreTabs().catch((error: unknown) => this.log.error(`Chat: the tabs of the last window could not be opened again: ${errorMessage(error)}`));
	}

	/** The tabs' keys, oldest first (for tests). */
	get tabKeys(): readonly string[] {
		return [...this.tabs.keys()];
	}

	/** A tab's session and transcript (for tests). */
	tab(key: string): { readonly session: ChatSession | undefined; readonly transcript: Transcript; readonly state: Tab['state']; readonly historyId: string; readonly detail: string | undefined } | undefined {
		return this.tabs.get(key);
	}

	get selectedKey(): string | undefined {
		return this.selected;
	}

	/** Whether a chat page is on screen. */
	get visible(): boolean {
		return [...this.pages].some((p) => p.isVisible());
	}

	// --- Pages ---

	/**
	 * Connects a page; its messages are handled until the returned disposable is disposed. A page
	 * that is hidden loses its content (it is not retained), so it gets nothing more until it has
	 * loaded again and asked for the state. A page on screen that has not asked for it within
	 * {@link PAGE_LOAD_WATCH_MS} (a webview that failed to load stays blank) is loaded again with
	 * `reload`, up to {@link PAGE_RELOADS} times per showing.
	 */
	attach({ webview, isVisible, onDidChangeVisibility, reload, currentLoad }: PageHost): vscode.Disposable {
		const watch = new PageLoadWatch({
			watchMs: PAGE_LOAD_WATCH_MS,
			maxReloads: PAGE_RELOADS,
			reload: () => {
				this.log.warn(`Chat: the chat page did not load within ${PAGE_LOAD_WATCH_MS / 1000} s; loading it again.`);
				reload();
			},
			gaveUp: () => this.log.error(`Chat: the chat page did not load after ${PAGE_RELOADS} tries; close the view and open it again.`),
		});
		const page: Page = { webview, isVisible, currentLoad, revisions: new Map(), watch };
		this.pages.add(page);
		if (isVisible()) {
			watch.shown();
		}
		const subscriptions = [
			webview.onDidReceiveMessage((raw: unknown) => this.receive(page, raw)),
			onDidChangeVisibility(() => {
				if (!isVisible()) {
					watch.hidden();
				} else {
					watch.shown();
				}
			}),
		];
		return new vscode.Disposable(() => {
			watch.dispose();
			subscriptions.forEach((s) => s.dispose());
			this.pages.delete(page);
		});
	}

	private receive(page: Page, raw: unknown): void {
		const message = decodePageMessage(raw);
		if (message.kind === 'invalid') {
			this.log.warn(`Chat page sent an invalid message: ${message.error}`);
			if (message.id !== undefined) {
				void page.webview.postMessage(encodeError(message.id, message.error));
			}
			return;
		}
		if (message.kind === 'request') {
			void this.answer(page, message.id, message.method, message.params);
			return;
		}
		runPageCommand(this.commands, message.method, message.params).catch((error: unknown) => {
			this.log.error(`Chat: ${message.method} failed: ${errorMessage(error)}`);
			this.notice('error', errorMessage(error), 'sessionKey' in (message.params as object) ? (message.params as { sessionKey: string }).sessionKey : undefined);
		});
	}

	private async answer(page: Page, id: number, method: string, params: unknown): Promise<void> {
		let reply: WireMessage;
		try {
			switch (method) {
				case PageRequests.getState.method: {
					const { load } = params as ParamsOf<typeof PageRequests.getState>;
					const current = page.currentLoad();
					if (load !== undefined && current !== undefined && load !== current) {
						// Sent before the page was loaded again (its load watch gave up waiting): that
						// document is gone. Answered, it would mark the new one loaded and take its focus.
						this.log.debug('Chat: a state request from a page loaded again since; not answered.');
						return;
					}
					if (!page.watch.loaded) {
						this.log.debug(`Chat page loaded (${this.pages.size} page(s) attached).`);
					}
					page.watch.markLoaded();
					reply = encodeResult(PageRequests.getState, id, this.stateFor(page, true));
					break;
				}
				case PageRequests.activeEditorAttachment.method:
					reply = encodeResult(PageRequests.activeEditorAttachment, id, { attachment: this.activeEditorAttachment() });
					break;
				case PageRequests.searchMentions.method: {
					const { query } = params as ParamsOf<typeof PageRequests.searchMentions>;
					const [files, provided] = await Promise.all([searchMentions(query), this.openctx?.chatMentions(query).catch(() => []) ?? []]);
					reply = encodeResult(PageRequests.searchMentions, id, { items: [...files, ...provided] });
					break;
				}
				case PageRequests.suggestContext.method: {
					const { text } = params as ParamsOf<typeof PageRequests.suggestContext>;
					const offered = (await this.openctx?.chatSuggestions(text).catch(() => [])) ?? [];
					reply = encodeResult(PageRequests.suggestContext, id, { items: offered });
					break;
				}
				default:
					reply = encodeError(id, `Unknown request ${method}`);
			}
		} catch (error) {
			reply = encodeError(id, errorMessage(error));
		}
		void page.webview.postMessage(reply);
		if (method === PageRequests.getState.method) {
			// Terminals are not in the state: each comes after it, as it is now.
			for (const tab of this.tabs.values()) {
				for (const terminal of tab.session ? this.terminals.snapshots(tab.session) : []) {
					void page.webview.postMessage(encodeNotification(HostNotifications.didUpdateTerminal, { sessionKey: tab.key, ...terminal }));
				}
			}
		}
		if (method === PageRequests.getState.method && this.focusPending && page.isVisible()) {
			this.focusPending = false;
			void page.webview.postMessage(this.focusMessage());
		}
	}

	/** What the page's commands do, over this controller's chats (pageCommandHandlers.ts). */
	private commandHost(): ChatCommandHost {
		const tabOf = (key: string) => this.requireTab(key);
		return {
			newChat: (options) => this.newChat(options),
			continueInNewChat: (key) => this.continueInNewChat(key),
			showChat: async () => {
				await this.reveal();
				this.focusInput();
			},
			focusInput: () => this.focusInput(),
			sendPrompt: (key, text, attachments) => this.sendPrompt(key, text, attachments),
			cancel: (key) => this.tabs.get(key)?.session?.cancel(),
			answerPermission: (key, requestId, optionId) => this.asks.answerPermission(this.tabs.get(key), requestId, optionId),
			setConfigOption: async (key, configId, value) => {
				const tab = tabOf(key);
				this.apply(tab, { type: 'session_setup', configOptions: await this.requireSession(tab).setConfigOption(configId, value) });
			},
			setMode: async (key, modeId) => {
				const tab = tabOf(key);
				await this.requireSession(tab).setMode(modeId);
				this.apply(tab, { type: 'update', update: { sessionUpdate: 'current_mode_update', currentModeId: modeId } });
			},
			authenticate: (key, methodId) => {
				// Sign-in is asked for by session/new or session/prompt (chatSessions.ts), which wait for this answer.
				const tab = tabOf(key);
				const method = tab.signIn?.methods.find((m) => m.id === methodId);
				if (!method) {
					throw new Error(`${tab.agentName} offers no sign-in method "${methodId}" now.`);
				}
				this.asks.endSignIn(tab, method);
			},
			dismissSignIn: (key) => {
				const tab = this.tabs.get(key);
				if (tab) {
					this.asks.endSignIn(tab, undefined);
				}
			},
			select: (key) => this.select(key),
			closeTab: (key) => this.closeTab(key),
			reviewFile: async (key, file) => {
				tabOf(key);
				await (this.files ? this.files.changes.review(vscode.Uri.file(file)) : openLocation(file, undefined));
			},
			settleChanges: async (key, file, keep) => {
				const tab = tabOf(key);
				const uri = file !== undefined ? vscode.Uri.file(file) : undefined;
				await (keep ? this.files?.changes.keep(tab.key, uri) : this.files?.changes.undo(tab.key, uri));
			},
			askUndoTurn: (key, turnId) => this.askUndo(tabOf(key), turnId),
			answerUndoTurn: async (key, turnId, undo) => {
				const tab = tabOf(key);
				tab.undoAsk = undefined;
				this.broadcastState();
				if (undo) {
					await this.files?.checkpoints?.undo(tab.key, turnId);
				}
			},
			setFollow: (key, on) => {
				tabOf(key).follow = on;
				this.broadcastState();
			},
			insertAtCursor: (code) => this.insertAtCursor(code),
			openTerminal: (key, terminalId) => {
				const tab = tabOf(key);
				// Named after the tool call that shows it.
				const call = tab.transcript.snapshot().entries.find((e) => e.kind === 'tool_call' && e.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId));
				this.terminals.open(this.requireSession(tab), terminalId, `${tab.agentName}${call?.kind === 'tool_call' ? `: ${call.title.slice(0, 60)}` : ''}`);
			},
		};
	}

	// --- Files the agents read and changed ---

	private tabOfSession(agentName: string, sessionId: string): ChatTab | undefined {
		return [...this.tabs.values()].find((t) => t.session?.agentName === agentName && t.session.sessionId === sessionId);
	}

	/** Follow mode: shows where the agent reads or edits, without taking the focus from the chat. */
	private async reveal1(uri: vscode.Uri, line: number | undefined): Promise<void> {
		try {
			const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
			await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true, ...(line !== undefined ? { selection: new vscode.Range(position, position) } : {}) });
		} catch (error) {
			this.log.debug(`Follow mode could not show ${uri.fsPath}: ${errorMessage(error)}`);
		}
	}

	private async refreshChanges(): Promise<void> {
		if (!this.files) {
			return;
		}
		let changed = false;
		for (const tab of this.tabs.values()) {
			const files = (await this.files.changes.files(tab.key)).map((f) => ({
				path: f.path,
				name: path.basename(f.path),
				added: f.added,
				removed: f.removed,
				created: f.created,
				...(f.deleted ? { deleted: true } : {}),
				...(f.note !== undefined ? { note: f.note } : {}),
			}));
			if (JSON.stringify(files) !== JSON.stringify(tab.changes)) {
				tab.changes = files;
				changed = true;
			}
		}
		if (changed) {
			this.broadcastState();
		}
	}

	/** Undo this turn's button: the turns of chat `key` with a checkpoint; the history keeps the files they changed. */
	private refreshTurns(key: string): void {
		const tab = this.tabs.get(key);
		if (tab && this.files?.checkpoints) {
			tab.turns = this.files.checkpoints.turns(key);
			this.broadcastState();
			this.saver.soon(tab);
		}
	}

	/** **Undo Last Turn**: the shown chat asks about its last turn with changes not undone. */
	async undoLastTurn(): Promise<void> {
		const tab = this.selected !== undefined ? this.tabs.get(this.selected) : undefined;
		if (!tab) {
			void vscode.window.showInformationMessage('Agent Link: no chat is open.');
			return;
		}
		// Shown without asking for the input: the question takes the keyboard.
		await this.reveal();
		await this.askUndo(tab, undefined);
	}

	/** Undo this turn: the chat shows what it would do, and waits for the user's answer (`chat/answerUndoTurn`). */
	private async askUndo(tab: ChatTab, turnId: number | undefined): Promise<void> {
		const question = await this.files?.checkpoints?.ask(tab.key, turnId);
		if (question) {
			tab.undoAsk = { ...question, lines: [...question.lines] };
			this.broadcastState();
		}
	}

	// --- Tabs ---

	/**
	 * Opens a chat tab with `agentName` (default: the chat role's agent, **Select Agent**; asked
	 * for when there is none) in `cwd` (default: the workspace folder, picked when there are
	 * several). Resolves with the tab's key once the tab exists (the session may still be starting),
	 * or undefined when the user dismissed a picker.
	 */
	async newChat(options: { agentName?: string; cwd?: string; pick?: boolean; seed?: Tab['seed'] } = {}): Promise<string | undefined> {
		const choice = options.agentName !== undefined ? this.agents.findChoice(options.agentName) : await this.defaultChoice(options.pick === true);
		if (!choice) {
			if (options.agentName !== undefined) {
				throw new Error(`There is no agent named "${options.agentName}".`);
			}
			return undefined;
		}
		const cwd = options.cwd ?? (await pickFolder());
		if (cwd === undefined) {
			return undefined;
		}
		const tab = new ChatTab(`tab-${nextTabKey++}`, choice.name, cwd);
		tab.seed = options.seed;
		this.tabs.set(tab.key, tab);
		this.selected = tab.key;
		this.broadcastState();
		tab.started = this.start(tab, choice);
		return tab.key;
	}

	// --- History ---

	/** Opens the tabs of the last window again, drawn from the history (they go on with their agents when used). */
	private async restoreTabs(): Promise<void> {
		try {
			await this.history.ready;
			const { ids, selected } = this.history.openTabs;
			for (const id of ids) {
				const record = this.history.get(id);
				if (record && !this.disposing && !this.tabByHistory(id)) {
					const tab = await this.addStoredTab(record);
					if (id === selected && this.selected === undefined) {
						this.selected = tab.key;
					}
				}
			}
			this.selected ??= this.tabs.keys().next().value;
		} finally {
			this.restoring = false;
		}
		if (this.tabs.size > 0) {
			this.log.info(`Chat: ${this.tabs.size} tab(s) of the last window open again.`);
			this.broadcastState();
		}
	}

	/**
	 * Opens a stored chat in a tab (or selects its tab), drawn at once from the history, and takes
	 * it up again with its agent (`session/resume` or `session/load`) when the agent can; otherwise
	 * it is read-only. Resolves with the tab's key.
	 */
	async openFromHistory(id: string): Promise<string> {
		const open = this.tabByHistory(id);
		if (open) {
			if (open.state === 'stored') {
				void this.continueTab(open);
			}
			this.select(open.key);
			return open.key;
		}
		const record = this.history.get(id);
		if (!record) {
			throw new Error('That chat is no longer in the history.');
		}
		const tab = await this.addStoredTab(record);
		this.selected = tab.key;
		this.broadcastState();
		if (tab.state === 'stored') {
			void this.continueTab(tab);
		}
		return tab.key;
	}

	/** Opens a session the agent keeps (`session/list`): the stored chat of it when there is one, else a tab that loads or resumes it. */
	async openListed(agentName: string, listed: ListedSession): Promise<string> {
		const record = this.history.findSession(agentName, listed.sessionId);
		if (record) {
			return this.openFromHistory(record.id);
		}
		const open = [...this.tabs.values()].find((t) => t.agentName === agentName && (t.session?.sessionId ?? t.stored?.sessionId) === listed.sessionId);
		if (open) {
			this.select(open.key);
			return open.key;
		}
		const tab = new ChatTab(`tab-${nextTabKey++}`, agentName, listed.cwd);
		tab.stored = { sessionId: listed.sessionId, continueWith: undefined };
		if (typeof listed.title === 'string') {
			tab.transcript.update({ sessionUpdate: 'session_info_update', title: listed.title });
		}
		this.tabs.set(tab.key, tab);
		this.selected = tab.key;
		this.broadcastState();
		void this.continueTab(tab);
		return tab.key;
	}

	/** A tab for a stored chat, its transcript read from the history (the tab of that chat when one was opened meanwhile). */
	private async addStoredTab(record: HistoryRecord): Promise<ChatTab> {
		const tab = await storedTab(`tab-${nextTabKey++}`, record, this.history);
		const existing = this.tabByHistory(record.id);
		if (existing) {
			return existing; // opened meanwhile
		}
		this.tabs.set(tab.key, tab);
		return tab;
	}

	/**
	 * Takes a chat from history up again: the agent is started if need be, then `session/resume`
	 * or `session/load` (what the latter replays is not drawn again over the stored transcript). A
	 * chat the agent cannot go on with becomes read-only, saying why.
	 */
	private continueTab(tab: ChatTab): Promise<void> {
		if (this.continuing.has(tab) || tab.session !== undefined) {
			return tab.started;
		}
		const sessionId = tab.stored?.sessionId;
		const run = async (): Promise<void> => {
			const choice = this.agents.findChoice(tab.agentName);
			if (!choice || sessionId === undefined) {
				this.makeReadOnly(tab, choice ? 'This conversation never started with its agent, so it is read-only.' : `There is no agent named "${tab.agentName}" any more, so this conversation is read-only.`);
				return;
			}
			tab.state = 'starting';
			tab.detail = undefined;
			tab.keepStored = tab.transcript.size > 0;
			this.broadcastState();
			try {
				const session = await this.chat.create(choice, tab.cwd, {
					chooseSignIn: (request) => this.asks.signIn(tab, request),
					existing: { sessionId },
					beforeOpen: (opening) => this.wire(tab, opening),
				});
				if (tab.closed) {
					await session.close();
					return;
				}
				tab.session = session;
				tab.state = 'ready';
				if (tab.keepStored) {
					this.apply(tab, { type: 'agent_restarted', resumed: true, reason: `Taken up again from the history (session/${session.continuedWith ?? 'resume'}).` });
				}
				this.apply(tab, { type: 'session_setup', modes: session.setup.modes ?? null, configOptions: session.setup.configOptions ?? null });
				this.saver.soon(tab, true);
			} catch (error) {
				this.makeReadOnly(tab, error instanceof CannotContinueError ? `${error.message} This conversation is read-only.` : `${tab.agentName} could not go on with this conversation: ${errorMessage(error)}`);
			} finally {
				this.continuing.delete(tab);
			}
			this.broadcastState();
		};
		this.continuing.add(tab);
		tab.started = run();
		return tab.started;
	}

	private makeReadOnly(tab: ChatTab, reason: string): void {
		tab.state = 'read_only';
		tab.detail = reason;
		this.log.info(`Chat ${tab.key} with ${tab.agentName}: ${reason}`);
		this.broadcastState();
	}

	/**
	 * A new chat with the tab's agent (the default one if it is gone) in its folder, its input
	 * holding a link to the tab's transcript (written out as Markdown) for the agent to read.
	 */
	async continueInNewChat(key: string): Promise<string | undefined> {
		const tab = this.requireTab(key);
		await this.saver.now(tab);
		const file = await this.history.exportMarkdown(tab.historyId);
		const title = tab.transcript.snapshot().session.title ?? 'an earlier chat';
		const text = `Let us go on from the earlier chat "${title}"${file ? '; its transcript is attached' : ''}. `;
		return this.newChat({
			...(this.agents.findChoice(tab.agentName) ? { agentName: tab.agentName } : {}),
			cwd: tab.cwd,
			seed: { text, attachments: file ? [{ type: 'file', path: file.fsPath }] : [] },
		});
	}

	private tabByHistory(id: string): ChatTab | undefined {
		return [...this.tabs.values()].find((t) => t.historyId === id);
	}

	/** Keeps the list of open tabs (and the selected one) for the next window. */
	private keepOpenTabs(): void {
		if (this.restoring || this.disposing) {
			return;
		}
		const tabs = [...this.tabs.values()];
		const selected = this.selected !== undefined ? this.tabs.get(this.selected)?.historyId : undefined;
		void this.history.setOpenTabs({ ids: tabs.map((t) => t.historyId), ...(selected !== undefined ? { selected } : {}) }).catch((error: unknown) => this.log.warn(`Chat: the open tabs could not be kept: ${errorMessage(error)}`));
	}

	/** Writes every tab with changes not yet stored, and waits for the history's writes (deactivation). */
	async flushHistory(): Promise<void> {
		await Promise.all([...this.tabs.values()].filter((t) => t.saveTimer !== undefined).map((t) => this.saver.now(t)));
		await this.history.flush();
	}

	private async defaultChoice(pick: boolean): Promise<AgentChoice | undefined> {
		const current = this.agents.currentChoice;
		if (current && !pick) {
			return current;
		}
		const choices = this.agents.choices();
		const picked = await vscode.window.showQuickPick(
			choices.map((choice) => ({ label: choice.name, description: [choice.name === current?.name ? 'the chat agent' : '', choice.source === 'user' ? 'configured' : 'preset'].filter(Boolean).join(' · '), choice })),
			{ title: 'Agent Link: New Chat', placeHolder: 'The agent to chat with' },
		);
		return picked?.choice;
	}

	private async start(tab: ChatTab, choice: AgentChoice): Promise<void> {
		try {
			const session = await this.chat.create(choice, tab.cwd, { chooseSignIn: (request) => this.asks.signIn(tab, request), beforeOpen: (opening) => this.wire(tab, opening) });
			if (tab.closed) {
				await session.close();
				return;
			}
			tab.session = session;
			tab.state = 'ready';
			this.apply(tab, { type: 'session_setup', modes: session.setup.modes ?? null, configOptions: session.setup.configOptions ?? null });
			this.files?.turns?.prewarm();
		} catch (error) {
			tab.state = 'failed';
			tab.detail = errorMessage(error);
			this.log.error(`Chat with ${choice.name} could not start: ${tab.detail}`);
		}
		this.broadcastState();
	}

	/** Feeds a session's updates, permission requests and status into its tab (before it opens, so what `session/load` replays is seen). */
	private wire(tab: ChatTab, session: ChatSession): void {
		session.permissionHandler = (request, signal) => {
			// An edit may first show in its permission request: its files are copied before it runs.
			this.files?.turns?.noteToolCall(tab.key, request.toolCall);
			return this.asks.permission(tab, request, signal);
		};
		tab.disposables.push(
			session.onDidUpdate((update) => {
				if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
					this.files?.turns?.noteToolCall(tab.key, update);
				}
				if (!(tab.keepStored && session.replaying)) {
					this.apply(tab, { type: 'update', update });
				}
			}),
			session.onDidReset(() => {
				// The agent restarted and replays the conversation (session/load): drawn from the replay.
				this.files?.checkpoints?.forget(tab.key);
				tab.transcript = new Transcript();
				tab.keepStored = false;
				this.broadcastState();
			}),
			session.onDidChangeStatus((status) => {
				if (status.kind === 'ended') {
					if (tab.state !== 'ended' && !tab.closed) {
						tab.state = 'ended';
						this.apply(tab, { type: 'conversation_ended', reason: status.message });
						this.broadcastState();
					}
				} else if (status.kind === 'restarting') {
					tab.detail = status.message;
					this.broadcastState();
				} else if (status.kind === 'idle' && tab.detail !== undefined && tab.session === session) {
					tab.detail = undefined;
					this.apply(tab, { type: 'agent_restarted', resumed: true });
					this.broadcastState();
				}
			}),
		);
	}

	private select(key: string): void {
		if (this.tabs.has(key) && this.selected !== key) {
			this.selected = key;
			this.broadcastState();
		}
	}

	/** Closes a tab and ends its session; the others go on. */
	async closeTab(key: string): Promise<void> {
		const tab = this.tabs.get(key);
		if (!tab) {
			return;
		}
		tab.closed = true;
		const saved = this.saver.now(tab);
		const keys = [...this.tabs.keys()];
		this.tabs.delete(key);
		if (this.selected === key) {
			const index = keys.indexOf(key);
			this.selected = keys[index + 1] ?? keys[index - 1];
		}
		this.broadcastState();
		this.asks.cancelAll(tab);
		tab.disposables.forEach((d) => d.dispose());
		this.files?.checkpoints?.forget(key);
		await Promise.all([saved, tab.session?.close()]);
	}

	// --- Prompts ---

	/** Sends a prompt in a tab, as the page does (tests call it too); resolves once the turn is over. */
	async sendPrompt(key: string, text: string, attachments: readonly Attachment[] = []): Promise<void> {
		const tab = this.requireTab(key);
		if (tab.state === 'stored') {
			void this.continueTab(tab); // a chat from history goes on with its agent at its first prompt
		}
		await tab.started; // a prompt written while the agent was starting goes once it is ready
		const session = this.requireSession(tab);
		if (tab.transcript.snapshot().session.turn === 'running') {
			throw new Error('A turn is already running; stop it first.');
		}
		const blocks = await this.promptBlocks(tab, text, attachments);
		this.apply(tab, { type: 'prompt', blocks });
		this.flushSoon();
		let outcome: 'ended' | 'failed';
		let summary: string;
		await this.files?.turns?.begin(tab.key);
		try {
			const stopReason = await session.prompt(blocks);
			const changes = await this.files?.turns?.end(tab.key);
			this.apply(tab, { type: 'turn_ended', stopReason });
			this.checkpoint(tab, changes);
			outcome = 'ended';
			summary = stopReason === 'end_turn' ? 'answered' : `stopped (${stopReason})`;
		} catch (error) {
			const changes = await this.files?.turns?.end(tab.key);
			this.apply(tab, { type: 'turn_failed', message: errorMessage(error) });
			this.checkpoint(tab, changes);
			outcome = 'failed';
			summary = `failed: ${errorMessage(error)}`;
		}
		if (!this.visible && !tab.closed) {
			const title = tab.transcript.snapshot().session.title ?? 'your chat';
			const show = outcome === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
			void show(`${tab.agentName} ${summary} in "${title}".`, 'Open Chat').then((pick) => pick && this.showTab(tab.key));
		}
	}

	/** A checkpoint for the turn whose end was just drawn (turnChanges.ts found what it changed): Undo this turn on it. */
	private checkpoint(tab: ChatTab, changes: FileChange[] | undefined): void {
		noteTurnChanges(tab.changedFiles, changes ?? []);
		const end = tab.transcript.snapshot().entries.at(-1);
		if (changes && end?.kind === 'turn_end') {
			this.files?.checkpoints?.add(tab.key, end.id, changes);
		}
	}

	/** The prompt's content blocks (promptBlocks.ts): a warning in the chat for what the agent cannot take. */
	private promptBlocks(tab: ChatTab, text: string, attachments: readonly Attachment[]): Promise<ContentBlock[]> {
		return promptBlocks(text, attachments, {
			agentName: tab.agentName,
			accepts: tab.toWire().promptCapabilities,
			openctx: this.openctx,
			warn: (message) => this.notice('warning', message, tab.key),
			log: this.log,
		});
	}

	// --- Editor helpers ---

	private activeEditorAttachment(): Attachment | null {
		const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
		if (!editor || editor.document.uri.scheme !== 'file') {
			return null;
		}
		const file = editor.document.uri.fsPath;
		const selection = editor.selection;
		if (selection.isEmpty) {
			return { type: 'file', path: file };
		}
		const end = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
		return { type: 'file', path: file, lines: { start: selection.start.line + 1, end } };
	}

	private async insertAtCursor(code: string): Promise<void> {
		const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
		if (!editor || editor.document.isClosed) {
			throw new Error('Open a file to insert the code into.');
		}
		await vscode.window.showTextDocument(editor.document, editor.viewColumn);
		await editor.edit((edit) => editor.selections.forEach((s) => edit.replace(s, code)));
	}

	/**
	 * Shows the chat with `key` selected, the keyboard in its input. The one page on screen is asked to move
	 * the keyboard to its input only if it has it: showing the view would make VS Code focus the
	 * webview again, which takes the keyboard out of the page and back a moment later (`_doFocus`,
	 * after a delay), and keys typed in between are lost. A page without the keyboard answers
	 * `showChat`, and is shown then. With no page on screen, or several, the chat is shown (VS Code
	 * focusing it) and the pages focus their input at once, taking the keyboard back if VS Code's
	 * focusing took it away.
	 */
	async showTab(key: string | undefined): Promise<void> {
		if (key !== undefined) {
			this.select(key);
		}
		const shown = [...this.pages].filter((p) => p.watch.loaded && p.isVisible());
		if (shown.length === 1) {
			void shown[0]!.webview.postMessage(this.focusMessage(true));
			return;
		}
		await this.reveal();
		this.focusInput();
	}

	/** Moves focus to the selected tab's input in the visible pages (or the next page to load, when none is ready yet). */
	focusInput(): void {
		const visible = [...this.pages].filter((p) => p.watch.loaded && p.isVisible());
		this.focusPending = visible.length === 0;
		for (const page of visible) {
			void page.webview.postMessage(this.focusMessage());
		}
	}

	private focusMessage(ifFocused = false): WireMessage {
		return encodeNotification(HostNotifications.focusInput, { ...(this.selected !== undefined ? { sessionKey: this.selected } : {}), ...(ifFocused ? { ifFocused } : {}) });
	}

	private notice(severity: 'info' | 'warning' | 'error', message: string, sessionKey?: string): void {
		this.post(encodeNotification(HostNotifications.didShowNotice, { severity, message, ...(sessionKey !== undefined ? { sessionKey } : {}) }));
	}

	// --- State to the pages ---

	private apply(tab: ChatTab, event: Parameters<Transcript['apply']>[0]): void {
		const changed = tab.transcript.apply(event);
		for (const id of tab.transcript.takeReusedToolCallIds()) {
			this.log.warn(`Chat ${tab.key}: ${tab.agentName} used the tool call id ${JSON.stringify(id.slice(0, 200))} of an earlier turn again; it is shown as a new tool call of this turn.`);
		}
		if (changed) {
			this.flushSoon();
			if (!tab.closed) {
				this.saver.soon(tab, event.type === 'turn_ended' || event.type === 'turn_failed' || event.type === 'conversation_ended');
			}
		}
	}

	private flushSoon(): void {
		this.flushTimer ??= setTimeout(() => this.flush(), PATCH_INTERVAL_MS);
	}

	/** Sends each page what changed in each tab since the revision it has. */
	private flush(): void {
		this.flushTimer = undefined;
		for (const page of this.pages) {
			if (!page.watch.loaded) {
				continue;
			}
			for (const tab of this.tabs.values()) {
				const known = page.revisions.get(tab.key);
				const to = tab.transcript.revision;
				// A transcript the page does not have (a reset one) comes whole with the next state.
				if (!known || known.transcript !== tab.transcript || known.revision === to) {
					continue;
				}
				const from = known.revision;
				known.revision = to;
				void page.webview.postMessage(encodeNotification(HostNotifications.didPatchTranscript, { sessionKey: tab.key, patch: tab.transcript.changesSince(from) }));
			}
		}
	}

	private broadcastState(): void {
		this.tabsEmitter.fire();
		for (const page of this.pages) {
			if (page.watch.loaded) {
				void page.webview.postMessage(encodeNotification(HostNotifications.didChangeState, this.stateFor(page, false)));
			}
		}
	}

	/**
	 * The state for a page: with every transcript (`all`), or only those it does not have at their
	 * current revision. The page then has each transcript at the revision sent.
	 */
	private stateFor(page: Page, all: boolean): ChatState {
		const transcripts: ChatState['transcripts'] = {};
		const known = new Map(page.revisions);
		page.revisions.clear();
		for (const tab of this.tabs.values()) {
			const had = known.get(tab.key);
			if (all || !had || had.transcript !== tab.transcript || had.revision !== tab.transcript.revision) {
				transcripts[tab.key] = tab.transcript.snapshot();
			}
			page.revisions.set(tab.key, { transcript: tab.transcript, revision: tab.transcript.revision });
		}
		const defaultAgent = this.agents.currentChoice?.name;
		return {
			tabs: [...this.tabs.values()].map((t) => t.toWire()),
			...(this.selected !== undefined ? { selected: this.selected } : {}),
			agents: this.agentInfos(),
			...(defaultAgent !== undefined ? { defaultAgent } : {}),
			transcripts,
		};
	}

	private agentInfos(): AgentInfo[] {
		return this.agents.choices().map((choice) => {
			const state = this.pool.get(choice.name)?.state ?? { kind: 'stopped' };
			return { id: choice.name, name: choice.name, status: statusOf(state), ...('message' in state ? { detail: state.message } : {}) };
		});
	}

	private post(message: WireMessage, filter: (page: Page) => boolean = () => true): void {
		for (const page of this.pages) {
			if (page.watch.loaded && filter(page)) {
				void page.webview.postMessage(message);
			}
		}
	}

	private requireTab(key: string): ChatTab {
		const tab = this.tabs.get(key);
		if (!tab) {
			throw new Error('That chat is closed.');
		}
		return tab;
	}

	private requireSession(tab: ChatTab): ChatSession {
		if (!tab.session) {
			throw new Error(tab.state === 'failed' || tab.state === 'read_only' ? (tab.detail ?? 'The chat could not start.') : 'The chat is still starting.');
		}
		return tab.session;
	}

	dispose(): void {
		// The tabs close with the window, but stay in the list to open again in the next one.
		this.disposing = true;
		if (this.flushTimer) {
			clearTimeout(this.flushTimer);
		}
		for (const key of [...this.tabs.keys()]) {
			void this.closeTab(key);
		}
		this.disposables.forEach((d) => d.dispose());
		this.tabsEmitter.dispose();
	}
}

function statusOf(state: AgentState): AgentStatus {
	switch (state.kind) {
		case 'ready':
			return 'running';
		case 'crashed':
			return 'restarting';
		default:
			return state.kind;
	}
}

/** The workspace folder a chat runs in: the only one, or the one the user picks; the home folder without any. */
async function pickFolder(): Promise<string | undefined> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	if (folders.length <= 1) {
		return folders[0]?.uri.fsPath ?? (await import('node:os')).homedir();
	}
	const folder = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'The folder the agent works in' });
	return folder?.uri.fsPath;
}
