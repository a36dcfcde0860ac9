// Benchmark, not a test: prints NES context figures measured in the extension host of a real VS Code.
// Run with `node scripts/test.mjs --tier=vscode --suite=bench-nes-context` (or `node bench/run.mjs --only=nes-context`).
//
//   1. Per keystroke in a 20 000-line file: a SessionRecording of our own (every context key,
//      utf-16) is fed the real change and selection events of keys typed with the `type` command;
//      each handler call is timed. The extension's own recorder runs too, untimed.
//   2. nes/suggest params for the 20 000-line file with every key declared, built by the same
//      function the command uses (`buildSuggestParams`): without relatedSnippets; with them looked
//      up in the background while the cursor rested (the normal case); with them looked up by the
//      request itself (a cache miss); and the command's own `buildMs` end to end.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { NesProfile } from '../../../../src/common/nes/protocol';
import { SessionRecording, type Recording } from '../../../../src/vscode/nes/contextRecorder';
import { buildSuggestParams, type SuggestOutcome } from '../../../../src/vscode/nes/suggest';
import { api, waitForState, waitUntil } from '../util';

const all = { recentFiles: { maxCount: 10 }, relatedSnippets: { maxCount: 20 }, editHistory: { maxCount: 50 }, userActions: { maxCount: 64 }, openFiles: { maxCount: 50 }, diagnostics: { maxCount: 100 } };

function summary(samples: readonly number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const at = (p: number) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
	const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
	return `median ${f(at(50))}, p99 ${f(at(99))}, max ${f(sorted.at(-1)!)} (n=${sorted.length})`;
}

describe('benchmark: NES context', function () {
	this.timeout(600_000);

	it('reports per-keystroke recording cost and nes/suggest build time in a 20 000-line file', async () => {
		const a = await api();
		await vscode.commands.executeCommand('agentLink.selectAgent', 'NES merged all utf-8');
		await waitForState(a, (s) => s.kind === 'ready');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'src', 'big.ts');
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
		assert.equal(editor.document.lineCount, 20_001);

		const profile: Pick<NesProfile, 'context' | 'encoding' | 'revision'> = { context: all, encoding: 'utf-16', revision: 'merged' };
		const recording = new SessionRecording(profile, 2 * 1024 * 1024);
		recording.track(editor.document);
		const changeMs: number[] = [];
		const selectionMs: number[] = [];
		let spent = 0;
		let selections = 0;
		const subs = [
			vscode.workspace.onDidChangeTextDocument((e) => {
				const t0 = performance.now();
				recording.changed(e);
				const ms = performance.now() - t0;
				changeMs.push(ms);
				spent += ms;
			}),
			vscode.window.onDidChangeTextEditorSelection((e) => {
				const t0 = performance.now();
				recording.selected(e);
				const ms = performance.now() - t0;
				selectionMs.push(ms);
				spent += ms;
				selections++;
			}),
		];
		// Each keystroke: the change event and the selection event it causes, both handled.
		const perKey: number[] = [];
		const slowest: { ms: number; key: string; line: number }[] = [];
		const text = "const total = makeConfig('bench').retries;\n";
		for (const line of [10_000, 500, 19_500]) {
			editor.selection = new vscode.Selection(line, 10, line, 10);
			await waitUntil(() => editor.selection.active.line === line);
			for (let round = 0; round < 8; round++) {
				// Typed key by key, then Backspace; each waits for both of its events.
				for (const key of [...text, 'Backspace']) {
					const version = editor.document.version;
					const seen = selections;
					spent = 0;
					await (key === 'Backspace' ? vscode.commands.executeCommand('deleteLeft') : vscode.commands.executeCommand('type', { text: key }));
					await waitUntil(() => editor.document.version > version && selections > seen, 5000, 'the keystroke');
					perKey.push(spent);
					slowest.push({ ms: spent, key, line: editor.selection.active.line });
				}
			}
		}
		subs.forEach((s) => s.dispose());
		console.log(`BENCH nes-context: change handler ${summary(changeMs)}`);
		console.log(`BENCH nes-context: selection handler ${summary(selectionMs)}`);
		console.log(`BENCH nes-context: per keystroke (change + selection) ${summary(perKey)}; VS Code ${vscode.version}`);
		slowest.sort((x, y) => y.ms - x.ms);
		console.log(`BENCH nes-context: slowest keystrokes ${slowest.slice(0, 12).map((k) => `${JSON.stringify(k.key)}@${k.line} ${k.ms.toFixed(2)} ms`).join(', ')}`);

		const cursorLine = 10_000;
		const at = new vscode.Position(cursorLine, editor.document.lineAt(cursorLine).text.indexOf('makeConfig') + 3);
		editor.selection = new vscode.Selection(at, at);
		await waitUntil(async () => ((await vscode.commands.executeCommand<unknown[]>('vscode.executeDefinitionProvider', uri, at)) ?? []).length > 0, 90_000, 'definitions');
		// The cursor rests: the background lookup completes.
		await recording.relatedSnippets!.get(editor.document, at, 60_000);
		const options = { triggerKind: 'manual' as const, maxFileBytes: 2 * 1024 * 1024, snippetBudgetMs: 500 };
		const noSnippets = { ...profile, context: { ...all, relatedSnippets: undefined } };
		delete noSnippets.context.relatedSnippets;
		const uncached: Recording = {
			editHistory: recording.editHistory,
			userActions: recording.userActions,
			relatedSnippets: undefined,
			lastFocusedMs: (u) => recording.lastFocusedMs(u),
			recentlyFocused: () => recording.recentlyFocused(),
		};
		const samples = { without: [] as number[], warm: [] as number[], cold: [] as number[] };
		let bytes = 0;
		let snippetCount = 0;
		for (let i = 0; i < 40; i++) {
			let t0 = performance.now();
			const params = await buildSuggestParams(editor, { profile: noSnippets as NesProfile }, recording, options);
			samples.without.push(performance.now() - t0);
			t0 = performance.now();
			const full = await buildSuggestParams(editor, { profile: profile as NesProfile }, recording, options);
			samples.warm.push(performance.now() - t0);
			bytes = JSON.stringify(full).length;
			snippetCount = ((full.context as { relatedSnippets: unknown[] }).relatedSnippets ?? []).length;
			if (i < 10) {
				t0 = performance.now();
				await buildSuggestParams(editor, { profile: profile as NesProfile }, uncached, options);
				samples.cold.push(performance.now() - t0);
			}
			JSON.stringify(params);
		}
		console.log(`BENCH nes-context: build, every key but relatedSnippets ${summary(samples.without)}`);
		console.log(`BENCH nes-context: build, every key, snippets looked up while the cursor rested (${(bytes / 1024).toFixed(1)} KiB, ${snippetCount} snippet files) ${summary(samples.warm)}`);
		console.log(`BENCH nes-context: build, every key, snippets looked up by the request (budget ${options.snippetBudgetMs} ms) ${summary(samples.cold)}`);
		const commandMs: number[] = [];
		for (let i = 0; i < 20; i++) {
			const outcome = await vscode.commands.executeCommand<SuggestOutcome>('agentLink.nes.suggest');
			assert.equal(outcome?.error, undefined);
			commandMs.push(outcome!.buildMs!);
		}
		console.log(`BENCH nes-context: agentLink.nes.suggest buildMs (every key, utf-8 agent) ${summary(commandMs)}`);
		recording.dispose();
		await vscode.commands.executeCommand('workbench.action.files.revert');
	});
});
