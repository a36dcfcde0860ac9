// Benchmark, not a test: an agent keeps 10 000 editor state requests in flight at once (200 open tabs,
// full recent list). Every one must be answered; the figure is the longest time the extension host's
// event loop was blocked meanwhile (target: never over 50 ms), measured with perf_hooks'
// monitorEventLoopDelay. On a shared machine a process is also held up by others, so the same
// measure is taken with the host idle for as long, just before, as the peer to compare with.
// Printed and written to bench/results/, never asserted.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EditorStateMethods } from '../../../../src/common/editorStateProtocol';
import { api, repoRoot } from '../util';
import { ready } from '../editor-state/helpers';

const IN_FLIGHT = 10_000;

describe('benchmark: a flood of editor state requests', function () {
	this.timeout(10 * 60_000);

	it(`answers ${IN_FLIGHT} requests in flight at once and reports the longest event-loop block`, async () => {
		const a = await api();
		const sessionId = await ready(a);
		const connection = a.agents.readyAgent!.handle.connection;
		const rows: { method: string; answered: number; codes: Record<string, number>; seconds: number; longestBlockMs: number; p99BlockMs: number; idleLongestBlockMs: number }[] = [];
		for (const [method, extra] of [
			[EditorStateMethods.activeDocument, {}],
			[EditorStateMethods.openDocuments, {}],
			[EditorStateMethods.recentDocuments, {}],
		] as const) {
			const histogram = monitorEventLoopDelay({ resolution: 1 });
			histogram.enable();
			const started = performance.now();
			const flood = (await connection.sendRequest('_test/flood', { method, params: { sessionId, ...extra }, count: IN_FLIGHT }, z.unknown())) as { answered: number; codes: Record<string, number> };
			const seconds = (performance.now() - started) / 1000;
			histogram.disable();
			// The peer: the same host, idle, for as long.
			const idle = monitorEventLoopDelay({ resolution: 1 });
			idle.enable();
			await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
			idle.disable();
			rows.push({ method, ...flood, seconds, longestBlockMs: histogram.max / 1e6, p99BlockMs: histogram.percentile(99) / 1e6, idleLongestBlockMs: idle.max / 1e6 });
		}
		console.log(`BENCH flood: VS Code ${vscode.version}, ${IN_FLIGHT} requests in flight per method`);
		for (const r of rows) {
			console.log(`  ${r.method.padEnd(28)} answered ${r.answered} (${JSON.stringify(r.codes)}) in ${r.seconds.toFixed(2)} s | longest event-loop block ${r.longestBlockMs.toFixed(1)} ms, p99 ${r.p99BlockMs.toFixed(1)} ms | idle host, same time: longest ${r.idleLongestBlockMs.toFixed(1)} ms`);
		}
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `flood-vscode-${vscode.version}.json`), `${JSON.stringify({ vscode: vscode.version, inFlight: IN_FLIGHT, rows }, null, 2)}\n`);
		for (const r of rows) {
			assert.deepEqual({ answered: r.answered, codes: r.codes }, { answered: IN_FLIGHT, codes: { result: IN_FLIGHT } }, r.method);
		}
	});
});
