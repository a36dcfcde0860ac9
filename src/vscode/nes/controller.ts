/**
 * Next edit suggestions as the user types: when to ask (debounced automatic
 * trigger, `agentLink.nes.suggest`, new problems near the cursor), one request
 * in flight at a time, which suggestion to show, what Tab and Escape do, and
 * exactly one `nes/accept` or `nes/reject` per suggestion
 * (`shared/specs/protocols.md` §2). Decisions live in `src/common/nes`
 * (classify, lifecycle, triggers, searchReplace); drawing is the
 * {@link SuggestionView}'s.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/log';
import { classify, followGhost, pickBest, type Presentation } from '../../common/nes/classify';
import { inTheWay } from '../../common/nes/completionList';
import { RequestSequencer, SuggestionLedger, type NesRejectReason } from '../../common/nes/lifecycle';
import type { NesSuggestion } from '../../common/nes/protocol';
import { findMatches } from '../../common/nes/searchReplace';
import { isInsideFolders, newProblemNear, shouldTrigger, type DiagnosticKey, type TriggerKind } from '../../common/nes/triggers';
import { severityName } from '../../common/nes/context';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import type { ContextRecorder } from './contextRecorder';
import { documentConverter } from './positionConverter';
import type { NesSession, NesSessionManager } from './nesSession';
import { prepareRename, type PendingRename } from './pendingRename';
import { buildSuggestParams, toEditorCoordinates, withinSize, SUGGEST_COMMAND, type SuggestOutcome } from './suggest';
import type { ShownSuggestion, Showable, SuggestionView } from './view';

export const NesCommands = {
	suggest: SUGGEST_COMMAND,
	accept: 'agentLink.nes.accept',
	dismiss: 'agentLink.nes.dismiss',
	snooze: 'agentLink.nes.snooze',
} as const;

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

/** What the status bar shows about suggestions. */
export type NesDisplayState = 'off' | 'idle' | 'waiting' | 'pending' | 'snoozed';

// A manual request may wait a little for definition lookups that are not ready yet.
const MANUAL_SNIPPET_BUDGET_MS = 1000;
// An agent that never answers must not keep a request in flight forever.
const SUGGEST_TIMEOUT_MS = 30_000;
// How long a request is in flight before the status bar says so.
const WAITING_AFTER_MS = 300;
// Lines around the cursor where a new problem asks for a suggestion.
const DIAGNOSTIC_WINDOW = 3;
// After an accept, Tab waits for the next suggestion rather than indenting: until the agent has
// answered, and at least NEXT_WAIT_MS after the accept (a Tab pressed just after an answer of
// nothing still does nothing), but never longer than NEXT_WAIT_LIMIT_MS (an agent that is slow to
// answer gives Tab back).
const NEXT_WAIT_MS = 1000;
const NEXT_WAIT_LIMIT_MS = 5000;

interface Current extends ShownSuggestion {
	/** Set when the user typed the whole ghost text (or VS Code inserted it): the accept command may still come. */
	consumed?: boolean;
	/** Ghost text: the cursor line as it was when shown (or last kept while typing). */
	lineText?: string;
	/** A rename: Tab was pressed before the rename provider answered, and waits for it. */
	renameTabbed?: boolean;
}

/** Everything tied to one NES session. */
class SessionScope {
	readonly ledger: SuggestionLedger;
	readonly sequencer = new RequestSequencer();
	inFlight: { ticket: number; cancel: vscode.CancellationTokenSource; since: number } | undefined;

	constructor(readonly session: NesSession) {
		this.ledger = new SuggestionLedger({ accept: (id) => session.accept(id), reject: (id, reason) => session.reject(id, reason) });
	}
}

export class NesController implements vscode.Disposable {
	private scope: SessionScope | undefined;
	private current: Current | undefined;
	private debounce: NodeJS.Timeout | undefined;
	private snoozedUntil: number | undefined;
	private snoozeTimer: NodeJS.Timeout | undefined;
	private waitingTimer: NodeJS.Timeout | undefined;
	private applying = 0;
	/** The document version an undo or redo produced: no automatic request for it. */
	private undoRedo: { uri: string; version: number } | undefined;
	private diagnosticsSnapshot: { uri: string; keys: DiagnosticKey[] } | undefined;
	private stateValue: NesDisplayState = 'off';
	/**
	 * Just after an accept, while Tab is for the next suggestion (README, "Tab, Tab, Tab"):
	 * `answered` settles once the request for it is answered (or the time is up).
	 */
	private next: { readonly answered: Promise<void>; readonly answer: () => void; readonly since: number; timer: NodeJS.Timeout } | undefined;
	/** Accepts run one after the other: a second Tab applies the suggestion the first one asked for. */
	private accepting: Promise<unknown> = Promise.resolve();
	/** The suggestion a completion list in its way was closed for: once per suggestion. */
	private listClosedFor: string | undefined;
	private readonly stateEmitter = new vscode.EventEmitter<NesDisplayState>();
	private readonly shownEmitter = new vscode.EventEmitter<ShownSuggestion | undefined>();
	private readonly disposables: vscode.Disposable[] = [];

	/** The status bar's part. */
	readonly onDidChangeState = this.stateEmitter.event;
	/** A suggestion appeared, changed or went away (for tests and the code action). */
	readonly onDidChangeShown = this.shownEmitter.event;

	constructor(
		private readonly nes: NesSessionManager,
		private readonly recorder: ContextRecorder,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
		private readonly view: SuggestionView,
	) {
		view.setExpecting((uri, position) => this.expecting(uri, position));
		this.disposables.push(
			nes.forEachSession((session) => this.attach(session)),
			vscode.commands.registerCommand(NesCommands.suggest, () => this.request('manual')),
			vscode.commands.registerCommand(NesCommands.accept, () => this.accept()),
			vscode.commands.registerCommand(NesCommands.dismiss, () => this.dismiss()),
			vscode.commands.registerCommand(NesCommands.snooze, (minutes?: unknown) => this.snooze(minutes)),
			view.onDidAcceptGhost((id) => this.ghostAccepted(id)),
			view.onDidChangeCompletionList(() => this.closeListInTheWay()),
			view.onDidOfferGhost((id) => {
				if (this.current?.presentation.id === id) {
					if (this.lastTimings && this.lastTimings.offeredAt === undefined) {
						this.lastTimings.offeredAt = performance.now();
					}
					void this.setContext(NesContextKeys.ghostVisible, true);
				}
			}),
			vscode.workspace.onDidChangeTextDocument((e) => this.documentChanged(e)),
			vscode.window.onDidChangeTextEditorSelection((e) => this.selectionChanged(e)),
			vscode.window.onDidChangeActiveTextEditor(() => this.activeEditorChanged()),
			vscode.languages.onDidChangeDiagnostics((e) => this.diagnosticsChanged(e)),
			vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new SuggestionCodeActions(this), { providedCodeActionKinds: [vscode.CodeActionKind.QuickFix] }),
			vscode.workspace.onDidCloseTextDocument((d) => {
				const p = this.current?.presentation;
				if (p && p.uri === d.uri.toString()) {
					this.end('ignored', 'its document was closed');
				}
			}),
		);
		this.updateState();
	}

	/** What is showing now (tests read it). */
	get shown(): ShownSuggestion | undefined {
		return this.current;
	}

	get state(): NesDisplayState {
		return this.stateValue;
	}

	private attach(session: NesSession): vscode.Disposable {
		const scope = new SessionScope(session);
		this.scope = scope;
		this.updateState();
		return new vscode.Disposable(() => {
			// The session is ending (agent stopping, NES turned off, window closing): every
			// suggestion still owes its outcome, sent while the connection still works.
			this.cancelInFlight(scope);
			this.endNext();
			this.clearShown();
			scope.ledger.rejectAll('ignored');
			if (this.scope === scope) {
				this.scope = undefined;
			}
			clearTimeout(this.debounce);
			this.debouncing = false;
			this.updateState();
		});
	}

	// ---- triggers -------------------------------------------------------------------------

	private documentChanged(event: vscode.TextDocumentChangeEvent): void {
		if (event.contentChanges.length === 0) {
			return;
		}
		const changes = [...event.contentChanges];
		this.lastChangeAt = performance.now();
		if (event.reason !== undefined) {
			this.undoRedo = { uri: event.document.uri.toString(), version: event.document.version };
		}
		const uri = event.document.uri.toString();
		const current = this.current;
		if (current && this.applying === 0 && affects(current.presentation, uri)) {
			this.followEdit(current, event.document, changes);
		}
		const editor = vscode.window.activeTextEditor;
		if (this.applying === 0 && editor && editor.document === event.document) {
			this.endNext(); // the user typed on: their next Tab is theirs
			this.schedule();
		}
	}

	/**
	 * Keeps ghost text the user is typing along; any other edit of the
	 * suggestion's document ends it. Judged by the resulting text, not by the
	 * shape of the change: VS Code's own accept may replace what was typed.
	 */
	private followEdit(current: Current, document: vscode.TextDocument, changes: vscode.TextDocumentContentChangeEvent[]): void {
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
				this.current = { ...current, consumed: true, version: document.version };
				return;
			}
			if (followed?.kind === 'advanced') {
				this.current = { ...current, presentation: followed.ghost, version: document.version, lineText: followed.lineText };
				const editor = vscode.window.activeTextEditor;
				if (editor?.document === document) {
					// Asks the editor to show the rest, in case it dropped the ghost text meanwhile.
					this.view.show(this.current, editor);
				}
				this.shownEmitter.fire(this.current);
				return;
			}
		}
		this.end('ignored', 'the document changed');
	}

	private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
		const current = this.current;
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
		if (event.textEditor === vscode.window.activeTextEditor && this.applying === 0 && event.kind !== vscode.TextEditorSelectionChangeKind.Command && event.kind !== undefined) {
			this.endNext();
			this.schedule();
		}
	}

	private activeEditorChanged(): void {
		const p = this.current?.presentation;
		const editor = vscode.window.activeTextEditor;
		if (this.applying === 0) {
			this.endNext();
		}
		if (p && this.applying === 0 && (!editor || editor.document.uri.toString() !== this.shownIn)) {
			this.end('ignored', 'another editor became active');
		}
	}

	private diagnosticsChanged(event: vscode.DiagnosticChangeEvent): void {
		const editor = vscode.window.activeTextEditor;
		if (!editor || !this.scope) {
			return;
		}
		const uri = editor.document.uri;
		if (!event.uris.some((u) => u.toString() === uri.toString())) {
			return;
		}
		const keys = vscode.languages.getDiagnostics(uri).map((d) => ({ line: d.range.start.line, severity: severityName(d.severity), message: d.message }));
		const before = this.diagnosticsSnapshot?.uri === uri.toString() ? this.diagnosticsSnapshot.keys : [];
		this.diagnosticsSnapshot = { uri: uri.toString(), keys };
		if (newProblemNear(before, keys, editor.selection.active.line, DIAGNOSTIC_WINDOW) && !this.current) {
			void this.request('diagnostic');
		}
	}

	private schedule(): void {
		const languageId = vscode.window.activeTextEditor?.document.languageId;
		if (!this.scope || (languageId !== undefined && this.config.current.nes.disabledLanguages.includes(languageId)) || this.isSnoozed()) {
			return; // nothing automatic here: not even a timer (and nothing for the editor to wait for)
		}
		clearTimeout(this.debounce);
		this.debouncing = true;
		this.debounce = setTimeout(() => {
			this.debouncing = false;
			void this.request('automatic');
		}, this.config.current.nes.debounceMs);
	}

	private debouncing = false;

	/** Whether a request is scheduled or in flight for the cursor at `position` in `uri` (the view waits for it). */
	private expecting(uri: string, position: vscode.Position): boolean {
		const editor = vscode.window.activeTextEditor;
		return (
			this.scope !== undefined &&
			(this.debouncing || this.scope.inFlight !== undefined) &&
			editor?.document.uri.toString() === uri &&
			editor.selection.active.isEqual(position)
		);
	}

	// ---- requests -------------------------------------------------------------------------

	/** Asks the agent for a suggestion at the active editor's cursor and shows the answer; never throws. */
	async request(kind: TriggerKind): Promise<SuggestOutcome> {
		clearTimeout(this.debounce);
		this.debouncing = false;
		const scope = this.scope;
		const manual = kind === 'manual';
		if (!scope || !scope.session.isOpen) {
			return this.fail(
				'No next edit suggestion session is open. Select an agent that offers next edit suggestions, with agentLink.nes.enabled on.',
				manual ? 'information' : 'quiet',
			);
		}
		const editor = vscode.window.activeTextEditor;
		if (!editor) {
			return this.fail('Next edit suggestions work in files on disk: open one in the editor first.', manual ? 'information' : 'quiet');
		}
		const document = editor.document;
		const config = this.config.current.nes;
		const decision = shouldTrigger({
			kind,
			now: Date.now(),
			snoozedUntil: this.snoozedUntil,
			languageId: document.languageId,
			disabledLanguages: config.disabledLanguages,
			scheme: document.uri.scheme,
			inWorkspace: this.inWorkspace(document.uri),
			selections: editor.selections.length,
			undoRedo: kind === 'automatic' && this.undoRedo?.uri === document.uri.toString() && this.undoRedo.version === document.version,
			tooLarge: document.uri.scheme === 'file' && !withinSize(document, config.maxFileBytes),
		});
		if (!decision.ok) {
			const message = decision.why === 'only files on disk get suggestions' ? 'Next edit suggestions work in files on disk: open one in the editor first.' : `No next edit suggestion: ${decision.why}.`;
			return this.fail(message, manual ? 'information' : 'quiet');
		}
		// A ghost text typed out, or inserted by VS Code with its accept command still on the way:
		// settled once this request is answered, which gives the command time to arrive.
		const consumed = this.current?.consumed ? this.current : undefined;
		const { ticket, superseded } = scope.sequencer.begin();
		if (superseded !== undefined) {
			// `$/cancel_request` goes out; an answer that still comes is rejected as `cancelled`.
			scope.inFlight?.cancel.cancel();
		}
		const cancel = new vscode.CancellationTokenSource();
		scope.inFlight = { ticket, cancel, since: performance.now() };
		// The status bar says "waiting" only for a slow answer: a fast agent would make it flicker per keystroke.
		clearTimeout(this.waitingTimer);
		this.waitingTimer = setTimeout(() => this.updateState(), WAITING_AFTER_MS);
		const started = performance.now();
		let request: Record<string, unknown>;
		try {
			request = await buildSuggestParams(editor, scope.session, this.recorder.recording, {
				triggerKind: kind,
				maxFileBytes: config.maxFileBytes,
				snippetBudgetMs: manual ? MANUAL_SNIPPET_BUDGET_MS : 0,
				token: cancel.token,
				extraSnippets: this.recorder.extraSnippets,
			});
		} catch (error) {
			this.finish(scope, ticket);
			return this.fail(`Building the next edit suggestion request failed: ${errorMessage(error)}`, manual ? 'error' : 'quiet');
		}
		const buildMs = performance.now() - started;
		if (!scope.sequencer.isCurrent(ticket)) {
			return { request, buildMs, error: 'superseded by a newer request' };
		}
		const sent = performance.now();
		let timer: NodeJS.Timeout | undefined;
		try {
			const answer = scope.session.suggest(request, cancel.token);
			const response = await Promise.race([
				answer,
				new Promise<never>((_, reject) => {
					timer = setTimeout(() => {
						cancel.cancel();
						// Suggestions that still come after giving up are owed an outcome too.
						answer.then(
							(late) => late.suggestions.forEach((s) => scope.ledger.register(s.id) && scope.ledger.reject(s.id, 'cancelled')),
							() => undefined,
						);
						reject(new Error(`no answer within ${SUGGEST_TIMEOUT_MS / 1000} s`));
					}, SUGGEST_TIMEOUT_MS);
				}),
			]);
			const kinds = response.suggestions.map((s) => s.kind).join(', ');
			this.log.info(
				`nes/suggest (${kind}): ${response.suggestions.length} suggestion(s)${kinds ? ` (${kinds})` : ''}; built in ${buildMs.toFixed(1)} ms, answered in ${(performance.now() - sent).toFixed(0)} ms.`,
			);
			if (!scope.sequencer.isCurrent(ticket) || this.scope !== scope) {
				// Cancelled (or the session ended) before this answer came: never shown.
				for (const s of response.suggestions) {
					if (scope.ledger.register(s.id)) {
						scope.ledger.reject(s.id, 'cancelled');
					}
				}
				return { request, response, suggestions: [], buildMs, error: 'cancelled' };
			}
			const answeredAt = performance.now();
			this.lastTimings = { kind, changedAt: this.lastChangeAt, startedAt: started, buildMs, answeredAt };
			this.finish(scope, ticket);
			const suggestions = await toEditorCoordinates(response.suggestions, scope.session.profile.encoding);
			await this.present(scope, response.suggestions, suggestions, editor, request);
			if (this.lastTimings?.answeredAt === answeredAt) {
				this.lastTimings.presentMs = performance.now() - answeredAt;
			}
			return { request, response, suggestions, buildMs };
		} catch (error) {
			const wasCurrent = scope.sequencer.isCurrent(ticket);
			this.finish(scope, ticket);
			if (!wasCurrent) {
				return { request, buildMs, error: 'cancelled' };
			}
			return { ...this.fail(`The agent could not suggest an edit: ${errorMessage(error)}`, manual ? 'error' : 'quiet'), request, buildMs };
		} finally {
			clearTimeout(timer);
			cancel.dispose();
			if (consumed && this.current === consumed) {
				this.end('ignored', 'typed out');
			}
			if (!scope.inFlight && !this.debouncing && this.current?.presentation.kind !== 'ghost') {
				this.view.settle();
			}
		}
	}

	private finish(scope: SessionScope, ticket: number): void {
		scope.sequencer.finish(ticket);
		if (scope.inFlight?.ticket === ticket) {
			scope.inFlight = undefined;
		}
		this.updateState();
	}

	/** Cancels the request in flight: `$/cancel_request` goes out; a late answer is rejected as `cancelled`. */
	private cancelInFlight(scope: SessionScope): void {
		const inFlight = scope.inFlight;
		scope.inFlight = undefined;
		scope.sequencer.reset();
		inFlight?.cancel.cancel();
	}

	// ---- choosing what to show --------------------------------------------------------------

	private async present(scope: SessionScope, raw: readonly NesSuggestion[], converted: NesSuggestion[], editor: vscode.TextEditor, request: Record<string, unknown>): Promise<void> {
		const registered: string[] = [];
		for (const s of raw) {
			if (scope.ledger.register(s.id)) {
				registered.push(s.id);
			} else {
				this.log.warn(`The agent reused suggestion id ${JSON.stringify(s.id)}; the duplicate is dropped.`);
			}
		}
		const fresh = new Set(registered);
		// One suggestion per id: a repeated id in the same answer is dropped (its outcome is the first's).
		const seen = new Set<string>();
		converted = converted.filter((s) => fresh.has(s.id) && !seen.has(s.id) && seen.add(s.id) !== undefined);
		const lost = registered.filter((id) => !converted.some((s) => s.id === id));
		for (const id of lost) {
			this.refuse(scope, id, 'its document could not be read');
		}
		const document = editor.document;
		if (vscode.window.activeTextEditor !== editor || document.version !== request.version) {
			for (const s of converted.filter((c) => fresh.has(c.id))) {
				this.refuse(scope, s.id, `the document changed since the request (version ${String(request.version)}, now ${document.version})`);
			}
			return;
		}
		const cursor = { uri: document.uri.toString(), position: { line: editor.selection.active.line, character: editor.selection.active.character } };
		const lineText = (line: number) => (line < document.lineCount ? document.lineAt(line).text : undefined);
		const presentations: Presentation[] = converted.filter((s) => fresh.has(s.id)).map((s) => classify(s, cursor, lineText, this.nes.features));
		const candidates: ShownSuggestion[] = [];
		const candidatePresentations: Presentation[] = [];
		for (const p of presentations) {
			if (p.kind === 'invalid') {
				this.refuse(scope, p.id, p.reason);
				continue;
			}
			const prepared = await this.prepare(p);
			if (typeof prepared === 'string') {
				this.refuse(scope, p.id, prepared);
				continue;
			}
			candidates.push(prepared);
			candidatePresentations.push(p);
		}
		if (this.scope !== scope || vscode.window.activeTextEditor !== editor || document.version !== request.version) {
			for (const c of candidates) {
				this.refuse(scope, c.presentation.id, 'the editor changed while the suggestion was prepared');
			}
			return;
		}
		const best = pickBest(candidatePresentations, cursor);
		candidates.forEach((c, i) => {
			if (i !== best) {
				scope.ledger.reject(c.presentation.id, 'replaced');
			}
		});
		const chosen = candidates[best];
		if (!chosen) {
			return;
		}
		if (this.current) {
			this.end(this.current.consumed ? 'ignored' : 'replaced', this.current.consumed ? 'typed out' : 'a newer suggestion came');
		}
		this.show(chosen, editor);
	}

	/** Checks that a suggestion may be carried out and prepares it; a string says why not. */
	private async prepare(p: Showable): Promise<ShownSuggestion | string> {
		const uri = vscode.Uri.parse(p.uri, false);
		if (uri.scheme !== 'file') {
			return `it is for ${p.uri}, not a file on disk`;
		}
		if (!this.inWorkspace(uri)) {
			return `${uri.fsPath} is outside the workspace folders`;
		}
		const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
		const document = open ?? (await vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined));
		if (!document) {
			return `${vscode.workspace.asRelativePath(uri)} cannot be opened`;
		}
		const name = vscode.workspace.asRelativePath(uri, false);
		const base = { presentation: p, version: document.version };
		const within = (pos: { line: number; character: number }) => pos.line < document.lineCount && pos.character <= document.lineAt(pos.line).text.length;
		switch (p.kind) {
			case 'ghost':
				return { ...base, hint: 'Tab to accept', action: 'accept' };
			case 'preview': {
				if (!p.edits.every((e) => within(e.range.start) && within(e.range.end))) {
					return 'an edit lies outside the document';
				}
				const line = p.edits[0]!.range.start.line + 1;
				const where = p.uri === vscode.window.activeTextEditor?.document.uri.toString() ? `line ${line}` : `${name}:${line}`;
				return { ...base, hint: `⇥ Tab: apply edit at ${where} · Esc: dismiss`, action: `apply edit at ${where}` };
			}
			case 'jump': {
				if (!within(p.position)) {
					return 'the jump target lies outside the document';
				}
				const where = p.uri === vscode.window.activeTextEditor?.document.uri.toString() ? `line ${p.position.line + 1}` : `${name}:${p.position.line + 1}`;
				return { ...base, hint: `⇥ Tab: go to ${where}`, action: `go to ${where}` };
			}
			case 'rename': {
				if (!within(p.position)) {
					return 'the rename position lies outside the document';
				}
				// Shown before the rename provider answers if it is slow (a language server loading).
				const rename = await prepareRename(document, p.position, p.newName, (u) => this.inWorkspace(u));
				return typeof rename === 'string' ? rename : { ...base, ...rename };
			}
			case 'searchAndReplace': {
				const result = findMatches(document.getText(), p.search, p.replace, p.isRegex);
				if (!result.ok) {
					return result.reason;
				}
				if (result.matches.length === 0) {
					return `${JSON.stringify(p.search)} is not found in ${name}`;
				}
				const replacements = result.matches.map((m) => ({ range: new vscode.Range(document.positionAt(m.start), document.positionAt(m.end)), newText: m.newText }));
				const n = replacements.length;
				const action = `replace ${n} place${n === 1 ? '' : 's'} in ${name}`;
				return { ...base, replacements, hint: `⇥ Tab: ${action}`, action };
			}
		}
	}

	private show(shown: ShownSuggestion, editor: vscode.TextEditor): void {
		const p = shown.presentation;
		const current: Current = p.kind === 'ghost' ? { ...shown, lineText: editor.document.lineAt(p.at.line).text } : shown;
		this.current = current;
		this.shownIn = editor.document.uri.toString();
		this.keysReady = false;
		// The keys before the hint: the editor takes the two in this order, so no Tab meets the hint
		// on screen with the key still off.
		const keys = Promise.all([this.setContext(NesContextKeys.suggestionVisible, p.kind !== 'ghost'), this.updateTabKey()]);
		this.view.show(shown, editor);
		void keys.then(() => {
			if (this.current?.presentation.id === p.id) {
				this.keysReady = true;
				this.shownEmitter.fire(this.current);
			}
		});
		void shown.pendingRename?.done.then(() => this.renameSettled(p.id));
		if (this.lastTimings) {
			this.lastTimings.shownAt = performance.now();
		}
		this.log.debug(`Showing suggestion ${p.id} (${p.kind}): ${shown.hint}`);
		this.shownEmitter.fire(current);
		this.updateState();
		this.closeListInTheWay();
	}

	/** What shows changes in place (same suggestion, new hint or edit). */
	private replaceShown(next: Current): void {
		this.current = next;
		const editor = vscode.window.activeTextEditor;
		if (editor && editor.document.uri.toString() === this.shownIn) {
			this.view.show(next, editor);
		}
		this.shownEmitter.fire(next);
	}

	/** The rename provider answered for the rename showing with no Tab waiting: the usual hint, or it goes. */
	private renameSettled(id: string): void {
		const current = this.current;
		const outcome = current?.pendingRename?.outcome;
		if (!current?.pendingRename || current.presentation.id !== id || current.renameTabbed || outcome === undefined) {
			return;
		}
		if (typeof outcome === 'string') {
			this.log.info(`Suggestion ${id} is withdrawn: ${outcome}.`);
			this.end('ignored', outcome);
		} else {
			this.replaceShown({ ...current, renameEdit: outcome, ...current.pendingRename.ready(outcome) });
		}
	}

	/**
	 * Tab on a rename the provider has not answered yet: the hint says it waits, Tab stays ours
	 * (more Tabs queue behind this one), Escape or typing ends the wait. With its edit, or
	 * undefined (the user told why) when the provider refused or took too long.
	 */
	private async renameOnTab(current: Current, pending: PendingRename): Promise<Current | undefined> {
		const id = current.presentation.id;
		this.replaceShown({ ...current, renameTabbed: true, ...pending.tabbed() });
		const edit = await pending.forTab(this.onDidChangeShown, () => this.current?.presentation.id === id, (why) => {
			this.log.warn(`Suggestion ${id} is not applied: ${why}.`);
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
	private closeListInTheWay(): void {
		const current = this.current;
		if (
			!current ||
			current.presentation.kind === 'ghost' ||
			this.listClosedFor === current.presentation.id ||
			vscode.window.activeTextEditor?.document.uri.toString() !== this.shownIn ||
			!inTheWay(this.view.completionList)
		) {
			return;
		}
		this.listClosedFor = current.presentation.id;
		this.log.debug(`Closing the completion list over suggestion ${current.presentation.id}: its selection is the word already typed.`);
		void this.view.closeCompletionList();
	}

	/**
	 * Timings of the last answered request, in `performance.now()` milliseconds (benchmarks):
	 * building the request, handling the answer up to the view, and when the editor took the ghost text.
	 */
	lastTimings:
		| { kind: TriggerKind; changedAt?: number; startedAt: number; buildMs: number; answeredAt: number; presentMs?: number; shownAt?: number; offeredAt?: number }
		| undefined;
	private lastChangeAt: number | undefined;

	/** Whether the keybindings know about what is shown (the context key reached the editor). */
	keysReady = false;

	/** Whether Tab is waiting for the next suggestion after an accept (tests). */
	get nextPending(): boolean {
		return this.next !== undefined;
	}

	private shownIn: string | undefined;

	private refuse(scope: SessionScope, id: string, why: string): void {
		this.log.info(`Suggestion ${id} is not shown: ${why}.`);
		scope.ledger.reject(id, 'ignored');
	}

	/** Ends what is showing with a rejection. */
	private end(reason: NesRejectReason, why: string): void {
		const current = this.current;
		if (!current) {
			return;
		}
		this.clearShown();
		if (this.scope?.ledger.reject(current.presentation.id, reason)) {
			this.log.debug(`Suggestion ${current.presentation.id}: ${reason} (${why}).`);
		}
	}

	private clearShown(): void {
		if (!this.current) {
			return;
		}
		this.current = undefined;
		this.shownIn = undefined;
		this.view.clear();
		void this.setContext(NesContextKeys.suggestionVisible, false);
		void this.setContext(NesContextKeys.ghostVisible, false);
		void this.updateTabKey();
		this.shownEmitter.fire(undefined);
		this.updateState();
	}

	// ---- accept and dismiss ---------------------------------------------------------------

	private ghostAccepted(id: string): void {
		const current = this.current;
		if (current?.presentation.id !== id) {
			return;
		}
		this.beginNext();
		this.clearShown();
		this.scope?.ledger.accept(id);
		void this.requestNext();
	}

	/** Escape (`agentLink.nes.dismiss`): the user rejected what is showing. */
	dismiss(): void {
		this.endNext();
		this.end('rejected', 'dismissed');
	}

	/**
	 * Tab (`agentLink.nes.accept`) or the code action: carries out what is showing, then asks
	 * for the next suggestion at once. Until the agent answers (at least {@link NEXT_WAIT_MS},
	 * at most {@link NEXT_WAIT_LIMIT_MS}), Tab stays bound here: a Tab that comes before the
	 * next suggestion shows waits for the answer and applies
	 * what it brings, and does nothing when it brings nothing. So Tab, Tab, Tab is a chain of
	 * edits, and a Tab too many never indents in the middle of the code.
	 */
	accept(): Promise<boolean> {
		const run = this.accepting.then(() => this.acceptNow());
		this.accepting = run.catch(() => undefined);
		return run;
	}

	private async acceptNow(): Promise<boolean> {
		if (!this.current && this.next) {
			await this.next.answered; // a Tab for the next suggestion
		}
		const shown = this.current;
		const pending = shown?.renameEdit ? undefined : shown?.pendingRename;
		const current = shown && pending ? await this.renameOnTab(shown, pending) : shown;
		const scope = this.scope;
		if (!current || !scope) {
			return false;
		}
		const p = current.presentation;
		const uri = vscode.Uri.parse(p.uri, false);
		const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
		if (p.kind !== 'jump' && (!document || document.version !== current.version)) {
			this.log.warn(`Suggestion ${p.id} is not applied: ${vscode.workspace.asRelativePath(uri)} changed since it was made.`);
			this.end('ignored', 'stale document version');
			return false;
		}
		// Tab stays ours from here until the next suggestion shows or the time is up: the chain
		// begins before what showed is cleared, so the Tab key never turns off in between.
		this.beginNext();
		this.clearShown();
		this.applying++;
		let applied = false;
		try {
			applied = await this.apply(current, uri);
		} catch (error) {
			this.log.error(`Applying suggestion ${p.id} failed: ${errorMessage(error)}`);
		} finally {
			this.applying--;
		}
		if (applied) {
			scope.ledger.accept(p.id);
			void this.requestNext();
		} else {
			this.endNext();
			scope.ledger.reject(p.id, 'ignored');
		}
		return applied;
	}

	/** Tab is for the next suggestion until {@link endNext}: until answered, at most {@link NEXT_WAIT_LIMIT_MS}. */
	private beginNext(): void {
		this.endNext();
		let answer = () => {};
		const answered = new Promise<void>((resolve) => (answer = resolve));
		this.next = { answered, answer, since: Date.now(), timer: setTimeout(() => this.endNext(), NEXT_WAIT_LIMIT_MS) };
		void this.updateTabKey();
	}

	/** Tab is Tab again (or the key of what shows). Ended early by typing, moving, Escape, snoozing. */
	private endNext(): void {
		const next = this.next;
		if (!next) {
			return;
		}
		this.next = undefined;
		clearTimeout(next.timer);
		next.answer();
		void this.updateTabKey();
	}

	private tabKey = false;

	/** Sets {@link NesContextKeys.tab} when it changes; resolves once the editor has it. */
	private updateTabKey(): Thenable<unknown> {
		const value = (this.current !== undefined && this.current.presentation.kind !== 'ghost') || this.next !== undefined;
		if (value === this.tabKey) {
			return Promise.resolve();
		}
		this.tabKey = value;
		return this.setContext(NesContextKeys.tab, value);
	}

	/** After an accept: the next suggestion at once, not after the debounce. */
	private async requestNext(): Promise<void> {
		const next = this.next;
		await this.request('automatic');
		if (this.next !== next || !next) {
			return;
		}
		if (this.current && this.current.presentation.kind !== 'ghost') {
			this.endNext(); // it shows: Tab is ours for it now
		} else {
			// Nothing came, and waiting Tabs do nothing, later ones too until NEXT_WAIT_MS after the
			// accept; or ghost text came, which Tab applies (ours until VS Code shows it, VS Code's own
			// from then on).
			next.answer();
			clearTimeout(next.timer);
			next.timer = setTimeout(() => this.endNext(), Math.max(0, next.since + NEXT_WAIT_MS - Date.now()));
		}
	}

	private async apply(current: Current, uri: vscode.Uri): Promise<boolean> {
		const p = current.presentation;
		switch (p.kind) {
			case 'ghost': {
				const edit = new vscode.WorkspaceEdit();
				edit.insert(uri, new vscode.Position(p.at.line, p.at.character), p.text);
				return vscode.workspace.applyEdit(edit);
			}
			case 'preview': {
				const ok = await this.applyInOneStep(
					uri,
					p.edits.map((e) => ({ range: new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), newText: e.newText })),
				);
				if (ok && p.cursorPosition && this.scope) {
					const editor = await vscode.window.showTextDocument(uri);
					// In the agent's encoding, against the text after the edit (suggestions.ts).
					const converted = documentConverter(editor.document, this.scope.session.profile.encoding).fromAgentPosition(p.cursorPosition);
					const at = editor.document.validatePosition(new vscode.Position(converted.line, converted.character));
					await setSelection(editor, at);
					editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
				}
				return ok;
			}
			case 'jump': {
				const editor = await vscode.window.showTextDocument(uri);
				const at = editor.document.validatePosition(new vscode.Position(p.position.line, p.position.character));
				await setSelection(editor, at);
				editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
				return true;
			}
			case 'rename':
				return current.renameEdit ? vscode.workspace.applyEdit(current.renameEdit, { isRefactoring: true }) : false;
			case 'searchAndReplace':
				return this.applyInOneStep(uri, current.replacements ?? []);
		}
	}

	/** Applies edits to one document as a single undo step. */
	private async applyInOneStep(uri: vscode.Uri, edits: readonly { range: vscode.Range; newText: string }[]): Promise<boolean> {
		const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
		if (editor) {
			return editor.edit(
				(builder) => {
					for (const e of edits) {
						builder.replace(e.range, e.newText);
					}
				},
				{ undoStopBefore: true, undoStopAfter: true },
			);
		}
		const edit = new vscode.WorkspaceEdit();
		for (const e of edits) {
			edit.replace(uri, e.range, e.newText);
		}
		return vscode.workspace.applyEdit(edit);
	}

	// ---- snooze, state --------------------------------------------------------------------

	private async snooze(minutes?: unknown): Promise<void> {
		if (typeof minutes !== 'number' && this.snoozedUntil !== undefined && Date.now() < this.snoozedUntil) {
			this.resume();
			return;
		}
		let chosen = typeof minutes === 'number' && Number.isFinite(minutes) ? minutes : undefined;
		if (chosen === undefined) {
			const pick = await vscode.window.showQuickPick(
				[5, 15, 30, 60].map((m) => ({ label: `${m} minutes`, minutes: m })),
				{ title: 'Agent Link: Snooze next edit suggestions', placeHolder: 'No automatic suggestions for…' },
			);
			chosen = pick?.minutes;
		}
		if (chosen === undefined) {
			return;
		}
		if (chosen <= 0) {
			this.resume();
			return;
		}
		this.endNext();
		this.snoozedUntil = Date.now() + chosen * 60_000;
		clearTimeout(this.snoozeTimer);
		this.snoozeTimer = setTimeout(() => this.resume(), chosen * 60_000);
		this.end('rejected', 'snoozed');
		this.log.info(`Next edit suggestions snoozed for ${chosen} minute(s).`);
		this.updateState();
	}

	private isSnoozed(): boolean {
		return this.snoozedUntil !== undefined && Date.now() < this.snoozedUntil;
	}

	private resume(): void {
		this.snoozedUntil = undefined;
		clearTimeout(this.snoozeTimer);
		this.updateState();
	}

	private updateState(): void {
		let state: NesDisplayState;
		if (!this.scope) {
			state = 'off';
		} else if (this.current) {
			state = 'pending';
		} else if (this.scope.inFlight && performance.now() - this.scope.inFlight.since >= WAITING_AFTER_MS) {
			state = 'waiting';
		} else if (this.snoozedUntil !== undefined && Date.now() < this.snoozedUntil) {
			state = 'snoozed';
		} else {
			state = 'idle';
		}
		if (state !== this.stateValue) {
			this.stateValue = state;
			this.stateEmitter.fire(state);
		}
	}

	private inWorkspace(uri: vscode.Uri): boolean {
		return isInsideFolders(uri.toString(), (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()));
	}

	private setContext(key: string, value: boolean): Thenable<unknown> {
		return vscode.commands.executeCommand('setContext', key, value);
	}

	private fail(message: string, level: 'information' | 'error' | 'quiet'): SuggestOutcome {
		if (!this.scope?.inFlight && !this.debouncing) {
			this.view.settle(); // no answer is coming: the editor need not wait
		}
		if (level === 'error') {
			this.log.error(message);
			void vscode.window.showErrorMessage(`Agent Link: ${message}`, 'Show Log').then((pick) => {
				if (pick) {
					this.log.show();
				}
			});
		} else if (level === 'information') {
			this.log.info(message);
			void vscode.window.showInformationMessage(`Agent Link: ${message}`);
		} else {
			this.log.debug(message);
		}
		return { error: message };
	}

	dispose(): void {
		this.endNext();
		clearTimeout(this.debounce);
		this.debouncing = false;
		clearTimeout(this.snoozeTimer);
		clearTimeout(this.waitingTimer);
		for (const d of this.disposables) {
			d.dispose();
		}
		this.stateEmitter.dispose();
		this.shownEmitter.dispose();
	}
}

/**
 * Moves the cursor and waits until the editor reports it: an edit's own cursor
 * update can otherwise arrive after ours and undo it.
 */
async function setSelection(editor: vscode.TextEditor, at: vscode.Position): Promise<void> {
	const target = new vscode.Selection(at, at);
	for (let attempt = 0; attempt < 3; attempt++) {
		const seen = new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				sub.dispose();
				resolve();
			}, 500);
			const sub = vscode.window.onDidChangeTextEditorSelection((e) => {
				if (e.textEditor === editor && e.selections[0]?.isEqual(target)) {
					clearTimeout(timer);
					sub.dispose();
					resolve();
				}
			});
		});
		editor.selection = target;
		await seen;
		if (editor.selection.isEqual(target)) {
			return;
		}
	}
}

function affects(p: Showable, uri: string): boolean {
	return p.uri === uri;
}

/** "Apply next edit suggestion" for the pending suggestion, for keyboard and screen-reader users. */
class SuggestionCodeActions implements vscode.CodeActionProvider {
	constructor(private readonly controller: NesController) {}

	provideCodeActions(document: vscode.TextDocument): vscode.CodeAction[] {
		const shown = this.controller.shown;
		if (!shown || vscode.window.activeTextEditor?.document !== document) {
			return [];
		}
		const action = new vscode.CodeAction('Apply next edit suggestion', vscode.CodeActionKind.QuickFix);
		action.command = { title: 'Apply next edit suggestion', command: NesCommands.accept, tooltip: shown.hint };
		return [action];
	}
}
