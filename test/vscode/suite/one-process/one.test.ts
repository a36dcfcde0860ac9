// The window opens trusted with both roles naming the same agent.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { behindAnotherPageThroughout } from '../browser';
import { api, waitForState, waitUntil } from '../util';
import { alivePids, assertOneProcess, bothOnShared, setNesAgent, SHARED, startedPids } from './shared';

describe('one agent for both roles: one process', function () {
	behindAnotherPageThroughout(); // nothing drawn is looked at
	this.timeout(90_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	it('starts one process at activation, serving chat and next edit suggestions', async () => {
		await bothOnShared(a);
		await assertOneProcess(a, 1);
		assert.equal(a.pool.launches, 1);
	});

	it('keeps that process through settings changes: NES following the chat agent, turned off and on, naming it again', async () => {
		await setNesAgent('');
		await waitUntil(() => a.nesAgentSelector.source === a.agents, 10_000, 'suggestions from the chat agent');
		await waitUntil(() => a.nes.current?.agent.name === SHARED, 15_000, 'the NES session still on the shared agent');
		await vscode.workspace.getConfiguration('agentLink').update('nes.enabled', false, vscode.ConfigurationTarget.Global);
		await waitUntil(() => a.nes.current === undefined, 10_000, 'no NES session');
		await vscode.workspace.getConfiguration('agentLink').update('nes.enabled', undefined, vscode.ConfigurationTarget.Global);
		await setNesAgent(SHARED);
		await bothOnShared(a);
		await assertOneProcess(a, 1);
	});

	it('keeps it for the NES role when the chat role moves to another agent, and joins it again when the chat role comes back', async () => {
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Fixture Agent');
		await waitForState(a, (s) => s.kind === 'ready' && s.name === 'Fixture Agent');
		assert.equal(a.nesAgents.state.kind, 'ready');
		assert.deepEqual(alivePids(), startedPids(), 'the shared agent still runs for the NES role');
		await vscode.commands.executeCommand('agentLink.selectAgent', SHARED);
		await bothOnShared(a);
		await assertOneProcess(a, 1);
	});

	it('keeps it for the chat role when the NES role moves to another agent and back', async () => {
		await setNesAgent('Other NES Agent');
		await waitUntil(() => a.nes.current?.agent.name === 'Other NES Agent', 15_000, 'the NES session with the other agent');
		assert.equal(a.agents.state.kind, 'ready');
		await setNesAgent(SHARED);
		await bothOnShared(a);
		await assertOneProcess(a, 1);
		assert.equal(a.pool.get('Other NES Agent'), undefined, 'the agent nobody holds was stopped and dropped');
	});

	it('restarts a crashed agent once, for both roles', async () => {
		const [pid] = startedPids();
		process.kill(pid!, 'SIGKILL');
		await waitUntil(() => startedPids().length === 2, 20_000, 'the restart');
		await bothOnShared(a);
		await assertOneProcess(a, 2);
	});

	it('Stop Agent stops the chat role only: the NES role keeps the process', async () => {
		await vscode.commands.executeCommand('agentLink.stopAgent');
		await waitForState(a, (s) => s.kind === 'stopped');
		assert.equal(a.nesAgents.state.kind, 'ready');
		assert.equal(alivePids().length, 1);
		assert.equal(a.nes.current?.agent.name, SHARED);
		await vscode.commands.executeCommand('agentLink.selectAgent', SHARED);
		await bothOnShared(a);
		await assertOneProcess(a, 2);
	});
});
