/**
 * Rename suggestions whatever the state of the language's rename provider.
 *
 * A rename suggestion is carried out by VS Code's rename provider
 * (`vscode.executeDocumentRenameProvider`, which asks the provider's
 * `prepareRename` first): it alone knows every use of the symbol, and the NES
 * schema's `rename` holds only the place and the new name, no text edits to
 * fall back on. A language server still loading its project (TypeScript's
 * "Initializing 'tsconfig.json'") answers after seconds, in large projects
 * tens of them. So the hint shows at once and says it waits for the language
 * server; the edit is asked for meanwhile, and the hint becomes the usual one
 * when it comes. A Tab pressed before waits for it, at most
 * {@link RENAME_TAB_WAIT_MS}, then says it could not rename and changes
 * nothing (README, "Renames while the language server loads").
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/log';

/** The rename provider's edit, or why there is none. */
export type RenameOutcome = vscode.WorkspaceEdit | string;

/**
 * How long the provider may take before the hint shows without its edit: a ready provider
 * answers within it, so its hint shows once, final, and a rename it refuses is never shown.
 */
export const RENAME_GRACE_MS = 100;
/** How long a Tab waits for a rename provider that has not answered yet. */
export const RENAME_TAB_WAIT_MS = 10_000;

/** What a rename suggestion shows: the hint and, once the provider answered, its edit. */
export interface RenameParts {
	readonly hint: string;
	readonly action: string;
	readonly renameEdit?: vscode.WorkspaceEdit;
	/** Set when the hint shows before the provider answered: its answer comes through it. */
	readonly pendingRename?: PendingRename;
}

/** A rename the provider is computing; the texts that say where it stands. */
export class PendingRename {
	private value: RenameOutcome | undefined;
	readonly done: Promise<RenameOutcome>;

	constructor(
		readonly oldName: string,
		readonly newName: string,
		outcome: Promise<RenameOutcome>,
	) {
		this.done = outcome.then((v) => (this.value = v));
	}

	/** The provider's answer, once it came. */
	get outcome(): RenameOutcome | undefined {
		return this.value;
	}

	/** The hint once the edit is known. */
	ready(edit: vscode.WorkspaceEdit): { hint: string; action: string } {
		const files = edit.entries().length;
		return parts(`rename ${this.oldName} → ${this.newName}${files > 1 ? ` in ${files} files` : ''}`);
	}

	/** The hint while the provider has not answered. */
	waiting(): { hint: string; action: string } {
		return parts(`rename ${this.oldName} → ${this.newName} (waiting for the language server)`);
	}

	/** The hint while a Tab waits for the provider. */
	tabbed(): { hint: string; action: string } {
		return { hint: `Renaming ${this.oldName} → ${this.newName} when the language server answers… · Esc: cancel`, action: `rename ${this.oldName} → ${this.newName}` };
	}

	/**
	 * For a Tab: the provider's edit; or undefined, at once when `onDidChangeShown` fires and
	 * `isShown()` is false (dismissed, typed over, replaced), or after `giveUp` was called with why
	 * (the provider refused, or did not answer within `limitMs`) and the user was told.
	 */
	async forTab(onDidChangeShown: vscode.Event<unknown>, isShown: () => boolean, giveUp: (why: string) => void, limitMs = RENAME_TAB_WAIT_MS): Promise<vscode.WorkspaceEdit | undefined> {
		let timer: NodeJS.Timeout | undefined;
		let sub: vscode.Disposable | undefined;
		const outcome = await Promise.race([
			this.done,
			new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), limitMs))),
			new Promise<'ended'>((resolve) => (sub = onDidChangeShown(() => !isShown() && resolve('ended')))),
		]);
		clearTimeout(timer);
		sub?.dispose();
		if (outcome === 'ended' || typeof outcome !== 'string') {
			return outcome === 'ended' ? undefined : outcome;
		}
		const why = outcome === 'timeout' ? `the language server did not answer within ${limitMs / 1000} s (it may still be loading the project)` : outcome;
		void vscode.window.showWarningMessage(`Agent Link: Could not rename ${this.oldName} → ${this.newName}: ${why}. Nothing was changed.`);
		giveUp(why);
		return undefined;
	}
}

function parts(action: string): { hint: string; action: string } {
	return { hint: `⇥ Tab: ${action}`, action };
}

/**
 * Asks the rename provider for the edit of a rename suggestion and waits up to
 * {@link RENAME_GRACE_MS} for it: the edit with its hint, the hint saying it waits with the
 * answer on its way, or (a string) why the rename cannot be done.
 */
export async function prepareRename(
	document: vscode.TextDocument,
	position: { line: number; character: number },
	newName: string,
	inWorkspace: (uri: vscode.Uri) => boolean,
): Promise<RenameParts | string> {
	const at = new vscode.Position(position.line, position.character);
	const word = document.getWordRangeAtPosition(at);
	const pending = new PendingRename(word ? document.getText(word) : 'symbol', newName, renameEdit(document.uri, at, newName, inWorkspace));
	let timer: NodeJS.Timeout | undefined;
	const early = await Promise.race([pending.done, new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), RENAME_GRACE_MS)))]);
	clearTimeout(timer);
	if (typeof early === 'string') {
		return early;
	}
	return early ? { renameEdit: early, ...pending.ready(early) } : { pendingRename: pending, ...pending.waiting() };
}

async function renameEdit(uri: vscode.Uri, at: vscode.Position, newName: string, inWorkspace: (uri: vscode.Uri) => boolean): Promise<RenameOutcome> {
	try {
		const edit = await vscode.commands.executeCommand<vscode.WorkspaceEdit | undefined>('vscode.executeDocumentRenameProvider', uri, at, newName);
		if (!edit || edit.size === 0) {
			return 'no rename provider can rename the symbol there';
		}
		for (const [changed] of edit.entries()) {
			if (changed.scheme !== 'file' || !inWorkspace(changed)) {
				return `the rename would change ${changed.toString()}, outside the workspace folders`;
			}
		}
		return edit;
	} catch (error) {
		return `the rename provider refused: ${errorMessage(error)}`;
	}
}
