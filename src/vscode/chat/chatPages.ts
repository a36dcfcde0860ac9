/**
 * The connected chat pages (the chat view, chats opened in editors) and the state they draw: a
 * page attached, its messages received (requests answered here, commands handed to the page
 * command handlers), the whole state sent when it asks (`chat/getState`) or when the tabs change,
 * and each transcript's changes as patches batched to about one per animation frame (per-page
 * revisions in common/chat/pageRevisions.ts); which page gets the keyboard (the rule in
 * common/chat/pageFocus.ts) and when a page that did not load is loaded again
 * (common/chat/pageLoadWatch.ts).
 *
 * Reads the tabs and their transcripts, never changes them; starts no session and writes nothing
 * to the history.
 */
import * as vscode from 'vscode';
import {
	HostNotifications,
	PageLifecycle,
	PageRequests,
	decodePageMessage,
	encodeError,
	encodeNotification,
	encodeResult,
	type AgentInfo,
	type AgentStatus,
	type Attachment,
	type ChatState,
	type Mention,
	type ParamsOf,
	type WireMessage,
} from '../../common/chat/messages';
import { FocusPending, fromReplacedLoad } from '../../common/chat/pageFocus';
import { runPageCommand, type PageCommandHandlers } from '../../common/chat/pageCommands';
import { CHAT_PAGE_LOAD, PageLoadWatch } from '../../common/chat/pageLoadWatch';
import { PageRevisions } from '../../common/chat/pageRevisions';
import type { Transcript } from '../../common/chat/transcript';
import { errorMessage } from '../../common/log';
import type { AgentState } from '../agentManager';
import type { AgentPool, AgentRole } from '../agentPool';
import type { ExtensionLog } from '../log';
import type { ChatSession } from './chatSessions';
import type { TabList } from './tabList';
import type { TerminalSnapshot } from './terminals';

/** How long updates are gathered before a patch goes to the pages: about one animation frame. */
export const PATCH_INTERVAL_MS = 16;

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

/** A connected page: the chat view or a chat in an editor. */
interface Page {
	readonly webview: vscode.Webview;
	readonly isVisible: () => boolean;
	readonly currentLoad: () => string | undefined;
	/** The transcript this page has, and at which revision, per tab; empty until it asked for the state. */
	readonly revisions: PageRevisions<Transcript>;
	/** Whether it loaded and asked for the state since it was last shown ({@link PageLoadWatch.loaded}). */
	readonly watch: PageLoadWatch;
}

/** What the pages need from the rest of the chat. */
export interface PagesHost {
	readonly log: ExtensionLog;
	readonly tabs: TabList;
	readonly agents: AgentRole;
	readonly pool: AgentPool;
	/** What the page's commands do. */
	readonly commands: PageCommandHandlers;
	/** The terminals of a session, as they are now. */
	terminals(session: ChatSession): TerminalSnapshot[];
	/** The page's requests of the editor (editorRequests.ts). */
	activeEditorAttachment(): Attachment | null;
	searchMentions(query: string): Promise<Mention[]>;
	suggestContext(text: string): Promise<Mention[]>;
	/** The state went out: tabs opened, closed or changed. */
	stateChanged(): void;
	/** A page got the keyboard (`chat/pageFocused`). */
	keyboardTaken(): void;
}

export class ChatPages implements vscode.Disposable {
	private readonly pages = new Set<Page>();
	private flushTimer: ReturnType<typeof setTimeout> | undefined;
	/** Focus was asked for before any page could take it. */
	private readonly focusPending = new FocusPending();

	constructor(private readonly host: PagesHost) {}

	/** Whether a chat page is on screen. */
	get visible(): boolean {
		return [...this.pages].some((p) => p.isVisible());
	}

	/**
	 * Connects a page; its messages are handled until the returned disposable is disposed. A page
	 * that is hidden loses its content (it is not retained), so it gets nothing more until it has
	 * loaded again and asked for the state. A page on screen that has not asked for it within
	 * {@link CHAT_PAGE_LOAD}'s time (a webview that failed to load stays blank) is loaded again with
	 * `reload`, up to its `maxReloads` times per showing, each load given twice as long as the one before.
	 */
	attach({ webview, isVisible, onDidChangeVisibility, reload, currentLoad }: PageHost): vscode.Disposable {
		const watch = new PageLoadWatch({
			...CHAT_PAGE_LOAD,
			reload: (_attempt, waitedMs) => {
				this.host.log.warn(`Chat: the chat page did not load within ${waitedMs / 1000} s; loading it again.`);
				reload();
			},
			gaveUp: () => this.host.log.error(`Chat: the chat page did not load in ${CHAT_PAGE_LOAD.maxReloads + 1} tries; close the view and open it again.`),
		});
		const page: Page = { webview, isVisible, currentLoad, revisions: new PageRevisions(), watch };
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
			this.host.log.warn(`Chat page sent an invalid message: ${message.error}`);
			if (message.id !== undefined) {
				void page.webview.postMessage(encodeError(message.id, message.error));
			}
			return;
		}
		if (message.kind === 'request') {
			void this.answer(page, message.id, message.method, message.params);
			return;
		}
		if (message.method === PageLifecycle.started.method) {
			// Its document arrived: the webview is there and its script on the way (a late word from a
			// document replaced since says nothing of the one that replaced it).
			if (!fromReplacedLoad(message.params.load, page.currentLoad())) {
				this.host.log.debug('Chat page started (its document arrived; its script on the way).');
				page.watch.started();
			}
			return;
		}
		if (message.method === PageLifecycle.focused.method) {
			this.host.keyboardTaken();
			return;
		}
		runPageCommand(this.host.commands, message.method, message.params).catch((error: unknown) => {
			this.host.log.error(`Chat: ${message.method} failed: ${errorMessage(error)}`);
			this.notice('error', errorMessage(error), 'sessionKey' in (message.params as object) ? (message.params as { sessionKey: string }).sessionKey : undefined);
		});
	}

	private async answer(page: Page, id: number, method: string, params: unknown): Promise<void> {
		if (method === PageRequests.getState.method) {
			this.answerState(page, id, params as ParamsOf<typeof PageRequests.getState>);
			return;
		}
		let reply: WireMessage;
		try {
			switch (method) {
				case PageRequests.activeEditorAttachment.method:
					reply = encodeResult(PageRequests.activeEditorAttachment, id, { attachment: this.host.activeEditorAttachment() });
					break;
				case PageRequests.searchMentions.method: {
					const { query } = params as ParamsOf<typeof PageRequests.searchMentions>;
					reply = encodeResult(PageRequests.searchMentions, id, { items: await this.host.searchMentions(query) });
					break;
				}
				case PageRequests.suggestContext.method: {
					const { text } = params as ParamsOf<typeof PageRequests.suggestContext>;
					reply = encodeResult(PageRequests.suggestContext, id, { items: await this.host.suggestContext(text) });
					break;
				}
				default:
					reply = encodeError(id, `Unknown request ${method}`);
			}
		} catch (error) {
			reply = encodeError(id, errorMessage(error));
		}
		void page.webview.postMessage(reply);
	}

	/** The page loaded and asks for the whole state; the terminals and focus waiting for it follow. */
	private answerState(page: Page, id: number, { load }: ParamsOf<typeof PageRequests.getState>): void {
		if (fromReplacedLoad(load, page.currentLoad())) {
			// Sent before the page was loaded again (its load watch gave up waiting): that
			// document is gone. Answered, it would mark the new one loaded and take its focus.
			this.host.log.debug('Chat: a state request from a page loaded again since; not answered.');
			return;
		}
		let reply: WireMessage;
		// A page on screen asks again once loaded only when its transcript is out of step: the user may
		// be typing there, so focus held for the next load is not its to take.
		const newLoad = !page.watch.loaded;
		try {
			if (newLoad) {
				this.host.log.debug(`Chat page loaded (${this.pages.size} page(s) attached).`);
			} else {
				this.host.log.debug('Chat page asked for the whole state again (its transcript out of step).');
			}
			page.watch.markLoaded();
			reply = encodeResult(PageRequests.getState, id, this.stateFor(page, true));
		} catch (error) {
			reply = encodeError(id, errorMessage(error));
		}
		void page.webview.postMessage(reply);
		// Terminals are not in the state: each comes after it, as it is now.
		for (const tab of this.host.tabs.values()) {
			for (const terminal of tab.session ? this.host.terminals(tab.session) : []) {
				void page.webview.postMessage(encodeNotification(HostNotifications.didUpdateTerminal, { sessionKey: tab.key, ...terminal }));
			}
		}
		if (this.focusPending.takeOnLoad(page.isVisible(), newLoad)) {
			void page.webview.postMessage(this.focusMessage());
		}
	}

	// --- Focus ---

	/**
	 * The one page on screen that loaded, when there is exactly one, is asked to move the keyboard
	 * to its input only if it has it (it answers `showChat` when it has not); whether there was one.
	 */
	focusIfFocused(): boolean {
		const shown = this.ready();
		if (shown.length !== 1) {
			return false;
		}
		this.focusPending.given();
		void shown[0]!.webview.postMessage(this.focusMessage(true));
		return true;
	}

	/** Moves focus to the selected tab's input in the visible pages (or the next page to load, when none is ready yet). */
	focusInput(): void {
		const visible = this.ready();
		this.focusPending.asked(visible.length);
		for (const page of visible) {
			void page.webview.postMessage(this.focusMessage());
		}
	}

	/** The pages that loaded and are on screen. */
	private ready(): Page[] {
		return [...this.pages].filter((p) => p.watch.loaded && p.isVisible());
	}

	private focusMessage(ifFocused = false): WireMessage {
		const selected = this.host.tabs.selected;
		return encodeNotification(HostNotifications.focusInput, { ...(selected !== undefined ? { sessionKey: selected } : {}), ...(ifFocused ? { ifFocused } : {}) });
	}

	// --- State to the pages ---

	/** A notice in the pages (in the tab `sessionKey`'s chat when given). */
	notice(severity: 'info' | 'warning' | 'error', message: string, sessionKey?: string): void {
		this.post(encodeNotification(HostNotifications.didShowNotice, { severity, message, ...(sessionKey !== undefined ? { sessionKey } : {}) }));
	}

	/** A transcript changed: its patch goes out with the next frame's. */
	flushSoon(): void {
		this.flushTimer ??= setTimeout(() => this.flush(), PATCH_INTERVAL_MS);
	}

	/** Sends each page what changed in each tab since the revision it has. */
	private flush(): void {
		this.flushTimer = undefined;
		for (const page of this.pages) {
			if (!page.watch.loaded) {
				continue;
			}
			for (const tab of this.host.tabs.values()) {
				// A transcript the page does not have (a reset one) comes whole with the next state.
				const from = page.revisions.patchFrom(tab.key, tab.transcript);
				if (from !== undefined) {
					void page.webview.postMessage(encodeNotification(HostNotifications.didPatchTranscript, { sessionKey: tab.key, patch: tab.transcript.changesSince(from) }));
				}
			}
		}
	}

	/** The tabs changed: every loaded page gets the state (the transcripts it does not have at their revision). */
	broadcastState(): void {
		this.host.stateChanged();
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
		const tabs = this.host.tabs;
		const transcripts: ChatState['transcripts'] = {};
		for (const key of page.revisions.forState([...tabs.entries()].map(([k, t]) => [k, t.transcript] as const), all)) {
			transcripts[key] = tabs.require(key).transcript.snapshot();
		}
		const defaultAgent = this.host.agents.currentChoice?.name;
		return {
			tabs: tabs.values().map((t) => t.toWire()),
			...(tabs.selected !== undefined ? { selected: tabs.selected } : {}),
			agents: this.agentInfos(),
			...(defaultAgent !== undefined ? { defaultAgent } : {}),
			transcripts,
		};
	}

	private agentInfos(): AgentInfo[] {
		return this.host.agents.choices().map((choice) => {
			const state = this.host.pool.get(choice.name)?.state ?? { kind: 'stopped' };
			return { id: choice.name, name: choice.name, status: statusOf(state), ...('message' in state ? { detail: state.message } : {}) };
		});
	}

	/** Sends `message` to every loaded page. */
	post(message: WireMessage): void {
		for (const page of this.pages) {
			if (page.watch.loaded) {
				void page.webview.postMessage(message);
			}
		}
	}

	dispose(): void {
		if (this.flushTimer) {
			clearTimeout(this.flushTimer);
		}
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
