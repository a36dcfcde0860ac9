// Benchmark, not a test: an agent writes 100 000 hostile lines (garbage, cut JSON, wrong types for the
// methods the client answers, unknown methods, responses to ids never used, batches, …; see
// test/fixtures/agents/hostile-flood-agent.mjs), then at once a valid `workspace/active_document`.
// The agent measures, on its side of the pipe: hostile lines/s through the extension host (first line
// written to the last answer owed), and the latency of the valid request from the flood's last line
// (goals: at least 20 000 lines/s; the valid request answered within 2 s). The host side reports the
// lines the flood handed to the log channel, the longest event-loop block, and the CPU time each
// process of the editor spent (Linux only): with `agentLink.trace` off and the log never shown, off and the log shown in
// the Output panel, and `messages` with the log shown.
// Printed and written to bench/results/, never asserted, except that every owed answer came.
//
//   node scripts/test.mjs --tier=vscode --suite=bench-hostile-flood --target=latest
// AGENT_LINK_BENCH_PROFILE=<dir> also writes a CPU profile of the extension host per run.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { api, repoRoot, waitForState, waitUntil } from '../util';
import { meterLog } from './logMeter';
import { startProfile } from './profile';
import { cpuByProcess, type CpuSample } from '../processes';
import type { FloodReport } from '../../../shared/floodReport';

const AGENT = 'Hostile Flood Agent';
const LINES = Number(process.env.AGENT_LINK_BENCH_FLOOD_LINES || 100_000);


/**
 * Each run: `agentLink.trace`, and whether the Agent Link log is on screen in the Output panel. The
 * run with the log hidden comes first: once the log has been shown, the window was seen to keep
 * following it (its renderer busy) even with the panel closed.
 */
const RUNS = [
	{ trace: 'off', logShown: false },
	{ trace: 'off', logShown: true },
	{ trace: 'messages', logShown: true },
] as const;

interface Row extends FloodReport {
	readonly trace: string;
	readonly logShown: boolean;
	/** Calls to the log channel by level, from the flood's start until its agent stopped. */
	readonly logCalls: Record<string, number>;
	readonly longestBlockMs: number;
	readonly cpu: CpuSample[];
}

async function start(a: AgentLinkApi): Promise<string> {
	await vscode.commands.executeCommand('agentLink.selectAgent', AGENT);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === AGENT);
	await waitUntil(() => a.nes.current !== undefined, 15_000, 'the NES session');
	return a.nes.current!.id;
}

describe('benchmark: a flood of hostile lines', function () {
	this.timeout(15 * 60_000);

	it(`answers ${LINES} hostile lines and a valid request after them, and reports the rates`, async () => {
		const a = await api();
		const rows: Row[] = [];
		const profileDir = process.env.AGENT_LINK_BENCH_PROFILE;
		for (const { trace, logShown } of RUNS) {
			await vscode.workspace.getConfiguration('agentLink').update('trace', trace, vscode.ConfigurationTarget.Global);
			const sessionId = await start(a);
			if (logShown) {
				await vscode.commands.executeCommand('agentLink.showLog');
			}
			const connection = a.agents.readyAgent!.handle.connection;
			const meter = meterLog(a);
			const histogram = monitorEventLoopDelay({ resolution: 1 });
			const cpuBefore = cpuByProcess();
			const profile = profileDir ? await startProfile() : undefined;
			histogram.enable();
			const report = (await connection.sendRequest('_test/hostileFlood', { sessionId, lines: LINES }, z.unknown())) as FloodReport;
			histogram.disable();
			if (profile && profileDir) {
				fs.mkdirSync(profileDir, { recursive: true });
				fs.writeFileSync(path.join(profileDir, `hostile-flood-${vscode.version}-trace-${trace}-log-${logShown ? 'shown' : 'hidden'}.cpuprofile`), JSON.stringify(await profile.stop()));
			}
			const cpu = cpuByProcess(cpuBefore);
			// Stopping the agent writes out what its connection still holds back.
			await vscode.commands.executeCommand('agentLink.stopAgent');
			await waitForState(a, (s) => s.kind === 'stopped');
			meter.dispose();
			rows.push({ trace, logShown, ...report, logCalls: { ...meter.calls }, longestBlockMs: histogram.max / 1e6, cpu });
		}
		await vscode.workspace.getConfiguration('agentLink').update('trace', undefined, vscode.ConfigurationTarget.Global);

		console.log(`BENCH hostile flood: VS Code ${vscode.version}, ${LINES} hostile lines then one valid workspace/active_document`);
		for (const r of rows) {
			console.log(
				`  trace ${r.trace.padEnd(8)} log ${r.logShown ? 'shown ' : 'hidden'} ${Math.round(r.linesPerSecond).toLocaleString('en')} lines/s (${(r.floodMs / 1000).toFixed(2)} s; written in ${(r.writeMs / 1000).toFixed(2)} s, ` +
					`last answer ${(r.drainMs / 1000).toFixed(2)} s after the last line) | valid request answered ${(r.validLatencyMs / 1000).toFixed(2)} s after the flood's last line | ` +
					`log calls ${Object.entries(r.logCalls).filter(([, n]) => n > 0).map(([level, n]) => `${level} ${n.toLocaleString('en')}`).join(', ')} | longest event-loop block ${r.longestBlockMs.toFixed(0)} ms`,
			);
			// CPU time is what other work on a shared machine does not inflate: lines per CPU second of the extension host.
			const host = r.cpu.find((c) => c.name === 'extension host')?.seconds;
			const perCpu = host ? ` (${Math.round(r.lines / host).toLocaleString('en')} lines per extension-host CPU second)` : '';
			console.log(`    CPU s by process: ${r.cpu.map((c) => `${c.name} ${c.seconds.toFixed(2)}`).join(', ') || 'not measured (no /proc)'}${perCpu}`);
		}
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `hostile-flood-vscode-${vscode.version}.json`), `${JSON.stringify({ vscode: vscode.version, lines: LINES, rows }, null, 2)}\n`);
		for (const r of rows) {
			assert.deepEqual({ missing: r.missing, timedOut: r.timedOut, got: r.got, unexpected: r.unexpected }, { missing: 0, timedOut: false, got: r.expected, unexpected: [] }, `trace ${r.trace}, log ${r.logShown ? 'shown' : 'hidden'}`);
			assert.ok(r.valid.result !== undefined, `the valid request got a result: ${JSON.stringify(r.valid)}`);
		}
	});
});
