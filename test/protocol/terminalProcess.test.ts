// The processes behind terminal/create: real commands, their output within a byte limit, their exit,
// and kill ending the whole tree, a grandchild that left the process group included.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, it } from 'node:test';
import { TerminalCommandNotFoundError, TerminalProcess } from '../../src/node/terminalProcess';
import { isAlive, waitFor } from './helpers';

const node = process.execPath;
const start = (args: string[], options: { env?: NodeJS.ProcessEnv; limit?: number; cwd?: string } = {}) =>
	TerminalProcess.start({ command: node, args, cwd: options.cwd ?? os.tmpdir(), env: options.env ?? process.env, outputByteLimit: options.limit ?? 1024 * 1024 });

/** A command that starts a grandchild in its group and one that leaves it (`detached`), prints all three pids, and waits. */
const TREE = `
const { spawn } = require('node:child_process');
const keep = ['-e', 'setInterval(() => {}, 1000)'];
const inGroup = spawn(process.execPath, keep, { stdio: 'ignore' });
const escaped = spawn(process.execPath, keep, { stdio: 'ignore', detached: true });
console.log('pids', process.pid, inGroup.pid, escaped.pid);
setInterval(() => {}, 1000);
`;

async function pidsOf(terminal: TerminalProcess): Promise<number[]> {
	await waitFor(() => /pids [\d ]+\n/.test(terminal.output), 10_000);
	return /pids ([\d ]+)\n/.exec(terminal.output)![1]!.split(' ').map(Number);
}

describe('terminal processes', () => {
	it('runs a command with its arguments and environment, stdout and stderr together, and reports the exit code', async () => {
		const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-link-term-'));
		const terminal = await start(['-e', "console.log(process.env.GREETING, require('path').basename(process.cwd())); console.error('to stderr'); process.exit(3)"], {
			env: { ...process.env, GREETING: 'héllo' },
			cwd,
		});
		const seen: string[] = [];
		terminal.onOutput((text) => seen.push(text));
		assert.deepEqual(await terminal.exited, { exitCode: 3, signal: null });
		assert.match(terminal.output, new RegExp(`^héllo ${path.basename(cwd)}\\n`));
		assert.match(terminal.output, /to stderr\n/);
		assert.equal(seen.join(''), terminal.output);
		assert.equal(terminal.truncated, false);
	});

	it('runs a command line without arguments in a shell', async () => {
		const terminal = await TerminalProcess.start({ command: 'echo one && echo two | tr a-z A-Z', args: [], cwd: os.tmpdir(), env: process.env, outputByteLimit: 100 });
		assert.deepEqual(await terminal.exited, { exitCode: 0, signal: null });
		assert.equal(terminal.output, 'one\nTWO\n');
		assert.equal(terminal.commandLine, 'echo one && echo two | tr a-z A-Z');
	});

	it('keeps the last bytes of the output within the limit, cut at a character boundary', async () => {
		// 3 000 bytes of 'é' (2 bytes each) after a 3-byte '€': 101 bytes keep 50 of them.
		const terminal = await start(['-e', "process.stdout.write('€' + 'é'.repeat(1500) + 'END')"], { limit: 104 });
		await terminal.exited;
		assert.equal(terminal.truncated, true);
		assert.equal(terminal.output, `${'é'.repeat(50)}END`);
		assert.ok(Buffer.byteLength(terminal.output) <= 104);
	});

	it('says a program given with arguments that is not on PATH was not found', async () => {
		await assert.rejects(TerminalProcess.start({ command: 'agent-link-no-such-program', args: ['x'], cwd: os.tmpdir(), env: process.env, outputByteLimit: 10 }), TerminalCommandNotFoundError);
	});

	it('kill ends the command and everything it started, a grandchild that left its process group too', { skip: process.platform === 'win32' }, async () => {
		const terminal = await start(['-e', TREE]);
		const pids = await pidsOf(terminal);
		assert.equal(pids.length, 3);
		assert.ok(pids.every(isAlive), 'all three run');
		await terminal.kill(2000);
		assert.deepEqual(terminal.exit, { exitCode: null, signal: 'SIGTERM' });
		await waitFor(() => !pids.some(isAlive), 5000);
	});

	it('kill after the command exited still ends what it left running in its group', { skip: process.platform === 'win32' }, async () => {
		const terminal = await start(['-e', "const c = require('node:child_process').spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { stdio: 'ignore' }); console.log('child', c.pid); c.unref();"]);
		await terminal.exited;
		const child = Number(/child (\d+)/.exec(terminal.output)![1]);
		assert.ok(isAlive(child), 'the child outlived the command');
		await terminal.kill(2000);
		await waitFor(() => !isAlive(child), 5000);
	});

	it('a command that ignores SIGTERM is killed after the grace time', { skip: process.platform === 'win32' }, async () => {
		const terminal = await start(['-e', "process.on('SIGTERM', () => {}); console.log('ready'); setInterval(() => {}, 1000)"]);
		await waitFor(() => terminal.output.includes('ready'), 10_000);
		await terminal.kill(300);
		assert.deepEqual(terminal.exit, { exitCode: null, signal: 'SIGKILL' });
	});
});
