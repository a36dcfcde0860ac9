/**
 * The chat history as tabs: the tabs of the last window opened again (drawn from what was stored),
 * a stored chat or a session the agent keeps opened in a tab (taken up again with its agent), the
 * list of open tabs kept for the next window, a chat continued in a new one that links to its
 * transcript, and every pending write flushed at deactivation.
 *
 * Reads and writes the history store (chatHistory.ts, through tabStore.ts for a tab's record);
 * starts sessions only through sessionStart.ts and draws only through the host; it never closes a
 * tab or changes a transcript beyond a listed session's title.
 */
import type { HistoryRecord } from '../../common/chat/history';
import type { Tab } from '../../common/chat/messages';
import type { ListedSession } from '../../common/chat/updates';
import { errorMessage } from '../../common/log';
import type { AgentRole } from '../agentPool';
import type { ExtensionLog } from '../log';
import type { ChatHistory } from './chatHistory';
import { ChatTab } from './chatTab';
import type { SessionStart } from './sessionStart';
import type { TabList } from './tabList';
import { storedTab, type TabSaver } from './tabStore';

export interface HistoryTabsHost {
	readonly history: ChatHistory;
	readonly tabs: TabList;
	readonly log: ExtensionLog;
	readonly saver: TabSaver;
	readonly agents: AgentRole;
	readonly sessions: SessionStart;
	newChat(options: { agentName?: string; cwd?: string; seed?: Tab['seed'] }): Promise<string | undefined>;
	select(key: string): void;
	broadcastState(): void;
}

export class HistoryTabs {
	/** The tabs of the last window are not back yet: the list kept for them must not be overwritten. */
	private restoring = true;
	private closing = false;

	constructor(private readonly host: HistoryTabsHost) {}

	/** Opens the tabs of the last window again, drawn from the history (they go on with their agents when used). */
	async restore(): Promise<void> {
		const { history, tabs } = this.host;
		try {
			await history.ready;
			const { ids, selected } = history.openTabs;
			for (const id of ids) {
				const record = history.get(id);
				if (record && !this.closing && !tabs.ofHistory(id)) {
					const tab = await this.addStoredTab(record);
					if (id === selected && tabs.selected === undefined) {
						tabs.selected = tab.key;
					}
				}
			}
			tabs.selected ??= tabs.keys()[0];
		} finally {
			this.restoring = false;
		}
		if (tabs.size > 0) {
			this.host.log.info(`Chat: ${tabs.size} tab(s) of the last window open again.`);
			this.host.broadcastState();
		}
	}

	/**
	 * Opens a stored chat in a tab (or selects its tab), drawn at once from the history, and takes
	 * it up again with its agent (`session/resume` or `session/load`) when the agent can; otherwise
	 * it is read-only. Resolves with the tab's key.
	 */
	async openFromHistory(id: string): Promise<string> {
		const open = this.host.tabs.ofHistory(id);
		if (open) {
			if (open.state === 'stored') {
				void this.host.sessions.continueTab(open);
			}
			this.host.select(open.key);
			return open.key;
		}
		const record = this.host.history.get(id);
		if (!record) {
			throw new Error('That chat is no longer in the history.');
		}
		const tab = await this.addStoredTab(record);
		this.host.tabs.selected = tab.key;
		this.host.broadcastState();
		if (tab.state === 'stored') {
			void this.host.sessions.continueTab(tab);
		}
		return tab.key;
	}

	/** Opens a session the agent keeps (`session/list`): the stored chat of it when there is one, else a tab that loads or resumes it. */
	async openListed(agentName: string, listed: ListedSession): Promise<string> {
		const record = this.host.history.findSession(agentName, listed.sessionId);
		if (record) {
			return this.openFromHistory(record.id);
		}
		const tabs = this.host.tabs;
		const open = tabs.values().find((t) => t.agentName === agentName && (t.session?.sessionId ?? t.stored?.sessionId) === listed.sessionId);
		if (open) {
			this.host.select(open.key);
			return open.key;
		}
		const tab = new ChatTab(tabs.newKey(), agentName, listed.cwd);
		tab.stored = { sessionId: listed.sessionId, continueWith: undefined };
		if (typeof listed.title === 'string') {
			tab.transcript.update({ sessionUpdate: 'session_info_update', title: listed.title });
		}
		tabs.add(tab);
		tabs.selected = tab.key;
		this.host.broadcastState();
		void this.host.sessions.continueTab(tab);
		return tab.key;
	}

	/** A tab for a stored chat, its transcript read from the history (the tab of that chat when one was opened meanwhile). */
	private async addStoredTab(record: HistoryRecord): Promise<ChatTab> {
		const tabs = this.host.tabs;
		const tab = await storedTab(tabs.newKey(), record, this.host.history);
		const existing = tabs.ofHistory(record.id);
		if (existing) {
			return existing; // opened meanwhile
		}
		tabs.add(tab);
		return tab;
	}

	/**
	 * A new chat with the tab's agent (the default one if it is gone) in its folder, its input
	 * holding a link to the tab's transcript (written out as Markdown) for the agent to read.
	 */
	async continueInNewChat(key: string): Promise<string | undefined> {
		const tab = this.host.tabs.require(key);
		await this.host.saver.now(tab);
		const file = await this.host.history.exportMarkdown(tab.historyId);
		const title = tab.transcript.snapshot().session.title ?? 'an earlier chat';
		const text = `Let us go on from the earlier chat "${title}"${file ? '; its transcript is attached' : ''}. `;
		return this.host.newChat({
			...(this.host.agents.findChoice(tab.agentName) ? { agentName: tab.agentName } : {}),
			cwd: tab.cwd,
			seed: { text, attachments: file ? [{ type: 'file', path: file.fsPath }] : [] },
		});
	}

	/** Keeps the list of open tabs (and the selected one) for the next window. */
	keepOpenTabs(): void {
		if (this.restoring || this.closing) {
			return;
		}
		const tabs = this.host.tabs.values();
		const selected = this.host.tabs.get(this.host.tabs.selected)?.historyId;
		void this.host.history.setOpenTabs({ ids: tabs.map((t) => t.historyId), ...(selected !== undefined ? { selected } : {}) }).catch((error: unknown) => this.host.log.warn(`Chat: the open tabs could not be kept: ${errorMessage(error)}`));
	}

	/** Writes every tab with changes not yet stored, and waits for the history's writes (deactivation). */
	async flush(): Promise<void> {
		await Promise.all(this.host.tabs.values().filter((t) => t.saveTimer !== undefined).map((t) => this.host.saver.now(t)));
		await this.host.history.flush();
	}

	/** The window is closing: its tabs close, but stay in the list to open again in the next one. */
	close(): void {
		this.closing = true;
	}
}
