// fs/read_text_file as an agent meets it: the editor's buffer first, 1-based lines, paths outside
// the workspace only with the user's leave (asked once per path per session, answered with real
// keys in a quick pick), relative paths and missing files refused with the protocol's codes.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { press, query, screenshot } from '../browser';
import { api, repoRoot, useAgent, waitUntil } from '../util';

const any = z.unknown();
const QUICK_TITLE = '.quick-input-widget .quick-input-title';
/** README screenshots are refreshed with AGENT_LINK_SCREENSHOTS=1; otherwise the picture goes to the temp folder, for a look. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : undefined;
type Answer = { result?: { content: string }; error?: { code: number; message: string } };

describe('the agent reads files through the editor (fs/read_text_file)', function () {
	this.timeout(60_000);
	let a: AgentLinkApi;
	const session = 'chat-session-1';
	const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
	const outside = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'agent-link-outside-')), 'secret.txt');

	const questionShowing = async () => (await query(QUICK_TITLE, { visible: true })).texts.some((t) => /wants to read a file outside the workspace/.test(t));
	/** Waits for the question, and for its input to have the keyboard (keys pressed before that go elsewhere). */
	async function question(): Promise<void> {
		await waitUntil(questionShowing, 15_000, 'the question');
		await waitUntil(async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0, 10_000, 'the question to have the keyboard');
	}

	/** The agent asks the client to read, as it would during a turn. */
	async function read(params: Record<string, unknown>): Promise<Answer> {
		const agent = a.agents.readyAgent!;
		return (await agent.handle.connection.sendRequest('_test/ask', { method: 'fs/read_text_file', params: { sessionId: session, ...params } }, any)) as Answer;
	}

	before(async () => {
		a = await api();
		// The window's default agent when the suite runs alone; a guest in another suite's window (suites.mjs) chooses it.
		await useAgent(a, 'Fixture Agent');
		// The chat panel creates sessions with session/new; here the session is registered as one.
		a.agents.readyAgent!.sessions.add(session, 'chat');
		fs.writeFileSync(outside, 'outside the workspace\n');
	});

	it('advertises fs.readTextFile', () => {
		assert.ok(a.recentLog().some((l) => /Client capabilities: \{"fs":\{"readTextFile":true/.test(l)));
	});

	it('reads the editor’s buffer, unsaved edits included', async () => {
		const file = path.join(folder(), 'src', 'open.ts');
		const document = await vscode.workspace.openTextDocument(file);
		const editor = await vscode.window.showTextDocument(document);
		await editor.edit((e) => e.insert(new vscode.Position(1, 0), 'export const unsaved = 2;\n'));
		assert.ok(document.isDirty);
		assert.equal((await read({ path: file })).result?.content, 'export const saved = 1;\nexport const unsaved = 2;\n');
		assert.equal(fs.readFileSync(file, 'utf8'), 'export const saved = 1;\n', 'the file on disk is unchanged');
	});

	it('reads a file that is not open from disk, from a 1-based line, at most limit lines', async () => {
		const file = path.join(folder(), 'src', 'notes.txt');
		assert.equal((await read({ path: file })).result?.content, 'first\nsecond\nthird\nfourth\n');
		assert.equal((await read({ path: file, line: 2, limit: 2 })).result?.content, 'second\nthird\n');
		assert.equal((await read({ path: file, line: 4 })).result?.content, 'fourth\n');
		assert.equal((await read({ path: file, line: 9 })).result?.content, '');
	});

	it('refuses a relative path (-32602) and a line of 0 (-32602), and says a missing file is -32002', async () => {
		const relative = await read({ path: 'src/notes.txt' });
		assert.equal(relative.error?.code, -32602);
		assert.match(relative.error!.message, /not absolute/);
		assert.equal((await read({ path: path.join(folder(), 'src', 'notes.txt'), line: 0 })).error?.code, -32602);
		const missing = await read({ path: path.join(folder(), 'src', 'gone.txt') });
		assert.equal(missing.error?.code, -32002);
	});

	it('answers only for chat sessions this client created', async () => {
		const agent = a.agents.readyAgent!;
		const answer = (await agent.handle.connection.sendRequest('_test/ask', { method: 'fs/read_text_file', params: { sessionId: 'made-up', path: path.join(folder(), 'src', 'notes.txt') } }, any)) as Answer;
		assert.equal(answer.error?.code, -32602);
	});

	it('asks before reading outside the workspace: refused with Escape, and not asked again in this session', async () => {
		const asking = read({ path: outside });
		await question();
		await screenshot(path.join(SHOTS ?? os.tmpdir(), 'read-outside-workspace.png'));
		await press('Escape');
		const answer = await asking;
		assert.equal(answer.error?.code, -32602);
		assert.match(answer.error!.message, /outside the workspace folders, and the user did not allow/);
		await waitUntil(async () => !(await questionShowing()), 10_000, 'the question gone');
		const again = await read({ path: outside });
		assert.equal(again.error?.code, -32602, 'the answer holds for the session');
		assert.ok(!(await questionShowing()), 'no second question');
		assert.equal(a.recentLog().filter((l) => l.includes('Did not allow') && l.includes('secret.txt')).length, 1, 'asked once');
	});

	it('reads outside the workspace once the user picks Allow (ArrowDown, Enter: the refusal is first), in a new session', async () => {
		const other = 'chat-session-2';
		a.agents.readyAgent!.sessions.add(other, 'chat');
		const agent = a.agents.readyAgent!;
		const asking = agent.handle.connection.sendRequest('_test/ask', { method: 'fs/read_text_file', params: { sessionId: other, path: outside } }, any) as Promise<Answer>;
		await question();
		await press('ArrowDown', 'Enter');
		assert.equal((await asking).result?.content, 'outside the workspace\n');
	});
});
