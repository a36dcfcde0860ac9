/**
 * NES document events: tells the agent of the NES session about `file:`
 * documents as the editor opens, changes, saves, closes and focuses them
 * (`didOpen` … `didFocus`, only those the agent declared; protocols.md §2).
 * The rules (open/close pairing, size limit, encodings, sync kinds) live in
 * {@link DocumentSyncCore}; this class feeds it VS Code's events for as long
 * as a session lasts.
 */
import * as vscode from 'vscode';
import { DocumentSyncCore, copyContentChanges } from '../../common/nes/documentSyncCore';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import type { NesSession, NesSessionManager } from './nesSession';
import { documentLines } from './positionConverter';

interface ActiveSync {
	readonly session: NesSession;
	readonly core: DocumentSyncCore;
	readonly disposables: vscode.Disposable[];
}

/**
 * When an editor becomes active, VS Code reports its restored or requested
 * cursor and scroll position in separate, later events (seen on 1.100: a
 * `showTextDocument` with a selection activates the editor with the cursor
 * at 0:0 first). `didFocus` waits until these have been quiet this long …
 */
const FOCUS_QUIET_MS = 60;
/** … but no longer than this after the switch. */
const FOCUS_MAX_WAIT_MS = 400;

export class DocumentSync implements vscode.Disposable {
	private active: ActiveSync | undefined;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		nes: NesSessionManager,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.disposables.push(nes.forEachSession((session) => this.start(session)));
	}

	/** The URIs the agent of the current session has been told are open. */
	openDocuments(): readonly string[] {
		return this.active?.core.openUris() ?? [];
	}

	/** Whether a shadow copy of `uri` is kept (only for incremental sync in UTF-8 or UTF-32). */
	hasShadowCopy(uri: string): boolean {
		return this.active?.core.hasShadow(uri) ?? false;
	}

	/** Starts tracking for `session`; the result ends it (forEachSession disposes it only for this session). */
	private start(session: NesSession): vscode.Disposable {
		this.stop();
		const { profile } = session;
		const core = new DocumentSyncCore({
			events: profile.events,
			encoding: profile.encoding,
			// Read once per session, so a document is in or out for the whole session.
			maxFileBytes: this.config.current.nes.maxFileBytes,
			byteLength: (text) => Buffer.byteLength(text, 'utf8'),
			send: (event, params) => session.notify(event, params),
			log: (message) => this.log.info(message),
		});
		const disposables: vscode.Disposable[] = [];
		this.active = { session, core, disposables };
		if (!Object.values(profile.events).some(Boolean)) {
			return this.scope(); // no document events declared: nothing to track
		}
		const open = (document: vscode.TextDocument) => {
			if (isFile(document)) {
				core.didOpen(document.uri.toString(), document.languageId, document.version, () => document.getText());
			}
		};
		const focus = new PendingFocus((editor) => {
			const { document, selection, visibleRanges } = editor;
			const first = visibleRanges[0];
			const last = visibleRanges[visibleRanges.length - 1];
			// Before its first layout an editor can report no visible range: use the cursor's line.
			const visible = first && last ? { start: first.start, end: last.end } : document.lineAt(selection.active.line).range;
			core.didFocus(document.uri.toString(), document.version, selection.active, visible, documentLines(document));
		});
		disposables.push(
			focus,
			vscode.workspace.onDidOpenTextDocument(open),
			vscode.workspace.onDidChangeTextDocument((event) => {
				const { document, contentChanges } = event;
				if (contentChanges.length > 0 && isFile(document)) {
					// Copied at once into plain objects: other listeners have been seen mutating the array.
					core.didChange(document.uri.toString(), document.version, copyContentChanges(contentChanges), () => document.getText());
				}
			}),
			vscode.workspace.onDidSaveTextDocument((document) => {
				if (isFile(document)) {
					core.didSave(document.uri.toString());
				}
			}),
			vscode.workspace.onDidCloseTextDocument((document) => {
				if (isFile(document)) {
					core.didClose(document.uri.toString());
				}
			}),
			vscode.window.onDidChangeActiveTextEditor((editor) => focus.schedule(editor && isFile(editor.document) ? editor : undefined)),
			vscode.window.onDidChangeTextEditorSelection((event) => focus.settling(event.textEditor)),
			vscode.window.onDidChangeTextEditorVisibleRanges((event) => focus.settling(event.textEditor)),
		);
		for (const document of vscode.workspace.textDocuments) {
			open(document);
		}
		const editor = vscode.window.activeTextEditor;
		if (editor && isFile(editor.document)) {
			focus.schedule(editor);
			focus.flush();
		}
		return this.scope();
	}

	private scope(): vscode.Disposable {
		return new vscode.Disposable(() => this.stop());
	}

	private stop(): void {
		const active = this.active;
		this.active = undefined;
		for (const d of active?.disposables.splice(0) ?? []) {
			d.dispose();
		}
	}

	dispose(): void {
		this.stop();
		for (const d of this.disposables.splice(0)) {
			d.dispose();
		}
	}
}

/**
 * The `didFocus` of the editor that just became active, held until its cursor
 * and visible range settle (see {@link FOCUS_QUIET_MS}). Every switch is
 * sent: a new switch sends the held one first. It carries the document's
 * version when it is sent, and every change up to that version has been sent
 * by then (changes go out as they happen).
 */
class PendingFocus implements vscode.Disposable {
	private editor: vscode.TextEditor | undefined;
	private timer: NodeJS.Timeout | undefined;
	private deadline = 0;

	constructor(private readonly send: (editor: vscode.TextEditor) => void) {}

	schedule(editor: vscode.TextEditor | undefined): void {
		this.flush();
		if (editor) {
			this.editor = editor;
			this.deadline = Date.now() + FOCUS_MAX_WAIT_MS;
			this.timer = setTimeout(() => this.flush(), FOCUS_QUIET_MS);
		}
	}

	/** The held editor's cursor or visible range moved: wait a little longer (up to the deadline). */
	settling(editor: vscode.TextEditor): void {
		if (editor === this.editor) {
			clearTimeout(this.timer);
			this.timer = setTimeout(() => this.flush(), Math.max(0, Math.min(FOCUS_QUIET_MS, this.deadline - Date.now())));
		}
	}

	flush(): void {
		const editor = this.editor;
		if (editor) {
			this.dispose();
			this.send(editor);
		}
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.timer = undefined;
		this.editor = undefined;
	}
}

/** Only documents backed by a file on disk are sent (not untitled, diff, output or notebook-cell documents). */
function isFile(document: vscode.TextDocument): boolean {
	return document.uri.scheme === 'file';
}
