// Review of an agent's changes to a 5 000-line TypeScript file with 200 changed blocks (target:
// opens in under 200 ms), against VS Code's own diff editor opened the same way on the same two
// texts as files, in alternating rounds. Measured as a person sees it: from Review to the first
// frame in which the page shows the diff editor with the file's changed line marked (the browser
// bridge watches every animation frame); also when `vscode.diff` returned in the extension host.
// Each round uses new files, so nothing is reused from an earlier round. As in a chat, the file is
// loaded in the editor when Review is pressed (the agent's write went through it), and the workbench
// is left alone for a moment first. Also the blocks alone (lineHunks). The medians and the longest
// are printed and written to bench/results/review-vscode-<version>.json. With
// AGENT_LINK_BENCH_PROFILE set to a folder, the page's CPU profile of each timed open from the third
// round on is written there (<what>-<round>.cpuprofile), to see where the time goes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { lineHunks } from '../../../../src/common/fsWrite';
import { appearsAt, hasBrowser, profile, query } from '../browser';
import { api, repoRoot, waitUntil } from '../util';

const LINES = 5000;
const BLOCKS = 200;
const ROUNDS = 10;
/** How long the workbench is left alone before each timed open. */
const SETTLE_MS = 1500;
/** A changed line drawn in the modified side of a diff editor, and the diff's marks on it. */
const MODIFIED_LINES = '.monaco-diff-editor .editor.modified .view-line';
const MARKS = '.monaco-diff-editor .editor.modified .char-insert, .monaco-diff-editor .editor.modified .line-insert';

/** What marks the changed lines of a round (no space in it: the editor draws spaces as no-break spaces). */
const tag = (round: number) => `(round_${round})`;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)]!;

describe('bench: review', function () {
	this.timeout(600_000);

	it('opens the review of a 5 000-line file with 200 changed blocks', async () => {
		if (!hasBrowser()) {
			throw new Error('this benchmark watches the page: it needs the code-server runner');
		}
		const a = await api();
		const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
		const before = Array.from({ length: LINES }, (_, i) => `const value${i} = compute(${i}, 'line ${i}');\n`).join('');
		const texts = (round: number) => {
			const lines = before.split('\n');
			for (let b = 0; b < BLOCKS; b++) {
				const at = b * (LINES / BLOCKS) + 3;
				lines[at] = `${lines[at]} // changed by the agent ${tag(round)}`;
			}
			return lines.join('\n');
		};
		assert.equal(lineHunks(before, texts(0)).length, BLOCKS);

		/** Runs `open` and resolves with the page's milliseconds to the diff drawn with its marks, and the host's to `open` returning. */
		const timed = async (round: number, open: () => Thenable<unknown>, lines = MODIFIED_LINES, marks: string | null = MARKS, name = '') => {
			await waitUntil(async () => (await query(MARKS, { visible: true })).count === 0, 10_000, 'no diff marks shown');
			const drawn = appearsAt(lines, tag(round), 20_000);
			const marked = marks ? appearsAt(marks, undefined, 20_000) : drawn;
			await sleep(SETTLE_MS); // both waits are armed in the page, and the workbench is idle
			const prof = process.env.AGENT_LINK_BENCH_PROFILE && name && round >= 2;
			if (prof) await profile('start');
			const start = Date.now();
			await open();
			const host = Date.now() - start;
			const page = Math.max(await drawn, await marked) - start;
			if (prof) await profile('stop', path.join(process.env.AGENT_LINK_BENCH_PROFILE!, `${name}-${round}.cpuprofile`));
			console.log(`  text ${(await drawn) - start} ms, marks ${(await marked) - start} ms`);
			return { page, host };
		};

		const peer: number[] = [];
		const peerHost: number[] = [];
		const open: number[] = [];
		const openHost: number[] = [];
		const blocks: number[] = [];
		for (let round = 0; round < ROUNDS; round++) {
			const after = texts(round);
			// The peer: VS Code's own diff editor on two files with the same texts, both loaded.
			const peerBefore = vscode.Uri.file(path.join(folder, `peer-${round}.before.ts`));
			const peerAfter = vscode.Uri.file(path.join(folder, `peer-${round}.ts`));
			fs.writeFileSync(peerBefore.fsPath, before);
			fs.writeFileSync(peerAfter.fsPath, after);
			await vscode.workspace.openTextDocument(peerBefore);
			await vscode.workspace.openTextDocument(peerAfter);
			const p = await timed(round, () => vscode.commands.executeCommand('vscode.diff', peerBefore, peerAfter, 'peer', { preview: true }), MODIFIED_LINES, MARKS, 'peer');
			peer.push(p.page);
			peerHost.push(p.host);
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');

			{
				const smallBefore = vscode.Uri.file(path.join(folder, `small-${round}.before.ts`));
				const smallAfter = vscode.Uri.file(path.join(folder, `small-${round}.ts`));
				fs.writeFileSync(smallBefore.fsPath, 'const a = 1;\nconst b = 2;\nconst c = 3;\n');
				fs.writeFileSync(smallAfter.fsPath, `const a = 1;\nconst b = 2; // ${tag(round)}\nconst c = 3;\n`);
				await vscode.workspace.openTextDocument(smallBefore);
				await vscode.workspace.openTextDocument(smallAfter);
				const s = await timed(round, () => vscode.commands.executeCommand('vscode.diff', smallBefore, smallAfter, 'small', { preview: true }), MODIFIED_LINES, MARKS, 'small');
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
				const plainUri = vscode.Uri.file(path.join(folder, `plain-${round}.ts`));
				fs.writeFileSync(plainUri.fsPath, after.replace('const value0 ', `const value0 /* ${tag(round)} */ `));
				await vscode.workspace.openTextDocument(plainUri);
				const pl = await timed(round, () => vscode.window.showTextDocument(plainUri, { preview: true }), '.editor-instance .monaco-editor .view-line', null, 'plain');
				await vscode.commands.executeCommand('workbench.action.closeAllEditors');
				console.log(`  controls: a 3-line diff drawn in ${s.page} ms, the 5 000-line file in a plain editor ${pl.page} ms`);
			}
			// The review: the file as the agent left it, loaded, and the write recorded.
			const uri = vscode.Uri.file(path.join(folder, `big-${round}.ts`));
			fs.writeFileSync(uri.fsPath, after);
			await vscode.workspace.openTextDocument(uri);
			a.agentChanges.record('bench', { uri, before });
			const t = performance.now();
			lineHunks(before, after);
			blocks.push(performance.now() - t);
			const r = await timed(round, () => a.agentChanges.review(uri), MODIFIED_LINES, MARKS, 'review');
			open.push(r.page);
			openHost.push(r.host);
			assert.ok(vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 'the review is a diff editor');
			assert.equal((await a.agentChanges.hunks(uri)).length, BLOCKS);
			console.log(`round ${round}: VS Code's diff drawn in ${p.page} ms (host ${p.host} ms); review drawn in ${r.page} ms (host ${r.host} ms)`);
			await a.agentChanges.keep('bench');
			await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		}
		const fixed = (x: number) => Number(x.toFixed(1));
		const figures = {
			lines: LINES,
			blocks: BLOCKS,
			rounds: ROUNDS,
			openMedianMs: fixed(median(open)),
			openMaxMs: fixed(Math.max(...open)),
			openHostMedianMs: fixed(median(openHost)),
			peerMedianMs: fixed(median(peer)),
			peerMaxMs: fixed(Math.max(...peer)),
			peerHostMedianMs: fixed(median(peerHost)),
			blocksMedianMs: fixed(median(blocks)),
			vscode: vscode.version,
		};
		console.log(
			`review of ${LINES} lines with ${BLOCKS} changed blocks, drawn: median ${figures.openMedianMs} ms, longest ${figures.openMaxMs} ms (target: under 200 ms; host side ${figures.openHostMedianMs} ms); ` +
				`VS Code's own diff editor on the same texts (files): median ${figures.peerMedianMs} ms, longest ${figures.peerMaxMs} ms (host side ${figures.peerHostMedianMs} ms); the blocks alone: median ${figures.blocksMedianMs} ms`,
		);
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(path.join(out, `review-vscode-${vscode.version}.json`), `${JSON.stringify(figures, null, 2)}\n`);
	});
});
