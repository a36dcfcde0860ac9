/**
 * The `nes/suggest` request: whether a trigger may ask, one request in flight at a time (a new
 * one cancels the one before), building it, the answer or the timeout, the late answer's
 * outcome, and what the user is told when there is no suggestion.
 *
 * It must not decide what to show (it hands the answer to `present`), nor touch what shows
 * beyond ending ghost text typed out while it waited, nor own the triggers' timers.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/log';
import { RequestSequencer, SuggestionLedger } from '../../common/nes/lifecycle';
import type { NesSuggestion, SuggestNesResponse } from '../../common/nes/protocol';
import { WAITING_AFTER_MS } from '../../common/nes/displayState';
import type { TimingsRecorder } from '../../common/nes/timings';
import { shouldTrigger, type TriggerKind } from '../../common/nes/triggers';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import type { ContextRecorder } from './contextRecorder';
import type { NesSession } from './nesSession';
import type { Showing } from './showing';
import { buildSuggestParams, inWorkspace, toEditorCoordinates, withinSize, type SuggestOutcome } from './suggest';
import type { SuggestionView } from './view';

// A manual request may wait a little for definition lookups that are not ready yet.
const MANUAL_SNIPPET_BUDGET_MS = 1000;
// An agent that never answers must not keep a request in flight forever.
const SUGGEST_TIMEOUT_MS = 30_000;

/** Everything tied to one NES session. */
export class SessionScope {
	readonly ledger: SuggestionLedger;
	readonly sequencer = new RequestSequencer();
	inFlight: { ticket: number; cancel: vscode.CancellationTokenSource; since: number } | undefined;

	constructor(readonly session: NesSession) {
		this.ledger = new SuggestionLedger({ accept: (id) => session.accept(id), reject: (id, reason) => session.reject(id, reason) });
	}
}

/** Shows an answer: `raw` as the agent sent it, `converted` in the editor's coordinates. */
export type Present = (scope: SessionScope, raw: readonly NesSuggestion[], converted: NesSuggestion[], editor: vscode.TextEditor, request: Record<string, unknown>) => Promise<void>;

export interface RequestDeps {
	readonly recorder: ContextRecorder;
	readonly config: ConfigService;
	readonly log: ExtensionLog;
	readonly view: SuggestionView;
	readonly showing: Showing;
	readonly timings: TimingsRecorder;
	readonly present: Present;
	/** The open session's scope, if any. */
	scope(): SessionScope | undefined;
	snoozedUntil(): number | undefined;
	/** Whether an automatic request is scheduled (the editor may wait for it). */
	debouncing(): boolean;
	/** Drops the scheduled automatic request: this one replaces it. */
	cancelScheduled(): void;
	/** Whether `document`'s version came from undo or redo. */
	isUndoRedo(document: vscode.TextDocument): boolean;
	stateChanged(): void;
}

export class Requests implements vscode.Disposable {
	private waitingTimer: NodeJS.Timeout | undefined;

	constructor(private readonly deps: RequestDeps) {}

	/** Asks the agent for a suggestion at the active editor's cursor and shows the answer; never throws. */
	async request(kind: TriggerKind): Promise<SuggestOutcome> {
		this.deps.cancelScheduled();
		const manual = kind === 'manual';
		const admitted = this.admit(kind);
		if (!('editor' in admitted)) {
			return admitted;
		}
		const { scope, editor } = admitted;
		const config = this.deps.config.current.nes;
		// A ghost text typed out, or inserted by VS Code with its accept command still on the way:
		// settled once this request is answered, which gives the command time to arrive.
		const consumed = this.deps.showing.current?.consumed ? this.deps.showing.current : undefined;
		const { ticket, cancel } = this.begin(scope);
		const started = performance.now();
		let request: Record<string, unknown>;
		try {
			request = await buildSuggestParams(editor, scope.session, this.deps.recorder.recording, {
				triggerKind: kind,
				maxFileBytes: config.maxFileBytes,
				snippetBudgetMs: manual ? MANUAL_SNIPPET_BUDGET_MS : 0,
				token: cancel.token,
				extraSnippets: this.deps.recorder.extraSnippets,
			});
		} catch (error) {
			this.finish(scope, ticket);
			return this.fail(`Building the next edit suggestion request failed: ${errorMessage(error)}`, manual ? 'error' : 'quiet');
		}
		const buildMs = performance.now() - started;
		if (!scope.sequencer.isCurrent(ticket)) {
			return { request, buildMs, error: 'superseded by a newer request' };
		}
		const deadline: { timer?: NodeJS.Timeout } = {};
		try {
			const sent = performance.now();
			const response = await this.send(scope, request, cancel, deadline);
			return await this.answered({ scope, kind, ticket, editor, request, response, started, sent, buildMs });
		} catch (error) {
			const wasCurrent = scope.sequencer.isCurrent(ticket);
			this.finish(scope, ticket);
			if (!wasCurrent) {
				return { request, buildMs, error: 'cancelled' };
			}
			return { ...this.fail(`The agent could not suggest an edit: ${errorMessage(error)}`, manual ? 'error' : 'quiet'), request, buildMs };
		} finally {
			clearTimeout(deadline.timer);
			cancel.dispose();
			if (consumed && this.deps.showing.current === consumed) {
				this.deps.showing.end('ignored', 'typed out');
			}
			if (!scope.inFlight && !this.deps.debouncing() && this.deps.showing.current?.presentation.kind !== 'ghost') {
				this.deps.view.settle();
			}
		}
	}

	/** The session and editor a trigger of `kind` asks for, or why it may not ask. */
	private admit(kind: TriggerKind): { scope: SessionScope; editor: vscode.TextEditor } | SuggestOutcome {
		const scope = this.deps.scope();
		const level = kind === 'manual' ? 'information' : 'quiet';
		if (!scope || !scope.session.isOpen) {
			return this.fail('No next edit suggestion session is open. Select an agent that offers next edit suggestions, with agentLink.nes.enabled on.', level);
		}
		const editor = vscode.window.activeTextEditor;
		if (!editor) {
			return this.fail('Next edit suggestions work in files on disk: open one in the editor first.', level);
		}
		const document = editor.document;
		const config = this.deps.config.current.nes;
		const decision = shouldTrigger({
			kind,
			now: Date.now(),
			snoozedUntil: this.deps.snoozedUntil(),
			languageId: document.languageId,
			disabledLanguages: config.disabledLanguages,
			scheme: document.uri.scheme,
			inWorkspace: inWorkspace(document.uri),
			selections: editor.selections.length,
			undoRedo: kind === 'automatic' && this.deps.isUndoRedo(document),
			tooLarge: document.uri.scheme === 'file' && !withinSize(document, config.maxFileBytes),
		});
		if (!decision.ok) {
			const message = decision.why === 'only files on disk get suggestions' ? 'Next edit suggestions work in files on disk: open one in the editor first.' : `No next edit suggestion: ${decision.why}.`;
			return this.fail(message, level);
		}
		return { scope, editor };
	}

	/** A new request in flight; the one it supersedes is cancelled. */
	private begin(scope: SessionScope): { ticket: number; cancel: vscode.CancellationTokenSource } {
		const { ticket, superseded } = scope.sequencer.begin();
		if (superseded !== undefined) {
			// `$/cancel_request` goes out; an answer that still comes is rejected as `cancelled`.
			scope.inFlight?.cancel.cancel();
		}
		const cancel = new vscode.CancellationTokenSource();
		scope.inFlight = { ticket, cancel, since: performance.now() };
		// The status bar says "waiting" only for a slow answer: a fast agent would make it flicker per keystroke.
		clearTimeout(this.waitingTimer);
		this.waitingTimer = setTimeout(() => this.deps.stateChanged(), WAITING_AFTER_MS);
		return { ticket, cancel };
	}

	/** Sends `request`; gives up after {@link SUGGEST_TIMEOUT_MS} (the caller clears `deadline.timer`). */
	private send(scope: SessionScope, request: Record<string, unknown>, cancel: vscode.CancellationTokenSource, deadline: { timer?: NodeJS.Timeout }): Promise<SuggestNesResponse> {
		const answer = scope.session.suggest(request, cancel.token);
		return Promise.race([
			answer,
			new Promise<never>((_, reject) => {
				deadline.timer = setTimeout(() => {
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
	}

	/** The agent answered: shown if the request is still current, every suggestion rejected as cancelled if not. */
	private async answered(a: {
		scope: SessionScope;
		kind: TriggerKind;
		ticket: number;
		editor: vscode.TextEditor;
		request: Record<string, unknown>;
		response: SuggestNesResponse;
		started: number;
		sent: number;
		buildMs: number;
	}): Promise<SuggestOutcome> {
		const { scope, request, response, buildMs } = a;
		const kinds = response.suggestions.map((s) => s.kind).join(', ');
		this.deps.log.info(
			`nes/suggest (${a.kind}): ${response.suggestions.length} suggestion(s)${kinds ? ` (${kinds})` : ''}; built in ${buildMs.toFixed(1)} ms, answered in ${(performance.now() - a.sent).toFixed(0)} ms.`,
		);
		if (!scope.sequencer.isCurrent(a.ticket) || this.deps.scope() !== scope) {
			// Cancelled (or the session ended) before this answer came: never shown.
			for (const s of response.suggestions) {
				if (scope.ledger.register(s.id)) {
					scope.ledger.reject(s.id, 'cancelled');
				}
			}
			return { request, response, suggestions: [], buildMs, error: 'cancelled' };
		}
		const answeredAt = performance.now();
		this.deps.timings.answered(a.kind, a.started, buildMs, answeredAt);
		this.finish(scope, a.ticket);
		const suggestions = await toEditorCoordinates(response.suggestions, scope.session.profile.encoding);
		await this.deps.present(scope, response.suggestions, suggestions, a.editor, request);
		this.deps.timings.presented(answeredAt, performance.now());
		return { request, response, suggestions, buildMs };
	}

	private finish(scope: SessionScope, ticket: number): void {
		scope.sequencer.finish(ticket);
		if (scope.inFlight?.ticket === ticket) {
			scope.inFlight = undefined;
		}
		this.deps.stateChanged();
	}

	/** Cancels the request in flight: `$/cancel_request` goes out; a late answer is rejected as `cancelled`. */
	cancelInFlight(scope: SessionScope): void {
		const inFlight = scope.inFlight;
		scope.inFlight = undefined;
		scope.sequencer.reset();
		inFlight?.cancel.cancel();
	}

	/** No suggestion: says why as `level` asks, and lets the editor stop waiting when nothing else comes. */
	private fail(message: string, level: 'information' | 'error' | 'quiet'): SuggestOutcome {
		if (!this.deps.scope()?.inFlight && !this.deps.debouncing()) {
			this.deps.view.settle(); // no answer is coming: the editor need not wait
		}
		if (level === 'error') {
			this.deps.log.error(message);
			void vscode.window.showErrorMessage(`Agent Link: ${message}`, 'Show Log').then((pick) => {
				if (pick) {
					this.deps.log.show();
				}
			});
		} else if (level === 'information') {
			this.deps.log.info(message);
			void vscode.window.showInformationMessage(`Agent Link: ${message}`);
		} else {
			this.deps.log.debug(message);
		}
		return { error: message };
	}

	dispose(): void {
		clearTimeout(this.waitingTimer);
	}
}
