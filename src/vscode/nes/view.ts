/**
 * How a suggestion appears in the editor, behind one seam
 * ({@link SuggestionView}) so that VS Code's proposed inline-edit API could
 * replace it if it is ever finalized (`shared/notes/nes-rendering.md`).
 *
 * {@link StableApiView} uses the stable API only: ghost text through an inline
 * completion provider (Tab is VS Code's own accept, `item.command` reports it),
 * decorations for everything else, with theme colours.
 */
import * as vscode from 'vscode';
import type { Presentation } from '../../common/nes/classify';
import { observeCompletionList, type CompletionList } from '../../common/nes/completionList';
import type { PendingRename } from './pendingRename';

export type Showable = Exclude<Presentation, { kind: 'invalid' }>;

/** A suggestion ready to show, with what was prepared for it. */
export interface ShownSuggestion {
	readonly presentation: Showable;
	/** The version of the target document the suggestion was made for. */
	readonly version: number;
	/** One line saying what Tab does ("Tab: apply edit at line 12"). */
	readonly hint: string;
	/** What Tab does, on its own ("apply edit at line 12"), for hints made elsewhere. */
	readonly action: string;
	/** For a rename: the edit VS Code's rename provider computed. */
	readonly renameEdit?: vscode.WorkspaceEdit;
	/** For a rename shown before the rename provider answered: its answer, on the way. */
	readonly pendingRename?: PendingRename;
	/** For a search and replace: the ranges that change and their new text. */
	readonly replacements?: readonly { readonly range: vscode.Range; readonly newText: string }[];
}

export interface SuggestionView extends vscode.Disposable {
	/** Shows `shown` for `editor` (the active editor), replacing what was shown. */
	show(shown: ShownSuggestion, editor: vscode.TextEditor): void;
	/** Removes whatever is shown. */
	clear(): void;
	/** VS Code inserted the ghost text of this suggestion id (its own Tab). */
	readonly onDidAcceptGhost: vscode.Event<string>;
	/** The ghost text of this suggestion id was offered to the editor. */
	readonly onDidOfferGhost: vscode.Event<string>;
	/**
	 * Tells the view whether an answer is on its way for a place (document URI, cursor), so
	 * that the editor's own request for inline completions there can wait for it instead of
	 * a second round trip after it arrives.
	 */
	setExpecting(expecting: (uri: string, position: vscode.Position) => boolean): void;
	/** The request that was expected ended without ghost text: nobody should wait for it any more. */
	settle(): void;
	/** VS Code's completion list (the suggest widget) open in the active editor, as far as the view can tell. */
	readonly completionList: CompletionList | undefined;
	/** The completion list opened, closed, or its selection changed. */
	readonly onDidChangeCompletionList: vscode.Event<CompletionList | undefined>;
	/** Closes the completion list. */
	closeCompletionList(): Thenable<unknown>;
}

interface Waiter {
	readonly document: vscode.TextDocument;
	readonly position: vscode.Position;
	readonly finish: (items: vscode.InlineCompletionItem[]) => void;
}

// The longest the editor's inline completion request waits for an answer on its way.
const WAIT_FOR_ANSWER_MS = 3000;

export const GHOST_ACCEPTED_COMMAND = 'agentLink.nes.ghostAccepted';

const asPosition = (p: { line: number; character: number }) => new vscode.Position(p.line, p.character);
const asRange = (r: { start: { line: number; character: number }; end: { line: number; character: number } }) => new vscode.Range(asPosition(r.start), asPosition(r.end));

// Decoration text cannot hold line breaks or render tabs reliably.
function oneLine(text: string, max = 80): string {
	const lines = text.split(/\r?\n/);
	let first = lines[0]!.replace(/\t/g, '    ');
	if (first.length > max) {
		first = `${first.slice(0, max)}…`;
	}
	return lines.length > 1 ? `${first}⏎ … (+${lines.length - 1} line${lines.length > 2 ? 's' : ''})` : first;
}

/** The stable-API rendering: ghost text plus decorations. */
export class StableApiView implements SuggestionView {
	private shown: ShownSuggestion | undefined;
	private editor: vscode.TextEditor | undefined;
	private readonly acceptEmitter = new vscode.EventEmitter<string>();
	private readonly offerEmitter = new vscode.EventEmitter<string>();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly removed: vscode.TextEditorDecorationType;
	private readonly inserted: vscode.TextEditorDecorationType;
	private readonly mark: vscode.TextEditorDecorationType;
	private readonly hint: vscode.TextEditorDecorationType;
	private expecting: ((uri: string, position: vscode.Position) => boolean) | undefined;
	private readonly waiters = new Set<Waiter>();
	/** The line the hint goes on while no completion list is open. */
	private hintLine: number | undefined;
	private list: { readonly document: vscode.TextDocument; readonly state: CompletionList } | undefined;
	private readonly listEmitter = new vscode.EventEmitter<CompletionList | undefined>();

	readonly onDidAcceptGhost = this.acceptEmitter.event;
	readonly onDidOfferGhost = this.offerEmitter.event;
	readonly onDidChangeCompletionList = this.listEmitter.event;

	constructor(extensionUri: vscode.Uri) {
		this.removed = vscode.window.createTextEditorDecorationType({
			textDecoration: 'line-through',
			backgroundColor: new vscode.ThemeColor('diffEditor.removedTextBackground'),
			borderColor: new vscode.ThemeColor('diffEditor.removedTextBorder'),
			borderStyle: 'solid',
			borderWidth: '0 0 0 0',
		});
		this.inserted = vscode.window.createTextEditorDecorationType({
			after: {
				backgroundColor: new vscode.ThemeColor('diffEditor.insertedTextBackground'),
				border: '1px solid',
				borderColor: new vscode.ThemeColor('diffEditor.insertedTextBorder'),
				color: new vscode.ThemeColor('editor.foreground'),
			},
		});
		this.mark = vscode.window.createTextEditorDecorationType({
			isWholeLine: true,
			gutterIconPath: vscode.Uri.joinPath(extensionUri, 'media', 'nes-gutter.svg'),
			gutterIconSize: 'contain',
			overviewRulerColor: new vscode.ThemeColor('editorOverviewRuler.infoForeground'),
			overviewRulerLane: vscode.OverviewRulerLane.Right,
		});
		this.hint = vscode.window.createTextEditorDecorationType({
			after: {
				color: new vscode.ThemeColor('editorCodeLens.foreground'),
				fontStyle: 'italic',
				margin: '0 0 0 2em',
			},
		});
		this.disposables.push(
			this.removed,
			this.inserted,
			this.mark,
			this.hint,
			vscode.languages.registerInlineCompletionItemProvider({ scheme: 'file' }, { provideInlineCompletionItems: (d, p, c, t) => this.provide(d, p, c, t) }),
			vscode.commands.registerCommand(GHOST_ACCEPTED_COMMAND, (id: unknown) => {
				if (typeof id === 'string') {
					this.acceptEmitter.fire(id);
				}
			}),
			// An edit or a cursor move closes or refilters the list: it is known again from the next
			// report. (Not every way of closing it is reported.)
			vscode.workspace.onDidChangeTextDocument((e) => {
				if (e.document === this.list?.document && e.contentChanges.length > 0) {
					this.setList(undefined, undefined);
				}
			}),
			vscode.window.onDidChangeTextEditorSelection((e) => {
				if (e.textEditor.document === this.list?.document) {
					this.setList(undefined, undefined);
				}
			}),
		);
	}

	get completionList(): CompletionList | undefined {
		return this.list && this.list.document === vscode.window.activeTextEditor?.document ? this.list.state : undefined;
	}

	closeCompletionList(): Thenable<unknown> {
		// VS Code does not ask the provider again when the list is closed this way.
		this.setList(undefined, undefined);
		return vscode.commands.executeCommand('hideSuggestWidget');
	}

	show(shown: ShownSuggestion, editor: vscode.TextEditor): void {
		this.clearDecorations();
		this.shown = shown;
		this.editor = editor;
		const p = shown.presentation;
		if (p.kind === 'ghost') {
			// The editor may already be waiting for it (provide); otherwise ask it to come and get it.
			let delivered = false;
			for (const waiter of [...this.waiters]) {
				const items = this.items(waiter.document, waiter.position);
				if (items.length > 0) {
					delivered = true;
				}
				waiter.finish(items);
			}
			if (!delivered) {
				void vscode.commands.executeCommand('editor.action.inlineSuggest.trigger');
			}
			return;
		}
		this.settle();
		const hintAt = editor.selection.active.line;
		this.hintLine = hintAt;
		if (p.kind === 'preview' && p.uri === editor.document.uri.toString()) {
			const removed: vscode.DecorationOptions[] = [];
			const inserted: vscode.DecorationOptions[] = [];
			const lines = new Set<number>();
			const hover = previewHover(editor.document, p.edits);
			for (const e of p.edits) {
				const range = asRange(e.range);
				lines.add(range.start.line);
				if (!range.isEmpty) {
					removed.push({ range, hoverMessage: hover });
				}
				if (e.newText !== '') {
					inserted.push({ range: new vscode.Range(range.end, range.end), hoverMessage: hover, renderOptions: { after: { contentText: oneLine(e.newText) } } });
				}
			}
			editor.setDecorations(this.removed, removed);
			editor.setDecorations(this.inserted, inserted);
			editor.setDecorations(this.mark, [...lines].map((l) => new vscode.Range(l, 0, l, 0)));
			const first = asRange(p.edits[0]!.range);
			const visible = editor.visibleRanges.some((r) => r.contains(first.start));
			// The hint sits on the preview's own line, or at the cursor when the preview is off screen.
			this.hintLine = visible ? first.end.line : hintAt;
		} else if (p.kind === 'searchAndReplace' && shown.replacements && p.uri === editor.document.uri.toString()) {
			const hover = new vscode.MarkdownString().appendMarkdown(`**Next edit suggestion**: replace ${shown.replacements.length} match(es)`);
			editor.setDecorations(
				this.removed,
				shown.replacements.map((r) => ({ range: r.range, hoverMessage: hover })),
			);
			editor.setDecorations(
				this.inserted,
				shown.replacements.map((r) => ({ range: new vscode.Range(r.range.end, r.range.end), renderOptions: { after: { contentText: oneLine(r.newText, 40) } } })),
			);
			editor.setDecorations(this.mark, shown.replacements.map((r) => new vscode.Range(r.range.start.line, 0, r.range.start.line, 0)));
		} else if ((p.kind === 'jump' || p.kind === 'rename') && p.uri === editor.document.uri.toString()) {
			const at = asPosition(p.position);
			editor.setDecorations(this.mark, [new vscode.Range(at.line, 0, at.line, 0)]);
		}
		this.renderHint();
	}

	/**
	 * The hint, where it can be read: an open completion list covers the lines below the
	 * cursor and takes Tab, so then the hint goes on the cursor's line and says how to reach
	 * the suggestion (README, "Tab and the completion list").
	 */
	private renderHint(): void {
		const { shown, editor, hintLine } = this;
		if (!shown || !editor || shown.presentation.kind === 'ghost' || hintLine === undefined) {
			return;
		}
		if (this.list?.document === editor.document) {
			this.showHint(editor, editor.selection.active.line, `Esc, then ⇥ Tab: ${shown.action}`);
		} else {
			this.showHint(editor, hintLine, shown.hint);
		}
	}

	private setList(document: vscode.TextDocument | undefined, state: CompletionList | undefined): void {
		const before = this.list?.state;
		this.list = document && state ? { document, state } : undefined;
		if (before?.at === state?.at && before?.moved === state?.moved && before?.noOp === state?.noOp) {
			return;
		}
		this.renderHint();
		this.listEmitter.fire(state);
	}

	private showHint(editor: vscode.TextEditor, line: number, text: string): void {
		const end = editor.document.lineAt(Math.min(line, editor.document.lineCount - 1)).range.end;
		editor.setDecorations(this.hint, [{ range: new vscode.Range(end, end), renderOptions: { after: { contentText: text } } }]);
	}

	setExpecting(expecting: (uri: string, position: vscode.Position) => boolean): void {
		this.expecting = expecting;
	}

	settle(): void {
		for (const waiter of [...this.waiters]) {
			waiter.finish([]);
		}
	}

	clear(): void {
		this.settle();
		const wasGhost = this.shown?.presentation.kind === 'ghost';
		this.clearDecorations();
		this.shown = undefined;
		this.editor = undefined;
		this.hintLine = undefined;
		if (wasGhost) {
			void vscode.commands.executeCommand('editor.action.inlineSuggest.hide');
		}
	}

	private clearDecorations(): void {
		const editors = new Set(vscode.window.visibleTextEditors);
		if (this.editor) {
			editors.add(this.editor);
		}
		for (const editor of editors) {
			for (const type of [this.removed, this.inserted, this.mark, this.hint]) {
				editor.setDecorations(type, []);
			}
		}
	}

	private provide(
		document: vscode.TextDocument,
		position: vscode.Position,
		context: vscode.InlineCompletionContext,
		token: vscode.CancellationToken,
	): vscode.InlineCompletionItem[] | Promise<vscode.InlineCompletionItem[]> {
		const selected = context.selectedCompletionInfo;
		// Asked again on every change of the list's selection, and without one once it closed.
		this.setList(
			document,
			observeCompletionList(
				this.list?.document === document ? this.list.state : undefined,
				selected && { at: `${document.uri.toString()}#${document.version}@${position.line}:${position.character}`, selected: selected.text, replaced: document.getText(selected.range) },
			),
		);
		if (selected !== undefined) {
			return []; // the suggest widget has a selection: ours would be in the way
		}
		const items = this.items(document, position);
		if (items.length > 0 || !this.expecting?.(document.uri.toString(), position)) {
			return items;
		}
		return new Promise((resolve) => {
			const finish = (result: vscode.InlineCompletionItem[]) => {
				if (this.waiters.delete(waiter)) {
					clearTimeout(timer);
					listener.dispose();
					resolve(result);
				}
			};
			const waiter: Waiter = { document, position, finish };
			const timer = setTimeout(() => finish([]), WAIT_FOR_ANSWER_MS);
			const listener = token.onCancellationRequested(() => finish([]));
			this.waiters.add(waiter);
		});
	}

	/** Our ghost text as an inline completion at `position`, if it applies there. */
	private items(document: vscode.TextDocument, position: vscode.Position): vscode.InlineCompletionItem[] {
		const p = this.shown?.presentation;
		if (!p || p.kind !== 'ghost' || p.uri !== document.uri.toString()) {
			return [];
		}
		let insertText = p.insertText;
		let range = asRange(p.range);
		if (position.line !== p.range.start.line || position.character < p.range.start.character) {
			return [];
		}
		if (position.character > p.range.start.character) {
			// VS Code may ask before the controller heard of the keystrokes that led here: keep the
			// suggestion when what was typed since is how it begins.
			const typed = document.lineAt(position.line).text.slice(p.range.start.character, position.character);
			if (insertText !== p.text || !insertText.startsWith(typed) || typed.length === insertText.length) {
				return [];
			}
			insertText = insertText.slice(typed.length);
			range = new vscode.Range(position, position);
		}
		const item = new vscode.InlineCompletionItem(insertText, range, { title: 'Accept next edit suggestion', command: GHOST_ACCEPTED_COMMAND, arguments: [p.id] });
		this.offerEmitter.fire(p.id);
		return [item];
	}

	dispose(): void {
		this.clear();
		for (const d of this.disposables) {
			d.dispose();
		}
		this.acceptEmitter.dispose();
		this.offerEmitter.dispose();
		this.listEmitter.dispose();
	}
}

function previewHover(document: vscode.TextDocument, edits: readonly { range: { start: { line: number; character: number }; end: { line: number; character: number } }; newText: string }[]): vscode.MarkdownString {
	const md = new vscode.MarkdownString();
	md.appendMarkdown('**Next edit suggestion** (Tab applies, Escape dismisses)\n');
	const diff: string[] = [];
	for (const e of edits) {
		const range = asRange(e.range);
		const first = document.lineAt(range.start.line).text;
		const last = document.lineAt(Math.min(range.end.line, document.lineCount - 1)).text;
		const oldLines = document.getText(new vscode.Range(range.start.line, 0, range.end.line, last.length)).split(/\r?\n/);
		const newText = first.slice(0, range.start.character) + e.newText + last.slice(range.end.character);
		diff.push(`@@ line ${range.start.line + 1} @@`, ...oldLines.map((l) => `-${l}`), ...newText.split(/\r?\n/).map((l) => `+${l}`));
	}
	md.appendCodeblock(diff.join('\n'), 'diff');
	return md;
}
