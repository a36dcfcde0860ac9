/**
 * Records, while an NES session is open, what the suggestion context needs
 * from the past: edits (`editHistory`), user actions (`userActions`) and when
 * each file was last focused (`openFiles`, `recentFiles`); and looks up
 * `relatedSnippets` in the background while the cursor rests. Only `file:`
 * documents, only what the session's agent declared; everything is dropped
 * when the session ends. The rules live in `src/common/nes/` (editHistory,
 * userActions); this class feeds them VS Code's events.
 */
import * as vscode from 'vscode';
import { contextMaxCount, type RelatedSnippetInput } from '../../common/nes/context';
import { EditHistory, type TextReplacement } from '../../common/nes/editHistory';
import type { NesProfile } from '../../common/nes/protocol';
import { UserActionRecorder, type EditReason } from '../../common/nes/userActions';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import type { NesSession, NesSessionManager } from './nesSession';
import { RelatedSnippetsCache } from './relatedSnippets';

/** What has been recorded for the open session. */
export interface Recording {
	/** When the agent declared `editHistory`. */
	readonly editHistory: EditHistory | undefined;
	/** When the agent declared `userActions`. */
	readonly userActions: UserActionRecorder | undefined;
	/** When the agent declared `relatedSnippets`: looked up while the cursor rests. */
	readonly relatedSnippets: RelatedSnippetsCache | undefined;
	/** When `uri` was last the active editor's document during the session (epoch ms). */
	lastFocusedMs(uri: string): number | undefined;
	/** Files focused during the session, most recent first. */
	recentlyFocused(): string[];
}

// Focus times remembered: plenty for `recentFiles`/`openFiles`, small enough to never matter.
const MAX_FOCUS_ENTRIES = 200;

/**
 * The recording of one session: its event handlers are called by
 * {@link ContextRecorder} (and, to time them, by the in-editor benchmark).
 */
export class SessionRecording implements Recording, vscode.Disposable {
	readonly editHistory: EditHistory | undefined;
	readonly userActions: UserActionRecorder | undefined;
	readonly relatedSnippets: RelatedSnippetsCache | undefined;
	readonly disposables: vscode.Disposable[] = [];
	private readonly focus = new Map<string, number>();
	/** Documents too large to copy for the edit history, so each keystroke there costs nothing. */
	private readonly tooLarge = new Set<string>();

	constructor(
		profile: Pick<NesProfile, 'context' | 'encoding'>,
		private readonly maxFileBytes: number,
	) {
		const { context, encoding } = profile;
		this.editHistory = context.editHistory ? new EditHistory() : undefined;
		this.userActions = context.userActions ? new UserActionRecorder(encoding) : undefined;
		const snippets = contextMaxCount(profile, 'relatedSnippets');
		this.relatedSnippets = snippets !== undefined ? new RelatedSnippetsCache({ maxCount: snippets, maxFileBytes }) : undefined;
	}

	lastFocusedMs(uri: string): number | undefined {
		return this.focus.get(uri);
	}

	recentlyFocused(): string[] {
		return [...this.focus.keys()].reverse();
	}

	focused(editor: vscode.TextEditor | undefined): void {
		if (!editor || !isFile(editor.document)) {
			return;
		}
		const uri = editor.document.uri.toString();
		// Re-inserted so the map's order is the focus order.
		this.focus.delete(uri);
		this.focus.set(uri, Date.now());
		if (this.focus.size > MAX_FOCUS_ENTRIES) {
			this.focus.delete(this.focus.keys().next().value!);
		}
		this.track(editor.document);
		this.relatedSnippets?.schedule(editor);
	}

	/** Starts copying a document for the edit history (if it is small enough and not copied yet). */
	track(document: vscode.TextDocument): void {
		const history = this.editHistory;
		if (!history || !isFile(document)) {
			return;
		}
		const uri = document.uri.toString();
		if (history.isTracked(uri) || this.tooLarge.has(uri)) {
			return;
		}
		const text = document.getText();
		if (Buffer.byteLength(text, 'utf8') > this.maxFileBytes) {
			this.tooLarge.add(uri);
			return;
		}
		history.track(uri, text);
	}

	changed(event: vscode.TextDocumentChangeEvent): void {
		const { document } = event;
		// Copied at once: other extensions have been seen mutating the array.
		const changes = [...event.contentChanges];
		const first = changes[0];
		if (!first || !isFile(document)) {
			return;
		}
		const now = Date.now();
		const uri = document.uri.toString();
		const history = this.editHistory;
		if (history) {
			if (!history.isTracked(uri)) {
				// An edit in a document never shown: recorded from the next change on.
				this.track(document);
			} else if (!history.apply(uri, changes.map(toReplacement), now)) {
				history.track(uri, document.getText());
			}
		}
		if (this.userActions) {
			const reason: EditReason =
				event.reason === vscode.TextDocumentChangeReason.Undo ? 'undo' : event.reason === vscode.TextDocumentChangeReason.Redo ? 'redo' : undefined;
			const { line, character } = first.range.start;
			this.userActions.recordEdit(uri, document.version, reason, changes, { line, character, lineText: () => document.lineAt(line).text }, now);
		}
	}

	selected(event: vscode.TextEditorSelectionChangeEvent): void {
		const document = event.textEditor.document;
		const selection = event.selections[0];
		if (!selection || !isFile(document)) {
			return;
		}
		if (event.textEditor === vscode.window.activeTextEditor) {
			this.relatedSnippets?.schedule(event.textEditor);
		}
		if (!this.userActions) {
			return;
		}
		const { line, character } = selection.active;
		this.userActions.recordSelection(
			document.uri.toString(),
			document.version,
			selection.isEmpty,
			{ line, character, lineText: () => document.lineAt(line).text },
			Date.now(),
			event.kind === vscode.TextEditorSelectionChangeKind.Mouse,
		);
	}

	closed(document: vscode.TextDocument): void {
		const uri = document.uri.toString();
		this.editHistory?.untrack(uri);
		this.tooLarge.delete(uri);
	}

	dispose(): void {
		for (const d of this.disposables) {
			d.dispose();
		}
		this.relatedSnippets?.dispose();
	}
}

export class ContextRecorder implements vscode.Disposable {
	/** Related snippets from other sources (OpenCtx annotations), added after the definitions. */
	extraSnippets: ((document: vscode.TextDocument, maxFileBytes: number) => Promise<RelatedSnippetInput[]>) | undefined;
	private active: { readonly session: NesSession; readonly recording: SessionRecording } | undefined;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly nes: NesSessionManager,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.disposables.push(nes.forEachSession((session) => this.start(session)));
	}

	/** What has been recorded for the session that is open now. */
	get recording(): Recording | undefined {
		const active = this.active;
		return active && active.session === this.nes.current ? active.recording : undefined;
	}

	/** Starts tracking for `session`; the result ends it (forEachSession disposes it only for this session). */
	private start(session: NesSession): vscode.Disposable {
		this.stop();
		// Read once per session, as the document events do: a file is in or out for the whole session.
		const recording = new SessionRecording(session.profile, this.config.current.nes.maxFileBytes);
		this.active = { session, recording };
		const { context } = session.profile;
		const wantsFocus = context.openFiles !== undefined || context.recentFiles !== undefined || recording.relatedSnippets !== undefined;
		if (!wantsFocus && !recording.editHistory && !recording.userActions) {
			return this.scope();
		}
		recording.disposables.push(
			vscode.window.onDidChangeActiveTextEditor((editor) => recording.focused(editor)),
			vscode.window.onDidChangeVisibleTextEditors((editors) => editors.forEach((e) => recording.track(e.document))),
			vscode.workspace.onDidCloseTextDocument((document) => recording.closed(document)),
		);
		if (recording.editHistory || recording.userActions) {
			recording.disposables.push(vscode.workspace.onDidChangeTextDocument((event) => recording.changed(event)));
		}
		if (recording.userActions || recording.relatedSnippets) {
			recording.disposables.push(vscode.window.onDidChangeTextEditorSelection((event) => recording.selected(event)));
		}
		for (const editor of vscode.window.visibleTextEditors) {
			recording.track(editor.document);
		}
		recording.focused(vscode.window.activeTextEditor);
		this.log.debug(
			`Recording suggestion context for NES session ${session.id}:${recording.editHistory ? ' edit history' : ''}${recording.userActions ? ' user actions' : ''}${recording.relatedSnippets ? ' related snippets' : ''}${wantsFocus ? ' focus' : ''}.`,
		);
		return this.scope();
	}

	private scope(): vscode.Disposable {
		return new vscode.Disposable(() => this.stop());
	}

	private stop(): void {
		this.active?.recording.dispose();
		this.active = undefined;
	}

	dispose(): void {
		this.stop();
		for (const d of this.disposables) {
			d.dispose();
		}
	}
}

function isFile(document: vscode.TextDocument): boolean {
	return document.uri.scheme === 'file';
}

function toReplacement(change: vscode.TextDocumentContentChangeEvent): TextReplacement {
	const { start, end } = change.range;
	return { startLine: start.line, startCharacter: start.character, endLine: end.line, endCharacter: end.character, text: change.text };
}
