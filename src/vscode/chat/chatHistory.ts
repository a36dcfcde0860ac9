/**
 * Where chat history lives: a folder in the workspace's storage (`ExtensionContext.storageUri`)
 * with `index.json` (every chat's record, newest first: read once, so the history opens at once)
 * and a file per chat with its transcript, written as it changes. Bounded by
 * `agentLink.history.maxSize`, oldest chats dropped first (src/common/chat/history.ts). The tabs
 * open in the panel are kept in workspace state, so they open again after a window reload.
 *
 * Everything read back is checked (zod): a damaged index reads as empty history and is set aside,
 * a damaged transcript as a chat that cannot be shown; neither breaks the panel.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import {
	MAX_HISTORY_RECORDS,
	bound,
	parseHistoryIndex,
	parseStoredTranscript,
	putRecord,
	serializeHistoryIndex,
	serializeTranscript,
	transcriptToMarkdown,
	type HistoryLimits,
	type HistoryRecord,
} from '../../common/chat/history';
import type { TranscriptSnapshot } from '../../common/chat/transcriptModel';
import { errorMessage, type Logger } from '../../common/log';

const OPEN_TABS_KEY = 'agentLink.chat.openTabs';
const openTabsSchema = z.object({ ids: z.array(z.string().check(z.maxLength(64))).check(z.maxLength(MAX_HISTORY_RECORDS)), selected: z.optional(z.string().check(z.maxLength(64))) });
export type OpenTabs = z.infer<typeof openTabsSchema>;

/** A new chat's id: also the name of its files. */
export function newHistoryId(): string {
	return `${Date.now().toString(36)}-${randomBytes(6).toString('hex')}`;
}

export class ChatHistory implements vscode.Disposable {
	private records: HistoryRecord[] = [];
	/** Writes run one after the other, in the order asked. */
	private queue: Promise<void> = Promise.resolve();
	private created = false;
	private readonly changeEmitter = new vscode.EventEmitter<void>();
	/** Resolves once the index has been read (empty when there is none or it was damaged). */
	readonly ready: Promise<void>;
	/** Fires when a record is added, changed or removed. */
	readonly onDidChange = this.changeEmitter.event;

	constructor(
		/** The store's folder; undefined keeps nothing (no storage). */
		private readonly folder: vscode.Uri | undefined,
		private readonly state: vscode.Memento,
		private readonly limits: () => Omit<HistoryLimits, 'maxRecords'>,
		private readonly log: Logger,
	) {
		this.ready = this.load();
	}

	/** Every chat kept, newest first (empty until {@link ready}). */
	get all(): readonly HistoryRecord[] {
		return this.records;
	}

	get(id: string): HistoryRecord | undefined {
		return this.records.find((r) => r.id === id);
	}

	/** The record of the agent's session, if a chat of it is kept. */
	findSession(agentName: string, sessionId: string): HistoryRecord | undefined {
		return this.records.find((r) => r.agentName === agentName && r.sessionId === sessionId);
	}

	private async load(): Promise<void> {
		if (!this.folder) {
			return;
		}
		let content: string;
		try {
			content = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.file('index.json')));
		} catch {
			return; // nothing stored yet
		}
		const { records, problem, dropped } = parseHistoryIndex(content);
		if (problem) {
			// Set aside rather than overwritten, so nothing is lost to a bug or a newer version.
			const aside = this.file(`index.damaged-${Date.now()}.json`);
			this.log.warn(`Chat history: ${problem}; it was moved to ${aside.path} and the history starts empty.`);
			await Promise.resolve(vscode.workspace.fs.rename(this.file('index.json'), aside, { overwrite: true })).catch(() => {});
			return;
		}
		if (dropped > 0) {
			this.log.warn(`Chat history: ${dropped} damaged or repeated record(s) in the index were left out.`);
		}
		const fitted = bound(records, this.fullLimits());
		this.records = fitted.records;
		if (fitted.dropped.length > 0) {
			void this.enqueue(async () => {
				await this.removeFiles(fitted.dropped);
				await this.writeIndex();
			});
		}
	}

	/** Reads a chat's stored transcript; undefined when it is missing or damaged. */
	async readTranscript(id: string): Promise<TranscriptSnapshot | undefined> {
		if (!this.folder || !this.get(id)) {
			return undefined;
		}
		try {
			const content = new TextDecoder().decode(await vscode.workspace.fs.readFile(this.file(`${id}.json`)));
			const snapshot = parseStoredTranscript(id, content);
			if (!snapshot) {
				this.log.warn(`Chat history: the transcript of "${this.get(id)?.title ?? id}" is damaged and cannot be shown.`);
			}
			return snapshot;
		} catch (error) {
			this.log.warn(`Chat history: the transcript of "${this.get(id)?.title ?? id}" could not be read: ${errorMessage(error)}`);
			return undefined;
		}
	}

	/**
	 * Stores a chat: its transcript, then its record (the bytes filled in), dropping the oldest
	 * chats beyond the bound. Resolves once written.
	 */
	save(record: Omit<HistoryRecord, 'bytes'>, snapshot: TranscriptSnapshot): Promise<void> {
		return this.enqueue(async () => {
			if (!this.folder) {
				return;
			}
			const content = serializeTranscript(record.id, snapshot);
			const full: HistoryRecord = { ...record, bytes: Buffer.byteLength(content) };
			const { records, dropped } = putRecord(this.records, full, this.fullLimits());
			if (dropped.some((r) => r.id === record.id)) {
				// Over the bound by itself (or the bound is 0): not kept, nor is an older copy.
				this.records = records;
				await this.removeFiles(dropped);
				await this.writeIndex();
				this.changeEmitter.fire();
				return;
			}
			await this.write(`${record.id}.json`, content);
			this.records = records;
			await this.removeFiles(dropped);
			await this.writeIndex();
			if (dropped.length > 0) {
				this.log.info(`Chat history: ${dropped.length} oldest chat(s) dropped to stay within agentLink.history.maxSize.`);
			}
			this.changeEmitter.fire();
		});
	}

	/** Forgets a chat and removes its files. */
	delete(id: string): Promise<void> {
		return this.enqueue(async () => {
			const record = this.get(id);
			if (!record) {
				return;
			}
			this.records = this.records.filter((r) => r.id !== id);
			await this.removeFiles([record]);
			await this.writeIndex();
			this.changeEmitter.fire();
		});
	}

	/** Writes a chat as Markdown beside its transcript and returns the file (for a new chat to link to). */
	async exportMarkdown(id: string): Promise<vscode.Uri | undefined> {
		const record = this.get(id);
		const snapshot = record ? await this.readTranscript(id) : undefined;
		if (!this.folder || !record || !snapshot) {
			return undefined;
		}
		const name = `${id}.md`;
		await this.enqueue(() => this.write(name, transcriptToMarkdown(snapshot, record)));
		return this.file(name);
	}

	/** The tabs open in the panel, by record id, as last kept. */
	get openTabs(): OpenTabs {
		const parsed = openTabsSchema.safeParse(this.state.get(OPEN_TABS_KEY));
		return parsed.success ? parsed.data : { ids: [] };
	}

	async setOpenTabs(tabs: OpenTabs): Promise<void> {
		const current = this.openTabs;
		if (current.selected === tabs.selected && current.ids.length === tabs.ids.length && current.ids.every((id, i) => id === tabs.ids[i])) {
			return;
		}
		await this.state.update(OPEN_TABS_KEY, tabs);
	}

	/** Resolves once every write asked for so far is done. */
	flush(): Promise<void> {
		return this.queue;
	}

	private fullLimits(): HistoryLimits {
		return { ...this.limits(), maxRecords: MAX_HISTORY_RECORDS };
	}

	private enqueue(work: () => Promise<void>): Promise<void> {
		const next = this.queue.then(work).catch((error: unknown) => this.log.error(`Chat history: writing failed: ${errorMessage(error)}`));
		this.queue = next;
		return next;
	}

	private file(name: string): vscode.Uri {
		return vscode.Uri.joinPath(this.folder!, name);
	}

	/** Written to a temporary file and renamed over the old one, so a reload mid-write leaves the old file whole. */
	private async write(name: string, content: string): Promise<void> {
		if (!this.created) {
			await vscode.workspace.fs.createDirectory(this.folder!);
			this.created = true;
		}
		const temporary = this.file(`${name}.tmp`);
		await vscode.workspace.fs.writeFile(temporary, new TextEncoder().encode(content));
		await vscode.workspace.fs.rename(temporary, this.file(name), { overwrite: true });
	}

	private async writeIndex(): Promise<void> {
		await this.write('index.json', serializeHistoryIndex(this.records));
	}

	private async removeFiles(records: readonly HistoryRecord[]): Promise<void> {
		for (const record of records) {
			for (const name of [`${record.id}.json`, `${record.id}.md`]) {
				await Promise.resolve(vscode.workspace.fs.delete(this.file(name))).catch(() => {});
			}
		}
	}

	dispose(): void {
		this.changeEmitter.dispose();
	}
}
