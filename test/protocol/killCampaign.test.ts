// The agent killed at random moments, 100 times: during initialize, with requests in flight, in the
// middle of a burst of document events, while an NES request is pending, and right after it started.
// Each time: every pending call fails with the exit reason (within a second), the connection reports
// the crash exactly once (so the restart policy counts each crash once), later calls fail at once,
// and ending the handle leaves no process of the agent's tree behind. Seeded: a failure names the
// seed and run that replay it (AGENT_LINK_KILL_SEED).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { NesMethods } from '../../src/common/nes/protocol';
import { RestartPolicy } from '../../src/common/restartPolicy';
import type { AgentHandle } from '../../src/node/agentHandle';
import { random } from '../shared/random';
import { MemoryLog, clientInfo, fixture, isAlive, launch, waitFor } from './helpers';

const any = z.unknown();
const RUNS = 100;
const PHASES = ['initialize', 'requests in flight', 'document events', 'nes/suggest pending', 'just started'] as const;
type Phase = (typeof PHASES)[number];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Outcome {
	readonly phase: Phase;
	readonly pending: number;
	readonly maxFailMs: number;
}

/** Starts calls of the given phase, and returns them once the kill moment has come. */
async function work(h: AgentHandle, phase: Phase, next: () => number, initializeDelayMs: number): Promise<Promise<unknown>[]> {
	const calls: Promise<unknown>[] = [];
	switch (phase) {
		case 'initialize':
			// The agent answers initialize after `initializeDelayMs`: kill it somewhere in that time.
			calls.push(h.initialize(clientInfo, {}));
			await sleep(next() * initializeDelayMs * 0.8);
			break;
		case 'requests in flight':
			await h.initialize(clientInfo, {});
			for (let i = 0; i < 50; i++) {
				calls.push(h.connection.sendRequest(i % 2 ? '_test/echo' : '_test/sleep', { ms: Math.floor(next() * 40) }, any));
			}
			await sleep(next() * 20);
			break;
		case 'document events': {
			await h.initialize(clientInfo, {});
			calls.push(h.connection.sendRequest('_test/sleep', { ms: 5000 }, any));
			const killAt = Math.floor(next() * 2000);
			for (let i = 0; i < killAt; i++) {
				// Notifications settle when written; those after the kill must reject, not hang.
				calls.push(h.connection.sendNotification('document/didChange', { sessionId: 'nes-1', uri: 'file:///project/a.ts', version: i, contentChanges: [{ text: `${i}` }] }).catch(() => {}));
				if (i % 200 === 0) {
					await sleep(0);
				}
			}
			break;
		}
		case 'nes/suggest pending':
			await h.initialize(clientInfo, {});
			calls.push(h.connection.sendRequest(NesMethods.start, { workspaceUri: 'file:///project' }, any));
			calls.push(h.connection.sendRequest(NesMethods.suggest, { sessionId: 'nes-session-1', uri: 'file:///project/a.ts', version: 1, position: { line: 0, character: 0 }, triggerKind: 'automatic' }, any));
			await sleep(5 + next() * 20);
			break;
		case 'just started':
			calls.push(h.connection.sendRequest('_test/echo', {}, any), h.initialize(clientInfo, {}));
			break;
	}
	return calls;
}

describe('the agent killed at random moments', () => {
	it(`fails every pending call with the exit reason, counts one crash per kill, and leaves nothing behind (${RUNS} runs)`, async (t) => {
		const seed = Number(process.env.AGENT_LINK_KILL_SEED ?? Date.now() % 1_000_000);
		const next = random(seed);
		const policy = new RestartPolicy();
		const decisions: string[] = [];
		const outcomes: Outcome[] = [];
		for (let run = 0; run < RUNS; run++) {
			const phase = PHASES[run % PHASES.length]!;
			const where = `seed ${seed}, run ${run} (${phase})`;
			const log = new MemoryLog();
			const initializeDelayMs = 20 + Math.floor(next() * 40);
			const h = await launch(fixture('well-behaved.mjs', { spawnChild: true, delayMethods: { initialize: phase === 'initialize' ? initializeDelayMs : 0, 'nes/suggest': 60_000 } }), log);
			const { pid, childPid } = (await h.connection.sendRequest('_test/pids', {}, any)) as { pid: number; childPid: number };
			const closes: Error[] = [];
			h.connection.onDidClose((cause) => closes.push(cause));

			const calls = await work(h, phase, next, initializeDelayMs);
			const settled = calls.map((call) => call.then(() => ({ ok: true as const, at: performance.now() }), (error: unknown) => ({ ok: false as const, error, at: performance.now() })));
			// Times are taken from the agent's exit, which is what the client reacts to.
			const exited = h.process!.onExit.then(() => performance.now());
			process.kill(pid, 'SIGKILL');
			const results = await Promise.race([Promise.all(settled), sleep(10_000).then(() => undefined)]);
			assert.ok(results, `${where}: a call still pending 10 s after the kill`);
			const exitedAt = await exited;
			let maxFailMs = 0;
			for (const result of results) {
				if (!result.ok) {
					assert.match(String((result.error as Error).message), /killed by SIGKILL/, where);
					maxFailMs = Math.max(maxFailMs, result.at - exitedAt);
				}
			}
			assert.ok(maxFailMs < 1000, `${where}: a pending call failed ${maxFailMs.toFixed(0)} ms after the agent exited`);
			outcomes.push({ phase, pending: results.filter((r) => !r.ok).length, maxFailMs });

			// The crash is reported once, with the reason, however many calls were in flight.
			await waitFor(() => closes.length > 0);
			await sleep(0);
			assert.equal(closes.length, 1, `${where}: the crash was reported ${closes.length} times`);
			assert.match(closes[0]!.message, /killed by SIGKILL/);
			await assert.rejects(h.connection.sendRequest('_test/echo', {}, any), /killed by SIGKILL/, where);

			// What the agent manager does with a crash: ask the policy, then end the old process tree.
			const decision = policy.onCrash(Date.now());
			decisions.push(decision.restart ? `restart ${decision.delayMs}` : 'give up');
			if (!decision.restart) {
				policy.reset(); // the user starts it again by hand
			}
			await h.dispose();
			await waitFor(() => !isAlive(pid) && !isAlive(childPid), 5000).catch(() => {
				assert.fail(`${where}: left behind ${[pid, childPid].filter(isAlive).join(', ')}`);
			});
		}
		// Five restarts with growing back-off within the window, then a stop that says why.
		const cycle = ['restart 500', 'restart 1000', 'restart 2000', 'restart 4000', 'restart 8000', 'give up'];
		assert.deepEqual(decisions, Array.from({ length: RUNS }, (_, i) => cycle[i % cycle.length]));
		const pending = outcomes.reduce((n, o) => n + o.pending, 0);
		const slowest = Math.max(...outcomes.map((o) => o.maxFailMs));
		// Figures for the record: node:test prints diagnostics with the results.
		t.diagnostic(`kill campaign (seed ${seed}): ${RUNS} kills, ${pending} pending calls failed with the exit reason, slowest ${slowest.toFixed(1)} ms after the agent's exit; by phase: ${PHASES.map((p) => `${p} ${outcomes.filter((o) => o.phase === p).reduce((n, o) => n + o.pending, 0)}`).join(', ')}`);
	});
});
