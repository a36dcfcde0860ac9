/**
 * NES document events: tells the agent of the NES session about `file:`
 * documents as the editor opens, changes, saves, closes and focuses them
 * (`didOpen` … `didFocus`, only those the agent declared; protocols.md §2).
 * The rules (open/close pairing, size limit, encodings, sync kinds) live in
 * {@link DocumentSyncCore}; this class feeds it VS Code's events for as long
 * as a session lasts.
 */
import * as vscode from 'vscode';
import { DocumentSyncCore, type ContentChange } from '../../common/nes/documentSyncCore';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import type { NesSession, NesSessionManager } from './nesSession';
import { documentLines } from './positionConverter';

interface ActiveSync {
	readonly session: NesSession;
	readonly core: DocumentSyncCore;
	readonly disposables: vscode.Disposable[];
}

export class DocumentSync implements vscode.Disposable {
	private active: ActiveSync | undefined;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		nes: NesSessionManager,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.disposables.push(
			nes.onDidStart((session) => this.start(session)),
			nes.onDidEnd((session) => {
				if (this.active?.session === session) {
					this.stop();
				}
			}),
		);
		if (nes.current) {
			this.start(nes.current);
		}
	}

	/** The URIs the agent of the current session has been told are open. */
	openDocuments(): readonly string[] {
		return this.active?.core.openUris() ?? [];
	}

	/** Whether a shadow copy of `uri` is kept (only for incremental sync in UTF-8 or UTF-32). */
	hasShadowCopy(uri: string): boolean {
		return this.active?.core.hasShadow(uri) ?? false;
	}

	private start(session: NesSession): void {
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
			return; // no document events declared: nothing to track
		}
		const open = (document: vscode.TextDocument) => {
			if (isFile(document)) {
				core.didOpen(document.uri.toString(), document.languageId, document.version, () => document.getText());
			}
		};
		const focus = (editor: vscode.TextEditor | undefined) => {
			if (editor && isFile(editor.document)) {
				const { document, selection, visibleRanges } = editor;
				const first = visibleRanges[0];
				const last = visibleRanges[visibleRanges.length - 1];
				// Before its first layout an editor can report no visible range: use the cursor's line.
				const visible = first && last ? { start: first.start, end: last.end } : document.lineAt(selection.active.line).range;
				core.didFocus(document.uri.toString(), document.version, selection.active, visible, documentLines(document));
			}
		};
		disposables.push(
			vscode.workspace.onDidOpenTextDocument(open),
			vscode.workspace.onDidChangeTextDocument((event) => {
				const { document, contentChanges } = event;
				if (contentChanges.length > 0 && isFile(document)) {
					// Copied at once into plain objects: other listeners have been seen mutating the array.
					core.didChange(document.uri.toString(), document.version, copyChanges(contentChanges), () => document.getText());
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
			vscode.window.onDidChangeActiveTextEditor(focus),
		);
		for (const document of vscode.workspace.textDocuments) {
			open(document);
		}
		focus(vscode.window.activeTextEditor);
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

/** Only documents backed by a file on disk are sent (not untitled, diff, output or notebook-cell documents). */
function isFile(document: vscode.TextDocument): boolean {
	return document.uri.scheme === 'file';
}

function copyChanges(changes: readonly vscode.TextDocumentContentChangeEvent[]): ContentChange[] {
	return changes.map(({ range: { start, end }, rangeLength, text }) => ({
		range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
		rangeLength,
		text,
	}));
}
