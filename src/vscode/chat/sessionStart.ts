/**
 * A chat tab's session with its agent: the agent and folder a new chat runs with (picked when need
 * be), the session started (`session/new`) or, for a chat from history, taken up again
 * (`session/resume` or `session/load`; one the agent cannot go on with becomes read-only), and
 * wired before it opens: its updates into the tab's transcript, its status into the tab, its
 * sign-in, permission and input questions to the user (userAsks.ts).
 *
 * Draws only through the host (`apply`, `broadcastState`) and writes the history only through the
 * tab saver; it never opens, selects or closes a tab.
 */
import * as vscode from 'vscode';
import { Transcript } from '../../common/chat/transcript';
import { errorMessage } from '../../common/log';
import type { AgentChoice } from '../../common/presets';
import type { AgentRole } from '../agentPool';
import type { ExtensionLog } from '../log';
import type { Checkpoints } from './checkpoints';
import type { ChatSessionManager } from './chatSessionManager';
import { CannotContinueError, type ChatSession } from './chatSessions';
import type { ChatTab } from './chatTab';
import type { TabSaver } from './tabStore';
import type { TurnChanges } from './turnChanges';
import type { UserAsks } from './userAsks';

export interface StartHost {
	readonly chat: ChatSessionManager;
	readonly agents: AgentRole;
	readonly log: ExtensionLog;
	readonly asks: UserAsks;
	readonly saver: TabSaver;
	/** What each turn changed and its checkpoints (copied before a tool call edits). */
	readonly files: { readonly turns?: TurnChanges; readonly checkpoints?: Checkpoints } | undefined;
	/** Into the tab's transcript. */
	apply(tab: ChatTab, event: Parameters<Transcript['apply']>[0]): void;
	/** The tab's state changed. */
	broadcastState(): void;
}

export class SessionStart {
	/** Tabs from history being taken up again with their agents. */
	private readonly continuing = new Set<ChatTab>();

	constructor(private readonly host: StartHost) {}

	/** The agent a new chat runs with: the chat role's agent, unless there is none or `pick`; then the user picks (undefined: dismissed). */
	async defaultChoice(pick: boolean): Promise<AgentChoice | undefined> {
		const current = this.host.agents.currentChoice;
		if (current && !pick) {
			return current;
		}
		const choices = this.host.agents.choices();
		const picked = await vscode.window.showQuickPick(
			choices.map((choice) => ({ label: choice.name, description: [choice.name === current?.name ? 'the chat agent' : '', choice.source === 'user' ? 'configured' : 'preset'].filter(Boolean).join(' · '), choice })),
			{ title: 'Agent Link: New Chat', placeHolder: 'The agent to chat with' },
		);
		return picked?.choice;
	}

	/** Starts a new tab's session (`session/new`); a chat that cannot start says why. */
	async start(tab: ChatTab, choice: AgentChoice): Promise<void> {
		try {
			const session = await this.host.chat.create(choice, tab.cwd, { chooseSignIn: (request) => this.host.asks.signIn(tab, request), beforeOpen: (opening) => this.wire(tab, opening) });
			if (tab.closed) {
				await session.close();
				return;
			}
			tab.session = session;
			tab.state = 'ready';
			this.host.apply(tab, { type: 'session_setup', modes: session.setup.modes ?? null, configOptions: session.setup.configOptions ?? null });
			this.host.files?.turns?.prewarm();
		} catch (error) {
			tab.state = 'failed';
			tab.detail = errorMessage(error);
			this.host.log.error(`Chat with ${choice.name} could not start: ${tab.detail}`);
		}
		this.host.broadcastState();
	}

	/**
	 * Takes a chat from history up again: the agent is started if need be, then `session/resume`
	 * or `session/load` (what the latter replays is not drawn again over the stored transcript). A
	 * chat the agent cannot go on with becomes read-only, saying why.
	 */
	continueTab(tab: ChatTab): Promise<void> {
		if (this.continuing.has(tab) || tab.session !== undefined) {
			return tab.started;
		}
		this.continuing.add(tab);
		tab.started = this.resume(tab);
		return tab.started;
	}

	/** What {@link continueTab} runs; the tab stays among those continuing when it never reaches its agent. */
	private async resume(tab: ChatTab): Promise<void> {
		const sessionId = tab.stored?.sessionId;
		const choice = this.host.agents.findChoice(tab.agentName);
		if (!choice || sessionId === undefined) {
			this.makeReadOnly(tab, choice ? 'This conversation never started with its agent, so it is read-only.' : `There is no agent named "${tab.agentName}" any more, so this conversation is read-only.`);
			return;
		}
		tab.state = 'starting';
		tab.detail = undefined;
		tab.keepStored = tab.transcript.size > 0;
		this.host.broadcastState();
		try {
			const session = await this.host.chat.create(choice, tab.cwd, {
				chooseSignIn: (request) => this.host.asks.signIn(tab, request),
				existing: { sessionId },
				beforeOpen: (opening) => this.wire(tab, opening),
			});
			if (tab.closed) {
				await session.close();
				return;
			}
			tab.session = session;
			tab.state = 'ready';
			if (tab.keepStored) {
				this.host.apply(tab, { type: 'agent_restarted', resumed: true, reason: `Taken up again from the history (session/${session.continuedWith ?? 'resume'}).` });
			}
			this.host.apply(tab, { type: 'session_setup', modes: session.setup.modes ?? null, configOptions: session.setup.configOptions ?? null });
			this.host.saver.soon(tab, true);
		} catch (error) {
			this.makeReadOnly(tab, error instanceof CannotContinueError ? `${error.message} This conversation is read-only.` : `${tab.agentName} could not go on with this conversation: ${errorMessage(error)}`);
		} finally {
			this.continuing.delete(tab);
		}
		this.host.broadcastState();
	}

	private makeReadOnly(tab: ChatTab, reason: string): void {
		tab.state = 'read_only';
		tab.detail = reason;
		this.host.log.info(`Chat ${tab.key} with ${tab.agentName}: ${reason}`);
		this.host.broadcastState();
	}

	/** Feeds a session's updates, permission requests and status into its tab (before it opens, so what `session/load` replays is seen). */
	private wire(tab: ChatTab, session: ChatSession): void {
		session.permissionHandler = (request, signal) => {
			// An edit may first show in its permission request: its files are copied before it runs.
			this.host.files?.turns?.noteToolCall(tab.key, request.toolCall);
			return this.host.asks.permission(tab, request, signal);
		};
		session.elicitationHandler = (read, signal, watchCompletion) => this.host.asks.elicitations.ask(tab, read, signal, watchCompletion);
		tab.disposables.push(
			session.onDidUpdate((update) => {
				if (update.sessionUpdate === 'tool_call' || update.sessionUpdate === 'tool_call_update') {
					this.host.files?.turns?.noteToolCall(tab.key, update);
				}
				if (!(tab.keepStored && session.replaying)) {
					this.host.apply(tab, { type: 'update', update });
				}
			}),
			session.onDidReset(() => {
				// The agent restarted and replays the conversation (session/load): drawn from the replay.
				this.host.files?.checkpoints?.forget(tab.key);
				tab.transcript = new Transcript();
				tab.keepStored = false;
				this.host.broadcastState();
			}),
			session.onDidChangeStatus((status) => this.statusChanged(tab, session, status)),
		);
	}

	/** The session ended, is restarting, or is back after a restart: the tab says so. */
	private statusChanged(tab: ChatTab, session: ChatSession, status: ChatSession['status']): void {
		if (status.kind === 'ended') {
			if (tab.state !== 'ended' && !tab.closed) {
				tab.state = 'ended';
				this.host.apply(tab, { type: 'conversation_ended', reason: status.message });
				this.host.broadcastState();
			}
		} else if (status.kind === 'restarting') {
			tab.detail = status.message;
			this.host.broadcastState();
		} else if (status.kind === 'idle' && tab.detail !== undefined && tab.session === session) {
			tab.detail = undefined;
			this.host.apply(tab, { type: 'agent_restarted', resumed: true });
			this.host.broadcastState();
		}
	}
}

/** The workspace folder a chat runs in: the only one, or the one the user picks; the home folder without any. */
export async function pickFolder(): Promise<string | undefined> {
	const folders = vscode.workspace.workspaceFolders ?? [];
	if (folders.length <= 1) {
		return folders[0]?.uri.fsPath ?? (await import('node:os')).homedir();
	}
	const folder = await vscode.window.showWorkspaceFolderPick({ placeHolder: 'The folder the agent works in' });
	return folder?.uri.fsPath;
}
