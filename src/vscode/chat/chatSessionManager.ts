/**
 * The chat sessions kept, and what agents send for them routed: a session made with its agent
 * (started if no role runs it yet, one process per agent) and opened (chatSessions.ts), the MCP
 * servers each agent gets, `session/update` and `session/request_permission` delivered to the
 * session they name, `session/list` and `session/delete` for the history picker when the agent
 * offers them, `elicitation/create` and `elicitation/complete` (elicitationRouting.ts), and the
 * client capabilities the chat panel needs. Never speaks for one session
 * itself (prompts, cancel, resume are the session's).
 */
import type * as vscode from 'vscode';
import * as z from 'zod/mini';
import { textChunkFastPath } from '../../common/chat/textChunkFastPath';
import { listSessionsResponseSchema, requestPermissionParamsSchema, sessionNotificationSchema, type ListedSession } from '../../common/chat/updates';
import { ACP_V1_CLIENT_CAPABILITIES } from '../../common/clientCapabilities';
import { mcpServersFor, type McpCapabilities, type McpServerConfig } from '../../common/mcp';
import { EDITOR_TOOLS_SERVER_NAME } from '../../common/editorToolNames';
import { describeUrl } from '../../common/remoteAgent';
import { offerToRemoteAgent, remoteNotice, type RemoteOffer } from '../../common/remoteMcp';
import { Methods, type ClientCapabilities } from '../../common/protocol';
import type { AgentChoice } from '../../common/presets';
import type { AgentFeature, ReadyAgent, RunningAgent } from '../agentManager';
import type { AgentPool } from '../agentPool';
import type { SignInChooser } from '../auth';
import type { ExtensionLog } from '../log';
import { ChatSession } from './chatSessions';
import { ElicitationCompletions } from './elicitationCompletions';
import { routeElicitations } from './elicitationRouting';

export interface CreateOptions {
	/** Where the user picks a sign-in method (the panel); a quick pick without it. */
	readonly chooseSignIn?: SignInChooser;
	/** Go on with this session of the agent's (chat history) instead of starting one. */
	readonly existing?: { readonly sessionId: string };
	/** Called before the session is opened, so what `session/load` replays can be listened to. */
	readonly beforeOpen?: (session: ChatSession) => void;
}

/** Keeps the chat sessions and routes what agents send for them. */
export class ChatSessionManager implements AgentFeature, vscode.Disposable {
	private readonly sessions = new Set<ChatSession>();
	/** Sessions by agent name and the agent's session id. */
	private readonly byId = new Map<string, ChatSession>();
	/** @internal for ChatSession: URL elicitations waiting for `elicitation/complete`. */
	readonly completions = new ElicitationCompletions();
	/** What each remote agent was last offered, for the chat's notice. */
	private readonly remoteOffers = new WeakMap<ReadyAgent, RemoteOffer>();

	constructor(
		readonly pool: AgentPool,
		readonly log: ExtensionLog,
		/** `agentLink.mcpServers`, as the settings are now. */
		private readonly mcpSettings: () => readonly McpServerConfig[] = () => [],
		/** Agent Link's own MCP server (the editor tools) for `agent`, in a transport it takes; undefined when turned off. */
		private readonly editorToolsFor: (agent: ReadyAgent) => Promise<McpServerConfig['server'] | undefined> = async () => undefined,
	) {
		pool.registerFeature(this);
	}

	/**
	 * @internal for ChatSession: the MCP servers `agent` gets: the editor tools first, then the user's;
	 * those in a transport it does not take are left out, with a log line. A user's server of the
	 * editor tools' name is left out too (names must be unique in `mcpServers`).
	 */
	async mcpServers(agent: ReadyAgent): Promise<McpServerConfig['server'][]> {
		const all = await this.localMcpServers(agent);
		if (!agent.handle.remote) {
			return all;
		}
		// An agent on another machine reaches neither programs nor loopback addresses of this one.
		const offer = offerToRemoteAgent(all);
		for (const server of offer.leftOut) {
			this.log.info(`MCP server "${server.name}" left out for ${agent.name}, which runs on another machine: ${server.reason}.`);
		}
		this.log.info(`MCP servers offered to ${agent.name}: ${offer.offered.map((s) => s.name).join(', ') || 'none'}.`);
		this.remoteOffers.set(agent, offer);
		return offer.offered;
	}

	/** @internal for ChatSession: what the chat says when a session opens with an agent on another machine; undefined for a local agent. */
	remoteNotice(agent: ReadyAgent): { title: string; description: string } | undefined {
		const offer = this.remoteOffers.get(agent);
		return agent.handle.remote && offer ? remoteNotice(agent.name, describeUrl(agent.handle.remote.url), offer, EDITOR_TOOLS_SERVER_NAME) : undefined;
	}

	private async localMcpServers(agent: ReadyAgent): Promise<McpServerConfig['server'][]> {
		const caps = agent.initialized.agentCapabilities?.mcpCapabilities as McpCapabilities | undefined;
		const { servers, skipped } = mcpServersFor(this.mcpSettings(), caps);
		for (const server of skipped) {
			this.log.info(`MCP server "${server.name}" left out for ${agent.name}: it does not take ${server.transport} servers (mcpCapabilities.${server.transport}).`);
		}
		const editorTools = await this.editorToolsFor(agent);
		if (!editorTools) {
			return servers;
		}
		const clash = servers.filter((s) => s.name === editorTools.name);
		for (const server of clash) {
			this.log.warn(`MCP server "${server.name}" of agentLink.mcpServers left out for ${agent.name}: Agent Link's editor tools have that name.`);
		}
		return [editorTools, ...servers.filter((s) => s.name !== editorTools.name)];
	}

	/** The open chats, oldest first. */
	get all(): readonly ChatSession[] {
		return [...this.sessions];
	}

	/**
	 * A new chat with `choice` in `cwd`: the agent is started if no role runs it yet (one process per
	 * agent), then `session/new`. A new chat never ends another.
	 */
	async create(choice: AgentChoice, cwd: string, options: CreateOptions = {}): Promise<ChatSession> {
		const token = {};
		const manager = this.pool.hold(choice.name, token);
		try {
			await manager.join(choice);
			const session = new ChatSession(choice.name, cwd, manager, token, this, options.chooseSignIn);
			this.sessions.add(session);
			try {
				options.beforeOpen?.(session);
				await session.open(options.existing);
			} catch (error) {
				if (session.agent && session.sessionId) {
					session.agent.sessions.delete(session.sessionId);
				}
				this.forget(session);
				session.dispose();
				throw error;
			}
			const how = session.continuedWith ? `went on with session/${session.continuedWith} of` : 'started with';
			this.log.info(`Chat ${session.key} ${how} ${choice.name} (session ${session.sessionId ?? '?'}) in ${cwd}.`);
			return session;
		} catch (error) {
			await this.pool.release(manager, token);
			throw error;
		}
	}

	/**
	 * One page of the sessions `agent` keeps (`session/list`; `sessionCapabilities.list`), in
	 * `cwd` when given; `nextCursor` when there are more.
	 */
	async listSessions(agent: ReadyAgent, params: { readonly cwd?: string; readonly cursor?: string } = {}): Promise<{ readonly sessions: readonly ListedSession[]; readonly nextCursor?: string }> {
		const result = await agent.handle.connection.sendRequest(
			Methods.session.list,
			{ ...(params.cwd !== undefined ? { cwd: params.cwd } : {}), ...(params.cursor !== undefined ? { cursor: params.cursor } : {}) },
			listSessionsResponseSchema,
		);
		return { sessions: result.sessions, ...(typeof result.nextCursor === 'string' ? { nextCursor: result.nextCursor } : {}) };
	}

	/** `session/delete` (`sessionCapabilities.delete`): the agent forgets the session. */
	async deleteSession(agent: ReadyAgent, sessionId: string): Promise<void> {
		await agent.handle.connection.sendRequest(Methods.session.delete, { sessionId }, z.unknown());
	}

	/**
	 * The chat panel draws config options (selects and booleans), notices, compactions and
	 * elicitations (forms and URLs), so it says so: agents may then send them
	 * (`session.configOptions`, `notices`, `compaction`, `elicitation.form`, `elicitation.url`).
	 */
	fillClientCapabilities(capabilities: ClientCapabilities): void {
		capabilities.session = { ...capabilities.session, ...ACP_V1_CLIENT_CAPABILITIES.session };
		capabilities.elicitation = { ...ACP_V1_CLIENT_CAPABILITIES.elicitation };
	}

	attach(agent: RunningAgent): void {
		const connection = agent.handle.connection;
		agent.disposables.push(
			connection.onNotification(
				Methods.session.update,
				sessionNotificationSchema,
				(params) => {
					this.byId.get(key(agent.name, params.sessionId))?.receiveUpdate(params.update);
				},
				// Text chunks, most of what an agent sends, checked without zod (same result).
				textChunkFastPath,
			),
			connection.onRequest(Methods.session.requestPermission, requestPermissionParamsSchema, async (params) => {
				const session = this.byId.get(key(agent.name, params.sessionId));
				if (!session || agent.sessions.kindOf(params.sessionId) !== 'chat') {
					return { outcome: { outcome: 'cancelled' } };
				}
				return { outcome: await session.askPermission(params) };
			}),
			...routeElicitations(agent, { log: this.log, completions: this.completions, session: (sessionId) => (agent.sessions.kindOf(sessionId) === 'chat' ? this.byId.get(key(agent.name, sessionId)) : undefined) }),
		);
	}

	/** @internal for ChatSession */
	index(session: ChatSession): void {
		if (session.sessionId) {
			this.byId.set(key(session.agentName, session.sessionId), session);
		}
	}

	/** @internal for ChatSession */
	forget(session: ChatSession): void {
		this.sessions.delete(session);
		if (session.sessionId && this.byId.get(key(session.agentName, session.sessionId)) === session) {
			this.byId.delete(key(session.agentName, session.sessionId));
		}
	}

	dispose(): void {
		for (const session of this.sessions) {
			session.dispose();
		}
		this.sessions.clear();
		this.byId.clear();
	}
}

function key(agentName: string, sessionId: string): string {
	return `${agentName}\u0000${sessionId}`;
}
