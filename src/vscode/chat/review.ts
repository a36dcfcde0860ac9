/**
 * Review of what agents wrote: each file an agent changed keeps the text it had before the first
 * change not yet kept (its baseline), until the user keeps or undoes the change.
 *
 * - the chat lists the changed files with lines added and removed (per chat that changed them);
 * - **Review** opens VS Code's diff editor, baseline against the file as it is now; Keep and Undo
 *   of the block at the cursor and of the whole file are in its title bar and the palette (and
 *   above each block, as CodeLens, in a plain editor of the file);
 * - undoing a block edits the document (itself undoable) and leaves the other blocks in place;
 *   keeping one moves it into the baseline;
 * - changed lines are marked in every editor showing the file until they are kept.
 *
 * A change may come through `fs/write_text_file` or be found on disk (turnChanges.ts: the agent's
 * own tools, a shell command). A file the agent deleted is listed as deleted (its review shows
 * the text it had; undo creates it again); one whose text before is not known (too large to
 * copy) is listed with why, and can only be kept. When the agent changed a file on disk while its
 * editor held unsaved edits, the review shows the disk's text (the buffer is the user's), and
 * undoing it puts the disk back, never touching the buffer.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { applyHunk, lineHunks, smallestEdit, type Hunk } from '../../common/fsWrite';
import { errorMessage } from '../../common/log';
import type { ExtensionLog } from '../log';
import { ABSENT, text as fileText, type FileText } from '../../common/chat/turnFiles';
import { findOpen, readDisk, restoreFile, sameLines, saveIfClean } from './fileText';

export const REVIEW_SCHEME = 'agent-link-review';

/** A file an agent changed, as the chat lists it. */
export interface ChangedFile {
	readonly uri: vscode.Uri;
	readonly path: string;
	readonly added: number;
	readonly removed: number;
	/** The agent created it. */
	readonly created: boolean;
	/** The agent deleted it. */
	readonly deleted: boolean;
	/** Why it cannot be shown or undone (its text before the change is not known). */
	readonly note?: string;
}

/** A change to record: the file, and its text before (undefined when it did not exist). */
export interface RecordedChange {
	readonly uri: vscode.Uri;
	readonly before: string | undefined;
	/** The text before is not known: why. */
	readonly unknown?: string;
	/** Found on disk (not written through the editor). */
	readonly onDisk?: boolean;
}

/** The change to record for `uri`, from its text before as a turn knows it. */
export function recordedChange(uri: vscode.Uri, before: FileText, onDisk?: boolean): RecordedChange {
	return { uri, before: before.kind === 'text' ? before.text : undefined, ...(before.kind === 'unknown' ? { unknown: before.reason } : {}), ...(onDisk ? { onDisk } : {}) };
}

interface Entry {
	readonly uri: vscode.Uri;
	/** The text before the agent's first change not yet kept; undefined when the agent created the file. */
	baseline: string | undefined;
	/** The chats (keys) whose agents changed it. */
	readonly owners: Set<string>;
	/** The text before is not known: why (nothing to show or undo). */
	unknown?: string;
	/** On disk only: found there while the editor held unsaved edits (VS Code keeps them), so the review reads the disk while they last. */
	onDisk: boolean;
	/** When the agent's change was last written or found on disk, and when the open document's text last changed (ms). */
	diskAt?: number;
	documentAt?: number;
	/** The blocks of the open document at a version, against this baseline (CodeLens, decorations and the commands ask often). */
	cache?: { readonly version: number; readonly baseline: string | undefined; readonly hunks: Hunk[] };
}

/** The blocks of `document` against `entry`'s baseline, computed once per document version. */
function hunksOf(entry: Entry, document: vscode.TextDocument): Hunk[] {
	const cache = entry.cache;
	if (cache && cache.version === document.version && cache.baseline === entry.baseline) {
		return cache.hunks;
	}
	const hunks = lineHunks(entry.baseline ?? '', document.getText());
	entry.cache = { version: document.version, baseline: entry.baseline, hunks };
	return hunks;
}

export class AgentChanges implements vscode.Disposable {
	private readonly entries = new Map<string, Entry>();
	private readonly changeEmitter = new vscode.EventEmitter<void>();
	private readonly baselineEmitter = new vscode.EventEmitter<vscode.Uri>();
	private readonly lensEmitter = new vscode.EventEmitter<void>();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly changedLines = vscode.window.createTextEditorDecorationType({
		isWholeLine: true,
		backgroundColor: new vscode.ThemeColor('diffEditor.insertedLineBackground'),
		overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.addedForeground'),
		overviewRulerLane: vscode.OverviewRulerLane.Left,
	});
	private refreshTimer: ReturnType<typeof setTimeout> | undefined;

	/** The list of changed files changed (a write, a keep, an undo, the user editing one). */
	readonly onDidChange = this.changeEmitter.event;

	constructor(private readonly log: ExtensionLog) {
		this.disposables.push(
			this.changeEmitter,
			this.baselineEmitter,
			this.lensEmitter,
			this.changedLines,
			vscode.workspace.registerTextDocumentContentProvider(REVIEW_SCHEME, {
				onDidChange: this.baselineEmitter.event,
				provideTextDocumentContent: (uri) => (uri.fragment === 'disk' ? fs.readFile(fileOf(uri).fsPath, 'utf8').catch(() => '') : (this.entries.get(fileOf(uri).toString())?.baseline ?? '')),
			}),
			vscode.languages.registerCodeLensProvider({ scheme: 'file' }, { onDidChangeCodeLenses: this.lensEmitter.event, provideCodeLenses: (document) => this.lenses(document) }),
			vscode.workspace.onDidChangeTextDocument((e) => {
				const entry = this.entries.get(e.document.uri.toString());
				if (entry) {
					entry.documentAt = e.contentChanges.length > 0 ? Date.now() : entry.documentAt;
					this.refreshSoon();
				}
			}),
			vscode.window.onDidChangeVisibleTextEditors(() => this.decorate()),
			vscode.window.onDidChangeActiveTextEditor(() => this.updateContext()),
			vscode.commands.registerCommand('agentLink.review.keepHunk', (uri?: vscode.Uri, index?: number) => this.onHunk('keep', uri, index)),
			vscode.commands.registerCommand('agentLink.review.undoHunk', (uri?: vscode.Uri, index?: number) => this.onHunk('undo', uri, index)),
			vscode.commands.registerCommand('agentLink.review.keepFile', (uri?: vscode.Uri) => this.onFile('keep', uri)),
			vscode.commands.registerCommand('agentLink.review.undoFile', (uri?: vscode.Uri) => this.onFile('undo', uri)),
		);
	}

	/** Records an agent's change for the chat `owner`. */
	record(owner: string, write: RecordedChange): void {
		const key = write.uri.toString();
		let entry = this.entries.get(key);
		// Each write decides again: one through the editor, or found on disk with the editor clean, is in the editor.
		const onDisk = write.onDisk === true && hasUnsavedEdits(write.uri);
		if (entry) {
			entry.onDisk = onDisk;
		} else {
			entry = { uri: write.uri, baseline: write.before, owners: new Set(), onDisk, ...(write.unknown !== undefined ? { unknown: write.unknown } : {}) };
			this.entries.set(key, entry);
			if (write.before !== undefined && write.unknown === undefined) {
				// The baseline is loaded into the editor now, while the agent works, so Review only lays out the diff editor.
				void vscode.workspace.openTextDocument(baselineUri(write.uri)).then(undefined, (error: unknown) => this.log.info(`Review: the text before the agent's changes to ${write.uri.fsPath} could not be loaded ahead: ${errorMessage(error)}`));
			}
		}
		entry.owners.add(owner);
		entry.diskAt = Date.now();
		this.refreshSoon();
	}

	/** The agent's change to `uri` was found on disk again (a later write of the same turn): on disk only if the editor holds unsaved edits now. */
	changedOnDisk(uri: vscode.Uri): void {
		const entry = this.entries.get(uri.toString());
		if (entry) {
			entry.onDisk = hasUnsavedEdits(uri);
			entry.diskAt = Date.now();
			this.refreshSoon();
		}
	}

	/** The files changed by `owner`'s agent and not yet kept or undone, with their line counts. */
	async files(owner: string): Promise<ChangedFile[]> {
		const files: ChangedFile[] = [];
		for (const entry of this.entries.values()) {
			if (!entry.owners.has(owner)) {
				continue;
			}
			const now = entry.unknown === undefined ? await currentText(entry.uri, entry) : undefined;
			if (madeAndGone(entry, now)) {
				continue;
			}
			const hunks = await this.hunks(entry.uri);
			const added = hunks.reduce((n, h) => n + h.after.length, 0);
			const removed = hunks.reduce((n, h) => n + h.before.length, 0);
			const deleted = entry.unknown === undefined && entry.baseline !== undefined && now === undefined;
			const note = entry.unknown !== undefined ? `changed; ${entry.unknown}, so it cannot be shown or undone` : undefined;
			files.push({ uri: entry.uri, path: entry.uri.fsPath, added, removed, created: entry.baseline === undefined && entry.unknown === undefined, deleted, ...(note !== undefined ? { note } : {}) });
		}
		return files.sort((a, b) => a.path.localeCompare(b.path));
	}

	/** Whether `uri` has changes to review. */
	has(uri: vscode.Uri): boolean {
		return this.entries.has(uri.toString());
	}

	/** Opens the diff editor: the file before the agent's changes against the file now. */
	async review(uri: vscode.Uri): Promise<void> {
		const entry = this.entries.get(uri.toString());
		if (!entry || entry.unknown !== undefined) {
			await vscode.window.showTextDocument(uri, { preview: true });
			return;
		}
		// A deleted file, or one changed on disk under unsaved edits: the disk's text, read-only, on the right.
		const right = (await currentText(uri, entry)) === undefined || diskOnly(entry) ? diskUri(uri) : uri;
		await vscode.commands.executeCommand('vscode.diff', baselineUri(uri), right, `${path.basename(uri.fsPath)} (agent's changes)`, { preview: true });
	}

	/** Keeps every change of `owner`'s chat (or of `uri` alone). */
	async keep(owner: string, uri?: vscode.Uri): Promise<void> {
		for (const entry of this.owned(owner, uri)) {
			await this.keepFile(entry);
		}
	}

	/** Undoes every change of `owner`'s chat (or of `uri` alone). */
	async undo(owner: string, uri?: vscode.Uri): Promise<void> {
		// Undo all leaves a file that cannot be undone (its text before is not known) listed.
		for (const entry of this.owned(owner, uri).filter((e) => uri !== undefined || e.unknown === undefined)) {
			await this.undoFile(entry);
		}
	}

	private owned(owner: string, uri: vscode.Uri | undefined): Entry[] {
		return [...this.entries.values()].filter((e) => e.owners.has(owner) && (!uri || e.uri.toString() === uri.toString()));
	}

	/** Drops `uri` from the review when nothing of it is left to review (its text is its baseline again: an undo of the turn). */
	async settle(uri: vscode.Uri): Promise<void> {
		const entry = this.entries.get(uri.toString());
		if (entry && entry.unknown === undefined && (await currentText(uri, entry)) === entry.baseline) {
			this.entries.delete(uri.toString());
			this.refreshSoon();
		}
	}

	private async keepFile(entry: Entry): Promise<void> {
		this.entries.delete(entry.uri.toString());
		this.log.info(`Kept the agent's changes to ${entry.uri.fsPath}.`);
		this.baselineEmitter.fire(baselineUri(entry.uri));
		this.refreshSoon();
	}

	private async undoFile(entry: Entry): Promise<void> {
		if (entry.unknown !== undefined) {
			throw new Error(`${path.basename(entry.uri.fsPath)} cannot be undone: ${entry.unknown}.`);
		}
		const now = await textNow(entry.uri, entry);
		if (diskOnly(entry) || now.text === undefined || now.stale === true) {
			// The disk goes back; a buffer with the user's unsaved edits is left as it is.
			await restoreFile(entry.uri.fsPath, entry.baseline === undefined ? ABSENT : fileText(entry.baseline), 'disk');
		} else {
			const edit = new vscode.WorkspaceEdit();
			if (entry.baseline === undefined) {
				edit.deleteFile(entry.uri, { ignoreIfNotExists: true });
			} else {
				await this.replaceWith(edit, entry.uri, entry.baseline);
			}
			const wasDirty = hasUnsavedEdits(entry.uri);
			if (!(await vscode.workspace.applyEdit(edit))) {
				throw new Error(`The editor could not undo the changes to ${entry.uri.fsPath}.`);
			}
			await saveIfClean(entry.uri, entry.baseline !== undefined && !wasDirty);
		}
		this.entries.delete(entry.uri.toString());
		this.log.info(`Undid the agent's changes to ${entry.uri.fsPath}.`);
		this.refreshSoon();
	}

	/** The changed blocks of `uri`: its baseline against its text now. */
	async hunks(uri: vscode.Uri): Promise<Hunk[]> {
		const entry = this.entries.get(uri.toString());
		if (!entry || entry.unknown !== undefined) {
			return [];
		}
		const now = await textNow(uri, entry);
		return now.document ? hunksOf(entry, now.document) : lineHunks(entry.baseline ?? '', now.text ?? '');
	}

	/** Keeps block `index` of `uri` (it joins the baseline). */
	async keepHunk(uri: vscode.Uri, index: number): Promise<void> {
		const entry = this.entries.get(uri.toString());
		const hunk = (await this.hunks(uri))[index];
		if (!entry || !hunk) {
			return;
		}
		entry.baseline = applyHunk(entry.baseline ?? '', hunk);
		if (entry.baseline === (await currentText(uri, entry))) {
			this.entries.delete(uri.toString());
		}
		this.baselineEmitter.fire(baselineUri(uri));
		this.refreshSoon();
	}

	/** Undoes block `index` of `uri`: the document gets the baseline's lines back there; the other blocks stay. */
	async undoHunk(uri: vscode.Uri, index: number): Promise<void> {
		const entry = this.entries.get(uri.toString());
		const hunk = (await this.hunks(uri))[index];
		if (!entry || !hunk) {
			return;
		}
		if (diskOnly(entry)) {
			throw new Error(`${path.basename(uri.fsPath)} has unsaved changes in the editor: undo the agent's changes to the whole file from the chat, or save or revert the file first.`);
		}
		const document = await vscode.workspace.openTextDocument(uri);
		const wasDirty = document.isDirty;
		const end = hunk.afterStart + hunk.after.length;
		const range = new vscode.Range(new vscode.Position(hunk.afterStart, 0), end >= document.lineCount ? document.lineAt(document.lineCount - 1).range.end : new vscode.Position(end, 0));
		const edit = new vscode.WorkspaceEdit();
		edit.replace(uri, range, hunk.before.join(''));
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`The editor could not undo that change to ${uri.fsPath}.`);
		}
		await saveIfClean(uri, !wasDirty);
		if (entry.baseline === document.getText()) {
			this.entries.delete(uri.toString());
		}
		this.refreshSoon();
	}

	private async replaceWith(edit: vscode.WorkspaceEdit, uri: vscode.Uri, text: string): Promise<void> {
		const document = await vscode.workspace.openTextDocument(uri);
		const change = smallestEdit(document.getText(), text);
		if (change) {
			edit.replace(uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
		}
	}

	private async onHunk(action: 'keep' | 'undo', uri: vscode.Uri | undefined, index: number | undefined): Promise<void> {
		try {
			const target = uri ?? vscode.window.activeTextEditor?.document.uri;
			if (!target || !this.has(target)) {
				void vscode.window.showInformationMessage('Agent Link: this file has no agent changes to review.');
				return;
			}
			const at = index ?? (await this.hunkAtCursor(target));
			if (at === undefined) {
				void vscode.window.showInformationMessage('Agent Link: no agent change at the cursor.');
				return;
			}
			await (action === 'keep' ? this.keepHunk(target, at) : this.undoHunk(target, at));
		} catch (error) {
			this.log.error(`Review: ${errorMessage(error)}`);
			void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
		}
	}

	private async onFile(action: 'keep' | 'undo', uri: vscode.Uri | undefined): Promise<void> {
		try {
			const target = uri ?? vscode.window.activeTextEditor?.document.uri;
			const entry = target && this.entries.get(target.toString());
			if (!entry) {
				void vscode.window.showInformationMessage('Agent Link: this file has no agent changes to review.');
				return;
			}
			await (action === 'keep' ? this.keepFile(entry) : this.undoFile(entry));
		} catch (error) {
			this.log.error(`Review: ${errorMessage(error)}`);
			void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
		}
	}

	/** The block at the cursor of the editor showing `uri` (or the next one below it). */
	private async hunkAtCursor(uri: vscode.Uri): Promise<number | undefined> {
		const editor = vscode.window.activeTextEditor?.document.uri.toString() === uri.toString() ? vscode.window.activeTextEditor : vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
		const line = editor?.selection.active.line ?? 0;
		const hunks = await this.hunks(uri);
		const inside = hunks.findIndex((h) => line >= h.afterStart && line < h.afterStart + Math.max(1, h.after.length));
		if (inside >= 0) {
			return inside;
		}
		const below = hunks.findIndex((h) => h.afterStart >= line);
		return below >= 0 ? below : hunks.length > 0 ? hunks.length - 1 : undefined;
	}

	private lenses(document: vscode.TextDocument): vscode.CodeLens[] {
		const entry = this.entries.get(document.uri.toString());
		if (!entry || entry.unknown !== undefined || diskOnly(entry)) {
			return [];
		}
		const hunks = hunksOf(entry, document);
		const top = new vscode.Range(0, 0, 0, 0);
		const lenses = [
			new vscode.CodeLens(top, { title: `$(check) Keep all ${hunks.length} agent change${hunks.length === 1 ? '' : 's'}`, command: 'agentLink.review.keepFile', arguments: [document.uri] }),
			new vscode.CodeLens(top, { title: '$(discard) Undo all', command: 'agentLink.review.undoFile', arguments: [document.uri] }),
		];
		hunks.forEach((hunk, index) => {
			const line = Math.min(hunk.afterStart, Math.max(0, document.lineCount - 1));
			const range = new vscode.Range(line, 0, line, 0);
			lenses.push(
				new vscode.CodeLens(range, { title: '$(check) Keep', command: 'agentLink.review.keepHunk', arguments: [document.uri, index], tooltip: 'Keep this change of the agent' }),
				new vscode.CodeLens(range, { title: '$(discard) Undo', command: 'agentLink.review.undoHunk', arguments: [document.uri, index], tooltip: 'Undo this change of the agent (the others stay)' }),
			);
		});
		return lenses;
	}

	private refreshSoon(): void {
		this.refreshTimer ??= setTimeout(() => {
			this.refreshTimer = undefined;
			void this.refresh();
		}, 30);
	}

	private async refresh(): Promise<void> {
		// A file the user brought back to its baseline has nothing left to review. A document without
		// unsaved edits that VS Code has not loaded the agent's change into yet is not that: the disk says.
		for (const [key, entry] of this.entries) {
			const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === key);
			if ((document && entry.baseline !== undefined && entry.unknown === undefined && !diskOnly(entry) && document.getText() === entry.baseline && (await currentText(entry.uri, entry)) === entry.baseline) || (entry.baseline === undefined && madeAndGone(entry, await currentText(entry.uri, entry)))) {
				this.entries.delete(key);
			}
		}
		this.lensEmitter.fire();
		this.decorate();
		this.updateContext();
		this.changeEmitter.fire();
	}

	/** `agentLink.review.hasChanges`: the active editor's file has agent changes (the editor title's Keep and Undo; diff editors show no CodeLens by default). */
	private updateContext(): void {
		const uri = vscode.window.activeTextEditor?.document.uri;
		const has = uri !== undefined && this.entries.has(uri.toString());
		if (has !== this.contextValue) {
			this.contextValue = has;
			void vscode.commands.executeCommand('setContext', 'agentLink.review.hasChanges', has);
		}
	}

	private contextValue: boolean | undefined;

	/** Marks the changed lines in every editor showing a changed file. */
	private decorate(): void {
		for (const editor of vscode.window.visibleTextEditors) {
			const entry = editor.document.uri.scheme === 'file' ? this.entries.get(editor.document.uri.toString()) : undefined;
			const ranges = entry && entry.unknown === undefined && !diskOnly(entry)
				? hunksOf(entry, editor.document)
						.filter((h) => h.after.length > 0)
						.map((h) => new vscode.Range(h.afterStart, 0, h.afterStart + h.after.length - 1, 0))
				: [];
			editor.setDecorations(this.changedLines, ranges);
		}
	}

	dispose(): void {
		if (this.refreshTimer) {
			clearTimeout(this.refreshTimer);
		}
		this.disposables.forEach((d) => d.dispose());
	}
}

/** The document showing the baseline of `file` (the left side of its review). */
export function baselineUri(file: vscode.Uri): vscode.Uri {
	return file.with({ scheme: REVIEW_SCHEME, query: file.toString() });
}

/** The document showing `file` as it is on disk, read-only (the right side of the review of a deleted file, or of one with unsaved edits). */
function diskUri(file: vscode.Uri): vscode.Uri {
	return file.with({ scheme: REVIEW_SCHEME, query: file.toString(), fragment: 'disk' });
}

/** The file a review document shows the baseline of. */
function fileOf(reviewUri: vscode.Uri): vscode.Uri {
	return vscode.Uri.parse(reviewUri.query);
}

/** The agent changed the file on disk and its editor holds the user's unsaved edits: the change is on disk only. */
function diskOnly(entry: Entry): boolean {
	return entry.onDisk && hasUnsavedEdits(entry.uri);
}

/** Whether the editor holds unsaved edits of `uri`. */
function hasUnsavedEdits(uri: vscode.Uri): boolean {
	return findOpen(uri.fsPath)?.isDirty ?? false;
}

/** The text of `uri` now ({@link textNow}); undefined when it is gone. */
async function currentText(uri: vscode.Uri, entry?: Entry): Promise<string | undefined> {
	return (await textNow(uri, entry)).text;
}

/**
 * The text of `uri` now, and the open document when it holds that text: the file's text unless it is
 * saved, differs from the disk, and the agent wrote the disk after it last changed (VS Code has not
 * loaded that yet: its watcher may be late, or silent outside the workspace folders): then the disk
 * is read, the document `stale`. (A saved document differs from the disk after an undo during a save.)
 */
async function textNow(uri: vscode.Uri, entry?: Entry): Promise<{ text: string | undefined; document?: vscode.TextDocument; stale?: boolean }> {
	const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	const mayBeStale = open !== undefined && !open.isDirty && (entry?.diskAt ?? 0) > (entry?.documentAt ?? 0);
	if (open && !(entry && diskOnly(entry)) && !mayBeStale) {
		return { text: open.getText(), document: open };
	}
	const disk = (await readDisk(uri.fsPath))?.text;
	if (open && mayBeStale && disk !== undefined && sameLines(open.getText(), disk)) {
		return { text: open.getText(), document: open };
	}
	return { text: disk, ...(mayBeStale ? { stale: true } : {}) };
}

/** A file the agent made and removed again (a temporary file renamed over the one it edits, as Claude Code writes): nothing to review. */
const madeAndGone = (entry: Entry, now: string | undefined): boolean => entry.baseline === undefined && entry.unknown === undefined && now === undefined;
