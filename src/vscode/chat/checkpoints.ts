/**
 * A checkpoint per chat turn that changed files: each file's text before the turn and at its end
 * (turnChanges.ts). **Undo this turn** (the button on the turn's end in the transcript, or
 * **Agent Link: Undo Last Turn** for the chat shown) puts every file the turn changed back as it
 * was before the turn, after one confirmation in the chat that names them (`ask`, then `undo`):
 * one undoable step per file (a file
 * the agent created is deleted, one it deleted comes back). A file changed since the turn ended
 * (by the user, or by a later turn), or with unsaved edits in the editor, is left alone and named;
 * so an earlier turn can be undone as long as its files were not touched since.
 *
 * Checkpoints live as long as the window, bounded per chat ({@link MAX_CHECKPOINT_BYTES}, the
 * oldest dropped first).
 */
import * as vscode from 'vscode';
import { changeBytes, describeUndo, planUndo, type FileChange, type UndoPlan } from '../../common/chat/turnFiles';
import { errorMessage } from '../../common/log';
import type { ExtensionLog } from '../log';
import { fileNow, restoreFile } from './fileText';
import type { AgentChanges } from './review';

/** What the checkpoints of one chat may hold, in bytes of text. */
export const MAX_CHECKPOINT_BYTES = 64 * 1024 * 1024;

/** What the chat asks before it undoes a turn. */
export interface UndoQuestion {
	readonly turnId: number;
	readonly title: string;
	/** Each file: what happens to it (put back, deleted, restored), or why it is left alone. */
	readonly lines: readonly string[];
	/** Some file can go back (else the question only says why none can). */
	readonly canUndo: boolean;
}

interface Checkpoint {
	/** The id of the turn's end in the chat's transcript. */
	readonly turnId: number;
	readonly changes: readonly FileChange[];
	readonly bytes: number;
	undone: boolean;
}

/** A turn with a checkpoint, as the chat page shows it. */
export interface TurnInfo {
	readonly id: number;
	readonly files: number;
	readonly undone?: boolean;
}

export class Checkpoints implements vscode.Disposable {
	private readonly byChat = new Map<string, Checkpoint[]>();
	private readonly changeEmitter = new vscode.EventEmitter<string>();
	/** A chat's (its key) checkpoints changed. */
	readonly onDidChange = this.changeEmitter.event;

	constructor(
		private readonly review: AgentChanges,
		private readonly log: ExtensionLog,
	) {}

	/** Keeps the changes of the turn ending at `turnId` in chat `owner` (nothing when it changed no file). */
	add(owner: string, turnId: number, changes: readonly FileChange[]): void {
		if (changes.length === 0) {
			return;
		}
		const list = this.byChat.get(owner) ?? [];
		list.push({ turnId, changes, bytes: changes.reduce((n, c) => n + changeBytes(c), 0), undone: false });
		let total = list.reduce((n, c) => n + c.bytes, 0);
		while (total > MAX_CHECKPOINT_BYTES && list.length > 0) {
			total -= list.shift()!.bytes;
		}
		this.byChat.set(owner, list);
		this.changeEmitter.fire(owner);
	}

	/** The turns of chat `owner` with a checkpoint. */
	turns(owner: string): TurnInfo[] {
		return (this.byChat.get(owner) ?? []).map((c) => ({ id: c.turnId, files: c.changes.length, ...(c.undone ? { undone: true } : {}) }));
	}

	/** The chat's checkpoints are gone (it closed, or its transcript was drawn again from a replay). */
	forget(owner: string): void {
		if (this.byChat.delete(owner)) {
			this.changeEmitter.fire(owner);
		}
	}

	/**
	 * What undoing the turn ending at `turnId` of chat `owner` (the last one not undone when
	 * undefined) would do, to ask the user once: the files that go back, and those left alone with
	 * why. Undefined (and said in a message) when there is no such turn.
	 */
	async ask(owner: string, turnId: number | undefined): Promise<UndoQuestion | undefined> {
		const checkpoint = this.find(owner, turnId);
		if (!checkpoint || checkpoint.undone) {
			void vscode.window.showInformationMessage(turnId === undefined ? 'Agent Link: no turn of this chat has changes to undo.' : 'Agent Link: that turn’s changes were undone already, or are no longer kept.');
			return undefined;
		}
		const plan = await this.plan(checkpoint);
		const { title, lines } = describeUndo(plan, (p) => vscode.workspace.asRelativePath(p));
		return { turnId: checkpoint.turnId, title, lines, canUndo: plan.restore.length > 0 };
	}

	/** Undoes the turn ending at `turnId` of chat `owner` (the user said yes): its files that are as it left them go back. Resolves with them. */
	async undo(owner: string, turnId: number): Promise<string[]> {
		const checkpoint = this.find(owner, turnId);
		if (!checkpoint || checkpoint.undone) {
			return [];
		}
		// Looked at again: a file may have changed while the question was open.
		const plan = await this.plan(checkpoint);
		const restored: string[] = [];
		const failed: string[] = [];
		for (const change of plan.restore) {
			try {
				await restoreFile(change.path, change.before, change.where);
				restored.push(change.path);
				await this.review.settle(vscode.Uri.file(change.path));
			} catch (error) {
				failed.push(`${vscode.workspace.asRelativePath(change.path)} (${errorMessage(error)})`);
			}
		}
		checkpoint.undone = restored.length > 0;
		const alone = plan.leftAlone.map((l) => `${l.path} (${l.why})`);
		this.log.info(`Undid turn ${checkpoint.turnId} of chat ${owner}: ${restored.length} file(s) put back${alone.length ? `; left alone: ${alone.join(', ')}` : ''}${failed.length ? `; not undone: ${failed.join(', ')}` : ''}.`);
		if (failed.length > 0) {
			void vscode.window.showWarningMessage(`Agent Link: not undone: ${failed.join(', ')}.`);
		}
		this.changeEmitter.fire(owner);
		return restored;
	}

	private find(owner: string, turnId: number | undefined): Checkpoint | undefined {
		const list = this.byChat.get(owner) ?? [];
		return turnId === undefined ? [...list].reverse().find((c) => !c.undone) : list.find((c) => c.turnId === turnId);
	}

	private async plan(checkpoint: Checkpoint): Promise<UndoPlan> {
		const nows = await Promise.all(checkpoint.changes.map((c) => fileNow(c.path, c.where)));
		return planUndo(checkpoint.changes, (c) => nows[checkpoint.changes.indexOf(c)]!);
	}

	dispose(): void {
		this.changeEmitter.dispose();
	}
}
