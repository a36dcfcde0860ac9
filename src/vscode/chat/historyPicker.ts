/**
 * **Agent Link: Chat History…**: a quick pick of the stored chats (chatHistory.ts), newest first,
 * each with its title, how long ago, its agent and folder, searched by title; joined by the
 * sessions running agents keep (`session/list`, a page at a time: "More from …" asks for the next
 * with the cursor). Picking one opens it (`ChatController.openFromHistory`, `openListed`); the
 * trash button forgets it, and deletes it on the agent too when it offers `session/delete`.
 */
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { historyNotes, parseTime, relativeTime, type HistoryRecord } from '../../common/chat/history';
import type { ListedSession } from '../../common/chat/updates';
import { errorMessage } from '../../common/log';
import type { ReadyAgent } from '../agentManager';
import type { AgentPool } from '../agentPool';
import type { ExtensionLog } from '../log';
import type { ChatController } from './chatController';
import type { ChatHistory } from './chatHistory';
import type { ChatSessionManager } from './chatSessionManager';
import { sessionAbilities } from './sessionAbilities';

/** What an item of the picker stands for. */
export type HistoryItem = vscode.QuickPickItem &
	(
		| { readonly source: 'record'; readonly record: HistoryRecord; readonly listedBy?: ReadyAgent }
		| { readonly source: 'listed'; readonly agent: ReadyAgent; readonly session: ListedSession; readonly updatedAt: number }
		| { readonly source: 'more'; readonly agent: ReadyAgent; readonly cursor: string }
	);

const DELETE: vscode.QuickInputButton = { iconPath: new vscode.ThemeIcon('trash'), tooltip: 'Delete' };

export class HistoryPicker {
	/** Milliseconds from the command to the picker shown with the stored chats, the last time (benchmarks). */
	lastShownMs: number | undefined;

	constructor(
		private readonly history: ChatHistory,
		private readonly controller: ChatController,
		private readonly chat: ChatSessionManager,
		private readonly pool: AgentPool,
		private readonly log: ExtensionLog,
	) {}

	/** Shows the picker; resolves with the key of the tab opened, or undefined when dismissed. */
	async show(): Promise<string | undefined> {
		const started = performance.now();
		await this.history.ready;
		const picker = vscode.window.createQuickPick<HistoryItem>();
		picker.title = 'Agent Link: Chat History';
		picker.placeholder = 'Search chats by title';
		picker.matchOnDescription = false;
		picker.matchOnDetail = false;
		const listed = new Map<string, { readonly agent: ReadyAgent; sessions: ListedSession[]; cursor?: string }>();
		const refresh = () => {
			picker.items = this.items(listed);
		};
		refresh();
		picker.show();
		this.lastShownMs = performance.now() - started;
		this.log.debug(`Chat history shown with ${this.history.all.length} stored chat(s) in ${this.lastShownMs.toFixed(1)} ms.`);

		const listers = this.listers();
		const fetchPage = async (agent: ReadyAgent, cursor?: string) => {
			picker.busy = true;
			try {
				const page = await this.chat.listSessions(agent, { ...cwdFilter(), ...(cursor !== undefined ? { cursor } : {}) });
				const entry = listed.get(agent.name) ?? { agent, sessions: [] };
				entry.sessions.push(...page.sessions);
				entry.cursor = page.nextCursor;
				listed.set(agent.name, entry);
				refresh();
			} catch (error) {
				this.log.warn(`Chat history: ${agent.name} could not list its sessions: ${errorMessage(error)}`);
			} finally {
				picker.busy = false;
			}
		};
		void Promise.all(listers.map((agent) => fetchPage(agent)));

		const disposables: vscode.Disposable[] = [];
		const result = await new Promise<HistoryItem | undefined>((resolve) => {
			disposables.push(
				picker.onDidAccept(() => {
					const item = picker.selectedItems[0];
					if (item?.source === 'more') {
						const entry = listed.get(item.agent.name);
						if (entry) {
							entry.cursor = undefined;
						}
						void fetchPage(item.agent, item.cursor);
						return;
					}
					resolve(item);
					picker.hide();
				}),
				picker.onDidTriggerItemButton(async (event) => {
					await this.delete(event.item, listed);
					refresh();
				}),
				picker.onDidHide(() => resolve(undefined)),
			);
		});
		disposables.forEach((d) => d.dispose());
		picker.dispose();
		if (!result || result.source === 'more') {
			return undefined;
		}
		try {
			const key = result.source === 'record' ? await this.controller.openFromHistory(result.record.id) : await this.controller.openListed(result.agent.name, result.session);
			await this.controller.showTab(key);
			return key;
		} catch (error) {
			void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
			return undefined;
		}
	}

	/** Running agents that list their sessions. */
	private listers(): ReadyAgent[] {
		return this.pool.agents.map((m) => m.readyAgent).filter((agent): agent is ReadyAgent => agent !== undefined && sessionAbilities(agent).list);
	}

	/**
	 * The picker's items: stored chats and the sessions agents listed (one item when both are the
	 * same session), newest first, then a "More from …" item per agent with another page.
	 */
	items(listed: ReadonlyMap<string, { readonly agent: ReadyAgent; readonly sessions: readonly ListedSession[]; readonly cursor?: string }> = new Map()): HistoryItem[] {
		const now = Date.now();
		const items: (HistoryItem & { readonly time: number })[] = [];
		const byRecord = new Map<string, ReadyAgent>();
		for (const { agent, sessions } of listed.values()) {
			const seen = new Set<string>();
			for (const session of sessions) {
				if (seen.has(session.sessionId)) {
					continue;
				}
				seen.add(session.sessionId);
				const record = this.history.findSession(agent.name, session.sessionId);
				if (record) {
					byRecord.set(record.id, agent);
					continue;
				}
				const updatedAt = parseTime(session.updatedAt ?? undefined) ?? 0;
				items.push({
					source: 'listed',
					agent,
					session,
					updatedAt,
					time: updatedAt,
					label: oneLine(session.title ?? '') || 'Untitled session',
					description: [updatedAt ? relativeTime(updatedAt, now) : undefined, agent.name].filter(Boolean).join(' · '),
					detail: `$(folder) ${folderText(session.cwd)} · kept by ${agent.name}`,
					...(sessionAbilities(agent).delete ? { buttons: [DELETE] } : {}),
				});
			}
		}
		// The open tabs by their record: a chat open in a tab is read-only only when that tab is.
		const open = new Map(this.controller.tabKeys.map((key) => this.controller.tab(key)).flatMap((tab) => (tab ? [[tab.historyId, { readOnly: tab.state === 'read_only' }] as const] : [])));
		for (const record of this.history.all) {
			const listedBy = byRecord.get(record.id);
			const notes = historyNotes(record, { ...(open.has(record.id) ? { open: open.get(record.id)! } : {}), ...(listedBy ? { listedBy: listedBy.name } : {}) });
			items.push({
				source: 'record',
				record,
				...(listedBy ? { listedBy } : {}),
				time: record.updatedAt,
				label: oneLine(record.title ?? '') || 'Untitled chat',
				description: `${relativeTime(record.updatedAt, now)} · ${record.agentName}`,
				detail: [`$(folder) ${folderText(record.cwd)}`, ...notes].join(' · '),
				buttons: [DELETE],
			});
		}
		items.sort((a, b) => b.time - a.time);
		const result: HistoryItem[] = items;
		for (const { agent, cursor } of listed.values()) {
			if (cursor !== undefined) {
				result.push({ source: 'more', agent, cursor, label: `$(ellipsis) More from ${agent.name}…`, alwaysShow: true });
			}
		}
		return result;
	}

	/** Forgets a chat (its tab closes), and deletes the agent's session when the agent offers `session/delete`. */
	private async delete(item: HistoryItem, listed: Map<string, { readonly agent: ReadyAgent; sessions: ListedSession[]; cursor?: string }>): Promise<void> {
		if (item.source === 'more') {
			return;
		}
		try {
			const agent = item.source === 'listed' ? item.agent : item.listedBy;
			const sessionId = item.source === 'listed' ? item.session.sessionId : item.record.sessionId;
			if (item.source === 'record') {
				await this.deleteRecord(item.record);
			} else {
				await this.deleteListed(item.agent, item.session.sessionId);
			}
			const entry = agent ? listed.get(agent.name) : undefined;
			if (entry) {
				entry.sessions = entry.sessions.filter((s) => s.sessionId !== sessionId);
			}
		} catch (error) {
			void vscode.window.showErrorMessage(`Agent Link: deleting "${item.label}" failed: ${errorMessage(error)}`);
		}
	}

	/** Forgets a stored chat (its tab closes); its agent forgets the session too when it runs and offers `session/delete`. */
	async deleteRecord(record: HistoryRecord): Promise<void> {
		const tab = this.controller.tabKeys.find((key) => this.controller.tab(key)?.historyId === record.id);
		if (tab !== undefined) {
			await this.controller.closeTab(tab);
		}
		await this.history.delete(record.id);
		const agent = this.pool.get(record.agentName)?.readyAgent;
		const onAgent = agent !== undefined && record.sessionId !== undefined && sessionAbilities(agent).delete;
		if (onAgent) {
			await this.chat.deleteSession(agent, record.sessionId!);
		}
		this.log.info(`Chat history: deleted "${record.title ?? record.id}"${onAgent ? ` (and ${record.agentName}'s session)` : ''}.`);
	}

	/** `session/delete` of a session only the agent keeps. */
	async deleteListed(agent: ReadyAgent, sessionId: string): Promise<void> {
		if (!sessionAbilities(agent).delete) {
			throw new Error(`${agent.name} cannot delete its sessions.`);
		}
		await this.chat.deleteSession(agent, sessionId);
		this.log.info(`Chat history: ${agent.name} deleted its session ${sessionId}.`);
	}
}

/** `session/list` in the workspace's folder, when it has exactly one. */
function cwdFilter(): { cwd?: string } {
	const folders = vscode.workspace.workspaceFolders ?? [];
	return folders.length === 1 ? { cwd: folders[0]!.uri.fsPath } : {};
}

/** A folder as the picker shows it: by its workspace folder's name when in one, else relative to the home folder when inside it. */
function folderText(folder: string): string {
	const uri = vscode.Uri.file(folder);
	const workspaceFolder = vscode.workspace.getWorkspaceFolder(uri);
	if (workspaceFolder) {
		const relative = path.relative(workspaceFolder.uri.fsPath, folder);
		return relative === '' ? workspaceFolder.name : `${workspaceFolder.name}${path.sep}${relative}`;
	}
	const home = os.homedir();
	return folder === home ? '~' : folder.startsWith(`${home}${path.sep}`) ? `~${folder.slice(home.length)}` : folder;
}

/** On one line, and with `$(` escaped: a title is shown as written, never as an icon. */
function oneLine(text: string): string {
	return text.replace(/\s+/g, ' ').trim().replace(/\$\(/g, '\\$(');
}
