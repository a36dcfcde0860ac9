// Terminals for chat sessions as scripted agents use them (terminal/create, output, wait_for_exit,
// kill, release): real processes with the agent's output limit, environment and folder, refusals
// with the protocol's codes; the output live inside the tool call and in a VS Code terminal fed by
// the same process, typed into with real keys; and no process an agent started outlives its session
// (closed, cancelled, or its agent crashed), checked by listing every process there is.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { ChatSession, SessionUpdate } from '../../../../src/vscode/chat/chatSessions';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { hasBrowser, press, query, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { api, isAlive, repoRoot, waitUntil } from '../util';

/** README screenshots are refreshed with AGENT_LINK_SCREENSHOTS=1; otherwise the picture goes to the temp folder, for a look. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

type Answer<T = Record<string, unknown>> = T & { error?: { code: number; message: string } };
interface Report {
	terminalId?: string;
	create?: { code: number; message: string };
	kill?: Answer;
	exit?: Answer<{ exitCode?: number | null; signal?: string | null }>;
	output?: Answer<{ output: string; truncated: boolean; exitStatus?: { exitCode: number | null; signal: string | null } }>;
	release?: Answer;
	afterRelease?: Answer;
}

/** A chat with `agent`, one turn, and what the agent reported of each terminal step (`terminal: {json}` lines). */
async function chatWith(a: AgentLinkApi, agent: string): Promise<{ session: ChatSession; updates: SessionUpdate[]; reports: () => Report[] }> {
	const choice = a.agents.findChoice(agent);
	assert.ok(choice, agent);
	const session = await a.chat.create(choice, folder());
	const updates: SessionUpdate[] = [];
	session.onDidUpdate((u) => updates.push(u));
	const reports = () =>
		updates
			.filter((u) => u.sessionUpdate === 'agent_message_chunk')
			.map((u) => (u as { content?: { text?: string } }).content?.text ?? '')
			.filter((t) => t.startsWith('terminal: '))
			.map((t) => JSON.parse(t.slice('terminal: '.length)) as Report);
	return { session, updates, reports };
}

// --- Listing processes (Linux: /proc) -------------------------------------------------------------

interface Listed {
	readonly pid: number;
	readonly ppid: number;
	readonly command: string;
}

/** Every running process (zombies left out). */
function processes(): Listed[] {
	const listed: Listed[] = [];
	for (const entry of fs.readdirSync('/proc')) {
		if (!/^\d+$/.test(entry)) {
			continue;
		}
		try {
			const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8');
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			if (fields[0] === 'Z' || fields[0] === 'X') {
				continue;
			}
			const command = fs.readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').join(' ').trim().slice(0, 120);
			listed.push({ pid: Number(entry), ppid: Number(fields[1]), command });
		} catch {
			// gone meanwhile
		}
	}
	return listed;
}

/**
 * The running processes whose environment holds AGENT_LINK_TERMINAL_MARK=`mark` of this window (the
 * terminal's command and all it started): the mark names the workspace too (suites.mjs), for the
 * same suite of the other VS Code version may run its marked commands at the same time.
 */
function marked(mark: string): number[] {
	const needle = `AGENT_LINK_TERMINAL_MARK=${mark} in ${vscode.workspace.workspaceFolders![0]!.uri.fsPath}\0`;
	return processes()
		.filter((p) => {
			try {
				return fs.readFileSync(`/proc/${p.pid}/environ`, 'utf8').includes(needle);
			} catch {
				return false;
			}
		})
		.map((p) => p.pid);
}

/** The processes below `root`, as a tree printed one per line (for the failure message). */
function tree(root: number): { pids: Set<number>; text: string } {
	const all = processes();
	const pids = new Set<number>();
	const lines: string[] = [];
	const walk = (pid: number, depth: number) => {
		for (const child of all.filter((p) => p.ppid === pid)) {
			pids.add(child.pid);
			lines.push(`${'  '.repeat(depth)}${child.pid} ${child.command}`);
			walk(child.pid, depth + 1);
		}
	};
	walk(root, 0);
	return { pids, text: lines.join('\n') };
}

/** The three pids the tree command printed: itself, a grandchild in its group, one that left the group. */
function printedPids(a: AgentLinkApi, session: ChatSession): number[] {
	const output = a.terminals.snapshots(session)[0]?.output ?? '';
	const match = /pids (\d+) (\d+) (\d+)/.exec(output);
	assert.ok(match, `the pids in the output: ${JSON.stringify(output)}`);
	return match.slice(1).map(Number);
}

/** When each process of a tree was started (`/proc/<pid>/stat`, field 22), so that a pid used again by another process later is not taken for it. */
const startedAt = new Map<number, string | undefined>();

function startOf(pid: number): string | undefined {
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
	} catch {
		return undefined;
	}
}

/** Whether the process `pid` named when it was listed still runs (not another one given the same pid since). */
function stillRuns(pid: number): boolean {
	return isAlive(pid) && (startedAt.get(pid) === undefined || startOf(pid) === startedAt.get(pid));
}

/** The command and its two grandchildren run, under the extension host, marked as the agent's. */
function assertTreeRuns(a: AgentLinkApi, session: ChatSession, mark: string): number[] {
	const pids = printedPids(a, session);
	pids.forEach((pid) => startedAt.set(pid, startOf(pid)));
	const listed = tree(process.pid);
	assert.deepEqual(new Set(marked(mark)), new Set(pids), `the marked processes are the ones printed; the extension host's tree:\n${listed.text}`);
	assert.ok(
		pids.every((p) => listed.pids.has(p)),
		`all three under the extension host:\n${listed.text}`,
	);
	return pids;
}

async function assertNoneLeft(mark: string, pids: number[]): Promise<void> {
	try {
		// Both within the wait: a process being killed may already be unreadable as marked and not yet gone.
		await waitUntil(() => marked(mark).length === 0 && !pids.some(stillRuns), 20_000, `no process marked ${mark} left, and none of ${pids.join(', ')} running`);
	} catch (error) {
		const left = marked(mark);
		const listing = processes()
			.filter((p) => left.includes(p.pid))
			.map((p) => `${p.pid} (parent ${p.ppid}) ${p.command}`);
		throw new Error(`${String(error)}; still running:\n${listing.join('\n')}`);
	}
	assert.ok(!pids.some(stillRuns));
}

describe('terminals for chat sessions', function () {
	this.timeout(120_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	afterEach(async function () {
		if (this.currentTest?.state === 'failed') {
			await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir(), `terminals-failed-${this.currentTest.title.slice(0, 20).replace(/\W+/g, '-')}.png`)).catch(() => {});
			console.log('log:', a.recentLog().slice(-30).join('\n'));
		}
	});

	it('advertises terminal once an agent starts, and runs a command with an output limit: the last bytes, cut at a character boundary', async () => {
		const { session, reports } = await chatWith(a, 'Terminal Limit');
		assert.ok(a.recentLog().some((l) => /Client capabilities: .*"terminal":true/.test(l)), 'terminal advertised');
		assert.equal(await session.prompt([{ type: 'text', text: 'go' }]), 'end_turn');
		const [report] = reports();
		assert.deepEqual(report?.exit, { exitCode: 0, signal: null });
		// '€' (3 bytes) and 1 500 × 'é' (2 bytes) and 'END': 104 bytes keep 50 'é' and 'END', never half a character.
		assert.deepEqual(report?.output, { output: `${'é'.repeat(50)}END`, truncated: true, exitStatus: { exitCode: 0, signal: null } });
		const [shown] = a.terminals.snapshots(session);
		assert.equal(shown?.output, `${'é'.repeat(50)}END`, 'the chat shows what the agent got');
		assert.equal(shown?.truncated, true);
		await session.close();
	});

	it('kills a command on terminal/kill: wait_for_exit gives the signal, the process is gone, the output stays', async () => {
		const { session, reports } = await chatWith(a, 'Terminal Kill');
		assert.equal(await session.prompt([{ type: 'text', text: 'go' }]), 'end_turn');
		const [report] = reports();
		assert.deepEqual(report?.kill, {});
		assert.deepEqual(report?.exit, { exitCode: null, signal: 'SIGTERM' });
		assert.match(report?.output?.output ?? '', /^ready \d+\n$/);
		assert.deepEqual(report?.output?.exitStatus, { exitCode: null, signal: 'SIGTERM' });
		const pid = Number(/ready (\d+)/.exec(report!.output!.output)![1]);
		assert.ok(!isAlive(pid), 'the command is gone');
		await session.close();
	});

	it('releases a terminal: its process ends, and the id is refused afterwards (-32002)', async () => {
		const { session, reports } = await chatWith(a, 'Terminal Release');
		assert.equal(await session.prompt([{ type: 'text', text: 'go' }]), 'end_turn');
		const [report] = reports();
		assert.deepEqual(report?.release, {});
		assert.equal(report?.afterRelease?.error?.code, -32002);
		assert.match(report!.afterRelease!.error!.message, /was released/);
		const pid = Number(/ready (\d+)/.exec(report!.output!.output)![1]);
		await waitUntil(() => !isAlive(pid), 10_000, 'the released command gone');
		const [shown] = a.terminals.snapshots(session);
		assert.equal(shown?.released, true);
		assert.match(shown?.output ?? '', /^ready/, 'the tool call still shows the output');
		await session.close();
	});

	it('runs with the agent’s environment variables, in the folder asked for, and a command line without arguments in a shell', async () => {
		const { session, reports } = await chatWith(a, 'Terminal Env');
		assert.equal(await session.prompt([{ type: 'text', text: 'go' }]), 'end_turn');
		const [direct, shell] = reports();
		assert.equal(direct?.output?.output, `héllo wörld ${path.join(fs.realpathSync(folder()), 'sub')}\n`);
		assert.deepEqual(direct?.exit, { exitCode: 0, signal: null });
		assert.equal(shell?.output?.output, 'hi from the shell\n');
		assert.deepEqual(shell?.exit, { exitCode: 7, signal: null });
		await session.close();
	});

	it('refuses a folder outside the workspace, a relative or missing one, no command, a missing program and a session it did not create, with clear errors', async () => {
		const { session, reports } = await chatWith(a, 'Terminal Refused');
		assert.equal(await session.prompt([{ type: 'text', text: 'go' }]), 'end_turn');
		const errors = reports().map((r) => r.create);
		const expected: [number, RegExp][] = [
			[-32602, /cwd: \/ is outside the workspace folders/],
			[-32602, /cwd: "sub" is not absolute/],
			[-32002, /cwd .*missing does not exist/],
			[-32602, /^Invalid params: command: expected a command/],
			[-32002, /agent-link-no-such-program" was not found on PATH/],
			[-32602, /sessionId: "made-up" is not an open chat session/],
		];
		assert.equal(errors.length, expected.length, JSON.stringify(errors));
		expected.forEach(([code, message], i) => {
			assert.equal(errors[i]?.code, code, JSON.stringify(errors[i]));
			assert.match(errors[i]!.message, message);
		});
		// A terminal id this client never made.
		const answer = (await session.agent!.handle.connection.sendRequest('_test/ask', { method: 'terminal/output', params: { sessionId: session.sessionId, terminalId: 'terminal-999' } }, z.unknown())) as Answer;
		assert.equal(answer.error?.code, -32002);
		await session.close();
	});

	it('leaves no process behind when the chat is closed: the command and its grandchildren, one outside its process group, all end (process tree listed)', async () => {
		const { session } = await chatWith(a, 'Terminal Tree');
		assert.equal(await session.prompt([{ type: 'text', text: 'start it' }]), 'end_turn');
		const pids = assertTreeRuns(a, session, 'close');
		await session.close();
		await assertNoneLeft('close', pids);
	});

	it('kills the terminal’s processes when the user stops the turn; the terminal stays with its exit', async () => {
		const { session } = await chatWith(a, 'Terminal Cancel');
		const turn = session.prompt([{ type: 'text', text: 'start it' }]);
		await waitUntil(() => a.terminals.snapshots(session)[0]?.output.includes('pids') === true, 20_000, 'the command running');
		const pids = assertTreeRuns(a, session, 'cancel');
		session.cancel();
		assert.equal(await turn, 'cancelled');
		await assertNoneLeft('cancel', pids);
		await waitUntil(() => a.terminals.snapshots(session)[0]?.exitStatus !== undefined, 10_000, 'the exit shown');
		const [shown] = a.terminals.snapshots(session);
		assert.deepEqual(shown?.exitStatus, { exitCode: null, signal: 'SIGTERM' });
		assert.equal(shown?.released, false, 'killed, not released: the agent may still read it');
		await session.close();
	});

	it('ends the processes of an agent that crashes, with its session', async () => {
		const { session } = await chatWith(a, 'Terminal Crash');
		assert.equal(await session.prompt([{ type: 'text', text: 'start it' }]), 'end_turn');
		const pids = assertTreeRuns(a, session, 'crash');
		process.kill(a.pool.get('Terminal Crash')!.pid!, 'SIGKILL');
		await assertNoneLeft('crash', pids);
		await waitUntil(() => session.status.kind === 'ended', 20_000, 'the chat ended');
		await session.close();
	});

	it('shows the output live in the tool call, and opens it as a VS Code terminal fed by the same process that takes typed input', async function () {
		if (!hasBrowser()) {
			this.skip();
		}
		// The README's pictures of a terminal are dark (the window it shares with chat-history is light).
		if (process.env.AGENT_LINK_SCREENSHOTS === '1') {
			await vscode.workspace.getConfiguration('workbench').update('colorTheme', 'Default Dark Modern', vscode.ConfigurationTarget.Global);
		}
		const key = await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Terminal Showcase');
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat ready');
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
		// The page may draw the new tab again while the first keys come (taking them with it): type until the input holds it all.
		const prompt = 'Run the tests';
		await waitFor(async () => {
			if ((await webviewQuery('textarea.prompt-input')).texts[0] === prompt) {
				return true;
			}
			await press('Control+a', 'Delete');
			await type(prompt, 10);
			return false;
		}, 'the prompt typed', 20_000);
		await press('Enter');
		const output = async () => (await webviewQuery('.tool-call .terminal .terminal-output')).texts.join('');
		await waitFor(async () => (await output()).includes('Watching for changes'), 'the output in the tool call', 30_000);
		assert.ok((await webviewQuery('.tool-call .terminal .terminal-status')).texts.some((t) => t.includes('Running')), 'still running');
		assert.deepEqual((await webviewQuery('.tool-call .terminal .terminal-command')).texts, ['node run-tests.mjs']);
		const shown = await output();
		assert.match(shown, /✔ reads the retry limit from the config \(0\.9 ms\)/);
		assert.ok(!shown.includes('\x1b') && !shown.includes('[32m'), `colour codes stripped: ${JSON.stringify(shown)}`);
		await screenshot(path.join(SHOTS, 'chat-terminal.png'), '.part.sidebar');

		await webviewClick('.tool-call .terminal .terminal-open');
		const name = 'Terminal Showcase: Run the tests';
		await waitUntil(() => vscode.window.terminals.some((t) => t.name === name), 15_000, 'the VS Code terminal');
		const rows = async () => (await query('.terminal-wrapper .xterm-rows', { visible: true })).texts.join('\n');
		await waitFor(async () => /\$ node run-tests\.mjs/.test(await rows()) && /Watching for changes/.test(await rows()), 'the same output in the terminal', 15_000);
		await waitFor(async () => (await query('.terminal-wrapper .xterm.focus', { visible: true })).count > 0, 'the terminal focused');
		await screenshot(path.join(SHOTS, 'chat-terminal-opened.png'));
		await press('Enter');
		await waitFor(async () => /Stopped watching\./.test(await rows()) && /\[Exited with code 0\]/.test(await rows()), 'the command stopped by Enter in the terminal', 15_000);
		await waitFor(async () => (await webviewQuery('.tool-call .terminal .terminal-status')).texts.some((t) => t.includes('Exited with 0')), 'the exit in the tool call', 15_000);
		assert.match(await output(), /Stopped watching\./);
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 15_000, 'the turn over');
		vscode.window.terminals.find((t) => t.name === name)?.dispose();
		await a.chatController.closeTab(key);
	});
});
