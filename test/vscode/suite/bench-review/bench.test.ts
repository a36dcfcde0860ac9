// Review of an agent's changes to a 5 000-line file with 200 changed blocks (target: opens in under
// 200 ms): from Review to the diff editor active with every block found, ten rounds, the median and
// the longest printed and written to bench/results/review.json. Also the blocks alone (lineHunks).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineHunks } from '../../../../src/common/fsWrite';
import { api, repoRoot, waitUntil } from '../util';

const LINES = 5000;
const BLOCKS = 200;

describe('bench: review', function () {
	this.timeout(300_000);

	it('opens the review of a 5 000-line file with 200 changed blocks', async () => {
		const a = await api();
		const before = Array.from({ length: LINES }, (_, i) => `const value${i} = compute(${i}, 'line ${i}');\n`).join('');
		const lines = before.split('\n');
		for (let b = 0; b < BLOCKS; b++) {
			const at = b * (LINES / BLOCKS) + 3;
			lines[at] = `${lines[at]} // changed by the agent`;
		}
		const after = lines.join('\n');
		const file = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'big.ts');
		fs.writeFileSync(file, after);
		const uri = vscode.Uri.file(file);
		assert.equal(lineHunks(before, after).length, BLOCKS);

		// The peer: VS Code's own diff editor on the same two texts as files, opened the same way.
		const peerFile = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'big.before.ts');
		fs.writeFileSync(peerFile, before);
		const peer: number[] = [];
		const open: number[] = [];
		const blocks: number[] = [];
		for (let round = 0; round < 10; round++) {
			const p = performance.now();
			await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(peerFile), uri, 'peer', { preview: true });
			await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff && vscode.window.activeTextEditor?.document.uri.toString() === uri.toString(), 10_000, 'the peer diff editor');
			peer.push(performance.now() - p);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');

			a.agentChanges.record('bench', { agentName: 'bench', sessionId: 'bench', uri, kind: 'write', before, after });
			let t = performance.now();
			lineHunks(before, after);
			blocks.push(performance.now() - t);
			t = performance.now();
			await a.agentChanges.review(uri);
			const command = performance.now() - t;
			await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff && vscode.window.activeTextEditor?.document.uri.toString() === uri.toString(), 10_000, 'the diff editor');
			const shown = performance.now() - t;
			assert.equal((await a.agentChanges.hunks(uri)).length, BLOCKS);
			open.push(performance.now() - t);
			console.log(`round ${round}: review() ${command.toFixed(0)} ms, diff editor active ${shown.toFixed(0)} ms, all ${open[open.length - 1]!.toFixed(0)} ms`);
			await a.agentChanges.keep('bench');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
		const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;
		const figures = { peerMedianMs: Number(median(peer).toFixed(1)), lines: LINES, blocks: BLOCKS, openMedianMs: Number(median(open).toFixed(1)), openMaxMs: Number(Math.max(...open).toFixed(1)), openFirstMs: Number(open[0]!.toFixed(1)), blocksMedianMs: Number(median(blocks).toFixed(1)), vscode: vscode.version };
		console.log(`review of ${LINES} lines with ${BLOCKS} changed blocks: open median ${figures.openMedianMs} ms, first ${figures.openFirstMs} ms, longest ${figures.openMaxMs} ms (target: under 200 ms); VS Code's own diff editor on the same texts (files): median ${figures.peerMedianMs} ms; the blocks alone: median ${figures.blocksMedianMs} ms`);
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `review-vscode-${vscode.version}.json`), `${JSON.stringify(figures, null, 2)}\n`);
	});
});
