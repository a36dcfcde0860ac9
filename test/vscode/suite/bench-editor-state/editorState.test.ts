// Benchmark, not a test: time per editor state call with 200 open tabs and a full recent list,
// measured in the extension host. Figures are printed (and written to bench/results/), never
// asserted. Run with `node scripts/test.mjs --tier=vscode --suite=bench-editor-state`
// (or `node bench/run.mjs --only=editor-state`).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EditorStateMethods, MAX_RECENT_DOCUMENTS } from '../../../../src/common/editorStateProtocol';
import { api, formatStats, repoRoot, stats, type Stats, waitUntil } from '../util';
import { closeAll, ready } from '../editor-state/helpers';

const OPEN_TABS = 200;
/** Files opened and closed first, so the recent list holds more than the open tabs and hits its cap. */
const CLOSED_FIRST = 60;
const CALLS = 300;
const WARMUP = 30;

const format = (s: Stats) => formatStats(s, 3);

describe('benchmark: editor state', function () {
	this.timeout(10 * 60_000);

	it(`reports time per call with ${OPEN_TABS} open tabs and a full recent list`, async () => {
		const a = await api();
		const sessionId = await ready(a);
		await closeAll();
		const folder = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src');
		const files = fs.readdirSync(folder).filter((f) => f.endsWith('.ts')).sort().map((f) => vscode.Uri.file(path.join(folder, f)));
		assert.ok(files.length >= OPEN_TABS + CLOSED_FIRST, 'the suite prepares enough files');
		const openAll = async (uris: vscode.Uri[]) => {
			for (const uri of uris) {
				await vscode.window.showTextDocument(uri, { preview: false, preserveFocus: false });
			}
		};
		await openAll(files.slice(0, CLOSED_FIRST));
		await closeAll();
		await openAll(files.slice(CLOSED_FIRST, CLOSED_FIRST + OPEN_TABS));
		const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText).length;
		await waitUntil(() => a.editorState.recentSize === MAX_RECENT_DOCUMENTS, 5000, 'the recent list to fill');
		// Memory bound: 260 files were opened, the list holds its cap.
		assert.equal(a.editorState.recentSize, MAX_RECENT_DOCUMENTS);

		const results: Record<string, { host: Stats; agent: Stats; answer: number }> = {};
		const cases: [string, string, Record<string, unknown>, () => Promise<unknown> | unknown][] = [
			['open_documents', EditorStateMethods.openDocuments, {}, () => a.editorState.openDocuments()],
			['recent_documents (default limit 50)', EditorStateMethods.recentDocuments, {}, () => a.editorState.recentDocuments(50)],
			['recent_documents (limit 200)', EditorStateMethods.recentDocuments, { limit: 200 }, () => a.editorState.recentDocuments(200)],
			['active_document', EditorStateMethods.activeDocument, {}, () => a.editorState.activeDocument()],
		];
		const connection = a.agents.readyAgent!.handle.connection;
		for (const [label, method, extra, direct] of cases) {
			// In the extension host: the work a call does, without the wire.
			for (let i = 0; i < WARMUP; i++) {
				await direct();
			}
			const host: number[] = [];
			for (let i = 0; i < CALLS; i++) {
				const start = performance.now();
				await direct();
				host.push(performance.now() - start);
			}
			// As the agent sees it: request over stdio, zod check, session check, answer.
			const timed = (await connection.sendRequest('_test/editorStateTimed', { method, params: { sessionId, ...extra }, count: CALLS + WARMUP }, z.unknown())) as {
				ms: number[];
				last: { result?: { documents?: unknown[]; document?: unknown } };
			};
			const answer = timed.last.result?.documents?.length ?? (timed.last.result?.document ? 1 : 0);
			results[label] = { host: stats(host), agent: stats(timed.ms.slice(WARMUP)), answer };
		}

		console.log(`BENCH editor-state: VS Code ${vscode.version}, ${tabs} open text tabs, recent list ${a.editorState.recentSize}/${MAX_RECENT_DOCUMENTS}, ${CALLS} calls each`);
		for (const [label, r] of Object.entries(results)) {
			console.log(`  ${label.padEnd(36)} ${String(r.answer).padStart(3)} docs | in host: ${format(r.host)} | agent round trip: ${format(r.agent)}`);
		}
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `editor-state-vscode-${vscode.version}.json`), `${JSON.stringify({ vscode: vscode.version, tabs, calls: CALLS, results }, null, 2)}\n`);
		assert.equal(tabs, OPEN_TABS);
	});
});
