/**
 * What Tab and Escape do to the suggestion that shows: Tab (`agentLink.nes.accept`, the code
 * action, VS Code's own accept of ghost text) carries it out and asks for the next one at once,
 * one accept after the other; Escape (`agentLink.nes.dismiss`) rejects it. Each ends with the
 * suggestion's one outcome.
 *
 * It must not choose or draw suggestions, nor keep the Tab chain's timing itself (the
 * {@link TabChain} does): it begins the chain, waits on it and tells it what the answer brought.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../../common/log';
import type { TabChain } from '../../common/nes/tabChain';
import type { TriggerKind } from '../../common/nes/triggers';
import type { ExtensionLog } from '../log';
import { applySuggestion } from './applySuggestion';
import type { SessionScope } from './requests';
import type { Showing } from './showing';

export interface AcceptDeps {
	readonly showing: Showing;
	readonly chain: TabChain;
	readonly log: ExtensionLog;
	/** The open session's scope, if any. */
	scope(): SessionScope | undefined;
	request(kind: TriggerKind): Promise<unknown>;
}

export class Acceptance {
	/** Accepts run one after the other: a second Tab applies the suggestion the first one asked for. */
	private accepting: Promise<unknown> = Promise.resolve();
	private applyingCount = 0;

	constructor(private readonly deps: AcceptDeps) {}

	/** An accepted suggestion's edit is being applied: the editor's events are ours, not the user's. */
	get applying(): boolean {
		return this.applyingCount > 0;
	}

	/** VS Code accepted our ghost text `id` itself. */
	ghostAccepted(id: string): void {
		if (this.deps.showing.current?.presentation.id !== id) {
			return;
		}
		this.deps.chain.begin();
		this.deps.showing.clear();
		this.deps.scope()?.ledger.accept(id);
		void this.requestNext();
	}

	/** Escape (`agentLink.nes.dismiss`): the user rejected what is showing. */
	dismiss(): void {
		this.deps.chain.end();
		this.deps.showing.end('rejected', 'dismissed');
	}

	/**
	 * Tab (`agentLink.nes.accept`) or the code action: carries out what is showing, then asks
	 * for the next suggestion at once. Until the agent answers (the {@link TabChain}'s timing),
	 * Tab stays bound here: a Tab that comes before the next suggestion shows waits for the
	 * answer and applies what it brings, and does nothing when it brings nothing. So Tab, Tab,
	 * Tab is a chain of edits, and a Tab too many never indents in the middle of the code.
	 */
	accept(): Promise<boolean> {
		const run = this.accepting.then(() => this.acceptNow());
		this.accepting = run.catch(() => undefined);
		return run;
	}

	private async acceptNow(): Promise<boolean> {
		const { showing, chain, log } = this.deps;
		if (!showing.current && chain.pending) {
			await chain.current?.answered; // a Tab for the next suggestion
		}
		const shown = showing.current;
		const pending = shown?.renameEdit ? undefined : shown?.pendingRename;
		const current = shown && pending ? await showing.renameOnTab(shown, pending) : shown;
		const scope = this.deps.scope();
		if (!current || !scope) {
			return false;
		}
		const p = current.presentation;
		const uri = vscode.Uri.parse(p.uri, false);
		const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
		if (p.kind !== 'jump' && (!document || document.version !== current.version)) {
			log.warn(`Suggestion ${p.id} is not applied: ${vscode.workspace.asRelativePath(uri)} changed since it was made.`);
			showing.end('ignored', 'stale document version');
			return false;
		}
		// Tab stays ours from here until the next suggestion shows or the time is up: the chain
		// begins before what showed is cleared, so the Tab key never turns off in between.
		chain.begin();
		showing.clear();
		this.applyingCount++;
		let applied = false;
		try {
			applied = await applySuggestion(current, uri, () => this.deps.scope()?.session.profile.encoding);
		} catch (error) {
			log.error(`Applying suggestion ${p.id} failed: ${errorMessage(error)}`);
		} finally {
			this.applyingCount--;
		}
		if (applied) {
			scope.ledger.accept(p.id);
			void this.requestNext();
		} else {
			chain.end();
			scope.ledger.reject(p.id, 'ignored');
		}
		return applied;
	}

	/** After an accept: the next suggestion at once, not after the debounce; the chain hears what it brought. */
	private async requestNext(): Promise<void> {
		const link = this.deps.chain.current;
		await this.deps.request('automatic');
		const next = this.deps.showing.current;
		this.deps.chain.answered(link, next !== undefined && next.presentation.kind !== 'ghost');
	}
}
