// Next edit suggestions as a person sees them: a scripted agent answers, the test types and presses
// keys through the browser (real key presses, test/vscode/runner/bridge.mjs), looks at the ghost text
// the page renders, and checks the document through the API and what the agent was told
// (exactly one nes/accept or nes/reject per suggestion, with the right reason). Both revisions.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { COMPLETION_LIST, COMPLETION_ROWS, GHOST_TEXT, press, query, screenshot, type } from '../browser';
import { api, repoRoot, waitForState, waitUntil } from '../util';
import { agent, at, edit, folder, onlyOutcome, openFile, range, received, script, select, shownKind, type Json, type Revision } from './kit';

const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : undefined;

let a: AgentLinkApi;

async function ghostVisible(): Promise<string[]> {
	let texts: string[] = [];
	await waitUntil(
		async () => {
			const r = await query(GHOST_TEXT);
			texts = r.texts.map((t) => t.replace(/\u00a0/g, ' '));
			return r.count > 0 && r.texts.join('').trim() !== '';
		},
		10_000,
		'ghost text in the editor',
	);
	return texts;
}

async function ghostGone(): Promise<void> {
	await waitUntil(async () => (await query(GHOST_TEXT)).count === 0, 10_000, 'the ghost text to go away');
}

async function shot(name: string): Promise<void> {
	if (SHOTS) {
		fs.mkdirSync(SHOTS, { recursive: true });
		await screenshot(path.join(SHOTS, `${name}.png`), '.editor-instance');
	}
}

before(async () => {
	a = await api();
});

afterEach(async () => {
	// Leave nothing showing for the next test; a dismiss here is settled before the next one starts.
	if (a.nesController.shown) {
		await vscode.commands.executeCommand('agentLink.nes.dismiss');
	}
	await agent('_test/clearScript').catch(() => undefined);
	// Saved first: closing a modified file would ask whether to save.
	await vscode.workspace.saveAll(false);
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
});

for (const revision of ['merged', 'seed'] as Revision[]) {
	const id = (name: string) => `${revision}-${name}`;

	describe(`NES display (${revision} revision)`, () => {
		before(async () => {
			await select(`NES Display ${revision}`);
			if (SHOTS) {
				// Screenshots: the merged revision's in a light theme, the seed revision's in a dark one.
				const theme = revision === 'merged' ? 'Default Light Modern' : 'Default Dark Modern';
				await vscode.workspace.getConfiguration('workbench').update('colorTheme', theme, vscode.ConfigurationTarget.Global);
				// The whole width for the editor, so hints at the end of long lines are in the picture.
				await vscode.commands.executeCommand('workbench.action.closeSidebar');
				await vscode.commands.executeCommand('workbench.action.closeAuxiliaryBar');
			}
		});

		it('typing, then ghost text appears; Tab inserts it and the agent gets nes/accept', async () => {
			const editor = await openFile('const greeting = "hello";\nconsole.log(gre\n', at(1, 15));
			const uri = editor.document.uri;
			await script({ at: at(1, 17), suggestions: [edit(id('tab'), uri, [{ range: range(1, 17, 1, 17), newText: 'ing);' }])] });
			await type('et');
			await shownKind('ghost', id('tab'));
			const texts = await ghostVisible();
			assert.match(texts.join(''), /ing\);/);
			await shot(`ghost-text-${revision === 'merged' ? 'light' : 'dark'}`);
			await press('Tab');
			await waitUntil(() => editor.document.lineAt(1).text === 'console.log(greeting);', 5000, 'the accepted text');
			assert.equal(await onlyOutcome(id('tab')), 'accept');
			assert.equal(a.nesController.shown, undefined);
		});

		it('Escape hides the ghost text and the agent gets nes/reject rejected', async () => {
			const editor = await openFile('let total = 0\n', at(0, 13));
			await script({ at: at(0, 14), suggestions: [edit(id('esc'), editor.document.uri, [{ range: range(0, 14, 0, 14), newText: ' // running sum' }])] });
			await type(';');
			await shownKind('ghost', id('esc'));
			await ghostVisible();
			await press('Escape');
			await ghostGone();
			assert.equal(await onlyOutcome(id('esc')), 'reject rejected');
			assert.equal(editor.document.lineAt(0).text, 'let total = 0;');
		});

		it('typing something else makes it ignored', async () => {
			const editor = await openFile('items.push(\n', at(0, 11));
			await script({ at: at(0, 12), suggestions: [edit(id('past'), editor.document.uri, [{ range: range(0, 12, 0, 12), newText: 'tem);' }])] });
			await type('i');
			await shownKind('ghost', id('past'));
			await ghostVisible();
			await type('x');
			assert.equal(await onlyOutcome(id('past')), 'reject ignored');
			await ghostGone();
			assert.equal(editor.document.lineAt(0).text, 'items.push(ix');
		});

		it('typing the first characters keeps the rest; Tab then inserts the rest', async () => {
			const editor = await openFile('return a\n', at(0, 8));
			await script({ at: at(0, 9), suggestions: [edit(id('keep'), editor.document.uri, [{ range: range(0, 9, 0, 9), newText: '+ b + c;' }])] });
			await type(' ');
			await shownKind('ghost', id('keep'));
			await ghostVisible();
			await type('+ b');
			await waitUntil(() => (a.nesController.shown?.presentation.kind === 'ghost' ? a.nesController.shown.presentation.insertText : '') === ' + c;', 5000, 'the rest of the suggestion');
			const texts = await ghostVisible();
			assert.match(texts.join(''), /\+ c;/);
			assert.equal(a.nesController.shown?.presentation.id, id('keep'), 'still the same suggestion');
			await press('Tab');
			await waitUntil(() => editor.document.lineAt(0).text === 'return a + b + c;', 5000, 'the accepted rest');
			assert.equal(await onlyOutcome(id('keep')), 'accept');
		});

		it('typing all of it by hand makes it ignored, not accepted', async () => {
			const editor = await openFile('done\n', at(0, 4));
			await script({ at: at(0, 5), suggestions: [edit(id('typed-out'), editor.document.uri, [{ range: range(0, 5, 0, 5), newText: 'ok' }])] });
			await type(' ');
			await shownKind('ghost', id('typed-out'));
			await ghostVisible();
			await type('ok');
			assert.equal(await onlyOutcome(id('typed-out')), 'reject ignored');
			assert.equal(editor.document.lineAt(0).text, 'done ok');
		});

		it('a request overtaken by typing is cancelled; its late answer is rejected as cancelled and never shown', async () => {
			const editor = await openFile('abc\n', at(0, 3));
			const uri = editor.document.uri;
			await script(
				{ at: at(0, 4), delayMs: 1500, suggestions: [edit(id('late'), uri, [{ range: range(0, 4, 0, 4), newText: 'LATE' }])] },
				{ at: at(0, 5), suggestions: [edit(id('new'), uri, [{ range: range(0, 5, 0, 5), newText: 'fresh' }]), edit(id('other'), uri, [{ range: range(0, 0, 0, 0), newText: '// ' }])] },
			);
			await type('d');
			await waitUntil(async () => (await received()).some((r) => r.method === 'nes/suggest' && (r.params.position as Json | undefined)?.character === 4), 5000, 'the first request');
			await type('e');
			await shownKind('ghost', id('new'));
			assert.equal(await onlyOutcome(id('late')), 'reject cancelled');
			assert.equal(await onlyOutcome(id('other')), 'reject replaced', 'the second suggestion of the answer is dropped');
			const log = await received();
			assert.ok(log.some((r) => r.method === '$/cancel_request'), 'the stale request was cancelled on the wire');
			assert.equal(a.nesController.shown?.presentation.id, id('new'));
			await press('Escape');
			assert.equal(await onlyOutcome(id('new')), 'reject rejected');
		});

		it('an edit three lines below shows a preview; Tab applies it as one undo step', async () => {
			const original = 'function area(r) {\n\treturn r * r;\n}\n\nconst pi = 3;\n';
			const editor = await openFile(original, at(1, 14));
			const uri = editor.document.uri;
			await script({ triggerKind: 'manual', suggestions: [edit(id('preview'), uri, [{ range: range(4, 11, 4, 12), newText: '3.14159' }], { cursorPosition: at(4, 18) })] });
			await press('Alt+Backslash');
			await shownKind('preview', id('preview'));
			assert.match(a.nesController.shown!.hint, /Tab: apply edit at line 5/);
			await shot(`preview-${revision === 'merged' ? 'light' : 'dark'}`);
			await press('Tab');
			await waitUntil(() => editor.document.lineAt(4).text === 'const pi = 3.14159;', 5000, 'the applied edit');
			assert.equal(await onlyOutcome(id('preview')), 'accept');
			assert.deepEqual([editor.selection.active.line, editor.selection.active.character], [4, 18], 'the cursor goes to cursorPosition');
			await press('Control+z');
			await waitUntil(() => editor.document.getText() === original, 5000, 'one undo to restore the document');
		});

		it('after Tab the next suggestion is asked for at once; a Tab pressed before it shows applies it, and one with nothing coming does nothing', async () => {
			const editor = await openFile('a = 1\nb = 1\nc = 1\nd = 1\n', at(0, 5));
			const uri = editor.document.uri;
			await script(
				{ triggerKind: 'manual', suggestions: [edit(id('chain-1'), uri, [{ range: range(1, 4, 1, 5), newText: '2' }], { cursorPosition: at(1, 5) })] },
				// Slow enough that the second Tab surely comes before it shows.
				{ triggerKind: 'automatic', at: at(1, 5), delayMs: 400, suggestions: [edit(id('chain-2'), uri, [{ range: range(2, 4, 2, 5), newText: '2' }], { cursorPosition: at(2, 5) })] },
			);
			const before = (await received()).filter((r) => r.method === 'nes/suggest').length;
			await press('Alt+Backslash');
			await shownKind('preview', id('chain-1'));
			// Three Tabs in a row: the third finds no next suggestion (the agent has none left) and
			// must not indent in the middle of the line; what is typed next shows where the cursor is.
			await press('Tab', 'Tab', 'Tab');
			await waitUntil(() => editor.document.getText() === 'a = 1\nb = 2\nc = 2\nd = 1\n', 10_000, 'both suggestions applied');
			// The request after the second Tab is made once the editor has put the cursor where that
			// suggestion said: then it is safe to type.
			await waitUntil(
				async () => (await received()).some((r) => r.method === 'nes/suggest' && r.params.uri === uri.toString() && r.params.triggerKind === 'automatic' && (r.params.position as Json).line === 2),
				5000,
				'the request after the second suggestion, at its cursor',
			);
			await type('x');
			await waitUntil(() => editor.document.getText().includes('x'), 5000, 'the typed x');
			assert.equal(editor.document.getText(), 'a = 1\nb = 2\nc = 2x\nd = 1\n', 'no tab inserted');
			assert.equal(await onlyOutcome(id('chain-1')), 'accept');
			assert.equal(await onlyOutcome(id('chain-2')), 'accept');
			// Counted from the manual request: opening the file may itself have asked (automatic, line 0)
			// just after `before` was taken on a loaded machine.
			const requests = (await received()).filter((r) => r.method === 'nes/suggest').slice(before);
			const manual = requests.findIndex((r) => r.params.triggerKind === 'manual');
			assert.ok(manual >= 0, 'the manual request');
			assert.deepEqual(
				requests.slice(manual, manual + 3).map((r) => [r.params.triggerKind, (r.params.position as Json).line]),
				[
					['manual', 0],
					['automatic', 1],
					['automatic', 2],
				],
				'after each Tab, a request at once where the suggestion left the cursor',
			);
		});

		it('Escape dismisses a preview with nes/reject rejected and changes nothing', async () => {
			const original = 'a\nb\nc\nd\n';
			const editor = await openFile(original, at(0, 1));
			await script({ triggerKind: 'manual', suggestions: [edit(id('preview-esc'), editor.document.uri, [{ range: range(3, 0, 3, 1), newText: 'D' }])] });
			await press('Alt+Backslash');
			await shownKind('preview', id('preview-esc'));
			await press('Escape');
			assert.equal(await onlyOutcome(id('preview-esc')), 'reject rejected');
			assert.equal(editor.document.getText(), original);
		});

		it('a jump to another file: Tab opens it at the position and asks again there', async () => {
			const target = vscode.Uri.joinPath(folder(), 'src', `target-${revision}.txt`);
			fs.writeFileSync(target.fsPath, 'zero\none\ntwo: here\nthree\n');
			await openFile('start\n', at(0, 5));
			await script({ triggerKind: 'manual', suggestions: [{ kind: 'jump', id: id('jump'), uri: target.toString(), position: at(2, 5) }] });
			await press('Alt+Backslash');
			await shownKind('jump', id('jump'));
			assert.match(a.nesController.shown!.hint, new RegExp(`go to src/target-${revision}\\.txt:3`));
			await shot(`jump-${revision === 'merged' ? 'light' : 'dark'}`);
			await press('Tab');
			await waitUntil(() => vscode.window.activeTextEditor?.document.uri.toString() === target.toString(), 5000, 'the target file');
			const active = vscode.window.activeTextEditor!;
			assert.deepEqual([active.selection.active.line, active.selection.active.character], [2, 5]);
			assert.equal(await onlyOutcome(id('jump')), 'accept');
			await waitUntil(async () => (await received()).some((r) => r.method === 'nes/suggest' && r.params.uri === target.toString()), 5000, 'a request at the new place').catch(
				(error: Error) => {
					throw new Error(`${error.message}\n${a.recentLog().slice(-15).join('\n')}`);
				},
			);
		});

		it('search and replace: Tab replaces every match in one undo step', async () => {
			const original = 'let count = 1;\ncount += count;\nprint(count)\n';
			const editor = await openFile(original, at(0, 0));
			const uri = editor.document.uri.toString();
			const suggestion =
				revision === 'merged'
					? { kind: 'searchAndReplace', id: id('sar'), uri, search: '\\bcount\\b', replace: 'total', isRegex: true }
					: { kind: 'action', id: id('sar'), actionId: 'searchAndReplace', arguments: { uri, search: 'count', replace: 'total' } };
			await script({ triggerKind: 'manual', suggestions: [suggestion] });
			await press('Alt+Backslash');
			await shownKind('searchAndReplace', id('sar'));
			assert.match(a.nesController.shown!.hint, /replace 4 places/);
			await shot(`search-and-replace-${revision === 'merged' ? 'light' : 'dark'}`);
			await press('Tab');
			await waitUntil(() => editor.document.getText() === original.replace(/count/g, 'total'), 5000, 'every match replaced');
			assert.equal(await onlyOutcome(id('sar')), 'accept');
			await press('Control+z');
			await waitUntil(() => editor.document.getText() === original, 5000, 'one undo to restore the document');
		});

		it('a rename in a TypeScript project: Tab renames across both files as one refactoring', async function () {
			this.timeout(150_000);
			const lib = vscode.Uri.joinPath(folder(), 'src', `lib-${revision}.ts`);
			const use = vscode.Uri.joinPath(folder(), 'src', `use-${revision}.ts`);
			const useDoc = await vscode.workspace.openTextDocument(use);
			const libDoc = await vscode.workspace.openTextDocument(lib);
			const editor = await vscode.window.showTextDocument(libDoc, { preview: false });
			const name = new vscode.Position(0, 17); // inside `computeTotal`
			editor.selection = new vscode.Selection(name, name);
			// The TypeScript server must know the project: a definition found across files says so.
			await waitUntil(
				async () => {
					const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', use, new vscode.Position(2, 23));
					return (found ?? []).some((l) => ('uri' in l ? l.uri : l.targetUri).toString() === lib.toString());
				},
				120_000,
				'the TypeScript server',
			);
			const uri = lib.toString();
			const suggestion =
				revision === 'merged'
					? { kind: 'rename', id: id('ts-rename'), uri, position: at(0, 17), newName: 'sumAll' }
					: { kind: 'action', id: id('ts-rename'), actionId: 'rename', arguments: { uri, position: at(0, 17), newName: 'sumAll' } };
			await script({ triggerKind: 'manual', suggestions: [suggestion] });
			await press('Alt+Backslash');
			await shownKind('rename', id('ts-rename'));
			// The hint may show before the TypeScript server has the rename ("waiting for the language
			// server"); once it has, the hint says what Tab does.
			await waitUntil(() => /rename computeTotal → sumAll in 2 files/.test(a.nesController.shown?.hint ?? ''), 60_000, 'the rename hint naming both files').catch((error: Error) => {
				throw new Error(`${error.message}; the hint: ${a.nesController.shown?.hint}`);
			});
			await shot(`rename-${revision === 'merged' ? 'light' : 'dark'}`);
			await press('Tab');
			await waitUntil(() => useDoc.getText().includes('sumAll([1, 2, 3])') && libDoc.getText().includes('function sumAll('), 10_000, 'both files renamed');
			assert.ok(!useDoc.getText().includes('computeTotal') && !libDoc.getText().includes('computeTotal'));
			assert.equal(await onlyOutcome(id('ts-rename')), 'accept');
		});

		it('a catastrophic regular expression is refused (ignored) and nothing is shown', async () => {
			const editor = await openFile('aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\n', at(0, 0));
			const uri = editor.document.uri.toString();
			const suggestion =
				revision === 'merged'
					? { kind: 'searchAndReplace', id: id('redos'), uri, search: '(a+)+$', replace: 'x', isRegex: true }
					: { kind: 'action', id: id('redos'), actionId: 'searchAndReplace', arguments: { uri, search: '(a+)+$', replace: 'x', isRegex: true } };
			await script({ triggerKind: 'manual', suggestions: [suggestion] });
			await press('Alt+Backslash');
			assert.equal(await onlyOutcome(id('redos')), 'reject ignored');
			assert.equal(a.nesController.shown, undefined);
		});

		it('a rename no provider can do is never shown: nes/reject ignored', async () => {
			const editor = await openFile('plain words here\n', at(0, 0));
			const uri = editor.document.uri.toString();
			const suggestion =
				revision === 'merged'
					? { kind: 'rename', id: id('rename'), uri, position: at(0, 1), newName: 'other' }
					: { kind: 'action', id: id('rename'), actionId: 'rename', arguments: { uri, position: at(0, 1), newName: 'other' } };
			await script({ triggerKind: 'manual', suggestions: [suggestion] });
			await press('Alt+Backslash');
			assert.equal(await onlyOutcome(id('rename')), 'reject ignored');
			assert.equal(a.nesController.shown, undefined);
		});

		it('a suggestion for a file outside the workspace is refused and nothing changes', async () => {
			const outside = vscode.Uri.file(path.join(path.dirname(folder().fsPath), `outside-${revision}.txt`));
			fs.writeFileSync(outside.fsPath, 'secret\n');
			await openFile('inside\n', at(0, 6));
			await script({ triggerKind: 'manual', suggestions: [edit(id('outside'), outside, [{ range: range(0, 0, 0, 6), newText: 'changed' }])] });
			await press('Alt+Backslash');
			assert.equal(await onlyOutcome(id('outside')), 'reject ignored');
			assert.equal(a.nesController.shown, undefined);
			assert.equal(fs.readFileSync(outside.fsPath, 'utf8'), 'secret\n');
		});

		it('Tab still indents when no suggestion is showing', async () => {
			const editor = await openFile('x\n', at(0, 0));
			assert.equal(a.nesController.shown, undefined);
			await press('Tab');
			await waitUntil(() => editor.document.lineAt(0).text === '\tx', 5000, 'the indent');
		});

		it('the pending suggestion is a code action, and the status bar says one is pending', async () => {
			const original = 'first\nsecond\n';
			const editor = await openFile(original, at(0, 0));
			await script({ triggerKind: 'manual', suggestions: [edit(id('action'), editor.document.uri, [{ range: range(1, 0, 1, 6), newText: 'SECOND' }])] });
			await press('Alt+Backslash');
			await shownKind('preview', id('action'));
			assert.match(a.statusBarText(), /\$\(lightbulb\)/);
			const actions = await vscode.commands.executeCommand<vscode.CodeAction[]>('vscode.executeCodeActionProvider', editor.document.uri, new vscode.Range(0, 0, 0, 0));
			const ours = actions.find((x) => x.title === 'Apply next edit suggestion');
			assert.ok(ours?.command, `our code action among ${actions.map((x) => x.title).join(', ')}`);
			await vscode.commands.executeCommand(ours.command.command, ...(ours.command.arguments ?? []));
			await waitUntil(() => editor.document.lineAt(1).text === 'SECOND', 5000, 'the code action to apply the edit');
			assert.equal(await onlyOutcome(id('action')), 'accept');
			assert.doesNotMatch(a.statusBarText(), /\$\(lightbulb\)/);
		});

		it('a new error near the cursor asks for a suggestion (triggerKind diagnostic)', async () => {
			const editor = await openFile('let a = 1\nlet b = a +\n', at(1, 11));
			const collection = vscode.languages.createDiagnosticCollection('nes-display-test');
			try {
				collection.set(editor.document.uri, [new vscode.Diagnostic(new vscode.Range(1, 10, 1, 11), 'Expression expected.', vscode.DiagnosticSeverity.Error)]);
				await waitUntil(
					async () => (await received()).some((r) => r.method === 'nes/suggest' && r.params.triggerKind === 'diagnostic' && r.params.uri === editor.document.uri.toString()),
					5000,
					'a diagnostic request',
				);
			} finally {
				collection.dispose();
			}
		});

		it('snoozed: the state says so, and the manual command still works', async () => {
			const editor = await openFile('snooze\n', at(0, 6));
			await vscode.commands.executeCommand('agentLink.nes.snooze', 5);
			try {
				await waitUntil(() => a.nesController.state === 'snoozed', 5000, 'the snoozed state');
				assert.match(a.statusBarText(), /\$\(bell-slash\)/);
				await script({ triggerKind: 'manual', suggestions: [edit(id('snoozed'), editor.document.uri, [{ range: range(0, 6, 0, 6), newText: ' me' }])] });
				await press('Alt+Backslash');
				await shownKind('ghost', id('snoozed'));
				await ghostVisible();
				await press('Escape');
				assert.equal(await onlyOutcome(id('snoozed')), 'reject rejected');
			} finally {
				await vscode.commands.executeCommand('agentLink.nes.snooze', 0);
			}
			await waitUntil(() => a.nesController.state === 'idle', 5000, 'suggestions back on');
		});

		it('several suggestions: the one nearest the cursor shows, the others are replaced', async () => {
			const editor = await openFile('one\ntwo\nthree\nfour\nfive\n', at(3, 4));
			const uri = editor.document.uri;
			await script({
				triggerKind: 'manual',
				suggestions: [
					edit(id('far'), uri, [{ range: range(0, 0, 0, 3), newText: 'ONE' }]),
					edit(id('near'), uri, [{ range: range(4, 0, 4, 4), newText: 'FIVE' }]),
				],
			});
			await press('Alt+Backslash');
			await shownKind('preview', id('near'));
			assert.equal(await onlyOutcome(id('far')), 'reject replaced');
			await vscode.commands.executeCommand('agentLink.nes.dismiss');
			assert.equal(await onlyOutcome(id('near')), 'reject rejected');
		});
	});
}

describe('NES display: Tab and the completion list', () => {
	// The list's items come from this provider alone (the suite turns the others off), so what it
	// offers is known: the words below, filtered by VS Code by the word at the cursor.
	let provider: vscode.Disposable | undefined;
	const WORDS = ['const', 'constant', 'construct'];
	const id = (name: string) => `list-${name}`;
	const listsClosed = () => a.recentLog().filter((l) => l.includes('Closing the completion list over suggestion')).length;
	const focused = async () => (await query(`${COMPLETION_LIST} .monaco-list-row.focused .label-name`)).texts[0];
	const rows = async (what: string) => waitUntil(async () => (await query(COMPLETION_ROWS)).count > 1, 10_000, what);

	before(async () => {
		await select('NES Display merged');
		provider = vscode.languages.registerCompletionItemProvider({ scheme: 'file', language: 'plaintext' }, {
			provideCompletionItems: () => WORDS.map((w) => new vscode.CompletionItem(w, vscode.CompletionItemKind.Keyword)),
		});
	});
	after(() => provider?.dispose());

	/** A file whose first line begins with `word`, the cursor after it, and a preview for line 2 showing. */
	async function withPreview(word: string, name: string): Promise<vscode.TextEditor> {
		const editor = await openFile(`${word} a = 1\nvar b = 1\n`, at(0, word.length));
		await script({ triggerKind: 'manual', suggestions: [edit(id(name), editor.document.uri, [{ range: range(1, 0, 1, 3), newText: 'const' }])] });
		await press('Alt+Backslash');
		await shownKind('preview', id(name));
		return editor;
	}

	it('a list offering just the word already typed is closed over the suggestion, and Tab applies the suggestion', async () => {
		const editor = await withPreview('const', 'closed');
		const closed = listsClosed();
		await press('Control+Space');
		await waitUntil(() => listsClosed() > closed, 10_000, 'the list closed over the suggestion');
		await waitUntil(async () => (await query(COMPLETION_LIST)).count === 0, 10_000, 'the list gone from the page');
		await press('Tab');
		await waitUntil(() => editor.document.lineAt(1).text === 'const b = 1', 5000, 'the suggestion applied');
		assert.equal(editor.document.lineAt(0).text, 'const a = 1');
		assert.equal(await onlyOutcome(id('closed')), 'accept');
	});

	it('a list opened again for the same suggestion stays; moved in, Tab inserts the chosen item', async () => {
		const editor = await withPreview('const', 'reopened');
		const closed = listsClosed();
		await press('Control+Space');
		await waitUntil(() => listsClosed() > closed, 10_000, 'the first list closed over the suggestion');
		await waitUntil(async () => (await query(COMPLETION_LIST)).count === 0, 10_000, 'the first list gone from the page');
		await press('Control+Space');
		await rows('the list opened again');
		assert.equal(await focused(), 'const');
		await press('ArrowDown');
		await waitUntil(async () => (await focused()) === 'constant', 5000, 'constant focused');
		await press('Tab');
		await waitUntil(() => editor.document.lineAt(0).text === 'constant a = 1', 5000, 'the chosen item inserted');
		assert.equal(editor.document.lineAt(1).text, 'var b = 1', 'the suggestion was not applied');
		assert.equal(listsClosed(), closed + 1, 'only the first list was closed');
		assert.equal(await onlyOutcome(id('reopened')), 'reject ignored');
	});

	it('a list whose item would change the text stays, and Tab is its', async () => {
		const editor = await withPreview('cons', 'completes');
		const closed = listsClosed();
		await press('Control+Space');
		await rows('the list');
		assert.equal(await focused(), 'const');
		// The picture of the hint above the list ("Esc, then ⇥ Tab: …") in the README.
		await shot('completion-list-dark');
		await press('Tab');
		await waitUntil(() => editor.document.lineAt(0).text === 'const a = 1', 5000, 'const completed from the list');
		assert.equal(editor.document.lineAt(1).text, 'var b = 1', 'the suggestion was not applied');
		assert.equal(listsClosed(), closed, 'the list was not closed');
		assert.equal(await onlyOutcome(id('completes')), 'reject ignored');
	});
});

describe('NES display: the session ends', () => {
	it('turning NES off rejects what is showing, once', async () => {
		await select('NES Display seed');
		const editor = await openFile('p = 1\nq = 2\n', at(0, 5));
		await script({ triggerKind: 'manual', suggestions: [edit('off-1', editor.document.uri, [{ range: range(1, 4, 1, 5), newText: '9' }])] });
		await press('Alt+Backslash');
		await shownKind('preview', 'off-1');
		const agentBefore = a.agents.readyAgent!;
		const log = () => agentBefore.handle.connection.sendRequest('_test/received', {}, z.unknown()) as Promise<{ method: string; params: Json }[]>;
		await vscode.workspace.getConfiguration('agentLink').update('nes.enabled', false, vscode.ConfigurationTarget.Global);
		try {
			await waitUntil(() => a.nesController.state === 'off', 5000, 'NES off');
			assert.equal(a.nesController.shown, undefined);
			let outcomes: string[] = [];
			await waitUntil(async () => {
				outcomes = (await log()).filter((r) => r.params?.id === 'off-1').map((r) => `${r.method} ${String(r.params.reason)}`);
				return outcomes.length > 0;
			}, 5000, 'the outcome');
			assert.deepEqual(outcomes, ['nes/reject ignored']);
		} finally {
			await vscode.workspace.getConfiguration('agentLink').update('nes.enabled', undefined, vscode.ConfigurationTarget.Global);
		}
	});


	it('stopping the agent rejects what is showing, once, before the agent goes', async () => {
		await select('NES Display merged');
		const editor = await openFile('x = 1\ny = 2\n', at(0, 5));
		await script({ triggerKind: 'manual', suggestions: [edit('stop-1', editor.document.uri, [{ range: range(1, 4, 1, 5), newText: '3' }])] });
		await press('Alt+Backslash');
		await shownKind('preview', 'stop-1');
		await vscode.commands.executeCommand('agentLink.stopAgent');
		await waitForState(a, (s) => s.kind === 'stopped');
		assert.equal(a.nesController.shown, undefined);
		// The agent logs every message it receives to this file (lib.mjs `logFile`).
		const messages = fs
			.readFileSync(path.join(folder().fsPath, '.agent-messages.jsonl'), 'utf8')
			.split('\n')
			.filter(Boolean)
			.map((l) => JSON.parse(l) as { method?: string; params?: Json });
		const outcomes = messages.filter((m) => (m.method === 'nes/accept' || m.method === 'nes/reject') && m.params?.id === 'stop-1');
		assert.deepEqual(
			outcomes.map((m) => `${m.method} ${String(m.params?.reason)}`),
			['nes/reject ignored'],
		);
		assert.ok(messages.findIndex((m) => m.method === 'nes/reject') < messages.findIndex((m) => m.method === 'nes/close'), 'the reject goes before nes/close');
	});
});
