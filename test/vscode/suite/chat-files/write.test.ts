// fs/write_text_file as an agent meets it: the change goes through the editor (one undo step, no
// tab opened, on disk unless the document had unsaved edits), never over what the user typed
// (merged when the lines differ, refused when they are the same), never answered done and dropped
// when the agent's own tools write the same file at the same moment, new files with their folders,
// relative paths refused, paths outside the workspace only with the user's leave.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { press, query } from '../browser';
import { api, useAgent, waitUntil } from '../util';

const any = z.unknown();
const QUICK_TITLE = '.quick-input-widget .quick-input-title';
type Answer = { result?: unknown; error?: { code: number; message: string } };

describe('the agent writes files through the editor (fs/write_text_file)', function () {
	this.timeout(60_000);
	let a: AgentLinkApi;
	const session = 'chat-session-w1';
	const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
	const file = (name: string) => path.join(folder(), 'src', name);
	/** How many tabs show `target` (a tab the workbench opens on its own meanwhile does not count). */
	const tabsOf = (target: string) =>
		vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => {
			const input = t.input;
			const uri = input instanceof vscode.TabInputText ? input.uri : input instanceof vscode.TabInputTextDiff ? input.modified : undefined;
			return uri?.fsPath === target;
		}).length;

	async function ask(method: string, params: Record<string, unknown>, sessionId = session): Promise<Answer> {
		return (await a.agents.readyAgent!.handle.connection.sendRequest('_test/ask', { method, params: { sessionId, ...params } }, any)) as Answer;
	}
	const write = (p: string, content: string, sessionId?: string) => ask('fs/write_text_file', { path: p, content }, sessionId);
	const read = (p: string) => ask('fs/read_text_file', { path: p });

	before(async () => {
		a = await api();
		// The window's default agent when the suite runs alone; a guest in another suite's window (suites.mjs) chooses it.
		await useAgent(a, 'Fixture Agent');
		a.agents.readyAgent!.sessions.add(session, 'chat');
	});

	afterEach(async () => {
		await vscode.workspace.saveAll(false);
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('advertises fs.writeTextFile', () => {
		assert.ok(a.recentLog().some((l) => /Client capabilities: \{"fs":\{"readTextFile":true,"writeTextFile":true/.test(l)));
	});

	it('writes a file that is not open: saved, no tab opened, and one undo brings the old text back', async () => {
		const target = file('plain.txt');
		fs.writeFileSync(target, 'one\ntwo\nthree\n');
		assert.deepEqual((await write(target, 'one\nTWO\nthree\n')).result, {});
		assert.equal(fs.readFileSync(target, 'utf8'), 'one\nTWO\nthree\n', 'saved');
		assert.equal(tabsOf(target), 0, `no tab opened for it (tabs: ${vscode.window.tabGroups.all.flatMap((g) => g.tabs.map((t) => t.label)).join(', ')})`);
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		await vscode.commands.executeCommand('undo');
		assert.equal(editor.document.getText(), 'one\ntwo\nthree\n', 'one undo step');
	});

	it('leaves no tab when the extension host is busy: the file is never left unsaved, so VS Code opens nothing (it opens a file left unsaved for 0.8 s)', async () => {
		const target = file('late.txt');
		fs.writeFileSync(target, 'one\ntwo\n');
		const opened: string[] = [];
		const watch = vscode.window.tabGroups.onDidChangeTabs((e) => opened.push(...e.opened.map((t) => t.label)));
		// A busy extension host: the document's change event holds it for 1.5 s, longer than VS Code's
		// dirty-file tracker (800 ms) waits before it opens a file left unsaved.
		const hold = vscode.workspace.onDidChangeTextDocument((e) => {
			if (e.document.uri.fsPath === target && e.contentChanges.length) {
				const until = Date.now() + 1500;
				while (Date.now() < until) {
					// busy
				}
			}
		});
		try {
			assert.deepEqual((await write(target, 'one\nTWO\n')).result, {});
			assert.equal(fs.readFileSync(target, 'utf8'), 'one\nTWO\n', 'saved');
			await new Promise((r) => setTimeout(r, 2000));
			assert.deepEqual(opened, [], 'no tab opened, not even for a moment');
			assert.equal(tabsOf(target), 0);
		} finally {
			hold.dispose();
			watch.dispose();
		}
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		await vscode.commands.executeCommand('undo');
		assert.equal(editor.document.getText(), 'one\ntwo\n', 'still one undo step');
		// The tab the user opened right after (a preview, pinned by the undo) is theirs: saved, it stays.
		assert.ok(await editor.document.save());
		await new Promise((r) => setTimeout(r, 1500));
		assert.equal(tabsOf(target), 1, 'the user’s tab stays');
	});

	it('writes on top of unsaved edits the agent read: nothing of the user’s lost, not saved, and one undo restores the buffer as the user left it', async () => {
		const target = file('draft.ts');
		fs.writeFileSync(target, 'export const a = 1;\nexport const b = 2;\n');
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		await editor.edit((e) => e.insert(new vscode.Position(0, 0), '// typed by the user, not saved\n'));
		const userText = editor.document.getText();
		const seen = (await read(target)).result as { content: string };
		assert.equal(seen.content, userText, 'the agent reads the buffer');
		assert.deepEqual((await write(target, seen.content.replace('b = 2', 'b = 3'))).result, {});
		assert.equal(editor.document.getText(), '// typed by the user, not saved\nexport const a = 1;\nexport const b = 3;\n');
		assert.ok(editor.document.isDirty, 'still unsaved: it had unsaved edits');
		assert.equal(fs.readFileSync(target, 'utf8'), 'export const a = 1;\nexport const b = 2;\n', 'the disk untouched');
		await vscode.commands.executeCommand('undo');
		assert.equal(editor.document.getText(), userText, 'one undo: the user’s buffer as it was');
	});

	it('merges a write with what the user typed after the agent read, on other lines; refuses one on the same lines, the buffer untouched', async () => {
		const target = file('merge.ts');
		fs.writeFileSync(target, 'line 1\nline 2\nline 3\nline 4\nline 5\n');
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		const seen = ((await read(target)).result as { content: string }).content;
		await editor.edit((e) => e.replace(new vscode.Range(0, 0, 0, 6), 'LINE 1 (user)'));
		assert.deepEqual((await write(target, seen.replace('line 5', 'LINE 5 (agent)'))).result, {});
		assert.equal(editor.document.getText(), 'LINE 1 (user)\nline 2\nline 3\nline 4\nLINE 5 (agent)\n', 'both changes');
		assert.ok(a.recentLog().some((l) => /merged with your unsaved edits/.test(l)));

		// The agent's next write is made from what it wrote; the user changes line 3, the agent too.
		await editor.edit((e) => e.replace(new vscode.Range(2, 0, 2, 6), 'LINE 3 (user)'));
		const kept = editor.document.getText();
		const refused = await write(target, 'LINE 1 (user)\nline 2\nLINE 3 (agent)\nline 4\nLINE 5 (agent)\n');
		assert.equal(refused.error?.code, -32603);
		assert.match(refused.error!.message, /changed in the editor since you read it.*the first at line 3/);
		assert.equal(editor.document.getText(), kept, 'nothing applied');
	});

	/** The agent writes `files` on disk itself `afterMs` after its request (before it when negative), as OpenCode does after an edit the user allowed. */
	async function writeAndWriteItself(target: string, content: string, disk: string, afterMs: number): Promise<Answer> {
		const params = { method: 'fs/write_text_file', params: { sessionId: session, path: target, content }, files: [{ write: target, content: disk }], afterMs };
		return (await a.agents.readyAgent!.handle.connection.sendRequest('_test/askAndWrite', params, any)) as Answer;
	}

	it('applies a write to an open file the agent changed on disk just before: the disk’s text is what it writes over, not the buffer VS Code has not reloaded yet', async () => {
		const target = file('greet.js');
		const old = 'function greet(name) {\n\treturn "hi " + name;\n}\n\nmodule.exports = greet;\n';
		fs.writeFileSync(target, old);
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		assert.equal(editor.document.getText(), old);
		// The agent's own tool rewrote the first line; its write then changes the last line of that.
		const itsOwn = old.replace('function greet(name)', 'function greet(name = "you")');
		const written = itsOwn.replace('module.exports = greet;', 'module.exports = { greet };');
		const answer = await writeAndWriteItself(target, written, itsOwn, -1);
		assert.deepEqual(answer.result, {}, JSON.stringify(answer.error));
		assert.equal(fs.readFileSync(target, 'utf8'), written, 'the disk holds the write');
		await waitUntil(() => editor.document.getText() === written && !editor.document.isDirty, 5_000, `the editor to show the write, saved (it shows ${JSON.stringify(editor.document.getText())}, dirty: ${editor.document.isDirty})`);
		assert.ok(!a.recentLog().some((l) => l.includes(target) && /merged with your unsaved edits/.test(l)), 'no merge with edits that were never there');
	});

	it('applies every write when the agent writes the same file itself a moment before or after (the buffer reloads in the middle): never answered done and dropped, never left unsaved', async function () {
		this.timeout(120_000);
		const target = file('race.js');
		fs.writeFileSync(target, 'export const version = 0;\n');
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		const offsets = [-1, 0, 1, 2, 3, 5, 8, 12, 20, 30, 50, 80];
		for (const [i, afterMs] of offsets.entries()) {
			const content = `export const version = ${i + 1};\n// written ${afterMs} ms\n`;
			const answer = await writeAndWriteItself(target, content, content, afterMs);
			assert.deepEqual(answer.result, {}, `write ${i + 1} (the agent's own ${afterMs} ms after): ${JSON.stringify(answer.error)}`);
			assert.equal(fs.readFileSync(target, 'utf8'), content, `write ${i + 1} on disk`);
			await waitUntil(() => editor.document.getText() === content && !editor.document.isDirty, 5_000, `write ${i + 1} (${afterMs} ms) in the editor, saved (it shows ${JSON.stringify(editor.document.getText())}, dirty: ${editor.document.isDirty})`);
		}
		assert.deepEqual(
			a.recentLog().filter((l) => l.includes(target) && /merged with your unsaved edits|could not be saved/.test(l)),
			[],
		);
	});

	it('a file changed on disk while its editor holds unsaved edits: the write merges into the buffer, the user’s edits kept, nothing saved over the disk', async () => {
		const target = file('held.ts');
		fs.writeFileSync(target, 'a\nb\nc\nd\n');
		const editor = await vscode.window.showTextDocument(vscode.Uri.file(target));
		await editor.edit((e) => e.replace(new vscode.Range(0, 0, 0, 1), 'A (user)'));
		const seen = ((await read(target)).result as { content: string }).content;
		assert.equal(seen, 'A (user)\nb\nc\nd\n', 'the agent reads the buffer');
		// The agent's own tool changes the disk, then it writes from what it read.
		const answer = await writeAndWriteItself(target, seen.replace('d\n', 'D (agent)\n'), 'a\nb\nc (disk)\nd\n', -1);
		assert.deepEqual(answer.result, {}, JSON.stringify(answer.error));
		assert.equal(editor.document.getText(), 'A (user)\nb\nc\nD (agent)\n', 'the write merged into the buffer');
		assert.ok(editor.document.isDirty, 'still unsaved');
		assert.equal(fs.readFileSync(target, 'utf8'), 'a\nb\nc (disk)\nd\n', 'the disk as the agent’s own tool left it');
		await vscode.commands.executeCommand('workbench.action.files.revert');
	});

	it('creates a new file in new folders, inside the workspace', async () => {
		const target = path.join(folder(), 'src', 'made', 'by', 'agent.ts');
		assert.deepEqual((await write(target, 'export const made = true;\n')).result, {});
		assert.equal(fs.readFileSync(target, 'utf8'), 'export const made = true;\n');
	});

	it('refuses a relative path (-32602) and a folder', async () => {
		const relative = await write('src/notes.txt', 'x');
		assert.equal(relative.error?.code, -32602);
		assert.match(relative.error!.message, /not absolute/);
		assert.equal((await write(path.join(folder(), 'src'), 'x')).error?.code, -32602);
		assert.equal(fs.readFileSync(file('notes.txt'), 'utf8'), 'first\nsecond\nthird\nfourth\n');
	});

	it('asks before writing outside the workspace: refused with Escape; allowed (ArrowDown, Enter) in a new session', async () => {
		const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-link-outside-')), 'out.txt');
		const asking = write(outside, 'from the agent\n');
		await waitUntil(async () => (await query(QUICK_TITLE, { visible: true })).texts.some((t) => /wants to write a file outside the workspace/.test(t)), 15_000, 'the question');
		await waitUntil(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 10_000, 'the question to have the keyboard');
		await press('Escape');
		const refused = await asking;
		assert.equal(refused.error?.code, -32602);
		assert.match(refused.error!.message, /did not allow .* to write it/);
		assert.equal(fs.existsSync(outside), false);

		const other = 'chat-session-w2';
		a.agents.readyAgent!.sessions.add(other, 'chat');
		const allowing = write(outside, 'from the agent\n', other);
		await waitUntil(async () => (await query(QUICK_TITLE, { visible: true })).texts.some((t) => /wants to write a file outside the workspace/.test(t)), 15_000, 'the question again (a new session)');
		await waitUntil(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 10_000, 'the question to have the keyboard');
		await press('ArrowDown', 'Enter');
		assert.deepEqual((await allowing).result, {});
		assert.equal(fs.readFileSync(outside, 'utf8'), 'from the agent\n');
		// Written again, and again after the agent's own tools changed it (VS Code does not watch a file outside the workspace no editor shows): on disk each time.
		assert.deepEqual((await write(outside, 'again\n', other)).result, {});
		assert.equal(fs.readFileSync(outside, 'utf8'), 'again\n');
		fs.writeFileSync(outside, 'again\nfrom its own tool\n');
		assert.deepEqual((await write(outside, 'again\nfrom its own tool\n', other)).result, {}, 'the same text its own tool wrote a moment before');
		assert.deepEqual((await write(outside, 'again\nfrom its own tool\nand through the editor\n', other)).result, {});
		assert.equal(fs.readFileSync(outside, 'utf8'), 'again\nfrom its own tool\nand through the editor\n');
		assert.equal(vscode.workspace.textDocuments.find((d) => d.uri.fsPath === outside)?.isDirty ?? false, false);
	});
});
