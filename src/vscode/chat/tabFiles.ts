/**
 * The files the agents read and change, as their chat tabs show them: each write recorded for the
 * review (review.ts; the text before the turn when a turn runs, turnChanges.ts) and for the
 * history; follow mode showing where the agent reads or edits; the tab's list of changed files
 * kept current; the turns with a checkpoint and Undo this turn's question and answer
 * (checkpoints.ts).
 *
 * Changes only a tab's file state (`changes`, `turns`, `undoAsk`, `changedFiles`); draws through
 * the host, and never touches a transcript, a session or the pages.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { noteTurnChanges, noteWrite } from '../../common/chat/history';
import type { FileChange } from '../../common/chat/turnFiles';
import { errorMessage } from '../../common/log';
import type { ExtensionLog } from '../log';
import type { Checkpoints } from './checkpoints';
import type { ChatTab } from './chatTab';
import type { FileAccessFeature } from './fileAccess';
import { openLocation } from './pageCommandHandlers';
import { recordedChange, type AgentChanges } from './review';
import type { TabList } from './tabList';
import type { TabSaver } from './tabStore';
import type { TurnChanges } from './turnChanges';

/** The agents' file reads and writes, the review of their changes, and what each turn changed. */
export interface ChatFiles {
	readonly access: FileAccessFeature;
	readonly changes: AgentChanges;
	readonly turns?: TurnChanges;
	readonly checkpoints?: Checkpoints;
}

export interface TabFilesHost {
	readonly tabs: TabList;
	readonly log: ExtensionLog;
	readonly saver: TabSaver;
	broadcastState(): void;
}

export class TabFiles implements vscode.Disposable {
	private readonly disposables: vscode.Disposable[] = [];
	/** The reading of the changed files under way, and whether the list changed since it began. */
	private changesReading: Promise<void> | undefined;
	private changesStale = false;

	constructor(
		private readonly host: TabFilesHost,
		private readonly files: ChatFiles | undefined,
	) {
		if (!files) {
			return;
		}
		this.disposables.push(
			files.access.onDidWrite((write) => {
				const tab = host.tabs.ofSession(write.agentName, write.sessionId);
				if (tab) {
					// The review's text before is the file's before the turn, when a turn runs (the agent may have written it itself first).
					const before = files.turns?.noteWrite(tab.key, write);
					files.changes.record(tab.key, before ? recordedChange(write.uri, before) : write);
					noteWrite(tab.changedFiles, { path: write.uri.fsPath, before: write.before, after: write.after });
				}
			}),
			files.access.onDidTouch((event) => {
				const tab = host.tabs.ofSession(event.agentName, event.sessionId);
				if (tab?.follow) {
					files.access.showing(event.uri);
					void this.follow(event.uri, event.line);
				}
			}),
			files.changes.onDidChange(() => void this.refreshChanges()),
			...(files.checkpoints ? [files.checkpoints.onDidChange((key) => this.refreshTurns(key))] : []),
		);
	}

	/** Follow mode: shows where the agent reads or edits, without taking the focus from the chat. */
	private async follow(uri: vscode.Uri, line: number | undefined): Promise<void> {
		try {
			const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
			await vscode.window.showTextDocument(uri, { preview: true, preserveFocus: true, ...(line !== undefined ? { selection: new vscode.Range(position, position) } : {}) });
		} catch (error) {
			this.host.log.debug(`Follow mode could not show ${uri.fsPath}: ${errorMessage(error)}`);
		}
	}

	/**
	 * One reading of the changed files at a time: a reading still awaiting the files' text when the
	 * list changes again would otherwise finish after the newer one and draw its older counts. A change
	 * meanwhile reads again once the running reading is done.
	 */
	private refreshChanges(): Promise<void> {
		if (this.changesReading) {
			this.changesStale = true;
			return this.changesReading;
		}
		this.changesReading = (async () => {
			try {
				do {
					this.changesStale = false;
					await this.readChanges();
				} while (this.changesStale);
			} finally {
				this.changesReading = undefined;
			}
		})();
		return this.changesReading;
	}

	private async readChanges(): Promise<void> {
		if (!this.files) {
			return;
		}
		let changed = false;
		for (const tab of this.host.tabs.values()) {
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
			this.host.broadcastState();
		}
	}

	/** Undo this turn's button: the turns of chat `key` with a checkpoint; the history keeps the files they changed. */
	private refreshTurns(key: string): void {
		const tab = this.host.tabs.get(key);
		if (tab && this.files?.checkpoints) {
			tab.turns = this.files.checkpoints.turns(key);
			this.host.broadcastState();
			this.host.saver.soon(tab);
		}
	}

	/** A turn of the tab begins: the files it changes are copied first (turnChanges.ts). */
	async beginTurn(tab: ChatTab): Promise<void> {
		await this.files?.turns?.begin(tab.key);
	}

	/** The turn is over: what it changed. */
	endTurn(tab: ChatTab): Promise<FileChange[] | undefined> {
		return this.files?.turns?.end(tab.key) ?? Promise.resolve(undefined);
	}

	/** A checkpoint for the turn whose end was just drawn (turnChanges.ts found what it changed): Undo this turn on it. */
	checkpoint(tab: ChatTab, changes: FileChange[] | undefined): void {
		noteTurnChanges(tab.changedFiles, changes ?? []);
		const end = tab.transcript.snapshot().entries.at(-1);
		if (changes && end?.kind === 'turn_end') {
			this.files?.checkpoints?.add(tab.key, end.id, changes);
		}
	}

	/** Undo this turn: the chat shows what it would do, and waits for the user's answer (`chat/answerUndoTurn`). */
	async askUndo(tab: ChatTab, turnId: number | undefined): Promise<void> {
		const question = await this.files?.checkpoints?.ask(tab.key, turnId);
		if (question) {
			tab.undoAsk = { ...question, lines: [...question.lines] };
			this.host.broadcastState();
		}
	}

	/** The user's answer to Undo this turn's question. */
	async answerUndo(tab: ChatTab, turnId: number, undo: boolean): Promise<void> {
		tab.undoAsk = undefined;
		this.host.broadcastState();
		if (undo) {
			await this.files?.checkpoints?.undo(tab.key, turnId);
		}
	}

	/** Shows the agent's change to `file` (the file itself without a review). */
	async review(file: string): Promise<void> {
		await (this.files ? this.files.changes.review(vscode.Uri.file(file)) : openLocation(file, undefined));
	}

	/** Keeps (`keep`) or undoes the agent's changes of a tab: to one file, or all of them. */
	async settle(tab: ChatTab, file: string | undefined, keep: boolean): Promise<void> {
		const uri = file !== undefined ? vscode.Uri.file(file) : undefined;
		await (keep ? this.files?.changes.keep(tab.key, uri) : this.files?.changes.undo(tab.key, uri));
	}

	/** The tab closed: its checkpoints go. */
	forget(key: string): void {
		this.files?.checkpoints?.forget(key);
	}

	dispose(): void {
		this.disposables.forEach((d) => d.dispose());
	}
}
