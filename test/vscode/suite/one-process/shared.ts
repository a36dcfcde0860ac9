// One agent for everything (agentLink.defaultAgent and agentLink.nes.agent name the same agent):
// one process serves both roles, whatever the order of activation, trust, settings changes and
// crashes. The agent appends its pid to .pids in the workspace each time a process of it starts, so
// the tests count processes as the operating system saw them, not as Agent Link reports them.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { isAlive, waitForState, waitUntil } from '../util';

export const SHARED = 'Shared Agent';

/** The pids of every process of the shared agent started so far, oldest first. */
export function startedPids(): number[] {
	const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.pids');
	return fs.existsSync(file) ? fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map(Number) : [];
}

export function alivePids(): number[] {
	return startedPids().filter((pid) => isAlive(pid));
}

export async function setNesAgent(name: string): Promise<void> {
	await vscode.workspace.getConfiguration('agentLink').update('nes.agent', name, vscode.ConfigurationTarget.Global);
}

/** Both roles on the shared agent, ready, with the NES session open on it. */
export async function bothOnShared(a: AgentLinkApi): Promise<void> {
	await waitForState(a, (s) => s.kind === 'ready' && s.name === SHARED);
	await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === SHARED);
	await waitUntil(() => a.nes.current?.agent.name === SHARED, 15_000, 'the NES session with the shared agent');
}

/**
 * Lets the window settle (a second process used to appear, or the first be stopped, well after
 * both roles were ready), then checks that exactly `expected` processes were ever started and one
 * of them is alive, serving both roles.
 */
export async function assertOneProcess(a: AgentLinkApi, expected: number): Promise<void> {
	await new Promise((resolve) => setTimeout(resolve, 3000));
	const started = startedPids();
	assert.equal(started.length, expected, `processes started: ${started.join(', ')}`);
	assert.deepEqual(alivePids(), [started.at(-1)], 'only the newest is alive');
	assert.equal(a.agents.readyAgent?.handle.pid, started.at(-1), 'the chat role runs it');
	assert.equal(a.nesAgents.readyAgent?.handle.pid, started.at(-1), 'the NES role runs it');
	assert.equal(a.agents.readyAgent, a.nesAgents.readyAgent, 'one connection for both roles');
	assert.equal(a.pool.agents.filter((m) => m.name === SHARED).length, 1);
	assert.equal(a.nes.current?.agent, a.agents.readyAgent, 'the NES session is on it');
}
