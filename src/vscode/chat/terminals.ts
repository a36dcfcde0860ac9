/**
 * Terminals for chat sessions (terminalProtocol.ts): the agent runs commands through the client, as
 * real processes (node/terminalProcess.ts), and the user watches them inside the tool call that
 * shows the terminal, or opens one as a VS Code terminal fed by the same process.
 *
 * - only for chat sessions this client created with that agent (-32602 otherwise); an unknown or
 *   released terminal id is -32002;
 * - the command runs in the session's folder, or in the `cwd` asked for when that is inside a
 *   workspace folder (or the session's folder);
 * - `env` is added to the editor's environment; `outputByteLimit` is honoured, up to
 *   {@link MAX_OUTPUT_BYTES};
 * - every process a terminal started, children included, ends on `terminal/kill`,
 *   `terminal/release`, when the user stops the turn (the terminal stays, with its output), when
 *   the chat ends or is closed, and when the agent's process goes.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { MAX_TERMINAL_TEXT_CHARS, type HostNotifications, type ParamsOf } from '../../common/chat/messages';
import { ACP_V1_CLIENT_CAPABILITIES } from '../../common/clientCapabilities';
import { errorMessage } from '../../common/log';
import { ErrorCodes, Methods, type ClientCapabilities } from '../../common/protocol';
import {
	MAX_OUTPUT_BYTES,
	createTerminalParamsSchema,
	terminalParamsSchema,
	terminalText,
	type CreateTerminalParams,
	type CreateTerminalResponse,
	type TerminalExitStatus,
	type TerminalOutputResponse,
	type TerminalParams,
	type WaitForTerminalExitResponse,
} from '../../common/terminalProtocol';
import { TerminalCommandNotFoundError, TerminalProcess } from '../../node/terminalProcess';
import type { AgentFeature, RunningAgent } from '../agentManager';
import type { ExtensionLog } from '../log';
import type { ChatSessionManager } from './chatSessionManager';
import type { ChatSession } from './chatSessions';

/** A terminal as a page draws it (`chat/didUpdateTerminal` without the tab's key). */
export type TerminalSnapshot = Omit<ParamsOf<typeof HostNotifications.didUpdateTerminal>, 'sessionKey'>;

/** How often a terminal that keeps writing is sent to the pages at most. */
export const TERMINAL_UPDATE_MS = 50;
/** How long a killed command has to end before SIGKILL. */
const KILL_GRACE_MS = 2000;
/** Output a released terminal keeps for the tool call (and a VS Code terminal opened later). */
const RELEASED_OUTPUT_BYTES = 256 * 1024;

interface Terminal {
	readonly id: string;
	readonly session: ChatSession;
	/** The agent process that created it: only that process may ask about it. */
	readonly agent: RunningAgent;
	readonly sessionId: string;
	readonly process: TerminalProcess;
	released: boolean;
	/** A VS Code terminal showing it, while open. */
	shown: vscode.Terminal | undefined;
	updateTimer: ReturnType<typeof setTimeout> | undefined;
}

let nextId = 1;

export class ChatTerminals implements AgentFeature, vscode.Disposable {
	private readonly terminals = new Map<string, Terminal>();
	/** Sessions whose cancel and end this feature follows. */
	private readonly watched = new Map<ChatSession, vscode.Disposable[]>();
	private readonly updateEmitter = new vscode.EventEmitter<{ readonly session: ChatSession; readonly terminal: TerminalSnapshot }>();
	/** A terminal wrote, exited or was released (at most every {@link TERMINAL_UPDATE_MS} per terminal). */
	readonly onDidUpdate = this.updateEmitter.event;

	constructor(
		private readonly chat: ChatSessionManager,
		private readonly log: ExtensionLog,
	) {}

	fillClientCapabilities(capabilities: ClientCapabilities): void {
		capabilities.terminal = ACP_V1_CLIENT_CAPABILITIES.terminal;
	}

	attach(agent: RunningAgent): void {
		const connection = agent.handle.connection;
		agent.disposables.push(
			connection.onRequest(Methods.terminal.create, createTerminalParamsSchema, (params): Promise<CreateTerminalResponse> => this.create(agent, params)),
			connection.onRequest(Methods.terminal.output, terminalParamsSchema, (params): TerminalOutputResponse => {
				const { process } = this.find(agent, params);
				return { output: process.output, truncated: process.truncated, ...(process.exit ? { exitStatus: process.exit } : {}) };
			}),
			connection.onRequest(Methods.terminal.waitForExit, terminalParamsSchema, (params): Promise<WaitForTerminalExitResponse> => this.find(agent, params).process.exited),
			connection.onRequest(Methods.terminal.kill, terminalParamsSchema, async (params) => {
				const terminal = this.find(agent, params);
				this.log.info(`Chat ${terminal.session.key}: ${agent.name} kills terminal ${terminal.id}.`);
				await terminal.process.kill(KILL_GRACE_MS);
				return {};
			}),
			connection.onRequest(Methods.terminal.release, terminalParamsSchema, async (params) => {
				await this.release(this.find(agent, params), 'released by the agent');
				return {};
			}),
			// The agent's process went: its terminal ids mean nothing any more.
			new vscode.Disposable(() => this.releaseWhere((t) => t.agent === agent, `${agent.name} stopped`)),
		);
	}

	/** The terminals of a chat, released ones included (their tool calls still show them). */
	snapshots(session: ChatSession): TerminalSnapshot[] {
		return [...this.terminals.values()].filter((t) => t.session === session).map(snapshot);
	}

	/** Shows a terminal of `session` as a VS Code terminal: its output so far, then what comes; typing goes to the command. */
	open(session: ChatSession, terminalId: string, title: string): void {
		const terminal = this.terminals.get(terminalId);
		if (!terminal || terminal.session !== session) {
			throw new Error('That terminal is gone: its chat was closed.');
		}
		if (terminal.shown && terminal.shown.exitStatus === undefined) {
			terminal.shown.show();
			return;
		}
		const write = new vscode.EventEmitter<string>();
		const { process } = terminal;
		const subscriptions: (() => void)[] = [];
		const exitLine = (exit: TerminalExitStatus) =>
			`\r\n\x1b[2m[${exit.signal ? `Ended by ${exit.signal}` : `Exited with code ${String(exit.exitCode)}`}${terminal.released ? '; released by the agent' : ''}]\x1b[0m\r\n`;
		const pty: vscode.Pseudoterminal = {
			onDidWrite: write.event,
			open: () => {
				write.fire(`\x1b[2m$ ${process.commandLine.replace(/\r?\n/g, '\r\n')}\x1b[0m\r\n`);
				if (process.truncated) {
					write.fire('\x1b[2m[earlier output was left out]\x1b[0m\r\n');
				}
				write.fire(asTerminalText(process.output));
				subscriptions.push(process.onOutput((text) => write.fire(asTerminalText(text))));
				if (process.exit) {
					write.fire(exitLine(process.exit));
				} else {
					subscriptions.push(process.onExit((exit) => write.fire(exitLine(exit))));
				}
			},
			close: () => {
				subscriptions.splice(0).forEach((unsubscribe) => unsubscribe());
				write.dispose();
				if (terminal.shown === shown) {
					terminal.shown = undefined;
				}
			},
			handleInput: (data) => {
				if (process.exit) {
					return;
				}
				if (data === '\x03') {
					process.interrupt();
					return;
				}
				// A pipe, not a terminal: nothing echoes what is typed, and Enter is a carriage return.
				write.fire(data.replace(/\r/g, '\r\n'));
				process.write(data.replace(/\r/g, '\n'));
			},
		};
		const shown = vscode.window.createTerminal({ name: title, pty, iconPath: new vscode.ThemeIcon('hubot') });
		terminal.shown = shown;
		shown.show();
	}

	private async create(agent: RunningAgent, params: CreateTerminalParams): Promise<CreateTerminalResponse> {
		const session = this.chatSession(agent, params.sessionId);
		const cwd = await this.folder(session, params.cwd);
		const env: NodeJS.ProcessEnv = { ...process.env };
		for (const variable of params.env ?? []) {
			env[variable.name] = variable.value;
		}
		let started: TerminalProcess;
		try {
			started = await TerminalProcess.start({ command: params.command, args: params.args ?? [], cwd, env, outputByteLimit: Math.min(params.outputByteLimit ?? MAX_OUTPUT_BYTES, MAX_OUTPUT_BYTES) });
		} catch (error) {
			if (error instanceof TerminalCommandNotFoundError) {
				throw new ResponseError(ErrorCodes.ResourceNotFound, `Resource not found: ${error.message}`);
			}
			throw new ResponseError(ErrorCodes.InternalError, errorMessage(error));
		}
		const terminal: Terminal = { id: `terminal-${nextId++}`, session, agent, sessionId: params.sessionId, process: started, released: false, shown: undefined, updateTimer: undefined };
		this.terminals.set(terminal.id, terminal);
		this.watch(session);
		started.onOutput(() => this.updateSoon(terminal));
		started.onExit((exit) => {
			this.log.info(`Chat ${session.key}: terminal ${terminal.id} ${exit.signal ? `ended by ${exit.signal}` : `exited with code ${String(exit.exitCode)}`}.`);
			this.update(terminal);
		});
		this.log.info(`Chat ${session.key}: ${agent.name} runs ${JSON.stringify(started.commandLine.slice(0, 500))} in ${cwd} (terminal ${terminal.id}, pid ${String(started.pid)}).`);
		this.update(terminal);
		return { terminalId: terminal.id };
	}

	/** The chat session `sessionId` names, if this client created it with this agent process. */
	private chatSession(agent: RunningAgent, sessionId: string): ChatSession {
		const session = agent.sessions.kindOf(sessionId) === 'chat' ? this.chat.all.find((s) => s.sessionId === sessionId && s.agent?.handle === agent.handle) : undefined;
		if (!session || session.status.kind === 'ended') {
			throw invalid(`sessionId: ${JSON.stringify(sessionId.slice(0, 100))} is not an open chat session this client created (session/new)`);
		}
		return session;
	}

	private find(agent: RunningAgent, params: TerminalParams): Terminal {
		if (agent.sessions.kindOf(params.sessionId) !== 'chat') {
			throw invalid(`sessionId: ${JSON.stringify(params.sessionId.slice(0, 100))} is not a chat session this client created (session/new)`);
		}
		const terminal = this.terminals.get(params.terminalId);
		if (!terminal || terminal.agent !== agent || terminal.sessionId !== params.sessionId) {
			throw new ResponseError(ErrorCodes.ResourceNotFound, `Resource not found: no terminal ${JSON.stringify(params.terminalId.slice(0, 100))} in this session`);
		}
		if (terminal.released) {
			throw new ResponseError(ErrorCodes.ResourceNotFound, `Resource not found: terminal ${terminal.id} was released`);
		}
		return terminal;
	}

	/** Where the command runs: the session's folder, or `cwd` when it is a folder inside a workspace folder or the session's. */
	private async folder(session: ChatSession, cwd: string | null | undefined): Promise<string> {
		if (cwd === undefined || cwd === null) {
			return session.cwd;
		}
		if (!path.isAbsolute(cwd)) {
			throw invalid(`cwd: ${JSON.stringify(cwd)} is not absolute; send an absolute path`);
		}
		const real = await fs.realpath(cwd).catch(() => {
			throw new ResponseError(ErrorCodes.ResourceNotFound, `Resource not found: cwd ${cwd} does not exist`);
		});
		if (!(await fs.stat(real)).isDirectory()) {
			throw invalid(`cwd: ${cwd} is not a folder`);
		}
		const roots = [session.cwd, ...(vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath)];
		for (const root of roots) {
			const resolved = await fs.realpath(root).catch(() => root);
			const relative = path.relative(resolved, real);
			if (relative === '' || (relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative))) {
				return real;
			}
		}
		throw invalid(`cwd: ${cwd} is outside the workspace folders; run commands inside the workspace`);
	}

	/** Follows a session's cancel (its commands are killed) and end (its terminals are released, and forgotten once the chat is closed). */
	private watch(session: ChatSession): void {
		if (this.watched.has(session)) {
			return;
		}
		this.watched.set(session, [
			session.onDidCancel(() => {
				for (const terminal of this.terminals.values()) {
					if (terminal.session === session && !terminal.process.exit) {
						this.log.info(`Chat ${session.key}: the turn was stopped, so terminal ${terminal.id} is killed.`);
						void terminal.process.kill(KILL_GRACE_MS);
					}
				}
			}),
			session.onDidChangeStatus((status) => {
				if (status.kind === 'ended') {
					this.releaseWhere((t) => t.session === session, 'the chat ended');
					if (!this.chat.all.includes(session)) {
						this.forget(session);
					}
				}
			}),
		]);
		// Sessions closed while they had ended already (their agent had stopped) go now.
		for (const other of this.watched.keys()) {
			if (other !== session && !this.chat.all.includes(other)) {
				this.forget(other);
			}
		}
	}

	private forget(session: ChatSession): void {
		this.watched.get(session)?.forEach((d) => d.dispose());
		this.watched.delete(session);
		for (const terminal of [...this.terminals.values()]) {
			if (terminal.session === session) {
				void this.release(terminal, 'the chat was closed');
				clearTimeout(terminal.updateTimer);
				this.terminals.delete(terminal.id);
			}
		}
	}

	private releaseWhere(predicate: (terminal: Terminal) => boolean, why: string): void {
		for (const terminal of this.terminals.values()) {
			if (predicate(terminal)) {
				void this.release(terminal, why);
			}
		}
	}

	/** Kills the command (and what it started) and forgets the id; the output stays for the tool call. */
	private async release(terminal: Terminal, why: string): Promise<void> {
		if (!terminal.released) {
			terminal.released = true;
			this.log.info(`Chat ${terminal.session.key}: terminal ${terminal.id} ${why}.`);
		}
		try {
			await terminal.process.kill(KILL_GRACE_MS);
		} catch (error) {
			this.log.warn(`Ending terminal ${terminal.id} failed: ${errorMessage(error)}`);
		}
		terminal.process.shrink(RELEASED_OUTPUT_BYTES);
		this.update(terminal);
	}

	private updateSoon(terminal: Terminal): void {
		terminal.updateTimer ??= setTimeout(() => this.update(terminal), TERMINAL_UPDATE_MS);
	}

	private update(terminal: Terminal): void {
		clearTimeout(terminal.updateTimer);
		terminal.updateTimer = undefined;
		if (this.terminals.get(terminal.id) === terminal) {
			this.updateEmitter.fire({ session: terminal.session, terminal: snapshot(terminal) });
		}
	}

	dispose(): void {
		for (const session of [...this.watched.keys()]) {
			this.forget(session);
		}
		this.releaseWhere(() => true, 'Agent Link stopped');
		this.updateEmitter.dispose();
	}
}

function snapshot(terminal: Terminal): TerminalSnapshot {
	const { process } = terminal;
	// Twice the characters shown: escape sequences and overwritten lines take room that is not shown.
	const tail = process.tail(MAX_TERMINAL_TEXT_CHARS * 2);
	const shown = terminalText(tail.text, MAX_TERMINAL_TEXT_CHARS);
	return {
		terminalId: terminal.id,
		command: process.commandLine.slice(0, 1000),
		output: shown.text,
		truncated: process.truncated || tail.cut || shown.cut,
		...(process.exit ? { exitStatus: { exitCode: process.exit.exitCode, signal: process.exit.signal } } : {}),
		released: terminal.released,
	};
}

/** Output from a pipe for a terminal: bare line feeds become carriage return and line feed. */
function asTerminalText(text: string): string {
	return text.replace(/\r?\n/g, '\r\n');
}

function invalid(message: string): ResponseError<void> {
	return new ResponseError(ErrorCodes.InvalidParams, `Invalid params: ${message}`);
}
