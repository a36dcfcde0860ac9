/**
 * One chat tab as the host keeps it: its session (once `session/new` answered), its transcript,
 * what waits on the user (permissions, sign-in, Undo this turn's question), the files its agent
 * changed, and its place in the history; and the tab as the page gets it ({@link ChatTab.toWire}).
 * Plain state: what happens to a tab is the controller's and its parts' (chatController.ts).
 */
import type * as vscode from 'vscode';
import type { HistoryRecord } from '../../common/chat/history';
import type { Tab } from '../../common/chat/messages';
import { Transcript } from '../../common/chat/transcript';
import type { AuthMethod } from '../../common/protocol';
import { newHistoryId } from './chatHistory';
import type { ChatSession, PermissionOutcome } from './chatSessions';

export interface PendingPermission {
	readonly resolve: (outcome: PermissionOutcome) => void;
}

/** One chat tab: its session (once `session/new` answered) and its transcript. */
export class ChatTab {
	state: Tab['state'] = 'starting';
	detail: string | undefined;
	session: ChatSession | undefined;
	transcript = new Transcript();
	readonly permissions = new Map<string, PendingPermission>();
	readonly disposables: vscode.Disposable[] = [];
	closed = false;
	/** The agent asked for sign-in: its methods, shown in the chat, and the answer the chooser waits for. */
	signIn: { readonly methods: readonly AuthMethod[]; readonly resolve: (method: AuthMethod | undefined) => void; readonly previous: Tab['state'] } | undefined;
	/** Files the agent changed, not yet kept or undone (AgentChanges). */
	changes: Tab['changes'] = [];
	/** The turns with a checkpoint (Undo this turn), and the question Undo this turn asks. */
	turns: Tab['turns'] = [];
	undoAsk: Tab['undoAsk'];
	/** Files whose content the agent changed (its writes, the turns' changes), for the history (noteWrite, noteTurnChanges). */
	readonly changedFiles = new Set<string>();
	follow = false;
	/** Settles when `session/new` has answered or failed (a prompt sent meanwhile waits for it). */
	started: Promise<void> = Promise.resolve();
	/** The chat's record in the history. */
	historyId = newHistoryId();
	createdAt = Date.now();
	/** A chat from history: the agent's session it goes on with, and how it could when it was stored. */
	stored: { readonly sessionId: string | undefined; readonly continueWith: HistoryRecord['continueWith'] } | undefined;
	/** The transcript drawn from the history stays: what `session/load` replays is not drawn again. */
	keepStored = false;
	/** What the input starts with (a new chat going on from a read-only one). */
	seed: Tab['seed'];
	saveTimer: ReturnType<typeof setTimeout> | undefined;
	/** The transcript, at its revision, and how many changed files, last written to the history: not written again unchanged. */
	saved: { readonly transcript: Transcript; readonly revision: number; readonly files: number } | undefined;

	constructor(
		readonly key: string,
		readonly agentName: string,
		readonly cwd: string,
	) {}

	toWire(): Tab {
		const caps = this.session?.agent?.initialized.agentCapabilities?.promptCapabilities as { image?: unknown; audio?: unknown; embeddedContext?: unknown } | undefined;
		return {
			sessionKey: this.key,
			agentId: this.agentName,
			agentName: this.agentName,
			state: this.state,
			...(this.detail !== undefined ? { detail: this.detail } : {}),
			...(this.signIn
				? {
						authMethods: this.signIn.methods.map((m) => ({
							id: m.id,
							name: m.name,
							...(m.description ? { description: m.description } : {}),
							...(m.type !== undefined ? { type: m.type } : {}),
						})),
					}
				: {}),
			promptCapabilities: { image: caps?.image === true, audio: caps?.audio === true, embeddedContext: caps?.embeddedContext === true },
			...(this.changes?.length ? { changes: this.changes } : {}),
			...(this.turns?.length ? { turns: this.turns } : {}),
			...(this.undoAsk ? { undoAsk: this.undoAsk } : {}),
			...(this.follow ? { follow: true } : {}),
			...(this.seed ? { seed: this.seed } : {}),
		};
	}
}
