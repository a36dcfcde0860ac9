/**
 * What each chat turn changed in the workspace, whoever wrote it: a write through
 * `fs/write_text_file`, a file an edit tool call names (its locations, its diffs), and anything
 * else that changed on disk while the turn ran (the agent's own tools, a shell command that
 * rewrote, created or deleted files). Every such change the user did not make in the editor is
 * the agent's.
 *
 * - When a turn starts, the workspace is copied (fileSnapshots.ts, bounded; the log says when the
 *   bounds are met), and a file a tool call names is copied as soon as the call arrives, before
 *   it runs (a file outside the workspace folders too).
 * - While it runs, a file system watcher finds changes as they happen: each goes to the review
 *   (review.ts) with its text before, so the chat's list of changed files fills as the agent works.
 * - When it ends, the workspace is compared with the copy (sizes and times), which catches what
 *   the watcher has not reported yet; the turn's changes become its checkpoint (checkpoints.ts).
 * - A file the user saves from the editor during the turn is theirs: its saved text counts as its
 *   text before, unless the agent had changed it already in the turn.
 *
 * Two chats whose turns run at once both see a change neither names: it goes to both.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ABSENT, TurnLedger, beforeFromDiffs, inSkippedFolder, namedFiles, sameText, text, unknown, type FileChange, type FileText, type ToolDiff } from '../../common/chat/turnFiles';
import { errorMessage } from '../../common/log';
import type { ExtensionLog } from '../log';
import type { AgentWrite } from './fileAccess';
import type { Capture, FileSnapshots, Snap } from './fileSnapshots';
import { recordedChange, type AgentChanges } from './review';

/** How long a changed file settles before it is read (a tool writes in pieces; saves come with their own events). */
const CHECK_DELAY_MS = 100;
/** How long a save the user asked for counts as theirs when its change is seen on disk. */
const USER_SAVE_MS = 5000;

interface Running {
	readonly owner: string;
	readonly start: Capture;
	/** Files named by tool calls or written by the agent that the start's copy lacks: their text when first named. */
	readonly named: Map<string, Promise<FileText>>;
	readonly diffs: Map<string, ToolDiff[]>;
	readonly ledger: TurnLedger;
	readonly timers: Map<string, ReturnType<typeof setTimeout>>;
	readonly inFlight: Set<Promise<void>>;
}

export class TurnChanges implements vscode.Disposable {
	private readonly running = new Map<string, Running>();
	private watcher: vscode.Disposable | undefined;
	/** Copies run one after the other (they share the cache of unchanged files). */
	private copying: Promise<unknown> = Promise.resolve();
	/** Files the user is saving from the editor, and when they asked. */
	private readonly userSaves = new Map<string, number>();
	private readonly changeEmitter = new vscode.EventEmitter<string>();
	private readonly disposables: vscode.Disposable[] = [this.changeEmitter];
	/** The changes found for a chat (its key) changed. */
	readonly onDidChange = this.changeEmitter.event;
	/** The last bound said in the log (said again only when it changes). */
	private lastCut: string | undefined;

	constructor(
		private readonly snapshots: FileSnapshots,
		private readonly review: AgentChanges,
		private readonly log: ExtensionLog,
	) {
		this.disposables.push(
			vscode.workspace.onWillSaveTextDocument((e) => {
				if (e.document.uri.scheme === 'file') {
					const now = Date.now();
					this.userSaves.forEach((at, file) => now - at > USER_SAVE_MS && this.userSaves.delete(file));
					this.userSaves.set(e.document.uri.fsPath, now);
				}
			}),
			vscode.workspace.onDidSaveTextDocument((d) => this.userSaved(d)),
		);
	}

	/** Copies the workspace ahead of a first turn, so the turn's start finds most files copied. */
	prewarm(): void {
		void this.capture().catch((error: unknown) => this.log.debug(`Turn changes: the workspace could not be copied ahead: ${errorMessage(error)}`));
	}

	/** Whether a turn of `owner` runs. */
	isRunning(owner: string): boolean {
		return this.running.has(owner);
	}

	/** A turn of `owner` starts: the workspace is copied first, so what the agent then does can be shown and undone. */
	async begin(owner: string): Promise<void> {
		const start = await this.capture().catch((error: unknown): Capture => {
			this.log.warn(`Turn changes: the workspace could not be copied before the turn (its changes are listed, but cannot be shown or undone): ${errorMessage(error)}`);
			return { files: new Map(), complete: false, cut: 'the workspace could not be copied' };
		});
		if (start.cut !== this.lastCut) {
			this.lastCut = start.cut;
			if (start.cut !== undefined) {
				this.log.warn(`Turn changes: ${start.cut} when a turn starts; changes to the files left out are listed but cannot be shown or undone.`);
			}
		}
		this.running.set(owner, { owner, start, named: new Map(), diffs: new Map(), ledger: new TurnLedger(), timers: new Map(), inFlight: new Set() });
		this.watch();
	}

	/** A tool call (or a permission request's) of `owner`'s turn: the files it names are copied now, before it runs. */
	noteToolCall(owner: string, call: Parameters<typeof namedFiles>[0]): void {
		const turn = this.running.get(owner);
		if (!turn) {
			return;
		}
		const { paths, diffs } = namedFiles(call);
		for (const file of paths.filter((p) => path.isAbsolute(p)).map((p) => path.resolve(p))) {
			this.name(turn, file);
		}
		for (const diff of diffs.filter((d) => path.isAbsolute(d.path))) {
			const file = path.resolve(diff.path);
			const list = turn.diffs.get(file) ?? [];
			if (!list.some((d) => d.newText === diff.newText && d.oldText === diff.oldText)) {
				list.push(diff);
			}
			turn.diffs.set(file, list);
		}
	}

	/**
	 * A write of `owner`'s agent through `fs/write_text_file`, with its text before and after.
	 * Returns the file's text before the turn, when a turn runs: the write's own text before
	 * may hold the agent's change already (an agent that writes the file itself and then through
	 * the client), and the review's baseline is the text before the turn.
	 */
	noteWrite(owner: string, write: AgentWrite): FileText | undefined {
		const turn = this.running.get(owner);
		if (!turn || write.uri.scheme !== 'file') {
			return undefined;
		}
		const file = write.uri.fsPath;
		const wrote = write.before === undefined ? ABSENT : text(write.before);
		if (write.where === 'buffer') {
			turn.ledger.changed(file, turn.ledger.before(file) ?? wrote, text(write.after), 'buffer');
		} else {
			const known = this.startText(turn, file);
			turn.ledger.changed(file, known.kind === 'unknown' ? wrote : known, text(write.after), 'disk');
		}
		this.changeEmitter.fire(turn.owner);
		return turn.ledger.before(file);
	}

	/**
	 * The turn of `owner` is over: the workspace is compared with its copy from the start (and the
	 * files the turn named or wrote looked at again). Resolves with the turn's changes (those found
	 * so far, when the comparison fails).
	 */
	async end(owner: string): Promise<FileChange[]> {
		const turn = this.running.get(owner);
		if (!turn) {
			return [];
		}
		try {
			return await this.compareAtEnd(turn);
		} catch (error) {
			this.log.warn(`Turn changes: the files the turn changed could not all be found: ${errorMessage(error)}`);
			return turn.ledger.changes();
		} finally {
			this.running.delete(owner);
			if (this.running.size === 0) {
				this.watcher?.dispose();
				this.watcher = undefined;
			}
			this.changeEmitter.fire(owner);
		}
	}

	private async compareAtEnd(turn: Running): Promise<FileChange[]> {
		for (const [file, timer] of turn.timers) {
			clearTimeout(timer);
			this.check(turn, file);
		}
		turn.timers.clear();
		await Promise.all([...turn.inFlight]);
		const after = await this.capture();
		const seen = new Set<string>();
		for (const file of [...turn.start.files.keys(), ...after.files.keys()]) {
			if (seen.has(file)) {
				continue;
			}
			seen.add(file);
			const was = turn.start.files.get(file);
			const now = after.files.get(file);
			if (!was || !now || was.size !== now.size || was.mtimeMs !== now.mtimeMs) {
				await this.compare(turn, file, now ? snapText(now) : ABSENT, now);
			}
		}
		for (const file of new Set([...turn.named.keys(), ...turn.ledger.changes().map((c) => c.path)])) {
			if (!seen.has(file)) {
				const now = await this.read(file);
				await this.compare(turn, file, now.text, now.snap);
			}
		}
		// A write into unsaved edits changed only the buffer: its text at the end is the buffer's.
		for (const change of turn.ledger.changes().filter((c) => c.where === 'buffer')) {
			const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === change.path);
			turn.ledger.changed(change.path, change.before, open ? text(open.getText()) : ABSENT, 'buffer');
		}
		return turn.ledger.changes();
	}

	private capture(): Promise<Capture> {
		const roots = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
		const next = this.copying.then(() => this.snapshots.capture(roots));
		this.copying = next.catch(() => undefined);
		return next;
	}

	/** The watcher of the workspace while turns run: a change found is looked at once it settles. */
	private watch(): void {
		if (this.watcher) {
			return;
		}
		const watcher = vscode.workspace.createFileSystemWatcher('**/*');
		const changed = (uri: vscode.Uri) => {
			if (uri.scheme !== 'file' || inSkippedFolder(vscode.workspace.asRelativePath(uri, false))) {
				return;
			}
			for (const turn of this.running.values()) {
				clearTimeout(turn.timers.get(uri.fsPath));
				turn.timers.set(
					uri.fsPath,
					setTimeout(() => {
						turn.timers.delete(uri.fsPath);
						this.check(turn, uri.fsPath);
					}, CHECK_DELAY_MS),
				);
			}
		};
		this.watcher = vscode.Disposable.from(watcher, watcher.onDidChange(changed), watcher.onDidCreate(changed), watcher.onDidDelete(changed));
	}

	private check(turn: Running, file: string): void {
		const work = this.read(file)
			.then((now) => this.compare(turn, file, now.text, now.snap))
			.catch((error: unknown) => this.log.debug(`Turn changes: ${file} could not be looked at: ${errorMessage(error)}`));
		turn.inFlight.add(work);
		void work.finally(() => turn.inFlight.delete(work));
	}

	/**
	 * `file` is `now`: when that differs from its text before the turn, it is the agent's change
	 * (unless the user just saved that text from the editor), recorded in the turn and the review.
	 */
	private async compare(turn: Running, file: string, now: FileText, snap: Snap | undefined): Promise<void> {
		if (turn.ledger.where(file) === 'buffer') {
			return; // the agent's change is in the buffer; the disk is the user's
		}
		if (turn.ledger.before(file) === undefined && this.savedByUser(file, now)) {
			turn.ledger.userSaved(file, (now as { text: string }).text);
			return;
		}
		let before = turn.ledger.before(file) ?? (await (turn.named.get(file) ?? Promise.resolve(this.startText(turn, file))));
		if (before.kind === 'unknown') {
			const was = turn.start.files.get(file);
			if (was && snap && was.size === snap.size && was.mtimeMs === snap.mtimeMs) {
				return;
			}
			before = (now.kind === 'text' ? beforeFromDiffs(now.text, turn.diffs.get(file) ?? []) : undefined) ?? before;
		}
		if (sameText(before, now) && !turn.ledger.has(file)) {
			return;
		}
		const first = !turn.ledger.has(file);
		turn.ledger.changed(file, before, now, 'disk');
		const uri = vscode.Uri.file(file);
		// Recorded again when the review let it go (made and removed, then made again in the turn).
		if ((first || !this.review.has(uri)) && !(before.kind === 'absent' && now.kind === 'absent')) {
			this.review.record(turn.owner, recordedChange(uri, before, true));
		} else if (!first) {
			this.review.changedOnDisk(uri);
		}
		this.changeEmitter.fire(turn.owner);
	}

	/** The user saved from the editor a moment ago, and the disk holds what they saved. */
	private savedByUser(file: string, now: FileText): boolean {
		const at = this.userSaves.get(file);
		if (at === undefined || Date.now() - at > USER_SAVE_MS || now.kind !== 'text') {
			return false;
		}
		const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === 'file' && d.uri.fsPath === file);
		return open?.getText() === now.text;
	}

	private userSaved(document: vscode.TextDocument): void {
		if (document.uri.scheme !== 'file' || !this.userSaves.has(document.uri.fsPath)) {
			return;
		}
		for (const turn of this.running.values()) {
			turn.ledger.userSaved(document.uri.fsPath, document.getText());
		}
	}

	/** Copies a file a tool call names, unless the start's copy has it or it was copied already. */
	private name(turn: Running, file: string): void {
		if (turn.named.has(file) || turn.start.files.get(file)?.text !== undefined) {
			return;
		}
		const known = this.startText(turn, file);
		turn.named.set(file, known.kind === 'unknown' ? this.read(file).then((r) => r.text) : Promise.resolve(known));
	}

	/** The text of `file` when the turn started, as far as its copy tells. */
	private startText(turn: Running, file: string): FileText {
		const snap = turn.start.files.get(file);
		if (snap) {
			return snapText(snap);
		}
		const inside = (vscode.workspace.workspaceFolders ?? []).some((f) => f.uri.scheme === 'file' && !path.relative(f.uri.fsPath, file).startsWith('..') && !path.isAbsolute(path.relative(f.uri.fsPath, file)));
		// Not in a complete copy of its folder: it did not exist. Outside the folders, or beyond the bounds: not known.
		return inside && turn.start.complete && !inSkippedFolder(vscode.workspace.asRelativePath(file, false)) ? ABSENT : unknown('it was not copied when the turn started');
	}

	private async read(file: string): Promise<{ text: FileText; snap?: Snap }> {
		const snap = await this.snapshots.one(file);
		return snap ? { text: snapText(snap), snap } : { text: ABSENT };
	}

	dispose(): void {
		for (const turn of this.running.values()) {
			turn.timers.forEach((t) => clearTimeout(t));
		}
		this.watcher?.dispose();
		this.disposables.forEach((d) => d.dispose());
	}
}

function snapText(snap: Snap): FileText {
	return snap.text !== undefined ? text(snap.text) : unknown(`it is ${snap.skipped ?? 'not copied'}`);
}
