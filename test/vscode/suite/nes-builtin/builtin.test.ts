// Agent Link NES (built in) end to end, as a newcomer meets it: the sample workspace of `npm start`
// (samples/try-agent-link), the built-in agent as the NES agent (the default), the editor's default
// settings (the completion list opens as you type), and the steps the sample's README gives, typed
// through the browser. Renaming a variable yields a suggestion that one Tab applies everywhere;
// changing one `var` to `const` yields the same change on the next lines, one Tab each; bumping
// the version in a banner comment yields the same bump where the file names that version again.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { COMPLETION_LIST, QUICK_ROWS, press, query, runFromPalette, screenshot, type, waitForSteady } from '../browser';
import { api, repoRoot, waitForState, waitUntil } from '../util';

const BUILT_IN = 'Agent Link NES (built in)';
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : undefined;

let a: AgentLinkApi;

async function open(relative: string): Promise<vscode.TextEditor> {
	const uri = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, relative);
	const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
	await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
	return editor;
}

/**
 * Selects the whole word `word` on `line`, as a double click would. The cursor is put there
 * through the API, and the word selected by the editor's own command (Ctrl+D): that runs in the
 * page after the cursor update, so the next key press lands on the selection.
 */
async function selectWord(editor: vscode.TextEditor, line: number, word: string): Promise<void> {
	const character = editor.document.lineAt(line).text.indexOf(word);
	assert.ok(character >= 0, `${word} on line ${line + 1}`);
	editor.selection = new vscode.Selection(line, character, line, character);
	await vscode.commands.executeCommand('editor.action.addSelectionToNextFindMatch');
	const expected = new vscode.Selection(line, character, line, character + word.length);
	await waitUntil(() => vscode.window.activeTextEditor?.selection.isEqual(expected) === true, 5000, `${word} selected`);
}

/**
 * Waits for a suggestion made for the document as it is now: one shown for a word half typed (the
 * `s` of `sum`) goes away with the next key, and a Tab pressed meanwhile is the editor's.
 */
async function suggestionShown(what: string, editor: vscode.TextEditor): Promise<void> {
	await waitUntil(() => a.nesController.shown?.version === editor.document.version && a.nesController.keysReady, 15_000, what);
}

const listOpen = async () => (await query(COMPLETION_LIST)).count > 0;

/**
 * What a person does before pressing Tab: waits for the suggestion and for the language's
 * completions for the text as typed, and closes with Escape a completion list left over the
 * suggestion, as its hint says ("Esc, then Tab"): a list whose item would change the text keeps Tab.
 * The list can open well after the suggestion (on a busy machine TypeScript's answer came after a
 * first look, and Tab went to its list, as it should); TypeScript answers in order, so once a
 * request of our own is answered, the list's is too.
 */
async function tabReady(what: string, editor: vscode.TextEditor): Promise<void> {
	await suggestionShown(what, editor);
	await vscode.commands.executeCommand('vscode.executeCompletionItemProvider', editor.document.uri, editor.selection.active);
	await waitForSteady(
		async () => {
			if (!(await listOpen())) {
				return true;
			}
			await press('Escape');
			return false;
		},
		`${what}, no completion list over it`,
		500,
		10_000,
	);
	await suggestionShown(what, editor);
}

/** How many times a completion list was closed because it was in a suggestion's way. */
const listsClosed = () => a.recentLog().filter((l) => l.includes('Closing the completion list over suggestion')).length;

describe('Agent Link NES (built in), in the sample workspace', function () {
	this.timeout(90_000);

	before(async () => {
		a = await api();
		// The default NES agent starts by itself in a trusted workspace.
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === BUILT_IN);
		await waitUntil(() => a.nes.current?.agent.name === BUILT_IN, 15_000, 'the NES session with the built-in agent');
	});

	it('is in the agent picker of a clean profile with no agent installed', async () => {
		await runFromPalette('Agent Link: Select Agent', 'Agent Link: Select Agent');
		await type('Agent Link NES');
		await waitUntil(async () => (await query(QUICK_ROWS)).texts[0]?.includes(BUILT_IN) ?? false, 10_000, 'the built-in agent in the picker');
		await press('Escape');
	});

	it('renaming a variable where it is declared suggests the other uses, and Tab renames them all', async () => {
		const editor = await open('src/cart.ts');
		const line = editor.document.getText().split('\n').findIndex((l) => l.includes('let total = 0;'));
		await selectWord(editor, line, 'total');
		await type('sum');
		await tabReady('a suggestion after the rename', editor);
		if (SHOTS) {
			await screenshot(path.join(SHOTS, 'builtin-rename.png'));
		}
		await press('Tab');
		await waitUntil(() => !/\btotal\b/.test(editor.document.getText()), 10_000, 'every total renamed');
		const text = editor.document.getText();
		assert.match(text, /let sum = 0;/);
		assert.match(text, /sum \+= item\.price \* item\.quantity;/);
		assert.match(text, /return sum;/);
		assert.match(text, /let count = 0;/, 'other names are left alone');
		// One undo step takes the suggestion back, leaving what the user typed.
		await vscode.commands.executeCommand('undo');
		await waitUntil(() => /return total;/.test(editor.document.getText()), 5000, 'the undo');
		assert.match(editor.document.getText(), /let sum = 0;/);
	});

	it('changing one var to const: three Tabs make lines 3, 4 and 5 const, though typing opened the completion list', async () => {
		const editor = await open('src/settings.js');
		const original = editor.document.getText();
		const line = original.split('\n').findIndex((l) => l.startsWith('var currency'));
		assert.equal(line, 1, 'the first var is on line 2');
		await selectWord(editor, line, 'var');
		const closed = listsClosed();
		await type('const');
		// Typing `const` opened the completion list, its selection `const`: the word already typed.
		// It would only cover the preview and take a Tab that changes nothing, so it is closed.
		await waitUntil(() => listsClosed() > closed, 15_000, 'the completion list closed over the suggestion');
		await tabReady('a suggestion after the first const', editor);
		if (SHOTS) {
			await screenshot(path.join(SHOTS, 'builtin-repeat.png'));
		}
		// A person who keeps pressing Tab, without waiting for each suggestion to show.
		await press('Tab', 'Tab', 'Tab');
		const expected = original.replace(/^var /gm, 'const ');
		await waitUntil(() => editor.document.getText() === expected, 10_000, `lines 3, 4 and 5 made const; now:\n${editor.document.getText()}`);
	});

	it('bumping the version in the banner: Tab, Tab bump it in the constant and the user agent', async () => {
		const editor = await open('src/version.ts');
		const original = editor.document.getText();
		const column = editor.document.lineAt(0).text.indexOf('1.4.2') + 4;
		// As selectWord does: the cursor through the API, the selection by the editor's own command, so
		// that the key press lands on it.
		editor.selection = new vscode.Selection(0, column, 0, column);
		await vscode.commands.executeCommand('cursorRightSelect');
		await waitUntil(() => vscode.window.activeTextEditor?.selection.isEqual(new vscode.Selection(0, column, 0, column + 1)) === true, 5000, 'the last digit selected');
		await type('3');
		await tabReady('a suggestion after the version bump', editor);
		if (SHOTS) {
			await screenshot(path.join(SHOTS, 'builtin-version.png'));
		}
		await press('Tab', 'Tab');
		const expected = original.replaceAll('1.4.2', '1.4.3');
		await waitUntil(() => editor.document.getText() === expected, 10_000, `every 1.4.2 made 1.4.3; now:\n${editor.document.getText()}`);
	});
});
