// A chat with a real agent (Claude Code, OpenCode, Gemini CLI, Qwen Code: test/fixtures/real-agents), through
// Agent Link's own client (AgentHandle, AgentConnection) and transcript reducer, the way the chat
// panel holds one: the same client capabilities, files read and written on disk for the agent,
// commands run as real processes, permission requests answered as the test says, every update
// applied to a Transcript. The agent runs behind the launcher, which points it at its scripted model
// server and checks every message this client sends against the ACP schema.
import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import {
	newSessionResponseSchema,
	promptResponseSchema,
	requestPermissionParamsSchema,
	sessionNotificationSchema,
	type RequestPermissionParams,
	type SessionUpdate,
	type StopReason,
} from '../../src/common/chat/updates';
import { Transcript, type ToolCallEntry } from '../../src/common/chat/transcript';
import { clientEditorStateCapabilities } from '../../src/common/editorStateProtocol';
import { readTextFileParamsSchema, sliceLines } from '../../src/common/fsProtocol';
import { writeTextFileParamsSchema, type WriteTextFileParams } from '../../src/common/fsWrite';
import { Methods, type ClientCapabilities, type ValidatedInitializeResponse } from '../../src/common/protocol';
import { createTerminalParamsSchema, terminalParamsSchema } from '../../src/common/terminalProtocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { TerminalProcess } from '../../src/node/terminalProcess';
import { greetJsPath, launcherPath, readRealAgentLog, type RealAgentLogEntry, type RealAgentName } from '../shared/realAgentLog';
import { clientInfo, launch, MemoryLog, repoRoot } from './helpers';

/**
 * What the chat panel advertises (fs, terminals, config options, notices, compaction, terminal sign-in,
 * editor state), except elicitation: the panel advertises `elicitation.form` and `elicitation.url`
 * too, but this harness answers no `elicitation/create`, so it does not say it can.
 */
const CHAT_CAPABILITIES: ClientCapabilities = {
	fs: { readTextFile: true, writeTextFile: true },
	terminal: true,
	session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
	...({ auth: { terminal: true } } as object),
	...clientEditorStateCapabilities(),
};

/** How long a real agent may take to start, or to finish a turn, on a loaded machine. */
const AGENT_TIMEOUT_MS = 180_000;

/** Installs the agent into the test cache (once; fast when it is there). */
export function ensureInstalled(name: RealAgentName): Promise<void> {
	return new Promise((resolve, reject) => {
		const child = spawn(process.execPath, [join(repoRoot, 'test', 'fixtures', 'real-agents', 'install.mjs'), name], { stdio: ['ignore', 'ignore', 'pipe'] });
		let err = '';
		child.stderr.on('data', (d) => (err += String(d)));
		child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`installing ${name} failed:\n${err}`))));
	});
}

export interface Turn {
	readonly stopReason: StopReason;
	/** The agent's message text of the turn, and in how many chunks it came. */
	readonly text: string;
	readonly chunks: number;
	readonly updates: readonly SessionUpdate[];
	readonly permissions: readonly RequestPermissionParams[];
	/** The updates and permission requests in the order they came. */
	readonly events: readonly TurnEvent[];
}

export type TurnEvent = { readonly update: SessionUpdate } | { readonly permission: RequestPermissionParams };

export interface PromptOptions {
	/** How permission requests of this turn are answered (the option of that kind); default: allow once. */
	readonly answer?: 'allow_once' | 'reject_once';
	/** Send `session/cancel` once the agent's text holds this. */
	readonly cancelOn?: string;
}

export class RealAgentChat {
	readonly transcript = new Transcript();
	/** Every `fs/write_text_file` the agent sent, and every file it read through the client. */
	readonly writes: WriteTextFileParams[] = [];
	readonly reads: string[] = [];
	private current: { updates: SessionUpdate[]; permissions: RequestPermissionParams[]; events: TurnEvent[]; text: string; chunks: number; options: PromptOptions } | undefined;
	private readonly terminals = new Map<string, TerminalProcess>();
	private nextTerminal = 1;
	private nextPermission = 1;

	private constructor(
		readonly name: RealAgentName,
		readonly scratch: string,
		readonly workspace: string,
		readonly logFile: string,
		readonly handle: AgentHandle,
		readonly log: MemoryLog,
	) {}

	/** Starts the agent in a new workspace holding greet.js, initializes it and opens a session. */
	static async start(name: RealAgentName): Promise<{ chat: RealAgentChat; sessionId: string }> {
		await ensureInstalled(name);
		const scratch = mkdtempSync(join(tmpdir(), `agent-link-real-${name}-`));
		// A space in the path on purpose: every path the agents and the client handle must survive it.
		const workspace = join(scratch, 'work space');
		mkdirSync(workspace);
		copyFileSync(greetJsPath(repoRoot), join(workspace, 'greet.js'));
		const logFile = join(scratch, 'launcher.jsonl');
		const log = new MemoryLog();
		const handle = await launch(
			{
				command: process.execPath,
				args: [launcherPath(repoRoot), name],
				env: { AGENT_LINK_REAL_AGENT_LOG: logFile, AGENT_LINK_REAL_AGENT_HOME: scratch },
				cwd: workspace,
			},
			log,
		);
		const chat = new RealAgentChat(name, scratch, workspace, logFile, handle, log);
		chat.attach();
		await withTimeout(handle.initialize(clientInfo, CHAT_CAPABILITIES), `${name}: initialize`);
		const session = await withTimeout(handle.connection.sendRequest(Methods.session.new, { cwd: workspace, mcpServers: [] }, newSessionResponseSchema), `${name}: session/new`);
		chat.sessionId = session.sessionId;
		chat.transcript.apply({ type: 'session_setup', modes: session.modes, configOptions: session.configOptions });
		return { chat, sessionId: session.sessionId };
	}

	sessionId = '';

	/** The launcher's log so far. */
	logEntries(): RealAgentLogEntry[] {
		return readRealAgentLog(this.logFile);
	}

	file(name: string): string {
		return readFileSync(join(this.workspace, name), 'utf8');
	}

	/** One whole turn: the prompt, every update until `session/prompt` answers, permissions answered per `options`. */
	async prompt(text: string, options: PromptOptions = {}): Promise<Turn> {
		const turn = { updates: [] as SessionUpdate[], permissions: [] as RequestPermissionParams[], events: [] as TurnEvent[], text: '', chunks: 0, options };
		this.current = turn;
		const blocks = [{ type: 'text' as const, text }];
		this.transcript.apply({ type: 'prompt', blocks });
		try {
			const answer = await withTimeout(this.handle.connection.sendRequest(Methods.session.prompt, { sessionId: this.sessionId, prompt: blocks }, promptResponseSchema), `${this.name}: "${text}"`);
			this.transcript.apply({ type: 'turn_ended', stopReason: answer.stopReason });
			return { stopReason: answer.stopReason, text: turn.text, chunks: turn.chunks, updates: turn.updates, permissions: turn.permissions, events: turn.events };
		} finally {
			this.current = undefined;
		}
	}

	async dispose(): Promise<void> {
		for (const terminal of this.terminals.values()) {
			await terminal.kill();
		}
		await this.handle.dispose(2000);
		if (!process.env.AGENT_LINK_KEEP_REAL_AGENT_LOG) {
			rmSync(this.scratch, { recursive: true, force: true });
		}
	}

	private attach(): void {
		const connection = this.handle.connection;
		connection.onNotification(Methods.session.update, sessionNotificationSchema, ({ update }) => this.receive(update));
		connection.onRequest(Methods.session.requestPermission, requestPermissionParamsSchema, (params) => this.answerPermission(params));
		connection.onRequest(Methods.fs.readTextFile, readTextFileParamsSchema, ({ path, line, limit }) => {
			this.reads.push(path);
			return { content: sliceLines(readFileSync(path, 'utf8'), line, limit) };
		});
		connection.onRequest(Methods.fs.writeTextFile, writeTextFileParamsSchema, (params) => {
			this.writes.push(params);
			mkdirSync(dirname(params.path), { recursive: true });
			writeFileSync(params.path, params.content);
			return {};
		});
		this.attachTerminals();
	}

	private receive(update: SessionUpdate): void {
		this.transcript.apply({ type: 'update', update });
		const turn = this.current;
		if (!turn) {
			return;
		}
		turn.updates.push(update);
		turn.events.push({ update });
		if (update.sessionUpdate === 'agent_message_chunk' && update.content.type === 'text') {
			turn.text += update.content.text;
			turn.chunks++;
			if (turn.options.cancelOn && turn.text.includes(turn.options.cancelOn)) {
				turn.options = { ...turn.options, cancelOn: undefined };
				void this.handle.connection.sendNotification(Methods.session.cancel, { sessionId: this.sessionId });
			}
		}
	}

	private answerPermission(params: RequestPermissionParams): { outcome: { outcome: 'selected'; optionId: string } | { outcome: 'cancelled' } } {
		const requestId = `permission-${this.nextPermission++}`;
		this.transcript.apply({ type: 'permission_asked', requestId, toolCall: params.toolCall, options: params.options });
		const turn = this.current;
		turn?.permissions.push(params);
		turn?.events.push({ permission: params });
		const kind = turn?.options.answer ?? 'allow_once';
		const option = params.options.find((o) => o.kind === kind);
		if (!turn || !option) {
			this.transcript.apply({ type: 'permission_answered', requestId });
			return { outcome: { outcome: 'cancelled' } };
		}
		this.transcript.apply({ type: 'permission_answered', requestId, optionId: option.optionId });
		return { outcome: { outcome: 'selected', optionId: option.optionId } };
	}

	/** terminal/*: real processes in the workspace (no agent of these uses them today; Agent Link offers them). */
	private attachTerminals(): void {
		const connection = this.handle.connection;
		const terminal = (id: string) => {
			const found = this.terminals.get(id);
			if (!found) {
				throw new Error(`no terminal ${id}`);
			}
			return found;
		};
		connection.onRequest(Methods.terminal.create, createTerminalParamsSchema, async (params) => {
			const env = { ...process.env, ...Object.fromEntries((params.env ?? []).map((v) => [v.name, v.value])) };
			const created = await TerminalProcess.start({ command: params.command, args: params.args ?? [], cwd: params.cwd ?? this.workspace, env, outputByteLimit: params.outputByteLimit ?? 1024 * 1024 });
			const terminalId = `terminal-${this.nextTerminal++}`;
			this.terminals.set(terminalId, created);
			return { terminalId };
		});
		connection.onRequest(Methods.terminal.output, terminalParamsSchema, ({ terminalId }) => {
			const t = terminal(terminalId);
			return { output: t.output, truncated: t.truncated, exitStatus: t.exit ?? null };
		});
		connection.onRequest(Methods.terminal.waitForExit, terminalParamsSchema, async ({ terminalId }) => await terminal(terminalId).exited);
		connection.onRequest(Methods.terminal.kill, terminalParamsSchema, async ({ terminalId }) => {
			await terminal(terminalId).kill();
			return {};
		});
		connection.onRequest(Methods.terminal.release, terminalParamsSchema, async ({ terminalId }) => {
			await terminal(terminalId).kill();
			this.terminals.delete(terminalId);
			return {};
		});
	}
}

/**
 * Only the handshake with a real agent: started by the launcher in a new empty workspace,
 * `initialize` with the chat's capabilities, its answer and the launcher's log; then stopped.
 */
export async function handshake(name: RealAgentName): Promise<{ result: ValidatedInitializeResponse; log: RealAgentLogEntry[] }> {
	await ensureInstalled(name);
	const scratch = mkdtempSync(join(tmpdir(), `agent-link-real-${name}-`));
	const workspace = join(scratch, 'work space');
	mkdirSync(workspace);
	const logFile = join(scratch, 'launcher.jsonl');
	const handle = await launch(
		{ command: process.execPath, args: [launcherPath(repoRoot), name], env: { AGENT_LINK_REAL_AGENT_LOG: logFile, AGENT_LINK_REAL_AGENT_HOME: scratch }, cwd: workspace },
		new MemoryLog(),
	);
	try {
		const result = await withTimeout(handle.initialize(clientInfo, CHAT_CAPABILITIES), `${name}: initialize`);
		return { result, log: readRealAgentLog(logFile) };
	} finally {
		await handle.dispose(2000);
		if (!process.env.AGENT_LINK_KEEP_REAL_AGENT_LOG) {
			rmSync(scratch, { recursive: true, force: true });
		}
	}
}

function withTimeout<T>(work: Promise<T>, what: string): Promise<T> {
	let timer: NodeJS.Timeout | undefined;
	const timeout = new Promise<never>((_, reject) => {
		timer = setTimeout(() => reject(new Error(`${what}: no answer in ${AGENT_TIMEOUT_MS / 1000} s`)), AGENT_TIMEOUT_MS);
	});
	return Promise.race([work, timeout]).finally(() => clearTimeout(timer));
}

/** The text of the agent's messages in the transcript, and its tool calls. */
export function transcriptOf(chat: RealAgentChat) {
	const entries = chat.transcript.snapshot().entries;
	return {
		toolCalls: entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call'),
		agentText: entries
			.flatMap((e) => (e.kind === 'agent' ? e.blocks : []))
			.map((b) => (b.type === 'text' ? b.text : ''))
			.join(''),
	};
}
