/**
 * Chat tabs to and from the history: a tab's transcript and record written a little after it
 * changes (at once when a turn ends), never unchanged or empty; a stored chat read back into a
 * tab. Knows the history store (chatHistory.ts) and the tab's state, nothing of the pages or of
 * the agents' sessions beyond what the record says.
 */
import type { HistoryRecord } from '../../common/chat/history';
import { Transcript } from '../../common/chat/transcript';
import type { ChatHistory } from './chatHistory';
import { ChatTab } from './chatTab';
import { sessionAbilities } from './sessionAbilities';

/** How often a changing transcript is written to the history at most (a turn's end is written at once). */
const SAVE_INTERVAL_MS = 2000;
/** The same while an answer streams: the whole transcript is written each time, and the turn's end comes soon. */
const SAVE_INTERVAL_STREAMING_MS = 10_000;

export class TabSaver {
	constructor(private readonly history: ChatHistory) {}

	/** Writes the tab to the history soon (at once with `now`); a tab with nothing in it yet is not kept. */
	soon(tab: ChatTab, now = false): void {
		if (now) {
			void this.now(tab);
			return;
		}
		tab.saveTimer ??= setTimeout(() => void this.now(tab), tab.session?.status.kind === 'prompting' ? SAVE_INTERVAL_STREAMING_MS : SAVE_INTERVAL_MS);
	}

	/** Writes the tab to the history now, unless it is empty or unchanged since it was last written. */
	async now(tab: ChatTab): Promise<void> {
		if (tab.saveTimer) {
			clearTimeout(tab.saveTimer);
			tab.saveTimer = undefined;
		}
		const transcript = tab.transcript;
		if (transcript.size === 0 || (tab.saved?.transcript === transcript && tab.saved.revision === transcript.revision && tab.saved.files === tab.changedFiles.size)) {
			return;
		}
		tab.saved = { transcript, revision: transcript.revision, files: tab.changedFiles.size };
		const snapshot = transcript.snapshot();
		const sessionId = tab.session?.sessionId ?? tab.stored?.sessionId;
		const continueWith = tab.session ? sessionAbilities(tab.session.agent).continueWith : tab.stored?.continueWith;
		const title = snapshot.session.title;
		await this.history.save(
			{
				id: tab.historyId,
				agentName: tab.agentName,
				...(sessionId !== undefined ? { sessionId } : {}),
				cwd: tab.cwd,
				...(title !== undefined ? { title } : {}),
				createdAt: tab.createdAt,
				updatedAt: Date.now(),
				entries: snapshot.entries.length,
				changedFiles: [...tab.changedFiles],
				...(continueWith ? { continueWith } : {}),
			},
			snapshot,
		);
	}
}

/**
 * A tab (`key`) for a stored chat, its transcript read from the history: `stored` when its agent
 * can take it up again (`session/resume` or `session/load`), else read-only, saying why.
 */
export async function storedTab(key: string, record: HistoryRecord, history: ChatHistory): Promise<ChatTab> {
	const tab = new ChatTab(key, record.agentName, record.cwd);
	tab.historyId = record.id;
	tab.createdAt = record.createdAt;
	tab.stored = { sessionId: record.sessionId, continueWith: record.continueWith };
	record.changedFiles.forEach((file) => tab.changedFiles.add(file));
	const snapshot = await history.readTranscript(record.id);
	if (snapshot) {
		tab.transcript = Transcript.restore(snapshot);
		tab.saved = { transcript: tab.transcript, revision: tab.transcript.revision, files: tab.changedFiles.size };
	}
	if (record.sessionId !== undefined && record.continueWith) {
		tab.state = 'stored';
		tab.detail = snapshot ? undefined : 'The stored transcript could not be read; the conversation can still go on.';
	} else {
		tab.state = 'read_only';
		tab.detail = `${record.agentName} cannot take a conversation up again (it offers neither session/resume nor session/load).`;
	}
	return tab;
}
