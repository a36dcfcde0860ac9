// Helpers shared by the in-editor suites.
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../src/vscode/extension';
import type { AgentState } from '../../../src/vscode/agentManager';
import { logWait } from './waitLog';

export const EXTENSION_ID = 'agent-link.agent-link';

/** The repository root: the nearest folder above the bundled suite file that has the extension's package.json. */
export const repoRoot = (() => {
	let dir = __dirname;
	while (!fs.existsSync(path.join(dir, 'package.json')) && path.dirname(dir) !== dir) {
		dir = path.dirname(dir);
	}
	return dir;
})();
export const fixtureAgent = (name: string) => path.join(repoRoot, 'test', 'fixtures', 'agents', name);

export async function api(): Promise<AgentLinkApi> {
	const ext = vscode.extensions.getExtension<AgentLinkApi>(EXTENSION_ID);
	if (!ext) {
		throw new Error(`${EXTENSION_ID} is not installed in this VS Code`);
	}
	return ext.activate();
}

/**
 * The chat role on `name`, ready: for a suite that may run in another suite's window (a guest, see
 * test/vscode/suites.mjs), whose default agent is the host's.
 */
export async function useAgent(a: Pick<AgentLinkApi, 'agents'>, name: string): Promise<void> {
	if (a.agents.state.kind === 'ready' && a.agents.state.name === name) {
		return;
	}
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === name);
}

/** Resolves with the first state (current or future) of `a.agents` that satisfies `predicate` (pass `{ agents: a.nesAgents }` for the NES agent). */
export function waitForState(a: Pick<AgentLinkApi, 'agents'>, predicate: (s: AgentState) => boolean, timeoutMs = 30_000): Promise<AgentState> {
	if (predicate(a.agents.state)) {
		return Promise.resolve(a.agents.state);
	}
	return new Promise((resolve, reject) => {
		const timer = setTimeout(() => {
			sub.dispose();
			reject(new Error(`timed out waiting for agent state; last: ${JSON.stringify(a.agents.state)}`));
		}, timeoutMs);
		const sub = a.agents.onDidChangeState((s) => {
			if (predicate(s)) {
				clearTimeout(timer);
				sub.dispose();
				resolve(s);
			}
		});
	});
}

/** Requests made of the browser bridge so far (browser.ts counts them): how waitUntil tells a condition that asks the browser. */
export const bridgeRequests = { count: 0 };

/** A wait's first pause between two looks, and the longest a look that asks the browser grows to. */
const FIRST_PAUSE_MS = 25;
const LONGEST_BROWSER_PAUSE_MS = 200;

export async function waitUntil(condition: () => boolean | Promise<boolean>, timeoutMs = 10_000, what = 'condition'): Promise<void> {
	const start = Date.now();
	const deadline = start + timeoutMs;
	let pause = FIRST_PAUSE_MS;
	for (;;) {
		const asked = bridgeRequests.count;
		if (await condition()) {
			break;
		}
		if (Date.now() > deadline) {
			throw new Error(`timed out waiting for ${what}`);
		}
		// A look that asks the browser costs the extension host, the test driver, the browser and the
		// workbench's page a few milliseconds of processor time each; such a wait looks less often the
		// longer it lasts, so that a long one does not take the processor from what it waits for.
		pause = bridgeRequests.count > asked ? Math.min(Math.round(pause * 1.5), LONGEST_BROWSER_PAUSE_MS) : FIRST_PAUSE_MS;
		await new Promise((r) => setTimeout(r, pause));
	}
	logWait(start, what);
}

export { isAlive } from '../../shared/process';

/** A benchmark's timings summed up. */
export interface Stats {
	readonly median: number;
	readonly p95: number;
	readonly min: number;
	readonly max: number;
}

export function stats(ms: readonly number[]): Stats {
	const sorted = [...ms].sort((x, y) => x - y);
	const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
	return { median: at(0.5), p95: at(0.95), min: sorted[0]!, max: sorted.at(-1)! };
}

export function formatStats(s: Stats, digits: number): string {
	const f = (ms: number) => ms.toFixed(digits);
	return `median ${f(s.median)} ms, p95 ${f(s.p95)} ms (min ${f(s.min)}, max ${f(s.max)})`;
}
