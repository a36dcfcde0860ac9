/**
 * The life of the suggestion that shows: showing it (context keys before the hint), keeping
 * ghost text the user types along, ending it when its document changes, the cursor leaves,
 * another editor comes or its document closes, the rename that waits for its provider, the
 * completion list in its way, and the Tab key's context.
 *
 * It must not choose what to show (presenter.ts), send requests (requests.ts), apply edits
 * (applySuggestion.ts) or decide the Tab chain (common/nes/tabChain.ts): it ends a suggestion
 * through `reject`, which settles its outcome with the session.
 */
import * as vscode from 'vscode';
import { followGhost } from '../../common/nes/classify';
import { inTheWay } from '../../common/nes/completionList';
import type { NesRejectReason } from '../../common/nes/lifecycle';
import type { TimingsRecorder } from '../../common/nes/timings';
import type { ExtensionLog } from '../log';
import type { PendingRename } from './pendingRename';
import type { ShownSuggestion, SuggestionView } from './view';

/** Context keys the keybindings in package.json test. */
export const NesContextKeys = {
	/** A suggestion of ours other than ghost text is showing in the active editor (Tab applies it). */
	suggestionVisible: 'agentLink.nes.suggestionVisible',
	/** Our ghost text is offered in the active editor (Escape dismisses it and tells the agent). */
	ghostVisible: 'agentLink.nes.ghostVisible',
	/**
	 * Tab is ours: a suggestion other than ghost text shows, or one was just applied and Tab is
	 * for the next (README, "Tab, Tab, Tab"). One key, true all the way from the first to the
	 * next suggestion, so that no Tab pressed during an accept falls through to indenting.
	 */
	tab: 'agentLink.nes.tab',
} as const;

export interface Current extends ShownSuggestion {
	/** Set when the user typed the whole ghost text (or VS Code inserted it): the accept command may still come. */
	consumed?: boolean;
	/** Ghost text: the cursor line as it was when shown (or last kept while typing). */
	lineText?: string;
	/** A rename: Tab was pressed before the rename provider answered, and waits for it. */
	renameTabbed?: boolean;
}

export interface ShowingDeps {
	readonly view: SuggestionView;
	readonly log: ExtensionLog;
	readonly timings: TimingsRecorder;
	/** Settles a suggestion that ends unaccepted; false when it was settled already. */
	reject(id: string, reason: NesRejectReason): boolean;
	/** Whether Tab is waiting for the next suggestion after an accept. */
	chainPending(): boolean;
	/** What shows changed: the status may change. */
	stateChanged(): void;
}

export class Showing implements vscode.Disposable {
	private currentValue: Current | undefined;
	/** The document of the editor it shows in. */
	private shownIn: string | undefined;
	/** The suggestion a completion list in its way was closed for: once per suggestion. */
	private listClosedFor: string | undefined;
	private tabKey = false;
	private readonly emitter = new vscode.EventEmitter<ShownSuggestion | undefined>();

	/** A suggestion appeared, changed or went away. */
	readonly onDidChange = this.emitter.event;
	/** Whether the keybindings know about what is shown (the context key reached the editor). */
	keysReady = false;

	constructor(private readonly deps: ShowingDeps) {}

	get current(): Current | undefined {
		return this.currentValue;
	}

	show(shown: ShownSuggestion, editor: vscode.TextEditor): void {
		const p = shown.presentation;
		const current: Current = p.kind === 'ghost' ? { ...shown, lineText: editor.document.lineAt(p.at.line).text } : shown;
		this.currentValue = current;
		this.shownIn = editor.document.uri.toString();
		this.keysReady = false;
		// The keys before the hint: the editor takes the two in this order, so no Tab meets the hint
		// on screen with the key still off.
		const keys = Promise.all([setContext(NesContextKeys.suggestionVisible, p.kind !== 'ghost'), this.updateTabKey()]);
		this.deps.view.show(shown, editor);
		void keys.then(() => {
			if (this.currentValue?.presentation.id === p.id) {
				this.keysReady = true;
				this.emitter.fire(this.currentValue);
			}
		});
		void shown.pendingRename?.done.then(() => this.renameSettled(p.id));
		this.deps.timings.shown(performance.now());
		this.deps.log.debug(`Showing suggestion ${p.id} (${p.kind}): ${shown.hint}`);
		this.emitter.fire(current);
		this.deps.stateChanged();
		this.closeListInTheWay();
	}

	/** What shows changes in place (same suggestion, new hint or edit). */
	replace(next: Current): void {
		this.currentValue = next;
		const editor = vscode.window.activeTextEditor;
		if (editor && editor.document.uri.toString() === this.shownIn) {
			this.deps.view.show(next, editor);
		}
		this.emitter.fire(next);
	}

	/** Ends what is showing with a rejection. */
	end(reason: NesRejectReason, why: string): void {
		const current = this.currentValue;
		if (!current) {
			return;
		}
		this.clear();
		if (this.deps.reject(current.presentation.id, reason)) {
			this.deps.log.debug(`Suggestion ${current.presentation.id}: ${reason} (${why}).`);
		}
	}

	/** Takes what shows off the screen, its outcome left to the caller. */
	clear(): void {
		if (!this.currentValue) {
			return;
		}
		this.currentValue = undefined;
		this.shownIn = undefined;
		this.deps.view.clear();
		void setContext(NesContextKeys.suggestionVisible, false);
		void setContext(NesContextKeys.ghostVisible, false);
		void this.updateTabKey();
		this.emitter.fire(undefined);
		this.deps.stateChanged();
	}

	/** Sets {@link NesContextKeys.tab} when it changes; resolves once the editor has it. */
	updateTabKey(): Thenable<unknown> {
		const value = (this.currentValue !== undefined && this.currentValue.presentation.kind !== 'ghost') || this.deps.chainPending();
		if (value === this.tabKey) {
			return Promise.resolve();
		}
		this.tabKey = value;
		return setContext(NesContextKeys.tab, value);
	}

	/** The editor offered ghost text `id`; whether it is ours (Escape is ours from now on). */
	ghostOffered(id: string): boolean {
		if (this.currentValue?.presentation.id !== id) {
			return false;
		}
		void setContext(NesContextKeys.ghostVisible, true);
		return true;
	}

	/**
	 * A document changed (not by an accept). Ghost text the user is typing is kept along; any
	 * other edit of the suggestion's document ends it. Judged by the resulting text, not by the
	 * shape of the change: VS Code's own accept may replace what was typed.
	 */
	documentChanged(document: vscode.TextDocument, changes: readonly vscode.TextDocumentContentChangeEvent[]): void {
		const current = this.currentValue;
		if (!current || current.presentation.uri !== document.uri.toString()) {
			return;
		}
		const p = current.presentation;
		if (p.kind === 'ghost' && current.lineText !== undefined) {
			if (current.consumed) {
				return; // settled when the accept command comes or the next request is answered
			}
			const readLines = (from: number, count: number) =>
				from + count <= document.lineCount ? document.getText(new vscode.Range(from, 0, from + count - 1, document.lineAt(from + count - 1).text.length)) : undefined;
			const followed = followGhost(p, current.lineText, readLines);
			if (followed?.kind === 'consumed' && changes.every((c) => c.range.start.line === p.at.line)) {
				// All of it: VS Code's own accept (its command follows) or the user typed it out.
				this.currentValue = { ...current, consumed: true, version: document.version };
				return;
			}
			if (followed?.kind === 'advanced') {
				this.currentValue = { ...current, presentation: followed.ghost, version: document.version, lineText: followed.lineText };
				const editor = vscode.window.activeTextEditor;
				if (editor?.document === document) {
					// Asks the editor to show the rest, in case it dropped the ghost text meanwhile.
					this.deps.view.show(this.currentValue, editor);
				}
				this.emitter.fire(this.currentValue);
				return;
			}
		}
		this.end('ignored', 'the document changed');
	}

	/** The cursor moved: ghost text ends unless the cursor stays at its start; several cursors end any suggestion. */
	selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
		const current = this.currentValue;
		if (current && current.presentation.kind === 'ghost' && !current.consumed && event.textEditor.document.uri.toString() === current.presentation.uri) {
			const start = current.presentation.range.start;
			const at = event.selections[0]?.active;
			if (event.selections.length !== 1 || !at || at.line !== start.line || at.character !== start.character) {
				this.end('ignored', 'the cursor moved away');
			}
		} else if (current && event.selections.length > 1 && event.textEditor.document.uri.toString() === this.shownIn) {
			// Tab is the editor's with several cursors (package.json): the hint must not stay and promise it.
			this.end('ignored', 'several cursors');
		}
	}

	/** Another editor became active (not by an accept): what showed in the last one ends. */
	activeEditorChanged(editor: vscode.TextEditor | undefined): void {
		if (this.currentValue && (!editor || editor.document.uri.toString() !== this.shownIn)) {
			this.end('ignored', 'another editor became active');
		}
	}

	documentClosed(document: vscode.TextDocument): void {
		if (this.currentValue?.presentation.uri === document.uri.toString()) {
			this.end('ignored', 'its document was closed');
		}
	}

	/** The rename provider answered for the rename showing with no Tab waiting: the usual hint, or it goes. */
	private renameSettled(id: string): void {
		const current = this.currentValue;
		const outcome = current?.pendingRename?.outcome;
		if (!current?.pendingRename || current.presentation.id !== id || current.renameTabbed || outcome === undefined) {
			return;
		}
		if (typeof outcome === 'string') {
			this.deps.log.info(`Suggestion ${id} is withdrawn: ${outcome}.`);
			this.end('ignored', outcome);
		} else {
			this.replace({ ...current, renameEdit: outcome, ...current.pendingRename.ready(outcome) });
		}
	}

	/**
	 * Tab on a rename the provider has not answered yet: the hint says it waits, Tab stays ours
	 * (more Tabs queue behind this one), Escape or typing ends the wait. With its edit, or
	 * undefined (the user told why) when the provider refused or took too long.
	 */
	async renameOnTab(current: Current, pending: PendingRename): Promise<Current | undefined> {
		const id = current.presentation.id;
		this.replace({ ...current, renameTabbed: true, ...pending.tabbed() });
		const edit = await pending.forTab(this.onDidChange, () => this.currentValue?.presentation.id === id, (why) => {
			this.deps.log.warn(`Suggestion ${id} is not applied: ${why}.`);
			this.end('ignored', why);
		});
		return edit && { ...current, renameEdit: edit, ...pending.ready(edit) };
	}

	/**
	 * Closes VS Code's completion list when it only covers the suggestion: its selection is
	 * VS Code's (the user did not move it) and is the word already typed, so accepting it would
	 * change nothing and Tab would seem to do nothing. Such a list opens as the user types,
	 * sometimes a while after the suggestion showed (a language server starting). Once per
	 * suggestion: a list the user opens again (Ctrl+Space) is theirs. A list the user moved in,
	 * or whose item would change the text, is left alone, and Tab goes to the list (README,
	 * "Tab and the completion list").
	 */
	closeListInTheWay(): void {
		const current = this.currentValue;
		if (
			!current ||
			current.presentation.kind === 'ghost' ||
			this.listClosedFor === current.presentation.id ||
			vscode.window.activeTextEditor?.document.uri.toString() !== this.shownIn ||
			!inTheWay(this.deps.view.completionList)
		) {
			return;
		}
		this.listClosedFor = current.presentation.id;
		this.deps.log.debug(`Closing the completion list over suggestion ${current.presentation.id}: its selection is the word already typed.`);
		void this.deps.view.closeCompletionList();
	}

	dispose(): void {
		this.emitter.dispose();
	}
}

function setContext(key: string, value: boolean): Thenable<unknown> {
	return vscode.commands.executeCommand('setContext', key, value);
}
