// Reviewing an agent's edit as a person does, through the browser with real keys: the agent writes
// three lines of a file (fs/write_text_file); the chat lists the file with its counts; Enter on it
// opens the diff editor (before the agent / now) with Keep and Undo above each change; the second
// change is undone from the palette with the cursor on it, the other two stay; Ctrl+Z brings it
// back (the undo is itself undoable); Keep all empties the list.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { press, query, runFromPalette, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { repoRoot, waitUntil } from '../util';
import { chatHooks } from '../chatKit';

const LEDGER = Array.from({ length: 12 }, (_, i) => `entry ${i + 1}: ${(i + 1) * 10}\n`).join('');
const EDITED = LEDGER.replace('entry 2: 20', 'entry 2: 25').replace('entry 6: 60', 'entry 6: 65').replace('entry 10: 100', 'entry 10: 105');
const focused = async (selector: string) => (await webviewQuery(`${selector}:focus`)).count === 1;
const counts = async () => (await webviewQuery('.changed-file .changed-lines')).texts.map((t) => t.replace(/\s+/g, ' ').trim());

describe('chat panel: reviewing the agent’s changes', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('review');
	const ledger = () => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'ledger.txt');
	const text = () => vscode.workspace.textDocuments.find((d) => d.uri.fsPath === ledger())?.getText() ?? fs.readFileSync(ledger(), 'utf8');

	afterEach(async () => {
		await vscode.workspace.saveAll(false);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('undoes one change of the agent’s edit with the keyboard and keeps the others', async () => {
		const a = chatApi();
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Chat Writer'))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat');
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		await type('update the ledger', 10);
		await press('Enter');
		await waitUntil(() => text() === EDITED, 20_000, 'the agent’s write');
		await waitFor(async () => (await counts()).join() === '+3 −3', 'the file listed with three lines added and three removed');
		assert.deepEqual((await webviewQuery('.changed-file-name')).texts, ['ledger.txt']);

		// From the input, back (Shift+Tab) to the file's name, then Enter: the review opens.
		for (let i = 0; i < 8 && !(await focused('.changed-file-name')); i++) {
			await press('Shift+Tab');
		}
		assert.ok(await focused('.changed-file-name'), 'the file name reached by keyboard');
		await press('Enter');
		await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 15_000, 'the diff editor');
		await waitUntil(() => vscode.window.activeTextEditor?.document.uri.fsPath === ledger(), 10_000, 'the file’s side of the diff focused');
		await waitFor(async () => (await query('.editor-actions .action-label[aria-label*="Undo Agent Change at Cursor"]', { visible: true })).count === 1, 'Keep and Undo in the diff editor’s title bar', 20_000);
		const shots = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
		await screenshot(path.join(shots, 'chat-review.png'));

		// To the second change (Alt+F5: next change), then Undo Agent Change at Cursor from the palette.
		for (let i = 0; i < 4 && vscode.window.activeTextEditor?.selection.active.line !== 5; i++) {
			const line = vscode.window.activeTextEditor?.selection.active.line;
			await press('Alt+F5');
			await waitUntil(() => vscode.window.activeTextEditor?.selection.active.line !== line, 5000, 'the cursor to move to the next change').catch(() => undefined);
		}
		assert.equal(vscode.window.activeTextEditor?.selection.active.line, 5, 'the cursor on the second change');
		await runFromPalette('Agent Link: Undo Agent Change at Cursor');
		const expected = LEDGER.replace('entry 2: 20', 'entry 2: 25').replace('entry 10: 100', 'entry 10: 105');
		await waitUntil(() => text() === expected, 10_000, 'only the second change undone');
		await waitFor(async () => (await counts()).join() === '+2 −2', 'two changes left in the list');

		// The undo is itself undoable.
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		await press('Control+z');
		await waitUntil(() => text() === EDITED, 10_000, 'Ctrl+Z brings the change back');
		await waitFor(async () => (await counts()).join() === '+3 −3', 'three again');

		// Keep all: nothing left to review; the file keeps the agent's text.
		await webviewClick('.changes-keep-all');
		await waitFor(async () => (await webviewQuery('.changes:not([hidden])')).count === 0, 'the list gone');
		assert.equal(text(), EDITED);
	});

	/**
	 * A Chat Writer chat with follow mode on, asked from its input to edit the ledger (not shown
	 * before): resolves with the chat's key once the ledger is shown and the turn is over.
	 */
	async function followAlong(a: ReturnType<typeof chatApi>): Promise<string> {
		fs.writeFileSync(ledger(), LEDGER);
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Chat Writer'))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat');
		await webviewClick('.follow');
		await waitFor(async () => (await webviewQuery('.follow[aria-pressed="true"]')).count === 1, 'follow on');
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		assert.ok(!vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === ledger()));
		await type('follow along', 10);
		await press('Enter');
		await waitUntil(() => vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === ledger()), 15_000, 'the edited file shown');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 15_000, 'the turn');
		return key;
	}

	it('follow mode shows the file the agent edits as it happens, the focus staying in the chat', async () => {
		const a = chatApi();
		const key = await followAlong(a);
		assert.ok(await focused('textarea.prompt-input'), 'the focus still in the chat');
		await a.chatController.closeTab(key);
		await vscode.commands.executeCommand('agentLink.review.undoFile', vscode.Uri.file(ledger()));
	});

	it('follow mode with previews turned off: the file it shows stays open (a pinned tab of the written file is not taken for one VS Code opened)', async () => {
		const a = chatApi();
		const workbench = vscode.workspace.getConfiguration('workbench.editor');
		await workbench.update('enablePreview', false, vscode.ConfigurationTarget.Global);
		try {
			const key = await followAlong(a);
			await new Promise((r) => setTimeout(r, 1500));
			assert.ok(vscode.window.visibleTextEditors.some((e) => e.document.uri.fsPath === ledger()), 'still shown after the write');
			await a.chatController.closeTab(key);
			await vscode.commands.executeCommand('agentLink.review.undoFile', vscode.Uri.file(ledger()));
		} finally {
			await workbench.update('enablePreview', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('opens the same review from the diff in the tool call, and Undo all there puts the file back', async () => {
		const a = chatApi();
		fs.writeFileSync(ledger(), LEDGER);
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Chat Writer'))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat');
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		await type('again', 10);
		await press('Enter');
		await waitFor(async () => (await counts()).join() === '+3 −3', 'the file listed');
		await webviewClick('.diff-review');
		await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 15_000, 'the diff editor from the tool call');
		await webviewClick('.changes-undo-all');
		await waitUntil(() => text() === LEDGER, 10_000, 'the file as before');
		await waitUntil(() => fs.readFileSync(ledger(), 'utf8') === LEDGER, 10_000, 'saved as before');
		await waitFor(async () => (await webviewQuery('.changes:not([hidden])')).count === 0, 'the list gone');
	});
});
