// Benchmark, not a test: editor tool round trips as the agent measures them (its MCP client's
// callTool to the answer), over HTTP and through the stdio bridge, in a 2 000-file TypeScript
// workspace. Figures are printed (and written to bench/results/), never asserted. Run with
// `node scripts/test.mjs --tier=vscode --suite=bench-editor-tools --serial`.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { api, formatStats, repoRoot, stats, type Stats, waitUntil } from '../util';

const CALLS = 300;
const WARMUP = 30;

const format = (s: Stats) => formatStats(s, 2);

describe('benchmark: editor tools', function () {
	this.timeout(15 * 60_000);

	it('reports tool call round trips (agent to answer) in a 2 000-file workspace', async () => {
		const a = await api();
		const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		const files = (await vscode.workspace.findFiles('**/*.ts')).length;
		assert.ok(files >= 2000, `the suite prepares 2 000 files (${files})`);
		const use = vscode.Uri.file(path.join(folder, 'src', 'use.ts'));
		await vscode.window.showTextDocument(use);
		await waitUntil(() => vscode.languages.getDiagnostics(use).length > 0, 120_000, 'TypeScript’s diagnostics');
		const cases: [string, string, Record<string, unknown>][] = [
			['stat', 'stat', { path: 'src/lib.ts' }],
			['get_diagnostics (one file)', 'get_diagnostics', { path: 'src/use.ts' }],
			['get_diagnostics (workspace)', 'get_diagnostics', {}],
			['glob_search src/gen/d7/*.ts', 'glob_search', { pattern: 'src/gen/d7/*.ts' }],
		];
		const results: Record<string, Record<string, Stats>> = {};
		for (const agent of ['Tools HTTP', 'Tools Stdio']) {
			const session = await a.chat.create(a.agents.findChoice(agent)!, folder);
			try {
				const connection = session.agent!.handle.connection;
				results[agent] = {};
				for (const [label, name, args] of cases) {
					const timed = (await connection.sendRequest('_test/mcpTimed', { sessionId: session.sessionId, name, arguments: args, count: CALLS + WARMUP }, z.unknown())) as {
						ms: number[];
						last: { content: { text?: string }[]; isError?: boolean };
					};
					assert.ok(!timed.last.isError, `${label}: ${timed.last.content[0]?.text}`);
					results[agent][label] = stats(timed.ms.slice(WARMUP));
				}
			} finally {
				await session.close();
			}
		}
		console.log(`BENCH editor-tools: VS Code ${vscode.version}, ${files} .ts files, ${CALLS} calls each after ${WARMUP} to warm up`);
		for (const [agent, byCase] of Object.entries(results)) {
			for (const [label, s] of Object.entries(byCase)) {
				console.log(`  ${agent.padEnd(12)} ${label.padEnd(30)} ${format(s)}`);
			}
		}
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `editor-tools-vscode-${vscode.version}.json`), `${JSON.stringify({ vscode: vscode.version, files, calls: CALLS, results }, null, 2)}\n`);
	});
});
