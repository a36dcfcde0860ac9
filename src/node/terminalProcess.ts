/**
 * A command an agent runs through `terminal/create` (terminalProtocol.ts): a real process in its
 * own process group, its stdout and stderr kept together within a byte limit and passed on as they
 * come, its stdin open for a person typing into the terminal, ended with everything it started.
 */
import { spawn as crossSpawn } from 'cross-spawn';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as path from 'node:path';
import { OutputBuffer, type TerminalExitStatus } from '../common/terminalProtocol';
import { resolveCommand } from './agentProcess';
import { killTree, signalGroup } from './processTree';

export interface TerminalSpec {
	readonly command: string;
	readonly args: readonly string[];
	/** An absolute folder that exists. */
	readonly cwd: string;
	readonly env: NodeJS.ProcessEnv;
	/** Bytes of UTF-8 output kept (earlier output is dropped). */
	readonly outputByteLimit: number;
}

/** The command of a `terminal/create` with arguments was not found. */
export class TerminalCommandNotFoundError extends Error {
	constructor(readonly command: string) {
		super(`The command "${command}" was not found on PATH.`);
		this.name = 'TerminalCommandNotFoundError';
	}
}

/** After the process exits, how long its output may still take to arrive (a background child may hold the pipes open for ever). */
const OUTPUT_AFTER_EXIT_MS = 250;

export class TerminalProcess {
	private readonly buffer: OutputBuffer;
	private exitValue: TerminalExitStatus | undefined;
	private readonly listeners = new Set<(text: string) => void>();
	private readonly exitListeners = new Set<(exit: TerminalExitStatus) => void>();
	/** Resolves when the command has exited (and its output has been read). */
	readonly exited: Promise<TerminalExitStatus>;

	private constructor(
		private readonly child: ChildProcessWithoutNullStreams,
		/** The command line as a person would read it. */
		readonly commandLine: string,
		limit: number,
	) {
		this.buffer = new OutputBuffer(limit);
		const decoders = [new TextDecoder('utf-8'), new TextDecoder('utf-8')] as const;
		const read = (index: 0 | 1) => (chunk: Buffer) => this.receive(decoders[index].decode(chunk, { stream: true }));
		child.stdout.on('data', read(0));
		child.stderr.on('data', read(1));
		child.stdin.on('error', () => {
			// EPIPE once the command has exited or closed its input: nothing to tell.
		});
		const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
		this.exited = new Promise<TerminalExitStatus>((resolve) => {
			child.once('exit', (code, signal) => {
				void Promise.race([closed, delay(OUTPUT_AFTER_EXIT_MS)]).then(() => {
					this.receive(decoders[0].decode() + decoders[1].decode());
					this.exitValue = { exitCode: code, signal };
					this.exitListeners.forEach((l) => l(this.exitValue!));
					resolve(this.exitValue);
				});
			});
		});
	}

	/**
	 * Starts the command. Without arguments, `command` is a command line and runs in a shell
	 * (`$SHELL -c` when that is a POSIX shell, else `/bin/sh -c`; `cmd.exe /c` on Windows): agents
	 * send whole command lines that way, as they would type them. With arguments, the program runs
	 * directly, found on the PATH of `env`, and no shell reads its arguments.
	 */
	static async start(spec: TerminalSpec): Promise<TerminalProcess> {
		const detached = process.platform !== 'win32'; // its own process group, ended as one
		let child: ChildProcessWithoutNullStreams;
		let commandLine: string;
		if (spec.args.length === 0) {
			commandLine = spec.command;
			child = spawn(spec.command, [], { cwd: spec.cwd, env: spec.env, shell: shellFor(spec.env), stdio: 'pipe', detached, windowsHide: true });
		} else {
			const resolved = await resolveCommand(spec.command, spec.env, spec.cwd);
			if (!resolved) {
				throw new TerminalCommandNotFoundError(spec.command);
			}
			commandLine = [spec.command, ...spec.args].map(quote).join(' ');
			child = crossSpawn(resolved, [...spec.args], { cwd: spec.cwd, env: spec.env, stdio: 'pipe', detached, windowsHide: true }) as ChildProcessWithoutNullStreams;
		}
		await new Promise<void>((resolve, reject) => {
			const onError = (error: Error) => reject(new Error(`Could not start "${commandLine}": ${error.message}`));
			child.once('error', onError);
			child.once('spawn', () => {
				child.off('error', onError);
				resolve();
			});
		});
		return new TerminalProcess(child, commandLine, spec.outputByteLimit);
	}

	get pid(): number | undefined {
		return this.child.pid;
	}

	/** The output kept (stdout and stderr as they came), within the byte limit. */
	get output(): string {
		return this.buffer.text;
	}

	/** Whether earlier output was dropped to stay within the limit. */
	get truncated(): boolean {
		return this.buffer.truncated;
	}

	/** The end of the output kept, at most `maxChars` characters (what a view of it needs, without joining it all). */
	tail(maxChars: number): { text: string; cut: boolean } {
		return this.buffer.tail(maxChars);
	}

	/** How the command ended, once it has. */
	get exit(): TerminalExitStatus | undefined {
		return this.exitValue;
	}

	/** Calls `listener` with each piece of output as it comes; returns the unsubscribe. */
	onOutput(listener: (text: string) => void): () => void {
		this.listeners.add(listener);
		return () => this.listeners.delete(listener);
	}

	/** Calls `listener` once the command has exited; returns the unsubscribe. */
	onExit(listener: (exit: TerminalExitStatus) => void): () => void {
		this.exitListeners.add(listener);
		return () => this.exitListeners.delete(listener);
	}

	/** Writes to the command's standard input (what a person types in the terminal). */
	write(data: string): void {
		if (!this.exitValue && this.child.stdin.writable) {
			this.child.stdin.write(data);
		}
	}

	/** Ctrl+C: SIGINT to the command's process group (a pipe has no terminal to send it). */
	interrupt(): void {
		if (this.child.pid !== undefined && !this.exitValue) {
			if (process.platform === 'win32') {
				void this.kill();
			} else {
				signalGroup(this.child.pid, 'SIGINT');
			}
		}
	}

	/**
	 * Ends the command and everything it started (killTree), even when the command itself has
	 * exited and left children behind. Resolves once they are gone and the exit is known, or soon
	 * after a SIGKILL.
	 */
	async kill(graceMs = 2000): Promise<void> {
		const pid = this.child.pid;
		if (pid === undefined) {
			return;
		}
		this.child.stdin.destroy();
		await killTree(pid, graceMs, { exited: this.child.exitCode !== null || this.child.signalCode !== null });
		await Promise.race([this.exited, delay(1000)]);
	}

	/** Keeps only the last `bytes` of output from now on (a released terminal, shown but no longer asked about). */
	shrink(bytes: number): void {
		this.buffer.shrink(bytes);
	}

	private receive(text: string): void {
		if (text.length === 0) {
			return;
		}
		this.buffer.append(text);
		this.listeners.forEach((l) => l(text));
	}
}

/** The shell a command line runs in: the user's when it reads POSIX `-c` command lines, else `/bin/sh`; Windows: `cmd.exe`. */
function shellFor(env: NodeJS.ProcessEnv): string | true {
	if (process.platform === 'win32') {
		return true;
	}
	const shell = env.SHELL;
	return shell && path.isAbsolute(shell) && /^(ba|z|k|da)?sh$/.test(path.basename(shell)) ? shell : '/bin/sh';
}

/** An argument as a POSIX shell would need it written, for showing the command line. */
function quote(arg: string): string {
	return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
