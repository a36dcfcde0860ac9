/**
 * Next edit suggestions as the user types (`shared/specs/protocols.md` §2): the coordinator that
 * wires the parts below to the editor's events and commands, and owns the session's scope and
 * the status. Each part has one job:
 *
 * - autoTriggers.ts: when to ask on its own (debounce, new problems, not after undo or redo)
 * - requests.ts: the request in flight, its cancellation and timeout, and why there is none
 * - presenter.ts: which suggestion of an answer shows, and the refusal of the others (common/nes/answer.ts)
 * - showing.ts: the shown suggestion's life (follow typing, end, rename wait, context keys)
 * - accept.ts: Tab and Escape, one accept after the other; applySuggestion.ts carries it out
 * - common/nes/tabChain.ts: Tab, Tab, Tab; common/nes/snooze.ts and displayState.ts: snooze, status
 *
 * Decisions live in `src/common/nes`; drawing is the {@link SuggestionView}'s. This file holds
 * no logic of its own beyond routing and the status.
 */
import * as vscode from 'vscode';
import { displayState, type NesDisplayState } from '../../common/nes/displayState';
import type { NesRejectReason } from '../../common/nes/lifecycle';
import { Snooze } from '../../common/nes/snooze';
import { TabChain } from '../../common/nes/tabChain';
import { TimingsRecorder, type NesTimings } from '../../common/nes/timings';
import type { TriggerKind } from '../../common/nes/triggers';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';
import { Acceptance } from './accept';
import { AutoTriggers } from './autoTriggers';
import { SuggestionCodeActions } from './codeActions';
import type { ContextRecorder } from './contextRecorder';
import type { NesSession, NesSessionManager } from './nesSession';
import { Presenter } from './presenter';
import { Requests, SessionScope } from './requests';
import { Showing } from './showing';
import { askSnooze } from './snoozeCommand';
import { SUGGEST_COMMAND, type SuggestOutcome } from './suggest';
import type { ShownSuggestion, SuggestionView } from './view';

export { NesContextKeys } from './showing';
export type { NesDisplayState } from '../../common/nes/displayState';

export const NesCommands = {
	suggest: SUGGEST_COMMAND,
	accept: 'agentLink.nes.accept',
	dismiss: 'agentLink.nes.dismiss',
	snooze: 'agentLink.nes.snooze',
} as const;

export class NesController implements vscode.Disposable {
	private scope: SessionScope | undefined;
	private stateValue: NesDisplayState = 'off';
	private readonly timings = new TimingsRecorder();
	private readonly stateEmitter = new vscode.EventEmitter<NesDisplayState>();
	private readonly snoozed = new Snooze(() => this.updateState());
	private readonly chain: TabChain = new TabChain(() => void this.showing.updateTabKey());
	private readonly showing: Showing;
	private readonly triggers: AutoTriggers;
	private readonly requests: Requests;
	private readonly acceptance: Acceptance;
	private readonly disposables: vscode.Disposable[] = [];

	/** The status bar's part. */
	readonly onDidChangeState = this.stateEmitter.event;
	/** A suggestion appeared, changed or went away (for tests and the code action). */
	readonly onDidChangeShown: vscode.Event<ShownSuggestion | undefined>;

	constructor(
		private readonly nes: NesSessionManager,
		recorder: ContextRecorder,
		config: ConfigService,
		private readonly log: ExtensionLog,
		private readonly view: SuggestionView,
	) {
		const scope = () => this.scope;
		const reject = (id: string, reason: NesRejectReason) => this.scope?.ledger.reject(id, reason) ?? false;
		this.showing = new Showing({ view, log, timings: this.timings, reject, chainPending: () => this.chain.pending, stateChanged: () => this.updateState() });
		this.onDidChangeShown = this.showing.onDidChange;
		this.triggers = new AutoTriggers({
			config,
			attached: () => this.scope !== undefined,
			snoozed: () => this.snoozed.active,
			hasShown: () => this.showing.current !== undefined,
			inFlight: () => this.scope?.inFlight !== undefined,
			request: (kind) => void this.request(kind),
		});
		const presenter = new Presenter(nes, log, this.showing, scope);
		this.requests = new Requests({
			recorder,
			config,
			log,
			view,
			showing: this.showing,
			timings: this.timings,
			present: (...args) => presenter.present(...args),
			scope,
			snoozedUntil: () => this.snoozed.until,
			debouncing: () => this.triggers.debouncing,
			cancelScheduled: () => this.triggers.cancel(),
			isUndoRedo: (document) => this.triggers.isUndoRedo(document),
			stateChanged: () => this.updateState(),
		});
		this.acceptance = new Acceptance({ showing: this.showing, chain: this.chain, log, scope, request: (kind) => this.request(kind) });
		view.setExpecting((uri, position) => this.triggers.expecting(uri, position));
		this.disposables.push(...this.commands(), ...this.editorEvents(view));
		this.updateState();
	}

	/** What is showing now (tests read it). */
	get shown(): ShownSuggestion | undefined {
		return this.showing.current;
	}

	get state(): NesDisplayState {
		return this.stateValue;
	}

	/** Whether the keybindings know about what is shown (the context key reached the editor). */
	get keysReady(): boolean {
		return this.showing.keysReady;
	}

	/** Whether Tab is waiting for the next suggestion after an accept (tests). */
	get nextPending(): boolean {
		return this.chain.pending;
	}

	/**
	 * Timings of the last answered request, in `performance.now()` milliseconds (benchmarks):
	 * building the request, handling the answer up to the view, and when the editor took the ghost text.
	 */
	get lastTimings(): NesTimings | undefined {
		return this.timings.last;
	}

	/** Asks the agent for a suggestion at the active editor's cursor and shows the answer; never throws. */
	request(kind: TriggerKind): Promise<SuggestOutcome> {
		return this.requests.request(kind);
	}

	/** Tab (`agentLink.nes.accept`) or the code action (accept.ts). */
	accept(): Promise<boolean> {
		return this.acceptance.accept();
	}

	/** Escape (`agentLink.nes.dismiss`): the user rejected what is showing. */
	dismiss(): void {
		this.acceptance.dismiss();
	}

	// ---- wiring ---------------------------------------------------------------------------

	private commands(): vscode.Disposable[] {
		return [
			this.nes.forEachSession((session) => this.attach(session)),
			vscode.commands.registerCommand(NesCommands.suggest, () => this.request('manual')),
			vscode.commands.registerCommand(NesCommands.accept, () => this.accept()),
			vscode.commands.registerCommand(NesCommands.dismiss, () => this.dismiss()),
			vscode.commands.registerCommand(NesCommands.snooze, (minutes?: unknown) => this.snooze(minutes)),
			vscode.languages.registerCodeActionsProvider({ scheme: 'file' }, new SuggestionCodeActions(() => this.shown, NesCommands.accept), {
				providedCodeActionKinds: [vscode.CodeActionKind.QuickFix],
			}),
		];
	}

	private editorEvents(view: SuggestionView): vscode.Disposable[] {
		return [
			view.onDidAcceptGhost((id) => this.acceptance.ghostAccepted(id)),
			view.onDidChangeCompletionList(() => this.showing.closeListInTheWay()),
			view.onDidOfferGhost((id) => {
				if (this.showing.ghostOffered(id)) {
					this.timings.offered(performance.now());
				}
			}),
			vscode.workspace.onDidChangeTextDocument((e) => this.documentChanged(e)),
			vscode.window.onDidChangeTextEditorSelection((e) => this.selectionChanged(e)),
			vscode.window.onDidChangeActiveTextEditor(() => this.activeEditorChanged()),
			vscode.languages.onDidChangeDiagnostics((e) => this.triggers.diagnosticsChanged(e)),
			vscode.workspace.onDidCloseTextDocument((d) => this.showing.documentClosed(d)),
		];
	}

	private attach(session: NesSession): vscode.Disposable {
		const scope = new SessionScope(session);
		this.scope = scope;
		this.updateState();
		return new vscode.Disposable(() => {
			// The session is ending (agent stopping, NES turned off, window closing): every
			// suggestion still owes its outcome, sent while the connection still works.
			this.requests.cancelInFlight(scope);
			this.chain.end();
			this.showing.clear();
			scope.ledger.rejectAll('ignored');
			if (this.scope === scope) {
				this.scope = undefined;
			}
			this.triggers.cancel();
			this.updateState();
		});
	}

	private documentChanged(event: vscode.TextDocumentChangeEvent): void {
		if (event.contentChanges.length === 0) {
			return;
		}
		this.timings.changed(performance.now());
		this.triggers.noteChange(event);
		if (this.acceptance.applying) {
			return; // the accept's own edit
		}
		this.showing.documentChanged(event.document, [...event.contentChanges]);
		if (vscode.window.activeTextEditor?.document === event.document) {
			this.chain.end(); // the user typed on: their next Tab is theirs
			this.triggers.schedule();
		}
	}

	private selectionChanged(event: vscode.TextEditorSelectionChangeEvent): void {
		this.showing.selectionChanged(event);
		const byUser = event.kind !== vscode.TextEditorSelectionChangeKind.Command && event.kind !== undefined;
		if (event.textEditor === vscode.window.activeTextEditor && !this.acceptance.applying && byUser) {
			this.chain.end();
			this.triggers.schedule();
		}
	}

	private activeEditorChanged(): void {
		if (!this.acceptance.applying) {
			this.chain.end();
			this.showing.activeEditorChanged(vscode.window.activeTextEditor);
		}
	}

	// ---- snooze, state --------------------------------------------------------------------

	private async snooze(minutes?: unknown): Promise<void> {
		const action = await askSnooze(minutes, this.snoozed.active);
		if (action.do === 'resume') {
			this.snoozed.resume();
		} else if (action.do === 'snooze') {
			this.chain.end();
			this.snoozed.start(action.minutes);
			this.showing.end('rejected', 'snoozed');
			this.log.info(`Next edit suggestions snoozed for ${action.minutes} minute(s).`);
			this.updateState();
		}
	}

	private updateState(): void {
		const inFlight = this.scope?.inFlight;
		const state = displayState({
			attached: this.scope !== undefined,
			shown: this.showing.current !== undefined,
			inFlightFor: inFlight ? performance.now() - inFlight.since : undefined,
			snoozed: this.snoozed.active,
		});
		if (state !== this.stateValue) {
			this.stateValue = state;
			this.stateEmitter.fire(state);
		}
	}

	dispose(): void {
		this.chain.dispose();
		this.triggers.dispose();
		this.snoozed.dispose();
		this.requests.dispose();
		for (const d of this.disposables) {
			d.dispose();
		}
		this.stateEmitter.dispose();
		this.showing.dispose();
	}
}
