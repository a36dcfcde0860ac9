// Benchmark, not a test: prints next-edit-suggestion display figures measured in a real VS Code.
// Run with `node scripts/test.mjs --tier=vscode --target=latest --suite=bench-nes-display`.
//
// The agent answers every nes/suggest at once with an insertion at the cursor (ghost text). In a
// 20 000-line TypeScript file, per round: Escape (so no ghost text is left), then one key pressed
// through the browser, timed until the ghost text is visible in the page; the controller's own
// timings of the same round give the extension-host time per automatic trigger (building the
// request plus handling the answer, the agent's time left out) and the time from the answer
// arriving to the editor taking the ghost text from our inline completion provider.
//
// A rename suggestion, asked for with Alt+\ in a small file whose rename provider (registered here)
// answers at once or is held for the whole round, as a language server loading its project is:
// Alt+\ to the hint drawn in the page, and the agent's answer arriving to the hint shown (host).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { appearsAt, DECORATION_TEXT, GHOST_TEXT, press, pressAndTime, pseudoTexts, query } from '../browser';
import { api, waitForState, waitUntil } from '../util';

function summary(samples: readonly number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
	return `median ${at(50).toFixed(2)} ms, p90 ${at(90).toFixed(2)} ms, max ${sorted.at(-1)!.toFixed(2)} ms (n=${sorted.length})`;
}

describe('benchmark: NES display', function () {
	this.timeout(600_000);

	before(async () => {
		const a = await api();
		await vscode.commands.executeCommand('agentLink.selectAgent', 'NES Instant');
		await waitForState(a, (s) => s.kind === 'ready');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
	});

	it('reports answer-to-visible, host time per automatic trigger and keystroke-to-ghost-text in a 20 000-line file', async () => {
		const a = await api();
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

	it('reports Alt+\\ to the rename hint drawn, with the rename provider answering at once and held', async () => {
		const a = await api();
		const agent = (method: string, params: Record<string, unknown>) => a.agents.readyAgent!.handle.connection.sendRequest(method, params, z.unknown());
		const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src', 'rename.held');
		fs.writeFileSync(uri.fsPath, 'let count = 1;\ncount = count + 1;\n');
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
		editor.selection = new vscode.Selection(1, 0, 1, 0);
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		let held: Promise<void> | undefined;
		const provider = vscode.languages.registerRenameProvider({ scheme: 'file', pattern: '**/*.held' }, {
			provideRenameEdits: async (document, position, newName) => {
				await held;
				const edit = new vscode.WorkspaceEdit();
				edit.replace(document.uri, document.getWordRangeAtPosition(position)!, newName);
				return edit;
			},
		});
		const pageMs: Record<'ready' | 'held', number[]> = { ready: [], held: [] };
		const hostMs: Record<'ready' | 'held', number[]> = { ready: [], held: [] };
		try {
			for (let i = 0; i < 2 * 12; i++) {
				const mode = i % 2 === 0 ? 'ready' : 'held';
				let release = () => {};
				held = mode === 'held' ? new Promise((resolve) => (release = resolve)) : undefined;
				await waitUntil(async () => !(await pseudoTexts(DECORATION_TEXT)).some((t) => t.includes('rename count')), 10_000, 'no hint left');
				const id = `bench-rename-${i}`;
				await agent('_test/script', { entries: [{ triggerKind: 'manual', suggestions: [{ kind: 'rename', id, uri: uri.toString(), position: { line: 0, character: 5 }, newName: 'total' }] }] });
				const drawn = appearsAt(DECORATION_TEXT, 'rename count → total', 20_000, { pseudo: true });
				const pressed = Date.now();
				await press('Alt+Backslash');
				const at = await drawn;
				await waitUntil(() => a.nesController.shown?.presentation.id === id && a.nesController.lastTimings?.shownAt !== undefined, 10_000, 'the controller timings');
				const t = a.nesController.lastTimings!;
				if (i >= 4) {
					pageMs[mode].push(at - pressed);
					hostMs[mode].push(t.shownAt! - t.answeredAt);
				}
				await press('Escape');
				await waitUntil(() => a.nesController.shown === undefined, 10_000, 'the hint dismissed');
				release();
			}
		} finally {
			provider.dispose();
		}
		console.log('NES display, a rename suggestion (Alt+\\), rename provider answering at once / held for the round:');
		console.log(`  Alt+\\ to the hint drawn (browser), provider ready:  ${summary(pageMs.ready)}`);
		console.log(`  Alt+\\ to the hint drawn (browser), provider held:   ${summary(pageMs.held)}`);
		console.log(`  answer arrived to hint shown (host), provider ready: ${summary(hostMs.ready)}`);
		console.log(`  answer arrived to hint shown (host), provider held:  ${summary(hostMs.held)}`);
	});
});
