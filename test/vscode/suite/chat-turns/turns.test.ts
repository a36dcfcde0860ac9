// What a chat turn changed, whoever wrote it, as a person meets it through the browser: agents
// that write files themselves (as Claude Code does: an Edit tool call with its diff, then the file
// written on disk) and a shell command that rewrites, creates and deletes files, with no
// fs/write_text_file. The changed files are listed; Review shows each with Keep and Undo per block;
// the history counts them; Undo this turn (the button on the turn's end, or Undo Last Turn in the
// palette) puts a turn's files back after one confirmation, leaving alone (and naming) what the
// user changed since; an earlier turn can be undone while its files are untouched since; a file
// with unsaved edits is never overwritten.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { QUICK_ROWS, press, query, runFromPalette, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { chatHooks } from '../chatKit';
import { repoRoot, waitUntil } from '../util';

const GREET =
	"export function greet(name) {\n\treturn 'Hello, ' + name + '.';\n}\n\nexport function farewell(name) {\n\treturn 'Goodbye, ' + name + '.';\n}\n\nexport const DEFAULT_NAME = 'world';\n\nexport default greet;\n";
const GREET_EDITED = GREET.replace("'Hello, '", "'Hi there, '").replace("'world'", "'friend'");
const UTIL = 'export function add(a,b){return a+b}\nexport function sub(a,b){return a-b}\n';
const UTIL_FORMATTED = 'export function add(a, b) {\n\treturn a + b;\n}\n\nexport function sub(a, b) {\n\treturn a - b;\n}\n';
const NOTES = '# Notes\n\n- formatter: none yet\n';
const NOTES_FORMATTED = '# Notes\n\n- formatter: on, run before each commit\n';
const LEGACY = 'export const legacy = true;\n';
const OUTSIDE = '# Outside\n\nfirst draft\n';
const OUTSIDE_EDITED = '# Outside\n\nsecond draft\n';
const QUESTION = '.undo-ask:not([hidden])';

const focused = async (selector: string) => (await webviewQuery(`${selector}:focus`)).count === 1;
const names = async () => (await webviewQuery('.changed-file-name')).texts.map((t) => t.trim()).sort();
const changedLines = async () => (await webviewQuery('.changed-file .changed-lines')).texts.map((t) => t.replace(/\s+/g, ' ').trim());

describe('chat turns: what the agent changed, whoever wrote it', function () {
	this.timeout(180_000);
	const chatApi = chatHooks('turns');
	const ws = (...parts: string[]) => path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, ...parts);
	const disk = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : undefined);
	const shots = () => (process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir()));

	afterEach(async () => {
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	function reset(files: Record<string, string | undefined>): void {
		for (const [file, content] of Object.entries(files)) {
			if (content === undefined) {
				fs.rmSync(file, { force: true });
			} else {
				fs.mkdirSync(path.dirname(file), { recursive: true });
				fs.writeFileSync(file, content);
			}
		}
	}

	/** A chat with `agent`, its input holding the keyboard. */
	async function chat(agent: string): Promise<string> {
		const a = chatApi();
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent))!;
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat');
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		return key;
	}

	/** Types a prompt into the chat's input and sends it with Enter. */
	async function prompt(text: string): Promise<void> {
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		await type(text, 10);
		await press('Enter');
	}

	async function turnsEnded(key: string, count: number): Promise<void> {
		const a = chatApi();
		await waitUntil(
			() => {
				const snapshot = a.chatController.tab(key)?.transcript.snapshot();
				return snapshot?.session.turn === 'idle' && snapshot.entries.filter((e) => e.kind === 'turn_end').length === count;
			},
			20_000,
			`turn ${count} to end`,
		);
	}

	/** A chat with `agent`, asked `text` from its input, its edit allowed with a click: its key, once the turn is over. */
	async function allowedTurn(agent: string, text: string): Promise<string> {
		const key = await chat(agent);
		await prompt(text);
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 3, 'the permission prompt', 20_000);
		await new Promise((r) => setTimeout(r, 600));
		await webviewClick('.permission-option', 'Yes');
		await turnsEnded(key, 1);
		return key;
	}

	/** Turn Editor (it writes src/greet.js itself) asked to make the greeting friendlier. */
	const friendlierGreeting = () => allowedTurn('Turn Editor', 'make the greeting friendlier');

	/** The question Undo this turn asks in the chat, once it is there: its title and its line per file (sorted). */
	async function question(): Promise<{ title: string; lines: string[] }> {
		await waitFor(async () => (await webviewQuery(QUESTION)).count === 1, 'the question', 10_000);
		const title = (await webviewQuery(`${QUESTION} h2`)).texts[0] ?? '';
		return { title, lines: (await webviewQuery(`${QUESTION} .undo-ask-files li`)).texts.map((t) => t.trim()).sort() };
	}

	it('lists, reviews block by block and counts in the history a file the agent wrote itself (as Claude Code does)', async () => {
		const a = chatApi();
		const greet = ws('src', 'greet.js');
		reset({ [greet]: GREET });
		const key = await friendlierGreeting();
		assert.equal(disk(greet), GREET_EDITED, 'the agent wrote the file itself');
		await waitFor(async () => (await names()).join() === 'greet.js', 'the file listed');
		assert.deepEqual((await webviewQuery('.changed-file .changed-lines')).texts.map((t) => t.replace(/\s+/g, ' ').trim()), ['+2 −2']);
		assert.deepEqual((await webviewQuery('.turn-undo')).texts.map((t) => t.trim()), ['Undo this turn (1 file)']);

		// The diff's file name in the tool call opens the review (it opened a plain editor).
		await webviewClick('.diff-review');
		await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 15_000, 'the diff editor');
		// The keyboard in the file's side of the diff, as the browser shows it (the extension host may hear of it only at the next key).
		await waitFor(async () => (await query('.monaco-diff-editor .editor.modified .monaco-editor.focused')).count === 1, 'the file’s side of the diff focused', 10_000);
		await waitFor(async () => (await query('.editor-actions .action-label[aria-label*="Keep Agent Change at Cursor"]', { visible: true })).count === 1, 'Keep and Undo in the title bar', 20_000);

		// Keep the first block, undo the second: Alt+F5 goes to the next change.
		const toChange = async (line: number) => {
			for (let i = 0; i < 4 && vscode.window.activeTextEditor?.selection.active.line !== line; i++) {
				const at = vscode.window.activeTextEditor?.selection.active.line;
				await press('Alt+F5');
				await waitUntil(() => vscode.window.activeTextEditor?.selection.active.line !== at, 5000, 'the cursor to move to the next change').catch(() => undefined);
			}
			assert.equal(vscode.window.activeTextEditor?.selection.active.line, line);
		};
		await toChange(1);
		await runFromPalette('Agent Link: Keep Agent Change at Cursor');
		await waitFor(async () => (await webviewQuery('.changed-file .changed-lines')).texts.join().replace(/\s+/g, ' ').includes('+1 −1'), 'one block left');
		await toChange(8);
		await runFromPalette('Agent Link: Undo Agent Change at Cursor');
		const kept = GREET.replace("'Hello, '", "'Hi there, '");
		await waitUntil(() => disk(greet) === kept, 10_000, 'the second block undone on disk, the first kept');
		await waitFor(async () => (await webviewQuery('.changes:not([hidden])')).count === 0, 'nothing left to review');

		// The history counts the file.
		await a.chatController.flushHistory();
		const record = a.chatHistory.get(a.chatController.tab(key)!.historyId);
		assert.deepEqual(record?.changedFiles, [greet]);
		// And the history picker says so, as a person sees it.
		await runFromPalette('Agent Link: Chat History…', 'Agent Link: Chat History');
		await waitFor(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('make the greeting friendlier')), 'the chat listed');
		const row = (await query(QUICK_ROWS)).texts.find((t) => t.includes('make the greeting friendlier')) ?? '';
		assert.ok(row.includes('1 file changed'), row);
		await press('Escape');
		await waitFor(async () => (await query('.quick-input-widget', { visible: true })).count === 0, 'the picker closed');
	});

	it('counts a file the agent wrote itself from its editor once the user puts a change back there by hand, unsaved', async () => {
		const greet = ws('src', 'greet.js');
		reset({ [greet]: GREET });
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(greet), { preview: false });
		await friendlierGreeting();
		await waitUntil(() => editor.document.getText() === GREET_EDITED && !editor.document.isDirty, 10_000, 'the editor to load the agent’s change from the disk');
		await waitFor(async () => (await changedLines()).join() === '+2 −2', 'the file listed with its two changes');

		// The first change put back by hand in the editor (not saved): one change is left.
		const shown = await vscode.window.showTextDocument(editor.document, { preview: false });
		const at = shown.document.lineAt(1).text.indexOf('Hi there');
		shown.selection = new vscode.Selection(1, at, 1, at + 'Hi there'.length);
		// The selection reaches the page after the extension host sets it: typed before, a key lands at the old cursor.
		await waitFor(async () => (await query('.monaco-editor.focused .selected-text')).count > 0, 'the editor holding the keyboard, the words selected');
		await type('Hello', 10);
		await waitUntil(() => editor.document.getText() === GREET.replace("'world'", "'friend'") && editor.document.isDirty, 10_000, 'the change put back, unsaved');
		await waitFor(async () => (await changedLines()).join() === '+1 −1', 'the list counting the editor’s text: one change left');
		assert.equal(disk(greet), GREET_EDITED, 'the disk still holds both changes');
		await vscode.commands.executeCommand('workbench.action.files.revert');
	});

	it('a shell command’s changes: rewritten, created and deleted files listed; Undo this turn puts them back after one confirmation, leaving alone (and naming) a file the user changed since', async () => {
		const util = ws('src', 'util.js');
		const notes = ws('notes.md');
		const routes = ws('src', 'gen', 'routes.js');
		const legacy = ws('src', 'legacy.js');
		reset({ [util]: UTIL, [notes]: NOTES, [routes]: undefined, [legacy]: LEGACY });
		const key = await chat('Turn Shell');
		await prompt('format the project');
		await turnsEnded(key, 1);
		await waitFor(async () => (await names()).join() === 'legacy.js,notes.md,routes.js,util.js', 'the four files listed');
		assert.equal((await webviewQuery('.changed-file .codicon-trash')).count, 1, 'one deleted');
		assert.equal((await webviewQuery('.changed-file .codicon-new-file')).count, 1, 'one created');
		await chatApi().chatController.flushHistory();
		assert.deepEqual([...(chatApi().chatHistory.get(chatApi().chatController.tab(key)!.historyId)?.changedFiles ?? [])].sort(), [legacy, notes, routes, util].sort(), 'the history counts all four');

		// The user changes notes.md after the turn, and saves it.
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(notes));
		await waitUntil(() => editor.document.getText() === NOTES_FORMATTED, 5000, 'the editor to show the agent’s notes');
		await press('Control+End');
		await type('- and a line of mine\n', 10);
		await press('Control+s');
		await waitUntil(() => disk(notes)?.includes('a line of mine') === true && !editor.document.isDirty, 10_000, 'the user’s save (on disk, and the editor told)');

		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitFor(async () => (await webviewQuery('.turn-undo')).texts.some((t) => t.includes('Undo this turn (4 files)')), 'Undo this turn on the turn’s end');
		await webviewClick('.turn-undo');
		assert.deepEqual(await question(), {
			title: "Undo this turn's changes to 3 files?",
			lines: ['notes.md: left alone (changed since)', 'src/gen/routes.js: deleted', 'src/legacy.js: restored', 'src/util.js: put back'],
		});
		await screenshot(path.join(shots(), 'chat-undo-turn.png'));
		await webviewClick('.undo-ask-confirm');
		await waitUntil(() => disk(util) === UTIL && disk(routes) === undefined && disk(legacy) === LEGACY, 10_000, 'the turn’s files as they were');
		assert.ok(disk(notes)?.includes('a line of mine'), 'the user’s file left alone');
		await waitFor(async () => (await webviewQuery('.turn-undone')).count === 1, 'the turn marked undone');
		await waitFor(async () => (await names()).join() === 'notes.md', 'only the file left alone still listed');

		// Each file's undo is an undoable step: Ctrl+Z in its editor brings the agent's text back.
		const utilEditor = await vscode.window.showTextDocument(vscode.Uri.file(util));
		await press('Control+z');
		await waitUntil(() => utilEditor.document.getText() === UTIL_FORMATTED, 10_000, 'Ctrl+Z to bring the formatted text back');
		await vscode.commands.executeCommand('workbench.action.files.revert');
	});

	it('undoes an earlier turn whose files were not touched since (the one a later turn changed is left alone), then the last turn from the palette', async () => {
		const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((f) => ws('steps', f)) as [string, string, string];
		reset({ [a]: 'a0\n', [b]: 'b0\n', [c]: 'c0\n' });
		const key = await chat('Turn Steps');
		await prompt('step one');
		await turnsEnded(key, 1);
		await prompt('step two');
		await turnsEnded(key, 2);
		await waitFor(async () => (await webviewQuery('.turn-undo')).count === 2, 'Undo this turn on both turns');

		// The first turn's button (the first in the transcript); Enter confirms.
		await webviewClick('.turn-undo');
		assert.deepEqual(await question(), { title: "Undo this turn's changes to 1 file?", lines: ['steps/a.txt: put back', 'steps/c.txt: left alone (changed since)'] });
		await waitForSteady(() => focused('.undo-ask-confirm'), 'Undo Turn focused');
		await press('Enter');
		await waitUntil(() => disk(a) === 'a0\n', 10_000, 'a.txt as before the first turn');
		assert.equal(disk(c), 'c2\n', 'c.txt as the second turn left it');
		assert.equal(disk(b), 'b2\n');

		// Undo Last Turn, from the palette: the second turn.
		await runFromPalette('Agent Link: Undo Last Turn');
		assert.deepEqual(await question(), { title: "Undo this turn's changes to 2 files?", lines: ['steps/b.txt: put back', 'steps/c.txt: put back'] });
		await waitForSteady(() => focused('.undo-ask-confirm'), 'Undo Turn focused');
		await press('Enter');
		await waitUntil(() => disk(b) === 'b0\n' && disk(c) === 'c1\n', 10_000, 'b.txt and c.txt as before the second turn');
		await waitFor(async () => (await webviewQuery('.turn-undone')).count === 2, 'both turns undone');
	});

	it('a file the agent wrote itself and then through fs/write_text_file (as OpenCode does): listed with its change since before the turn, and undone', async () => {
		const greet = ws('src', 'greet.js');
		reset({ [greet]: GREET });
		const key = await chat('Turn Writes Twice');
		await prompt('make the greeting friendlier');
		await turnsEnded(key, 1);
		assert.equal(disk(greet), GREET_EDITED);
		// The client's write found the agent's text already on disk: the review still counts from the text before the turn.
		await waitFor(async () => (await names()).join() === 'greet.js', 'the file listed');
		await waitFor(async () => (await changedLines()).join() === '+2 −2', 'its two changed lines counted');
		await webviewClick('.turn-undo');
		assert.deepEqual(await question(), { title: "Undo this turn's changes to 1 file?", lines: ['src/greet.js: put back'] });
		await webviewClick('.undo-ask-confirm');
		await waitUntil(() => disk(greet) === GREET, 10_000, 'greet.js as before the turn');
		await waitFor(async () => (await webviewQuery('.changes:not([hidden])')).count === 0, 'nothing left to review');
	});

	it('a file outside the workspace, open in a tab behind another, changed on disk by the agent: listed although its editor has not loaded the change, and undone', async () => {
		const outside = path.join(path.dirname(ws()), 'outside.md');
		reset({ [outside]: OUTSIDE });
		await vscode.window.showTextDocument(vscode.Uri.file(outside), { preview: false });
		await vscode.window.showTextDocument(vscode.Uri.file(ws('notes.md')), { preview: false });
		await allowedTurn('Turn Outside', 'edit the notes beside the project');
		assert.equal(disk(outside), OUTSIDE_EDITED);
		// VS Code does not watch a file outside the workspace folders that no editor shows: its document still holds the text before.
		await waitFor(async () => (await names()).join() === 'outside.md', 'the file listed');
		await waitFor(async () => (await changedLines()).join() === '+1 −1', 'its changed line counted');
		await webviewClick('.turn-undo');
		const asked = await question();
		assert.equal(asked.title, "Undo this turn's changes to 1 file?");
		assert.deepEqual(asked.lines.map((l) => l.replace(/^.*outside\.md/, 'outside.md')), ['outside.md: put back']);
		await webviewClick('.undo-ask-confirm');
		await waitUntil(() => disk(outside) === OUTSIDE, 10_000, 'outside.md as before the turn');
		await waitFor(async () => (await webviewQuery('.changes:not([hidden])')).count === 0, 'nothing left to review');
	});

	it('never overwrites unsaved edits: the agent’s change on disk is reviewed from the disk, the buffer keeps the user’s text, and saving meets VS Code’s conflict handling', async () => {
		const draft = ws('src', 'draft.js');
		reset({ [draft]: 'export const draft = 1;\n' });
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(draft));
		await press('Control+End');
		await type('// typed, not saved\n', 10);
		const mine = 'export const draft = 1;\n// typed, not saved\n';
		await waitUntil(() => editor.document.getText() === mine && editor.document.isDirty, 5000, 'the user’s unsaved edit');

		const key = await chat('Turn Under Edits');
		await prompt('bump the draft');
		await turnsEnded(key, 1);
		assert.equal(disk(draft), 'export const draft = 2; // the agent\n');
		assert.equal(editor.document.getText(), mine, 'the buffer keeps the user’s text');
		assert.ok(editor.document.isDirty);
		await waitFor(async () => (await names()).join() === 'draft.js', 'the file listed');

		// The review shows the agent's change as it is on disk.
		await webviewClick('.changed-file-name', 'draft.js');
		await waitUntil(() => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff, 15_000, 'the diff editor');
		const input = vscode.window.tabGroups.activeTabGroup.activeTab!.input as vscode.TabInputTextDiff;
		assert.equal((await vscode.workspace.openTextDocument(input.modified)).getText(), 'export const draft = 2; // the agent\n', 'the disk’s text on the right');
		assert.equal((await vscode.workspace.openTextDocument(input.original)).getText(), 'export const draft = 1;\n', 'the text before on the left');

		// Undo this turn leaves it alone, saying why.
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await webviewClick('.turn-undo');
		assert.deepEqual(await question(), { title: 'Nothing of this turn can be undone.', lines: ['src/draft.js: left alone (has unsaved changes)'] });
		await waitForSteady(() => focused('.undo-ask-close'), 'Close focused');
		await press('Escape');
		await waitFor(async () => (await webviewQuery(QUESTION)).count === 0, 'the question closed');

		// Saving meets VS Code's save conflict (the file on disk is newer: compare or overwrite); neither text is lost.
		assert.equal(await editor.document.save(), false, 'the save is refused as a conflict');
		assert.equal(disk(draft), 'export const draft = 2; // the agent\n');
		assert.equal(editor.document.getText(), mine);
		await vscode.commands.executeCommand('workbench.action.files.revert');
		await vscode.commands.executeCommand('notifications.clearAll');
	});
});
