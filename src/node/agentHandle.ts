/**
 * One running agent: its process, its connection, and the ACP handshake.
 * Lives for exactly one process; a restart makes a new handle.
 */
import type { AgentDefinition } from '../common/config';
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
}

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
		readonly process: AgentProcess,
		readonly connection: AgentConnection,
		readonly invocation: AgentInvocation,
	) {}

	/** Resolves the command, spawns the agent and starts listening. Does not initialize. */
	static async launch(options: LaunchOptions): Promise<AgentHandle> {
		const { definition, log } = options;
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
		return new AgentHandle(agentProcess, connection, { command: resolved, args: definition.args, cwd, env: definition.env ?? {} });
	}

	get pid(): number | undefined {
		return this.process.pid;
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

	/** Ends the agent's whole process tree and the connection. */
	async dispose(graceMs?: number): Promise<void> {
		this.connection.fail(new Error('The agent was stopped.'));
		await this.process.kill(graceMs);
	}
}
