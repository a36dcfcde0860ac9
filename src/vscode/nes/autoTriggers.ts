/**
 * When suggestions are asked for without the user asking: the debounced automatic trigger after
 * typing or moving the cursor, a new problem near the cursor, no request for what undo or redo
 * made; and whether a request is on its way for the cursor (the view lets the editor wait).
 *
 * It must not send the request itself (it calls `request`), nor touch what shows or the Tab
 * chain. The decisions are pure and unit-tested (common/nes/triggers.ts); this owns the timer.
 */
import * as vscode from 'vscode';
import { severityName } from '../../common/nes/context';
import { ProblemWatch, schedulesAutomatic, type TriggerKind } from '../../common/nes/triggers';
import type { ConfigService } from '../config';

// Lines around the cursor where a new problem asks for a suggestion.
const DIAGNOSTIC_WINDOW = 3;

export interface AutoTriggerDeps {
	readonly config: ConfigService;
	/** Whether a session is open. */
	attached(): boolean;
	snoozed(): boolean;
	/** Whether a suggestion shows (a new problem then asks for none). */
	hasShown(): boolean;
	/** Whether a request is in flight. */
	inFlight(): boolean;
	request(kind: TriggerKind): void;
}

export class AutoTriggers implements vscode.Disposable {
	private debounce: NodeJS.Timeout | undefined;
	private debouncingValue = false;
	/** The document version an undo or redo produced: no automatic request for it. */
	private undoRedo: { uri: string; version: number } | undefined;
	private readonly problems = new ProblemWatch();

	constructor(private readonly deps: AutoTriggerDeps) {}

	/** Whether the automatic request's timer runs. */
	get debouncing(): boolean {
		return this.debouncingValue;
	}

	/** A document changed: remembers a version undo or redo made. */
	noteChange(event: vscode.TextDocumentChangeEvent): void {
		if (event.reason !== undefined) {
			this.undoRedo = { uri: event.document.uri.toString(), version: event.document.version };
		}
	}

	/** Whether `document` is as undo or redo left it. */
	isUndoRedo(document: vscode.TextDocument): boolean {
		return this.undoRedo?.uri === document.uri.toString() && this.undoRedo.version === document.version;
	}

	/** The user typed or moved: the automatic request after the debounce, if any may come. */
	schedule(): void {
		const scheduled = schedulesAutomatic({
			attached: this.deps.attached(),
			languageId: vscode.window.activeTextEditor?.document.languageId,
			disabledLanguages: this.deps.config.current.nes.disabledLanguages,
			snoozed: this.deps.snoozed(),
		});
		if (!scheduled) {
			return; // nothing automatic here: not even a timer (and nothing for the editor to wait for)
		}
		clearTimeout(this.debounce);
		this.debouncingValue = true;
		this.debounce = setTimeout(() => {
			this.debouncingValue = false;
			this.deps.request('automatic');
		}, this.deps.config.current.nes.debounceMs);
	}

	/** Drops the scheduled request (one is made now, or none may come). */
	cancel(): void {
		clearTimeout(this.debounce);
		this.debouncingValue = false;
	}

	/** Asks when the active document has a new error or warning near the cursor and nothing shows. */
	diagnosticsChanged(event: vscode.DiagnosticChangeEvent): void {
		const editor = vscode.window.activeTextEditor;
		if (!editor || !this.deps.attached()) {
			return;
		}
		const uri = editor.document.uri;
		if (!event.uris.some((u) => u.toString() === uri.toString())) {
			return;
		}
		const keys = vscode.languages.getDiagnostics(uri).map((d) => ({ line: d.range.start.line, severity: severityName(d.severity), message: d.message }));
		if (this.problems.update(uri.toString(), keys, editor.selection.active.line, DIAGNOSTIC_WINDOW) && !this.deps.hasShown()) {
			this.deps.request('diagnostic');
		}
	}

	/** Whether a request is scheduled or in flight for the cursor at `position` in `uri` (the view waits for it). */
	expecting(uri: string, position: vscode.Position): boolean {
		const editor = vscode.window.activeTextEditor;
		return this.deps.attached() && (this.debouncingValue || this.deps.inFlight()) && editor?.document.uri.toString() === uri && editor.selection.active.isEqual(position);
	}

	dispose(): void {
		this.cancel();
	}
}
