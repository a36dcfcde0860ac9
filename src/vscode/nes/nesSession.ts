/**
 * The NES session with the running agent (`nes/start` … `nes/close`), in
 * whichever revision the agent speaks. Document events and suggestion context
 * hang off the session this class publishes.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { errorMessage } from '../../common/log';
import {
	NesMethods,
	clientNesCapabilities,
	detectNesProfile,
	eventMethod,
	startNesResponseSchema,
	suggestNesResponseSchema,
	type ClientNesFeatures,
	type NesEventName,
	type NesProfile,
	type SuggestNesResponse,
} from '../../common/nes/protocol';
import type { NesRejectReason } from '../../common/nes/lifecycle';
import { parseRemoteUrl, type NesRepository } from '../../common/nes/repository';
import type { ClientCapabilities } from '../../common/protocol';
import { readGitRemoteUrl } from '../../node/git';
import type { CancellationToken } from 'vscode-jsonrpc/node';
import type { AgentFeature, ReadyAgent } from '../agentManager';
import type { AgentRole } from '../agentPool';
import { isAuthRequired, signIn } from '../auth';
import type { AgentCredentials } from '../credentials';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';

/** A live NES session with one agent. */
export class NesSession {
	private closed = false;

	constructor(
		readonly id: string,
		readonly profile: NesProfile,
		readonly agent: ReadyAgent,
	) {}

	get isOpen(): boolean {
		return !this.closed && !this.agent.handle.connection.isClosed;
	}

	/** Sends a document event if the agent declared it; `sessionId` is added for the merged revision. */
	notify(event: NesEventName, params: Record<string, unknown>): void {
		if (!this.isOpen) {
			return;
		}
		const declared = event === 'didChange' ? this.profile.events.didChange !== undefined : this.profile.events[event];
		if (!declared) {
			return;
		}
		const body = this.profile.revision === 'merged' ? { sessionId: this.id, ...params } : params;
		void this.agent.handle.connection.sendNotification(eventMethod(this.profile.revision, event), body).catch(() => {});
	}

	/** `nes/suggest`; `sessionId` is added for the merged revision. */
	suggest(params: Record<string, unknown>, token?: CancellationToken): Promise<SuggestNesResponse> {
		const body = this.profile.revision === 'merged' ? { sessionId: this.id, ...params } : params;
		return this.agent.handle.connection.sendRequest(NesMethods.suggest, body, suggestNesResponseSchema, token);
	}

	accept(id: string): void {
		this.send(NesMethods.accept, { id });
	}

	reject(id: string, reason: NesRejectReason): void {
		this.send(NesMethods.reject, { id, reason });
	}

	/** `nes/close` (merged revision only: the seed revision has no such method). */
	async close(): Promise<void> {
		if (this.closed) {
			return;
		}
		this.closed = true;
		this.agent.sessions.delete(this.id);
		if (this.profile.revision === 'merged' && !this.agent.handle.connection.isClosed) {
			await this.agent.handle.connection.sendRequest(NesMethods.close, { sessionId: this.id }, z.unknown());
		}
	}

	markClosed(): void {
		this.closed = true;
	}

	private send(method: string, params: Record<string, unknown>): void {
		if (!this.isOpen) {
			return;
		}
		const body = this.profile.revision === 'merged' ? { sessionId: this.id, ...params } : params;
		void this.agent.handle.connection.sendNotification(method, body).catch(() => {});
	}
}

/**
 * The agents next edit suggestions may come from (nesAgent.ts): the chat role's and the NES
 * role's, and which of them serves suggestions now.
 */
export interface NesAgentSource {
	readonly source: AgentRole;
	readonly roles: readonly AgentRole[];
	readonly onDidChangeSource: vscode.Event<AgentRole>;
}

/** Starts and ends the NES session as agents come and go and `agentLink.nes.enabled` changes. */
export class NesSessionManager implements AgentFeature, vscode.Disposable {
	private session: NesSession | undefined;
	private starting: Promise<void> | undefined;
	/** Agents told once that their NES capabilities are invalid. */
	private readonly warnedInvalid = new WeakSet<ReadyAgent>();
	private readonly startEmitter = new vscode.EventEmitter<NesSession>();
	private readonly endEmitter = new vscode.EventEmitter<NesSession>();
	private readonly disposables: vscode.Disposable[] = [];

	readonly onDidStart = this.startEmitter.event;
	readonly onDidEnd = this.endEmitter.event;

	/** What the suggestion display (presenter.ts, applySuggestion.ts) carries out; advertised in `initialize`. */
	readonly features: ClientNesFeatures = { jump: true, rename: true, searchAndReplace: true };

	constructor(
		private readonly agents: NesAgentSource,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
		/** Where values of `env_var` sign-in methods are kept. */
		private readonly credentials?: AgentCredentials,
	) {
		agents.source.registerFeature(this);
		for (const role of agents.roles) {
			this.disposables.push(role.onDidChangeState(() => this.follow()));
		}
		this.disposables.push(
			config.onDidChange((c) => {
				const agent = agents.source.readyAgent;
				if (!c.nes.enabled && this.session) {
					void this.end('agentLink.nes.enabled was turned off');
				} else if (c.nes.enabled && !this.session && agent) {
					void this.begin(agent);
				}
			}),
			// Suggestions moved to the other agent (agentLink.nes.agent, or the chat agent switched):
			// close the session with the old one, which may keep running, and open one with the new.
			agents.onDidChangeSource(() => this.follow()),
		);
	}

	/**
	 * Keeps the session with the agent that serves suggestions as roles change agents and agents
	 * change state: a session whose agent no longer serves them ends (with `nes/close` while its
	 * process still runs: another role may keep it), and an agent that serves them and is ready
	 * (say, one the NES role joined after the chat role started it) gets one.
	 */
	private follow(): void {
		const agent = this.agents.source.readyAgent;
		const session = this.session;
		if (session && session.agent !== agent) {
			if (session.agent.handle.connection.isClosed) {
				this.session = undefined;
				session.markClosed();
				this.endEmitter.fire(session);
			} else {
				void this.end('next edit suggestions now come from another agent');
			}
		}
		if (agent && !this.session && this.config.current.nes.enabled) {
			void this.begin(agent);
		}
	}

	/**
	 * Calls `start` for the session open now and for each one opened later; what
	 * it returns is disposed when that session ends (or when this is disposed).
	 */
	forEachSession(start: (session: NesSession) => vscode.Disposable): vscode.Disposable {
		let running: { session: NesSession; scope: vscode.Disposable } | undefined;
		const end = () => {
			running?.scope.dispose();
			running = undefined;
		};
		const begin = (session: NesSession) => {
			end();
			running = { session, scope: start(session) };
		};
		const subscriptions = [
			this.onDidStart(begin),
			this.onDidEnd((session) => {
				if (running?.session === session) {
					end();
				}
			}),
		];
		if (this.current) {
			begin(this.current);
		}
		return new vscode.Disposable(() => {
			end();
			subscriptions.forEach((d) => d.dispose());
		});
	}

	/** The open session, if the running agent speaks NES and it is enabled. */
	get current(): NesSession | undefined {
		return this.session?.isOpen ? this.session : undefined;
	}

	fillClientCapabilities(capabilities: ClientCapabilities): void {
		Object.assign(capabilities, clientNesCapabilities(this.features));
	}

	async initialized(agent: ReadyAgent): Promise<void> {
		// Every agent is initialized with NES capabilities; only the one serving suggestions gets a session.
		if (this.config.current.nes.enabled && this.agents.source.readyAgent === agent) {
			await this.begin(agent);
		}
	}

	async beforeStop(agent: ReadyAgent): Promise<void> {
		if (this.session?.agent === agent) {
			await this.end('the agent is stopping');
		}
	}

	private begin(agent: ReadyAgent): Promise<void> {
		if (this.session?.agent === agent) {
			return Promise.resolve();
		}
		if (this.starting) {
			// One start at a time; if it was for another agent, this one's turn comes after it.
			return this.starting.then(() => {
				if (!this.session && this.agents.source.readyAgent === agent && this.config.current.nes.enabled) {
					return this.begin(agent);
				}
				return undefined;
			});
		}
		this.starting = this.start(agent).finally(() => (this.starting = undefined));
		return this.starting;
	}

	private async start(agent: ReadyAgent): Promise<void> {
		const detected = detectNesProfile(agent.initialized.agentCapabilities);
		if (!detected) {
			return;
		}
		if (!detected.ok) {
			if (this.warnedInvalid.has(agent)) {
				return;
			}
			this.warnedInvalid.add(agent);
			this.log.warn(`${agent.name} advertises next edit suggestions, but its capabilities are invalid (${detected.reason}); NES stays off.`);
			return;
		}
		const profile = detected.profile;
		const params = await this.startParams();
		for (let attempt = 0; ; attempt++) {
			try {
				const result = await agent.handle.connection.sendRequest(NesMethods.start, params, startNesResponseSchema);
				if (this.agents.source.readyAgent !== agent || !this.config.current.nes.enabled) {
					return;
				}
				const session = new NesSession(result.sessionId, profile, agent);
				agent.sessions.add(session.id, 'nes');
				this.session = session;
				const declared = [
					...Object.entries(profile.events).filter(([, v]) => v).map(([k, v]) => (k === 'didChange' ? `didChange(${String(v)})` : k)),
				];
				this.log.info(
					`NES session ${session.id} started with ${agent.name} (${profile.revision} revision, ${profile.encoding}; events: ${declared.join(', ') || 'none'}; context: ${Object.keys(profile.context).join(', ') || 'none'}).`,
				);
				this.startEmitter.fire(session);
				return;
			} catch (error) {
				if (isAuthRequired(error) && attempt === 0) {
					const source = this.agents.source;
					const signedIn = await signIn(agent, error, 'next edit suggestions', {
						log: this.log,
						credentials: this.credentials,
						restart: async () => {
							await source.restart();
							return source.readyAgent;
						},
					});
					if (signedIn === agent) {
						continue;
					}
					if (signedIn) {
						return; // started again: its NES session starts as for any new process
					}
				}
				this.log.error(`Starting next edit suggestions with ${agent.name} failed: ${errorMessage(error)}`);
				return;
			}
		}
	}

	private async end(why: string): Promise<void> {
		const session = this.session;
		this.session = undefined;
		if (!session) {
			return;
		}
		this.log.info(`Closing NES session ${session.id}: ${why}.`);
		this.endEmitter.fire(session);
		try {
			await session.close();
		} catch (error) {
			this.log.debug(`nes/close failed: ${errorMessage(error)}`);
		}
	}

	/** `nes/start` params: the workspace, and its git repository when there is a remote. */
	private async startParams(): Promise<Record<string, unknown>> {
		const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
		const params: Record<string, unknown> = {};
		const first = folders[0];
		if (first) {
			params.workspaceUri = first.uri.toString();
			params.workspaceFolders = folders.map((f) => ({ uri: f.uri.toString(), name: f.name }));
			const repository = await this.repository(first.uri.fsPath);
			if (repository) {
				params.repository = repository;
			}
		}
		return params;
	}

	private async repository(folder: string): Promise<NesRepository | undefined> {
		const url = await readGitRemoteUrl(folder);
		return url ? parseRemoteUrl(url) : undefined;
	}

	dispose(): void {
		for (const d of this.disposables) {
			d.dispose();
		}
		this.startEmitter.dispose();
		this.endEmitter.dispose();
	}
}
