/**
 * The agent's operating-system process: command lookup, spawning without a
 * shell, stderr capture, and ending the whole process tree.
 */
import { spawn as crossSpawn } from 'cross-spawn';
import type { ChildProcessWithoutNullStreams } from 'node:child_process';
import { spawn } from 'node:child_process';
import * as path from 'node:path';
import which from 'which';
import type { LocalAgentDefinition } from '../common/config';
import type { Logger } from '../common/log';
import { groupAlive, signalGroup } from './processTree';

export interface ExitInfo {
	readonly code: number | null;
	readonly signal: NodeJS.Signals | null;
}

/** The agent's command could not be found on PATH (or at the given path). */
export class CommandNotFoundError extends Error {
	constructor(
		readonly command: string,
		readonly install?: string,
	) {
		super(`The agent command "${command}" was not found on PATH.${install ? ` Install it with: ${install}` : ''}`);
		this.name = 'CommandNotFoundError';
	}
}

/** The agent process ended while requests were in flight or the connection was open. */
export class AgentExitedError extends Error {
	constructor(
		readonly exit: ExitInfo | undefined,
		readonly stderrTail: readonly string[],
	) {
		const how = !exit
			? 'closed its output'
			: exit.signal
				? `was killed by ${exit.signal}`
				: `exited with code ${String(exit.code)}`;
		const tail = stderrTail.length > 0 ? ` Last stderr lines:\n${stderrTail.join('\n')}` : '';
		super(`The agent ${how}.${tail}`);
		this.name = 'AgentExitedError';
	}
}

/**
 * Finds `command` the way a shell would, without running one: an absolute or
 * relative path is taken as it is (relative to `cwd`), a bare name is looked up
 * on the PATH of `env` (with PATHEXT on Windows).
 */
export async function resolveCommand(command: string, env: NodeJS.ProcessEnv, cwd: string): Promise<string | undefined> {
	const pathKey = Object.keys(env).find((k) => k.toUpperCase() === 'PATH') ?? 'PATH';
	if (command.includes('/') || command.includes('\\')) {
		const full = path.resolve(cwd, command);
		return (await which(full, { nothrow: true })) ?? undefined;
	}
	return (await which(command, { nothrow: true, path: env[pathKey] ?? '', pathExt: env.PATHEXT })) ?? undefined;
}

const STDERR_TAIL_LINES = 20;

export class AgentProcess {
	private readonly stderrLines: string[] = [];
	private stderrPartial = '';
	private exitInfo: ExitInfo | undefined;
	private readonly exited: Promise<ExitInfo>;

	private constructor(
		readonly child: ChildProcessWithoutNullStreams,
		private readonly log: Logger,
	) {
		this.exited = new Promise<ExitInfo>((resolve) => {
			child.once('exit', (code, signal) => {
				this.exitInfo = { code, signal };
				resolve(this.exitInfo);
			});
			child.once('error', () => {
				if (!this.exitInfo) {
					this.exitInfo = { code: null, signal: null };
					resolve(this.exitInfo);
				}
			});
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (chunk: string) => this.onStderr(chunk));
		child.stdin.on('error', () => {
			// EPIPE after the agent exits: the exit handler reports it.
		});
	}

	/**
	 * Spawns the agent without a shell. On POSIX it leads its own process group
	 * so that stopping it can end every process it started. On Windows,
	 * cross-spawn resolves `.cmd`/`.bat` shims and escapes their arguments.
	 */
	static spawn(definition: LocalAgentDefinition, resolvedCommand: string, cwd: string, env: NodeJS.ProcessEnv, log: Logger): Promise<AgentProcess> {
		return new Promise((resolve, reject) => {
			let child: ChildProcessWithoutNullStreams;
			try {
				child = crossSpawn(resolvedCommand, definition.args, {
					cwd,
					env,
					stdio: ['pipe', 'pipe', 'pipe'],
					detached: process.platform !== 'win32',
					windowsHide: true,
				}) as ChildProcessWithoutNullStreams;
			} catch (error) {
				reject(error instanceof Error ? error : new Error(String(error)));
				return;
			}
			const onError = (error: Error) => reject(new Error(`Could not start "${definition.command}": ${error.message}`));
			child.once('error', onError);
			child.once('spawn', () => {
				child.off('error', onError);
				resolve(new AgentProcess(child, log));
			});
		});
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	get hasExited(): boolean {
		return this.exitInfo !== undefined;
	}

	get exit(): ExitInfo | undefined {
		return this.exitInfo;
	}

	/** Resolves when the process exits. */
	get onExit(): Promise<ExitInfo> {
		return this.exited;
	}

	/** The last lines the agent wrote to stderr. */
	get stderrTail(): readonly string[] {
		const lines = [...this.stderrLines];
		if (this.stderrPartial) {
			lines.push(this.stderrPartial);
		}
		return lines.slice(-STDERR_TAIL_LINES);
	}

	/** The error to fail requests with once the agent is gone: waits briefly for the exit status. */
	async exitError(waitMs = 500): Promise<AgentExitedError> {
		const exit = this.exitInfo ?? (await Promise.race([this.exited, delay(waitMs).then(() => undefined)]));
		return new AgentExitedError(exit, this.stderrTail);
	}

	/**
	 * Ends the agent and everything it started: SIGTERM to the process group,
	 * then SIGKILL after `graceMs` if anything is left. On Windows, `taskkill /T`.
	 */
	async kill(graceMs = 2000): Promise<void> {
		const pid = this.child.pid;
		if (pid === undefined) {
			return;
		}
		this.child.stdin.end();
		if (process.platform === 'win32') {
			if (!this.hasExited) {
				await new Promise<void>((resolve) => {
					const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
					killer.once('exit', () => resolve());
					killer.once('error', () => resolve());
				});
			}
			return;
		}
		if (!signalGroup(pid, 'SIGTERM')) {
			return; // group already gone
		}
		const deadline = Date.now() + graceMs;
		while (Date.now() < deadline) {
			await delay(50);
			if (!groupAlive(pid)) {
				return;
			}
		}
		this.log.warn(`The agent (pid ${pid}) did not stop within ${graceMs} ms; killing it.`);
		signalGroup(pid, 'SIGKILL');
		await Promise.race([this.exited, delay(1000)]);
	}

	private onStderr(chunk: string): void {
		const text = this.stderrPartial + chunk;
		const lines = text.split(/\r?\n/);
		this.stderrPartial = lines.pop() ?? '';
		for (const line of lines) {
			if (line.length === 0) {
				continue;
			}
			this.log.info(`[agent stderr] ${line.length > 2000 ? `${line.slice(0, 2000)}…` : line}`);
			this.stderrLines.push(line.length > 500 ? `${line.slice(0, 500)}…` : line);
			if (this.stderrLines.length > STDERR_TAIL_LINES) {
				this.stderrLines.shift();
			}
		}
		if (this.stderrPartial.length > 64 * 1024) {
			this.stderrPartial = this.stderrPartial.slice(-500);
		}
	}
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
