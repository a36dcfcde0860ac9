// Agent lifecycle inside a real VS Code, with the real bundle: selection, handshake, status bar,
// crash and restart, stop/restart/deactivate leaving no process, and workspace settings that try
// to run a program.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { api, isAlive, repoRoot, waitForState, waitUntil } from '../util';

const any = z.unknown();

async function select(a: AgentLinkApi, name: string): Promise<void> {
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === name);
}

async function pids(a: AgentLinkApi): Promise<{ pid: number; childPid: number | null }> {
	const agent = a.agents.readyAgent;
	assert.ok(agent, 'an agent is ready');
	return (await agent.handle.connection.sendRequest('_test/pids', {}, any)) as { pid: number; childPid: number | null };
}

describe('Agent Link: agents', function () {
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	afterEach(async () => {
		if (a.agents.state.kind !== 'stopped') {
			await vscode.commands.executeCommand('agentLink.stopAgent');
		}
	});

	it('activates with the agent stopped and its status in the status bar', () => {
		assert.equal(a.agents.state.kind, 'stopped');
		assert.match(a.statusBarText(), /Agent Link/);
	});

	it('ignores agents and commands defined in workspace settings', async () => {
		const workspace = vscode.workspace.workspaceFolders?.[0];
		assert.ok(workspace, 'the test opens a folder');
		const inspected = vscode.workspace.getConfiguration('agentLink').inspect<Record<string, unknown>>('agents');
		// The folder's .vscode/settings.json really does try (written by the test driver).
		const raw = fs.readFileSync(path.join(workspace.uri.fsPath, '.vscode', 'settings.json'), 'utf8');
		assert.match(raw, /Workspace Agent/);
		assert.equal(inspected?.globalValue?.['Workspace Agent'], undefined);
		assert.equal(a.agents.findChoice('Workspace Agent'), undefined);
		// Nor can it change the command of an agent the user defined.
		const userCommand = (inspected?.globalValue?.['Fixture Agent'] as { command?: string } | undefined)?.command;
		assert.ok(userCommand && !/pwned/.test(JSON.stringify(a.agents.findChoice('Fixture Agent'))));
		assert.equal((a.agents.findChoice('Fixture Agent')?.definition as { command?: string } | undefined)?.command, userCommand);
		// Its defaultAgent named the workspace's agent: nothing started, nothing ran.
		assert.equal(a.agents.state.kind, 'stopped');
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Workspace Agent');
		assert.equal(a.agents.state.kind, 'stopped');
		assert.equal(fs.existsSync(path.join(workspace.uri.fsPath, 'pwned.txt')), false, 'the workspace command never ran');
	});

	it('starts the SDK example agent from the Select Agent picker and logs the negotiated capabilities', async () => {
		const picked = vscode.commands.executeCommand('agentLink.selectAgent');
		// The first configured agent is the SDK's example agent; accept it once the picker is up.
		await waitUntil(async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			return a.agents.state.kind !== 'stopped';
		}, 10_000, 'the picker to accept a choice');
		await picked;
		const state = await waitForState(a, (s) => s.kind === 'ready' || s.kind === 'failed');
		assert.deepEqual({ kind: state.kind, name: 'name' in state ? state.name : '' }, { kind: 'ready', name: 'SDK Example Agent' });
		const log = a.recentLog();
		assert.ok(log.some((l) => /SDK Example Agent is ready: ACP protocol 1/.test(l)), 'handshake logged');
		assert.ok(log.some((l) => /Agent capabilities: \{"loadSession":false/.test(l)), 'agent capabilities logged');
		assert.ok(log.some((l) => /Client capabilities: \{"fs":\{"readTextFile":true,"writeTextFile":true\},"terminal":true/.test(l)));
		assert.match(a.statusBarText(), /SDK Example Agent/);
		// The wire trace (agentLink.trace = messages in the test profile) has the initialize round trip.
		assert.ok(log.some((l) => /\[wire\] → request initialize #\d+ \d+ B/.test(l)));
		assert.ok(log.some((l) => /\[wire\] ← response initialize #\d+ result \d+ B in \d+ ms/.test(l)));
	});

	it('switching agents stops the previous agent and everything it started', async () => {
		await select(a, 'Fixture Agent');
		const before = await pids(a);
		assert.ok(before.childPid && isAlive(before.pid) && isAlive(before.childPid));
		await select(a, 'SDK Example Agent');
		await waitUntil(() => !isAlive(before.pid) && !isAlive(before.childPid!), 5000, 'the previous agent to exit');
	});

	it('restarts a crashed agent and shows the crash in the status bar', async () => {
		await select(a, 'Crash Agent');
		const firstPid = a.agents.pid;
		const texts: string[] = [];
		const sub = a.agents.onDidChangeState(() => texts.push(a.statusBarText()));
		const crashed = waitForState(a, (s) => s.kind === 'crashed');
		await assert.rejects(a.agents.readyAgent!.handle.connection.sendRequest('_test/echo', {}, any), /exited with code 3/);
		const state = await crashed;
		assert.ok(state.kind === 'crashed' && /simulated crash/.test(state.message));
		await waitForState(a, (s) => s.kind === 'ready');
		sub.dispose();
		assert.notEqual(a.agents.pid, firstPid);
		assert.ok(texts.some((t) => /Crash Agent: crashed/.test(t)), `status bar showed: ${texts.join(' | ')}`);
	});

	it('stops restarting after 5 restarts within 3 minutes and says why', async function () {
		this.timeout(60_000);
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Exits At Once');
		const state = await waitForState(a, (s) => s.kind === 'failed', 45_000);
		assert.ok(state.kind === 'failed' && /crashed 6 times in the last 3 minutes/.test(state.message), JSON.stringify(state));
		assert.match(a.statusBarText(), /Exits At Once: stopped/);
		assert.equal(a.recentLog().filter((l) => /Restarting Exits At Once in/.test(l)).length, 5);
	});

	it('survives garbage lines and a 100 MiB line; pending calls fail within a second naming the cause', async function () {
		this.timeout(60_000);
		await select(a, 'Garbage Agent');
		assert.ok(a.agents.readyAgent, `ready agent missing; log:\n${a.recentLog().slice(-30).join('\n')}`);
		const connection = a.agents.readyAgent!.handle.connection;
		assert.deepEqual(await connection.sendRequest('_test/echo', { still: 'up' }, any), { still: 'up' });
		assert.ok(a.recentLog().some((l) => /Ignored a line from the agent that is not JSON/.test(l)));
		const pending = connection.sendRequest('_test/sleep', { ms: 120_000 }, any);
		void connection.sendRequest('_test/hugeLine', { mb: 100 }, any).catch(() => {});
		let failedAt = 0;
		const closedAt = new Promise<number>((resolve) => connection.onDidClose(() => resolve(Date.now())));
		await assert.rejects(
			pending.finally(() => (failedAt = Date.now())),
			/larger than 64 MiB/,
		);
		assert.ok(failedAt - (await closedAt) < 1000);
		// The extension host is alive and the agent comes back.
		await waitForState(a, (s) => s.kind === 'ready' && s.name === 'Garbage Agent', 30_000);
		assert.deepEqual(await a.agents.readyAgent!.handle.connection.sendRequest('_test/echo', { back: true }, any), { back: true });
	});

	it('fails pending calls within a second when the agent is killed mid-request', async () => {
		await select(a, 'Fixture Agent');
		const { pid } = await pids(a);
		const pending = a.agents.readyAgent!.handle.connection.sendRequest('_test/sleep', { ms: 60_000 }, any);
		const killedAt = Date.now();
		process.kill(pid, 'SIGKILL');
		await assert.rejects(pending, /killed by SIGKILL/);
		assert.ok(Date.now() - killedAt < 1000, `failed after ${Date.now() - killedAt} ms`);
		await waitForState(a, (s) => s.kind === 'ready');
	});

	it('restart and stop leave no agent process behind', async () => {
		await select(a, 'Fixture Agent');
		const first = await pids(a);
		await vscode.commands.executeCommand('agentLink.restartAgent');
		await waitForState(a, (s) => s.kind === 'ready');
		const second = await pids(a);
		assert.notEqual(second.pid, first.pid);
		assert.ok(!isAlive(first.pid) && !isAlive(first.childPid!), 'restart ended the old process tree');
		await vscode.commands.executeCommand('agentLink.stopAgent');
		assert.equal(a.agents.state.kind, 'stopped');
		assert.ok(!isAlive(second.pid) && !isAlive(second.childPid!), 'stop ended the process tree');
		assert.match(a.statusBarText(), /Agent Link/);
	});

	it('says when a command is not installed', async () => {
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Missing Agent');
		const state = await waitForState(a, (s) => s.kind === 'failed');
		assert.ok(state.kind === 'failed' && /agent-link-missing-command" was not found on PATH/.test(state.message));
	});

	// Last: it deactivates the extension.
	it('deactivation leaves no agent process behind', async () => {
		await select(a, 'Fixture Agent');
		const { pid, childPid } = await pids(a);
		const ext = vscode.extensions.getExtension('agent-link.agent-link')!;
		// The module VS Code loaded: require shares its cache with the extension host's loader.
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		const main = require(path.join(ext.extensionPath, 'dist', 'extension.js')) as { deactivate(): Promise<void> };

		assert.equal(path.resolve(ext.extensionPath), repoRoot);
		await main.deactivate();
		assert.ok(!isAlive(pid) && !isAlive(childPid!));
	});
});
