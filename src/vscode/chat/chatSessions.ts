/**
 * An ACP chat session, the host side of one chat: it talks to the agent picked when it was made,
 * holds that agent in the pool (so a chat with Claude Code and one with Codex run side by side with
 * the NES agent, and closing one leaves the others), and survives the agent crashing when the
 * agent can resume or load it. The sessions are made, kept and routed to by chatSessionManager.ts;
 * this file never routes an agent's message to a session itself.
 *
 * - `session/new {cwd, additionalDirectories, mcpServers}` (the workspace's other folders, sessionFolders.ts), retried once after the user signs in (-32000); a chat from history
 *   goes on with `session/resume` or `session/load` instead (the same as after a crash);
 * - `mcpServers`: the servers of `agentLink.mcpServers` in a transport the agent takes (src/common/mcp.ts);
 * - `session/prompt` → stop reason; `session/cancel` answers pending permission prompts `cancelled`;
 * - `session/update` notifications reach the session (as the agent sent them: the transcript
 *   reducer in `common` makes sense of them);
 * - `session/request_permission` is answered by the session's permission handler (the panel), or
 *   by a notification with the agent's options when no handler is set; `elicitation/create` tied to
 *   the session likewise (its elicitation handler, or quick input); both are cancelled with the turn.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import {
	loadSessionResponseSchema,
	newSessionResponseSchema,
	promptResponseSchema,
	setConfigOptionResponseSchema,
	type RequestPermissionParams,
	type SessionConfigOption,
	type SessionModeState,
	type SessionUpdate,
} from '../../common/chat/updates';
import type { ElicitationResponse, ReadElicitation } from '../../common/chat/elicitationRequest';
import { errorMessage } from '../../common/log';
import { Methods } from '../../common/protocol';
import type { AgentManager, ReadyAgent } from '../agentManager';
import { withSignIn, type SignInChooser, type SignInOptions } from '../auth';
import type { ChatSessionManager } from './chatSessionManager';
import { askInQuickInput } from './elicitationQuickInput';
import { sessionAbilities, type ContinueWith } from './sessionAbilities';
import { sessionFolders } from './sessionFolders';

export type { SessionUpdate };
export type PermissionRequest = RequestPermissionParams;
export type PermissionOutcome = { readonly outcome: 'selected'; readonly optionId: string } | { readonly outcome: 'cancelled' };
/** Answers a permission request; `signal` aborts when the turn is cancelled. */
export type PermissionHandler = (request: PermissionRequest, signal: AbortSignal) => Promise<PermissionOutcome>;

/**
 * Answers an elicitation of the session's; `signal` aborts when the turn is cancelled, and
 * `watchCompletion` watches a URL elicitation's `elicitation/complete`.
 */
export type ElicitationHandler = (read: ReadElicitation, signal: AbortSignal, watchCompletion: (done: () => void) => vscode.Disposable) => Promise<ElicitationResponse>;

/** What a session was set up with (`modes`, `configOptions`): absent or null when the agent has none. */
export interface SessionSetup {
	readonly modes?: SessionModeState | null;
	readonly configOptions?: readonly SessionConfigOption[] | null;
}

export type ChatStatus =
	| { readonly kind: 'starting' }
	| { readonly kind: 'idle' }
	| { readonly kind: 'prompting' }
	/** The agent crashed; the session comes back if the agent can resume or load it. */
	| { readonly kind: 'restarting'; readonly message: string }
	| { readonly kind: 'ended'; readonly message: string };

/** How a chat from history went on with its agent. */
export type { ContinueWith } from './sessionAbilities';

/** The agent can neither resume nor load sessions, so a stored chat cannot go on. */
export class CannotContinueError extends Error {}

let nextKey = 1;

export class ChatSession implements vscode.Disposable {
	/** This client's key for the session: stable across a resume, unlike nothing else. */
	readonly key = `chat-${nextKey++}`;
	private statusValue: ChatStatus = { kind: 'starting' };
	private agentValue: ReadyAgent | undefined;
	private idValue: string | undefined;
	private readonly pendingPermissions = new Set<AbortController>();
	private readonly updateEmitter = new vscode.EventEmitter<SessionUpdate>();
	private readonly statusEmitter = new vscode.EventEmitter<ChatStatus>();
	private readonly resetEmitter = new vscode.EventEmitter<void>();
	private readonly cancelEmitter = new vscode.EventEmitter<void>();
	private subscription: vscode.Disposable | undefined;
	private released = false;
	private setupValue: SessionSetup = {};
	/** A prompt waits for this session to be resumed on the agent a sign-in started again, to send it there. */
	private retrying = false;
	/** `session/resume` or `session/load` on a restarted agent is under way. */
	private resuming = false;
	private replayingValue = false;
	private continuedWithValue: ContinueWith | undefined;

	/** Every `session/update` for this session, in order. */
	readonly onDidUpdate = this.updateEmitter.event;
	readonly onDidChangeStatus = this.statusEmitter.event;
	/** The transcript is about to be replayed from the start (`session/load` after a restart). */
	readonly onDidReset = this.resetEmitter.event;
	/** The user stopped the turn (or closed the chat): what the agent started for it stops too (terminals). */
	readonly onDidCancel = this.cancelEmitter.event;
	/** Set by the panel; without it, permission requests show as notifications. */
	permissionHandler: PermissionHandler | undefined;
	/** Set by the panel; without it, elicitations are asked through quick input. */
	elicitationHandler: ElicitationHandler | undefined;

	constructor(
		readonly agentName: string,
		readonly cwd: string,
		private readonly manager: AgentManager,
		private readonly token: object,
		private readonly owner: ChatSessionManager,
		/** Where the user picks a sign-in method (the panel); a quick pick without it. */
		private readonly chooseSignIn?: SignInChooser,
	) {}

	get status(): ChatStatus {
		return this.statusValue;
	}

	/** The agent's id for the session, once `session/new` answered. */
	get sessionId(): string | undefined {
		return this.idValue;
	}

	get agent(): ReadyAgent | undefined {
		return this.agentValue;
	}

	/** `session/load` is under way: the updates that arrive meanwhile replay the conversation. */
	get replaying(): boolean {
		return this.replayingValue;
	}

	/** How this chat was taken up from history; undefined for a chat that began with `session/new`. */
	get continuedWith(): ContinueWith | undefined {
		return this.continuedWithValue;
	}

	/** Modes and config options as `session/new` (or the last resume, load or `set_config_option`) gave them. */
	get setup(): SessionSetup {
		return this.setupValue;
	}

	/** How a sign-in the agent asks for goes: the panel's chooser, this agent restarted when the method needs it. */
	private signInOptions(): SignInOptions {
		return {
			log: this.owner.log,
			credentials: this.owner.pool.credentials,
			choose: this.chooseSignIn,
			restart: async () => {
				await this.manager.restart();
				return this.manager.readyAgent;
			},
		};
	}

	/**
	 * `session/new`, or for a chat from history (`existing`) `session/resume` or `session/load` of
	 * the agent's session, whichever the agent offers ({@link CannotContinueError} when neither).
	 * After an auth-required answer, the user signs in and it is tried once more.
	 */
	async open(existing?: { readonly sessionId: string }): Promise<void> {
		const first = this.manager.readyAgent;
		if (!first) {
			throw new Error(`${this.agentName} is not running: ${stateText(this.manager)}`);
		}
		if (existing) {
			const agent = await withSignIn(first, 'chatting', this.signInOptions(), async (agent) => {
				this.continuedWithValue = await this.reattach(agent, existing.sessionId);
				return agent;
			});
			this.bind(agent, existing.sessionId);
		} else {
			const { agent, result } = await withSignIn(first, 'chatting', this.signInOptions(), async (agent) => ({
				agent,
				result: await agent.handle.connection.sendRequest(Methods.session.new, { cwd: this.cwd, ...sessionFolders(agent, this.cwd), mcpServers: await this.owner.mcpServers(agent) }, newSessionResponseSchema),
			}));
			this.setupValue = { modes: result.modes, configOptions: result.configOptions };
			this.bind(agent, result.sessionId);
		}
		this.subscription = this.manager.onDidChangeState(() => void this.followAgent());
		const remote = this.agentValue && this.owner.remoteNotice(this.agentValue);
		if (remote) {
			this.receiveUpdate({ sessionUpdate: 'notice', severity: 'info', ...remote });
		}
		this.setStatus({ kind: 'idle' });
	}

	/**
	 * Takes `sessionId` up on `agent`: `session/resume` when it offers that, else `session/load`
	 * (whose replayed updates reach this session while {@link replaying}). Sets up modes and
	 * config options from the answer.
	 */
	private async reattach(agent: ReadyAgent, sessionId: string): Promise<ContinueWith> {
		const how = sessionAbilities(agent).continueWith;
		const params = { sessionId, cwd: this.cwd, ...sessionFolders(agent, this.cwd), mcpServers: await this.owner.mcpServers(agent) };
		if (how === 'resume') {
			const resumed = await agent.handle.connection.sendRequest(Methods.session.resume, params, loadSessionResponseSchema);
			this.setupValue = { modes: resumed.modes, configOptions: resumed.configOptions };
		} else if (how === 'load') {
			this.bind(agent, sessionId); // updates replayed during the load reach this session
			this.replayingValue = true;
			try {
				const loaded = await agent.handle.connection.sendRequest(Methods.session.load, params, z.nullable(loadSessionResponseSchema));
				this.setupValue = { modes: loaded?.modes, configOptions: loaded?.configOptions };
			} finally {
				this.replayingValue = false;
			}
		} else {
			throw new CannotContinueError(`${this.agentName} can neither resume nor load sessions.`);
		}
		return how;
	}

	/** Sends a prompt and resolves with the stop reason. */
	async prompt(prompt: readonly unknown[]): Promise<string> {
		const agent = this.agentValue;
		if (!agent || !this.idValue || this.statusValue.kind === 'ended') {
			throw new Error(this.statusValue.kind === 'ended' ? this.statusValue.message : 'The chat is not ready.');
		}
		if (this.statusValue.kind === 'prompting') {
			throw new Error('A turn is already running; stop it first.');
		}
		this.setStatus({ kind: 'prompting' });
		try {
			const sessionId = this.idValue;
			// A sign-in that starts the agent again resumes this session on the new process (followAgent) before the retry.
			const result = await withSignIn(agent, 'chatting', this.signInOptions(), async (signedIn) => {
				if (signedIn !== agent) {
					this.retrying = true;
					await this.whenResumed(signedIn);
				}
				return signedIn.handle.connection.sendRequest(Methods.session.prompt, { sessionId: this.idValue ?? sessionId, prompt }, promptResponseSchema);
			});
			return result.stopReason;
		} finally {
			this.retrying = false;
			if (this.status.kind === 'prompting') {
				this.setStatus({ kind: 'idle' });
			}
		}
	}

	/** Resolves once this session is bound to `agent` (resumed or loaded there), rejects if it ended instead. */
	private whenResumed(agent: ReadyAgent): Promise<void> {
		return new Promise((resolve, reject) => {
			const settled = (): boolean => {
				if (this.agentValue === agent && !this.resuming) {
					resolve();
					return true;
				}
				if (this.statusValue.kind === 'ended') {
					reject(new Error(this.statusValue.message));
					return true;
				}
				return false;
			};
			if (!settled()) {
				const subscription = this.statusEmitter.event(() => settled() && subscription.dispose());
			}
		});
	}

	/** Stops the turn: `session/cancel`, and every pending permission prompt answered `cancelled`. */
	cancel(): void {
		for (const pending of this.pendingPermissions) {
			pending.abort();
		}
		this.cancelEmitter.fire();
		if (this.agentValue && this.idValue && this.statusValue.kind === 'prompting') {
			void this.agentValue.handle.connection.sendNotification(Methods.session.cancel, { sessionId: this.idValue }).catch(() => {});
		}
	}

	/** `session/set_config_option`; resolves with the agent's new list of options. */
	async setConfigOption(configId: string, value: string | boolean): Promise<readonly SessionConfigOption[]> {
		const { agent, sessionId } = this.ready();
		const result = await agent.handle.connection.sendRequest(Methods.session.setConfigOption, { sessionId, configId, value }, setConfigOptionResponseSchema);
		this.setupValue = { ...this.setupValue, configOptions: result.configOptions };
		return result.configOptions;
	}

	/** `session/set_mode`, for agents with modes and no config options. */
	async setMode(modeId: string): Promise<void> {
		const { agent, sessionId } = this.ready();
		await agent.handle.connection.sendRequest(Methods.session.setMode, { sessionId, modeId }, z.unknown());
	}

	private ready(): { agent: ReadyAgent; sessionId: string } {
		if (!this.agentValue || !this.idValue || this.statusValue.kind === 'ended') {
			throw new Error(this.statusValue.kind === 'ended' ? this.statusValue.message : 'The chat is not ready.');
		}
		return { agent: this.agentValue, sessionId: this.idValue };
	}

	/** Called by the manager for this session's `session/update`. */
	receiveUpdate(update: SessionUpdate): void {
		this.updateEmitter.fire(update);
	}

	/** Called by the manager for this session's `session/request_permission`. */
	async askPermission(request: PermissionRequest): Promise<PermissionOutcome> {
		const controller = new AbortController();
		this.pendingPermissions.add(controller);
		try {
			const handler = this.permissionHandler ?? notificationPermission(this.agentName);
			const cancelled = new Promise<PermissionOutcome>((resolve) => controller.signal.addEventListener('abort', () => resolve({ outcome: 'cancelled' }), { once: true }));
			const outcome = await Promise.race([handler(request, controller.signal), cancelled]);
			if (outcome.outcome === 'selected' && !request.options.some((o) => o.optionId === outcome.optionId)) {
				return { outcome: 'cancelled' };
			}
			return outcome;
		} finally {
			this.pendingPermissions.delete(controller);
		}
	}

	/** Called by the manager for this session's `elicitation/create`; cancelled with the turn, like permissions. */
	async askElicitation(read: ReadElicitation): Promise<ElicitationResponse> {
		const controller = new AbortController();
		this.pendingPermissions.add(controller);
		try {
			const handler = this.elicitationHandler ?? ((r, signal) => askInQuickInput(this.agentName, r, signal));
			const watch = (done: () => void) => (read.elicitationId !== undefined ? this.owner.completions.watch(this.agentName, read.elicitationId, done) : { dispose: () => {} });
			const cancelled = new Promise<ElicitationResponse>((resolve) => controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
			return await Promise.race([handler(read, controller.signal, watch), cancelled]);
		} finally {
			this.pendingPermissions.delete(controller);
		}
	}

	private bind(agent: ReadyAgent, sessionId: string): void {
		this.agentValue = agent;
		this.idValue = sessionId;
		agent.sessions.add(sessionId, 'chat');
		this.owner.index(this);
	}

	/** After a crash and restart, the session is resumed or loaded when the agent offers it; otherwise it has ended. */
	private async followAgent(): Promise<void> {
		const state = this.manager.state;
		const ready = this.manager.readyAgent;
		if (this.statusValue.kind === 'ended' || (ready && ready === this.agentValue)) {
			return;
		}
		if (state.kind === 'crashed') {
			this.cancelPending();
			this.setStatus({ kind: 'restarting', message: state.connectionLost ? `The connection to ${this.agentName} was lost; reconnecting.` : `${this.agentName} stopped unexpectedly and is restarting.` });
			return;
		}
		if (state.kind === 'failed' || state.kind === 'stopped') {
			this.end(`${this.agentName} stopped, so the conversation ended.`);
			return;
		}
		if (state.kind !== 'ready' || !ready || !this.idValue) {
			return;
		}
		const how = sessionAbilities(ready).continueWith;
		if (!how) {
			this.end(`${this.agentName} restarted and cannot resume this conversation, so it ended.`);
			return;
		}
		this.resuming = true;
		try {
			if (how === 'load') {
				this.resetEmitter.fire();
			}
			await this.reattach(ready, this.idValue);
			this.bind(ready, this.idValue);
			this.resuming = false;
			this.owner.log.info(`Chat ${this.key} resumed with ${this.agentName} after a restart.`);
			if (ready.handle.remote) {
				this.receiveUpdate({ sessionUpdate: 'notice', severity: 'warning', title: `Reconnected to ${this.agentName}`, description: `The connection was lost and the conversation was taken up again with session/${how}. What the agent sent while it was disconnected is not replayed; a turn that was under way was stopped.` });
			}
			this.setStatus({ kind: this.retrying ? 'prompting' : 'idle' });
		} catch (error) {
			this.resuming = false;
			this.end(`${this.agentName} restarted, and resuming the conversation failed: ${errorMessage(error)}`);
		}
	}

	private cancelPending(): void {
		for (const pending of this.pendingPermissions) {
			pending.abort();
		}
	}

	private end(message: string): void {
		this.cancelPending();
		this.owner.log.info(`Chat ${this.key} with ${this.agentName}: ${message}`);
		this.setStatus({ kind: 'ended', message });
	}

	private setStatus(status: ChatStatus): void {
		this.statusValue = status;
		this.statusEmitter.fire(status);
	}

	/** Closes the chat: `session/close` when the agent offers it, then lets go of the agent (it stops if nobody else holds it). */
	async close(): Promise<void> {
		if (this.released) {
			return;
		}
		this.released = true;
		this.cancel();
		const agent = this.agentValue;
		const caps = agent?.initialized.agentCapabilities as { sessionCapabilities?: { close?: unknown } } | undefined;
		if (agent && this.idValue && caps?.sessionCapabilities?.close && !agent.handle.connection.isClosed) {
			await agent.handle.connection.sendRequest(Methods.session.close, { sessionId: this.idValue }, z.unknown()).catch(() => {});
		}
		if (agent && this.idValue) {
			agent.sessions.delete(this.idValue);
		}
		this.owner.forget(this);
		if (this.statusValue.kind !== 'ended') {
			this.setStatus({ kind: 'ended', message: 'The chat was closed.' });
		}
		this.dispose();
		await this.owner.pool.release(this.manager, this.token);
	}

	dispose(): void {
		this.subscription?.dispose();
		this.updateEmitter.dispose();
		this.statusEmitter.dispose();
		this.resetEmitter.dispose();
		this.cancelEmitter.dispose();
	}
}

function stateText(manager: AgentManager): string {
	const state = manager.state;
	return state.kind === 'failed' || state.kind === 'crashed' ? state.message : state.kind;
}

/** Without the panel: the agent's options as buttons of a notification (dismissing it cancels). */
function notificationPermission(agentName: string): PermissionHandler {
	return async (request) => {
		const names = request.options.map((o) => o.name);
		const pick = await vscode.window.showWarningMessage(`${agentName} asks: ${request.toolCall.title ?? 'may it run a tool?'}`, ...names);
		const option = request.options.find((o) => o.name === pick);
		return option ? { outcome: 'selected', optionId: option.optionId } : { outcome: 'cancelled' };
	};
}
