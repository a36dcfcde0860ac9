/**
 * One running agent: its process, its connection, and the ACP handshake.
 * Lives for exactly one process; a restart makes a new handle.
 */
import type { AgentDefinition, LocalAgentDefinition } from '../common/config';
import type { Logger } from '../common/log';
import {
	Methods,
	PROTOCOL_VERSION,
	initializeResponseSchema,
	type ClientCapabilities,
	type ValidatedInitializeResponse,
} from '../common/protocol';
import type { RateLimitOptions } from '../common/rateLimit';
import type { WireTracer } from '../common/trace';
import { AgentProcess, CommandNotFoundError, resolveCommand } from './agentProcess';
import { AgentConnection } from './connection';
import type * as remoteModule from './remoteTransport';
import type { RemoteLink } from './remoteTransport';
import { isRemoteDefinition, requestHeaders, describeUrl, type RemoteAgentDefinition } from '../common/remoteAgent';

export interface LaunchOptions {
	readonly definition: AgentDefinition;
	/** Where the agent runs when its definition names no `cwd`. */
	readonly defaultCwd: string;
	readonly maxLineBytes: number;
	readonly log: Logger;
	/** How log lines about malformed or unexpected messages are limited (see {@link AgentConnection}). */
	readonly logLimits?: RateLimitOptions;
	readonly tracer?: WireTracer;
	/** Install hint for a preset, shown when its command is missing. */
	readonly install?: string;
	/** Base environment; defaults to this process's. */
	readonly env?: NodeJS.ProcessEnv;
	/** A remote agent's secret (sent in its `authHeader`). */
	readonly secret?: string;
	/** How long connecting to a remote agent may take (default 10 s). */
	readonly connectTimeoutMs?: number;
}

const DEFAULT_CONNECT_TIMEOUT_MS = 10_000;

export interface ClientInfo {
	readonly name: string;
	readonly title: string;
	readonly version: string;
}

/** The agent speaks a protocol version this client does not. */
export class UnsupportedProtocolError extends Error {
	constructor(readonly agentVersion: number) {
		super(`The agent speaks ACP protocol version ${agentVersion}; Agent Link speaks version ${PROTOCOL_VERSION}.`);
		this.name = 'UnsupportedProtocolError';
	}
}

/** How the agent was started: what terminal sign-in runs again with the method's arguments. */
export interface AgentInvocation {
	/** The resolved program. */
	readonly command: string;
	readonly args: readonly string[];
	readonly cwd: string;
	/** The variables the agent's definition adds to the editor's environment. */
	readonly env: Readonly<Record<string, string>>;
}

export class AgentHandle {
	private initializeResult: ValidatedInitializeResponse | undefined;

	private constructor(
		readonly connection: AgentConnection,
		/** The local agent's process; undefined for a remote agent. */
		readonly process: AgentProcess | undefined,
		/** How a local agent was started; undefined for a remote agent. */
		readonly invocation: AgentInvocation | undefined,
		/** A remote agent's link; undefined for a local agent. */
		readonly remote: RemoteLink | undefined,
	) {}

	/** Starts the agent (a local one's process, a remote one's link) and starts listening. Does not initialize. */
	static async launch(options: LaunchOptions): Promise<AgentHandle> {
		return isRemoteDefinition(options.definition) ? AgentHandle.connect(options, options.definition) : AgentHandle.spawn(options, options.definition);
	}

	/** A remote agent: its transport opened (it connects with `initialize`), read like a local agent's stdio. */
	private static connect(options: LaunchOptions, definition: RemoteAgentDefinition): AgentHandle {
		options.log.info(`Connecting to ${describeUrl(definition.url)}${options.secret ? ' with the stored credential' : ''}.`);
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const { RemoteLink } = require('./remoteTransport') as typeof remoteModule;
		const link = RemoteLink.open({
			url: definition.url,
			headers: requestHeaders(definition, options.secret),
			connectTimeoutMs: options.connectTimeoutMs ?? DEFAULT_CONNECT_TIMEOUT_MS,
			maxMessageBytes: options.maxLineBytes,
		});
		const connection = new AgentConnection({
			input: link.input,
			output: link.output,
			maxLineBytes: options.maxLineBytes,
			log: options.log,
			logLimits: options.logLimits,
			tracer: options.tracer,
			describeClose: () => Promise.resolve(link.closeError()),
		});
		connection.listen();
		return new AgentHandle(connection, undefined, undefined, link);
	}

	/** Resolves the command, spawns the agent and starts listening. */
	private static async spawn(options: LaunchOptions, definition: LocalAgentDefinition): Promise<AgentHandle> {
		const { log } = options;
		const cwd = definition.cwd ?? options.defaultCwd;
		const env = { ...(options.env ?? process.env), ...definition.env };
		const resolved = await resolveCommand(definition.command, env, cwd);
		if (!resolved) {
			throw new CommandNotFoundError(definition.command, options.install);
		}
		log.info(`Starting ${[resolved, ...definition.args].join(' ')} in ${cwd}`);
		const agentProcess = await AgentProcess.spawn(definition, resolved, cwd, env, log);
		log.info(`Agent process started (pid ${String(agentProcess.pid)})`);
		const connection = new AgentConnection({
			input: agentProcess.child.stdout,
			output: agentProcess.child.stdin,
			maxLineBytes: options.maxLineBytes,
			log,
			logLimits: options.logLimits,
			tracer: options.tracer,
			describeClose: () => agentProcess.exitError(),
		});
		// The process can die without closing its output (a grandchild holding
		// the pipe open): fail everything in flight as soon as it exits.
		void agentProcess.onExit.then(async () => connection.fail(await agentProcess.exitError()));
		connection.listen();
		return new AgentHandle(connection, agentProcess, { command: resolved, args: definition.args, cwd, env: definition.env ?? {} }, undefined);
	}

	get pid(): number | undefined {
		return this.process?.pid;
	}

	get isRemote(): boolean {
		return this.remote !== undefined;
	}

	get initialized(): ValidatedInitializeResponse | undefined {
		return this.initializeResult;
	}

	/** ACP `initialize`: protocol version 1, who we are, and what we really implement. */
	async initialize(clientInfo: ClientInfo, clientCapabilities: ClientCapabilities): Promise<ValidatedInitializeResponse> {
		const result = await this.connection.sendRequest(
			Methods.initialize,
			{ protocolVersion: PROTOCOL_VERSION, clientInfo, clientCapabilities },
			initializeResponseSchema,
		);
		if (result.protocolVersion !== PROTOCOL_VERSION) {
			throw new UnsupportedProtocolError(result.protocolVersion);
		}
		this.initializeResult = result;
		return result;
	}

	/** Ends the agent's whole process tree (a remote agent's link) and the connection. */
	async dispose(graceMs?: number): Promise<void> {
		this.connection.fail(new Error('The agent was stopped.'));
		await Promise.all([this.process?.kill(graceMs), this.remote?.close()]);
	}
}
