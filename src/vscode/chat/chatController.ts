/**
 * The chat panel's host: it owns the tabs (a {@link ChatSession} and a {@link Transcript} each)
 * and wires the parts that do the work. Every tab is kept in the chat history as its transcript
 * changes; the tabs open when the window closes open again when it comes back, and go on with
 * their agents when the user sends a message (or are read-only, with a way to a new chat).
 *
 * Its parts, one job each:
 * - the open tabs and the selected one: tabList.ts (a tab's state: chatTab.ts);
 * - the pages and the state they draw (requests answered, state and patches sent, focus, pages
 *   that did not load): chatPages.ts, with what each page command does in pageCommandHandlers.ts;
 * - a tab's session started, taken up again and wired to its tab: sessionStart.ts, with sign-ins
 *   and permissions asked of the user in userAsks.ts;
 * - the history as tabs (restore, open, keep the open tabs, continue in a new chat):
 *   historyTabs.ts, a tab's record written and read in tabStore.ts;
 * - the files the agents read and change, and Undo this turn: tabFiles.ts;
 * - what the page asks of the editor (attachments, insertion, mentions): editorRequests.ts;
 * - a prompt's content blocks: promptBlocks.ts.
 * What is left here: opening, selecting and closing tabs, a prompt's turn, and the transcript
 * updates (`apply`) every part draws through.
 */
import * as vscode from 'vscode';
import type { Attachment, Tab } from '../../common/chat/messages';
import { HostNotifications, encodeNotification } from '../../common/chat/messages';
import type { PageCommandHandlers } from '../../common/chat/pageCommands';
import { KeyboardHandOff } from '../../common/chat/pageFocus';
import type { Transcript } from '../../common/chat/transcript';
import type { ContentBlock, ListedSession } from '../../common/chat/updates';
import { errorMessage } from '../../common/log';
import type { AgentPool, AgentRole } from '../agentPool';
import type { ExtensionLog } from '../log';
import type { OpenCtxFeature } from '../openctx/feature';
import type { ChatHistory } from './chatHistory';
import { ChatPages, type PageHost } from './chatPages';
import type { ChatSessionManager } from './chatSessionManager';
import type { ChatSession } from './chatSessions';
import { ChatTab } from './chatTab';
import { EditorRequests } from './editorRequests';
import { HistoryTabs } from './historyTabs';
import { pageCommandHandlers, type ChatCommandHost } from './pageCommandHandlers';
import { promptBlocks } from './promptBlocks';
import { RemoteQuestions } from './remoteQuestions';
import { SessionStart, pickFolder } from './sessionStart';
import { TabFiles, type ChatFiles } from './tabFiles';
import { TabList } from './tabList';
import { TabSaver } from './tabStore';
import type { ChatTerminals } from './terminals';
import { UserAsks } from './userAsks';

export class ChatController implements vscode.Disposable {
	private readonly tabs = new TabList();
	/** Writes the tabs to the history. */
	private readonly saver: TabSaver;
	/** Sign-ins and permissions asked of the user. */
	private readonly asks: UserAsks;
	private readonly pages: ChatPages;
	private readonly sessions: SessionStart;
	private readonly historyTabs: HistoryTabs;
	private readonly tabFiles: TabFiles;
	private readonly editor: EditorRequests;
	private readonly remote: RemoteQuestions;
	/** The chat shown for a page that lacked the keyboard: shown once more if VS Code does not pass it into the page. */
	private readonly keyboard = new KeyboardHandOff(() => void this.showForKeyboard());
	private readonly disposables: vscode.Disposable[] = [];
	private readonly tabsEmitter = new vscode.EventEmitter<void>();
	/** Fires when tabs open, close or change state. */
	readonly onDidChangeTabs = this.tabsEmitter.event;
	/** Settles once the tabs of the last window are open again. */
	readonly restored: Promise<void>;

	constructor(
		chat: ChatSessionManager,
		private readonly agents: AgentRole,
		pool: AgentPool,
		private readonly log: ExtensionLog,
		/** Shows the chat (the view, or a chat editor; without taking the keyboard when told) and resolves once a page is there. */
		private readonly reveal: (preserveFocus?: boolean) => Promise<void>,
		private readonly terminals: ChatTerminals,
		readonly history: ChatHistory,
		/** The agents' file reads and writes, the review of their changes, and what each turn changed. */
		files?: ChatFiles,
		/** OpenCtx providers: their mentions in the @-picker, their items in prompts. */
		private readonly openctx?: OpenCtxFeature,
	) {
		const tabs = this.tabs;
		const draw = { broadcastState: () => this.broadcastState(), apply: (tab: ChatTab, event: Parameters<Transcript['apply']>[0]) => this.apply(tab, event) };
		this.saver = new TabSaver(history);
		this.asks = new UserAsks({ log, visible: () => this.visible, showTab: (key) => this.showTab(key), ...draw });
		this.editor = new EditorRequests(openctx);
		this.remote = new RemoteQuestions(pool.remoteAccess, {
			selectedAgent: () => tabs.get(tabs.selected)?.agentName,
			isSelected: (tab) => tabs.get(tabs.selected) === tab,
			definition: (name) => agents.findChoice(name)?.definition,
			showSelected: () => void this.showTab(undefined),
		});
		this.pages = new ChatPages({
			log,
			tabs,
			agents,
			pool,
			commands: this.commandHandlers(),
			terminals: (session) => terminals.snapshots(session),
			activeEditorAttachment: () => this.editor.activeEditorAttachment(),
			searchMentions: (query) => this.editor.searchMentions(query),
			suggestContext: (text) => this.editor.suggestContext(text),
			stateChanged: () => this.tabsEmitter.fire(),
			keyboardTaken: () => this.keyboard.taken(),
		});
		this.sessions = new SessionStart({ chat, agents, log, asks: this.asks, saver: this.saver, files, ...draw });
		this.historyTabs = new HistoryTabs({ history, tabs, log, saver: this.saver, agents, sessions: this.sessions, newChat: (options) => this.newChat(options), select: (key) => this.select(key), ...draw });
		this.tabFiles = new TabFiles({ tabs, log, saver: this.saver, ...draw }, files);
		this.disposables.push(
			this.tabFiles,
			terminals.onDidUpdate(({ session, terminal }) => {
				const tab = tabs.showing(session);
				if (tab) {
					this.pages.post(encodeNotification(HostNotifications.didUpdateTerminal, { sessionKey: tab.key, ...terminal }));
				}
			}),
			this.editor,
			this.remote,
			this.onDidChangeTabs(() => this.historyTabs.keepOpenTabs()),
		);
		this.restored = this.historyTabs.restore().catch((error: unknown) => this.log.error(`Chat: the tabs of the last window could not be opened again: ${errorMessage(error)}`));
	}

	// --- For the extension and the tests ---

	/** The tabs' keys, oldest first (for tests). */
	get tabKeys(): readonly string[] {
		return this.tabs.keys();
	}

	/** A tab's session and transcript (for tests). */
	tab(key: string): { readonly session: ChatSession | undefined; readonly transcript: Transcript; readonly state: Tab['state']; readonly historyId: string; readonly detail: string | undefined } | undefined {
		return this.tabs.get(key);
	}

	get selectedKey(): string | undefined {
		return this.tabs.selected;
	}

	/** Whether a chat page is on screen. */
	get visible(): boolean {
		return this.pages.visible;
	}

	/** Connects a page (chatPages.ts); its messages are handled until the returned disposable is disposed. */
	attach(page: PageHost): vscode.Disposable {
		return this.pages.attach(page);
	}

	/** Opens a stored chat in a tab, or selects its tab (historyTabs.ts); resolves with the tab's key. */
	openFromHistory(id: string): Promise<string> {
		return this.historyTabs.openFromHistory(id);
	}

	/** Opens a session the agent keeps (`session/list`) in a tab (historyTabs.ts). */
	openListed(agentName: string, listed: ListedSession): Promise<string> {
		return this.historyTabs.openListed(agentName, listed);
	}

	/** A new chat going on from tab `key`, linking to its transcript (historyTabs.ts). */
	continueInNewChat(key: string): Promise<string | undefined> {
		return this.historyTabs.continueInNewChat(key);
	}

	/** Writes every tab with changes not yet stored, and waits for the history's writes (deactivation). */
	flushHistory(): Promise<void> {
		return this.historyTabs.flush();
	}

	/** **Undo Last Turn**: the shown chat asks about its last turn with changes not undone. */
	async undoLastTurn(): Promise<void> {
		const tab = this.tabs.get(this.tabs.selected);
		if (!tab) {
			void vscode.window.showInformationMessage('Agent Link: no chat is open.');
			return;
		}
		// Shown without asking for the input: the question takes the keyboard.
		await this.reveal();
		await this.tabFiles.askUndo(tab, undefined);
	}

	// --- Tabs ---

	/**
	 * Opens a chat tab with `agentName` (default: the chat role's agent, **Select Agent**; asked
	 * for when there is none) in `cwd` (default: the workspace folder, picked when there are
	 * several). Resolves with the tab's key once the tab exists (the session may still be starting),
	 * or undefined when the user dismissed a picker or did not confirm a plain-text host (remoteQuestions.ts).
	 */
	async newChat(options: { agentName?: string; cwd?: string; pick?: boolean; seed?: Tab['seed'] } = {}): Promise<string | undefined> {
		const choice = options.agentName !== undefined ? this.agents.findChoice(options.agentName) : await this.sessions.defaultChoice(options.pick === true);
		if (!choice) {
			if (options.agentName !== undefined) {
				throw new Error(`There is no agent named "${options.agentName}".`);
			}
			return undefined;
		}
		const cwd = options.cwd ?? (await pickFolder());
		if (cwd === undefined || !(await this.remote.confirm(choice))) {
			return undefined;
		}
		const tab = new ChatTab(this.tabs.newKey(), choice.name, cwd);
		tab.seed = options.seed;
		this.tabs.add(tab);
		this.tabs.selected = tab.key;
		this.broadcastState();
		tab.started = this.sessions.start(tab, choice);
		return tab.key;
	}

	private select(key: string): void {
		if (this.tabs.has(key) && this.tabs.selected !== key) {
			this.tabs.selected = key;
			this.broadcastState();
		}
	}

	/**
	 * Shows the chat with `key` selected, the keyboard in its input. The one page on screen is asked to move
	 * the keyboard to its input only if it has it: showing the view would make VS Code focus the
	 * webview again, which takes the keyboard out of the page and back a moment later (`_doFocus`,
	 * after a delay), and keys typed in between are lost. A page without the keyboard answers
	 * `showChat`, and is shown then. With no page on screen, or several, the chat is shown (VS Code
	 * focusing it) and the pages focus their input at once, taking the keyboard back if VS Code's
	 * focusing took it away. While a question about a remote agent is open, or may come (its chat is
	 * starting), the chat is shown without the keyboard, given once it is answered (remoteQuestions.ts).
	 */
	async showTab(key: string | undefined): Promise<void> {
		if (key !== undefined) {
			this.select(key);
		}
		if (this.remote.holdKeyboard(this.tabs.get(this.tabs.selected))) {
			await this.reveal(true);
			return;
		}
		if (this.pages.focusIfFocused()) {
			return;
		}
		await this.showForKeyboard();
	}

	/** Shows the chat, VS Code focusing it, and asks its pages to put the keyboard in the input. */
	private async showForKeyboard(): Promise<void> {
		await this.reveal();
		this.focusInput();
	}

	/** Moves focus to the selected tab's input in the visible pages (or the next page to load, when none is ready yet). */
	focusInput(): void {
		if (this.remote.holdKeyboard(undefined)) {
			return; // a page taking the keyboard would take it from the question
		}
		this.pages.focusInput();
	}

	/** Closes a tab and ends its session; the others go on. */
	async closeTab(key: string): Promise<void> {
		const tab = this.tabs.get(key);
		if (!tab) {
			return;
		}
		tab.closed = true;
		const saved = this.saver.now(tab);
		const keys = this.tabs.keys();
		this.tabs.delete(key);
		if (this.tabs.selected === key) {
			const index = keys.indexOf(key);
			this.tabs.selected = keys[index + 1] ?? keys[index - 1];
		}
		this.broadcastState();
		this.asks.cancelAll(tab);
		tab.disposables.forEach((d) => d.dispose());
		this.tabFiles.forget(key);
		await Promise.all([saved, tab.session?.close()]);
	}

	// --- Prompts ---

	/** Sends a prompt in a tab, as the page does (tests call it too); resolves once the turn is over. */
	async sendPrompt(key: string, text: string, attachments: readonly Attachment[] = []): Promise<void> {
		const tab = this.tabs.require(key);
		if (tab.state === 'stored') {
			void this.sessions.continueTab(tab); // a chat from history goes on with its agent at its first prompt
		}
		await tab.started; // a prompt written while the agent was starting goes once it is ready
		const session = this.requireSession(tab);
		if (tab.transcript.snapshot().session.turn === 'running') {
			throw new Error('A turn is already running; stop it first.');
		}
		const blocks = await this.promptBlocks(tab, text, attachments);
		this.apply(tab, { type: 'prompt', blocks });
		this.pages.flushSoon();
		let outcome: 'ended' | 'failed';
		let summary: string;
		await this.tabFiles.beginTurn(tab);
		try {
			const stopReason = await session.prompt(blocks);
			const changes = await this.tabFiles.endTurn(tab);
			this.apply(tab, { type: 'turn_ended', stopReason });
			this.tabFiles.checkpoint(tab, changes);
			outcome = 'ended';
			summary = stopReason === 'end_turn' ? 'answered' : `stopped (${stopReason})`;
		} catch (error) {
			const changes = await this.tabFiles.endTurn(tab);
			this.apply(tab, { type: 'turn_failed', message: errorMessage(error) });
			this.tabFiles.checkpoint(tab, changes);
			outcome = 'failed';
			summary = `failed: ${errorMessage(error)}`;
		}
		if (!this.visible && !tab.closed) {
			const title = tab.transcript.snapshot().session.title ?? 'your chat';
			const show = outcome === 'failed' ? vscode.window.showWarningMessage : vscode.window.showInformationMessage;
			void show(`${tab.agentName} ${summary} in "${title}".`, 'Open Chat').then((pick) => pick && this.showTab(tab.key));
		}
	}

	/** The prompt's content blocks (promptBlocks.ts): a warning in the chat for what the agent cannot take. */
	private promptBlocks(tab: ChatTab, text: string, attachments: readonly Attachment[]): Promise<ContentBlock[]> {
		return promptBlocks(text, attachments, {
			agentName: tab.agentName,
			accepts: tab.toWire().promptCapabilities,
			openctx: this.openctx,
			warn: (message) => this.pages.notice('warning', message, tab.key),
			log: this.log,
		});
	}

	// --- What every part draws through ---

	/** Into the tab's transcript: the pages get the change with the next patch, the history soon after. */
	private apply(tab: ChatTab, event: Parameters<Transcript['apply']>[0]): void {
		const changed = tab.transcript.apply(event);
		for (const id of tab.transcript.takeReusedToolCallIds()) {
			this.log.warn(`Chat ${tab.key}: ${tab.agentName} used the tool call id ${JSON.stringify(id.slice(0, 200))} of an earlier turn again; it is shown as a new tool call of this turn.`);
		}
		if (changed) {
			this.pages.flushSoon();
			if (!tab.closed) {
				this.saver.soon(tab, event.type === 'turn_ended' || event.type === 'turn_failed' || event.type === 'conversation_ended');
			}
		}
	}

	/** The tabs changed: the pages get the state (chatPages.ts). */
	private broadcastState(): void {
		this.pages.broadcastState();
	}

	private requireSession(tab: ChatTab): ChatSession {
		if (!tab.session) {
			throw new Error(tab.state === 'failed' || tab.state === 'read_only' ? (tab.detail ?? 'The chat could not start.') : 'The chat is still starting.');
		}
		return tab.session;
	}

	// --- The page's commands ---

	/** What the page's commands do, over this controller's chats (pageCommandHandlers.ts). */
	private commandHandlers(): PageCommandHandlers {
		const tabOf = (key: string) => this.tabs.require(key);
		const host: ChatCommandHost = {
			newChat: (options) => this.newChat(options),
			continueInNewChat: (key) => this.continueInNewChat(key),
			showChat: async () => {
				if (this.remote.holdKeyboard(this.tabs.get(this.tabs.selected))) {
					return; // shown once the question about a remote agent is answered, or its chat connected
				}
				await this.showForKeyboard();
				this.keyboard.shown();
			},
			focusInput: () => this.focusInput(),
			sendPrompt: (key, text, attachments) => this.sendPrompt(key, text, attachments),
			cancel: (key) => this.tabs.get(key)?.session?.cancel(),
			answerPermission: (key, requestId, optionId) => this.asks.answerPermission(this.tabs.get(key), requestId, optionId),
			answerElicitation: (key, requestId, action, content) => this.asks.elicitations.answer(this.tabs.get(key), requestId, action, content),
			setConfigOption: async (key, configId, value) => {
				const tab = tabOf(key);
				this.apply(tab, { type: 'session_setup', configOptions: await this.requireSession(tab).setConfigOption(configId, value) });
			},
			setMode: async (key, modeId) => {
				const tab = tabOf(key);
				await this.requireSession(tab).setMode(modeId);
				this.apply(tab, { type: 'update', update: { sessionUpdate: 'current_mode_update', currentModeId: modeId } });
			},
			authenticate: (key, methodId) => this.authenticate(tabOf(key), methodId),
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
				await this.tabFiles.review(file);
			},
			settleChanges: (key, file, keep) => this.tabFiles.settle(tabOf(key), file, keep),
			askUndoTurn: (key, turnId) => this.tabFiles.askUndo(tabOf(key), turnId),
			answerUndoTurn: (key, turnId, undo) => this.tabFiles.answerUndo(tabOf(key), turnId, undo),
			setFollow: (key, on) => {
				tabOf(key).follow = on;
				this.broadcastState();
			},
			insertAtCursor: (code) => this.editor.insertAtCursor(code),
			openTerminal: (key, terminalId) => this.openTerminal(tabOf(key), terminalId),
		};
		return pageCommandHandlers(host);
	}

	/** The user picked a sign-in method: session/new or session/prompt (chatSessions.ts) wait for this answer. */
	private authenticate(tab: ChatTab, methodId: string): void {
		const method = tab.signIn?.methods.find((m) => m.id === methodId);
		if (!method) {
			throw new Error(`${tab.agentName} offers no sign-in method "${methodId}" now.`);
		}
		this.asks.endSignIn(tab, method);
	}

	/** Shows a terminal of the tab's agent, named after the tool call that shows it. */
	private openTerminal(tab: ChatTab, terminalId: string): void {
		const call = tab.transcript.snapshot().entries.find((e) => e.kind === 'tool_call' && e.content.some((c) => c.type === 'terminal' && c.terminalId === terminalId));
		this.terminals.open(this.requireSession(tab), terminalId, `${tab.agentName}${call?.kind === 'tool_call' ? `: ${call.title.slice(0, 60)}` : ''}`);
	}

	dispose(): void {
		// The tabs close with the window, but stay in the list to open again in the next one.
		this.historyTabs.close();
		this.keyboard.dispose();
		this.pages.dispose();
		for (const key of this.tabs.keys()) {
			void this.closeTab(key);
		}
		this.disposables.forEach((d) => d.dispose());
		this.tabsEmitter.dispose();
	}
}
