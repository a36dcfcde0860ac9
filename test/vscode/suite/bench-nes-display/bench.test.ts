// Benchmark, not a test: prints next-edit-suggestion display figures measured in a real VS Code.
// Run with `node scripts/test.mjs --tier=vscode --target=latest --suite=bench-nes-display`.
//
// The agent answers every nes/suggest at once with an insertion at the cursor (ghost text). In a
// 20 000-line TypeScript file, per round: Escape (so no ghost text is left), then one key pressed
// through the browser, timed until the ghost text is visible in the page; the controller's own
// timings of the same round give the extension-host time per automatic trigger (building the
// request plus handling the answer, the agent's time left out) and the time from the answer
// arriving to the editor taking the ghost text from our inline completion provider.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { GHOST_TEXT, press, pressAndTime, query } from '../browser';
import { api, waitForState, waitUntil } from '../util';

function summary(samples: readonly number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
	return `median ${at(50).toFixed(2)} ms, p90 ${at(90).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms (n=${sorted.length})`;
}

describe('benchmark: NES display', function () {
	this.timeout(600_000);

	it('reports answer-to-visible, host time per automatic trigger and keystroke-to-ghost-text in a 20 000-line file', async () => {
		const a = await api();
		await vscode.commands.executeCommand('agentLink.selectAgent', 'NES Instant');
		await waitForState(a, (s) => s.kind === 'ready');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src', 'big.ts');
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
		assert.equal(editor.document.lineCount, 20_001);
		const line = 10_000;
		const end = editor.document.lineAt(line).range.end;
		editor.selection = new vscode.Selection(end, end);
		editor.revealRange(new vscode.Range(end, end), vscode.TextEditorRevealType.InCenter);
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');

		const keystrokeMs: number[] = [];
		const hostMs: number[] = [];
		const answerToEditorMs: number[] = [];
		const changeToRequestMs: number[] = [];
		const requestToAnswerMs: number[] = [];
		const rounds = 30;
		for (let i = 0; i < rounds + 3; i++) {
			if (a.nesController.shown) {
				await press('Escape');
			}
			await waitUntil(async () => a.nesController.shown === undefined && (await query(GHOST_TEXT)).count === 0, 10_000, 'no ghost text');
			const ms = await pressAndTime(i % 2 === 0 ? 'x' : 'Backspace', GHOST_TEXT);
			await waitUntil(() => a.nesController.lastTimings?.offeredAt !== undefined, 10_000, 'the controller timings');
			const t = a.nesController.lastTimings!;
			if (i < 3) {
				continue; // warm-up
			}
			keystrokeMs.push(ms);
			hostMs.push(t.buildMs + (t.presentMs ?? 0));
			answerToEditorMs.push(t.offeredAt! - t.answeredAt);
			changeToRequestMs.push(t.startedAt - (t.changedAt ?? t.startedAt));
			requestToAnswerMs.push(t.answeredAt - t.startedAt);
		}
		const debounce = vscode.workspace.getConfiguration('agentLink').get<number>('nes.debounce');
		console.log(`NES display, 20 000-line file, agent answering at once, debounce ${debounce} ms:`);
		console.log(`  keystroke to ghost text visible (browser):           ${summary(keystrokeMs)}`);
		console.log(`  host time per automatic trigger (build + present):  ${summary(hostMs)}`);
		console.log(`  answer arrived to ghost text taken by the editor:    ${summary(answerToEditorMs)}`);
		console.log(`  document change to request start (the debounce):    ${summary(changeToRequestMs)}`);
		console.log(`  request start to answer (build + agent round trip): ${summary(requestToAnswerMs)}`);
	});
});
