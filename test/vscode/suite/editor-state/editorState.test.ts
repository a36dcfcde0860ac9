// workspace/open_documents, recent_documents and active_document inside a real VS Code: a scripted
// agent that checks the client's capabilities first asks each method in each editor state, and the
// tests assert the exact answer. Phase 1 of the suite (phase 2 is the restart, in restart.test.ts).
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EditorStateMethods, MAX_RECENT_DOCUMENTS } from '../../../../src/common/editorStateProtocol';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { behindAnotherPageThroughout } from '../browser';
import { api, waitUntil } from '../util';
import { ask, closeAll, docOf, expectAnswer, file, open, phase, ready, uriOf } from './helpers';

const { openDocuments, recentDocuments, activeDocument } = EditorStateMethods;

/** The language VS Code gives each workspace file (test/vscode/suites.mjs writes them). */
const LANGUAGE: Record<string, string> = {
	'a.ts': 'typescript',
	'b.md': 'markdown',
	'c.json': 'json',
	'left.txt': 'plaintext',
	'right.txt': 'plaintext',
	'doomed.ts': 'typescript',
	'with space.ts': 'typescript',
	'hash#1.ts': 'typescript',
	'percent%41.ts': 'typescript',
	'ünïcødé 日本.md': 'markdown',
};
const doc = (name: string) => docOf(name, LANGUAGE[name]!);
const documents = (...names: string[]) => ({ result: { documents: names.map(doc) } });
const active = (name: string | null) => ({ result: { document: name === null ? null : doc(name) } });

// Phase 2 of this suite is the restart (restart.test.ts); these run once, in phase 1.
if (phase === 1) describe('Agent Link: editor state for agents', function () {
	behindAnotherPageThroughout(); // nothing drawn is looked at
	let a: AgentLinkApi;
	let sessionId: string;
	/** What recent_documents should hold, most recent first: files opened or focused so far. */
	let recent: string[] = [];
	const touched = (...names: string[]) => {
		for (const name of names) {
			recent = [name, ...recent.filter((n) => n !== name)];
		}
	};
	const expectRecent = (params: Record<string, unknown> = {}) => expectAnswer(a, recentDocuments, { sessionId, limit: MAX_RECENT_DOCUMENTS, ...params }, documents(...recent));

	before(async () => {
		a = await api();
		sessionId = await ready(a);
		await closeAll();
	});

	it('advertises workspace {openDocuments, recentDocuments, activeDocument} in initialize', async () => {
		const sent = (await a.agents.readyAgent!.handle.connection.sendRequest('_test/initializeParams', {}, z.unknown())) as { clientCapabilities: { workspace?: unknown } };
		assert.deepEqual(sent.clientCapabilities.workspace, { openDocuments: {}, recentDocuments: {}, activeDocument: {} });
	});

	it('no editor: nothing open, nothing active, nothing recent yet', async () => {
		await expectAnswer(a, openDocuments, { sessionId }, documents());
		await expectAnswer(a, activeDocument, { sessionId }, active(null));
		await expectAnswer(a, recentDocuments, { sessionId }, documents());
	});

	it('one file', async () => {
		await open('a.ts');
		touched('a.ts');
		await expectAnswer(a, openDocuments, { sessionId }, documents('a.ts'));
		await expectAnswer(a, activeDocument, { sessionId }, active('a.ts'));
		await expectRecent();
	});

	it('several files in two editor groups: every group, most recently focused first', async () => {
		await closeAll();
		await open('b.md', vscode.ViewColumn.One);
		await open('c.json', vscode.ViewColumn.Two);
		await open('a.ts', vscode.ViewColumn.One);
		touched('b.md', 'c.json', 'a.ts');
		assert.equal(vscode.window.tabGroups.all.length, 2);
		await expectAnswer(a, openDocuments, { sessionId }, documents('a.ts', 'c.json', 'b.md'));
		await expectAnswer(a, activeDocument, { sessionId }, active('a.ts'));
		await expectRecent();
		// Focus moves to the other group.
		await open('c.json', vscode.ViewColumn.Two);
		touched('c.json');
		await expectAnswer(a, openDocuments, { sessionId }, documents('c.json', 'a.ts', 'b.md'));
		await expectAnswer(a, activeDocument, { sessionId }, active('c.json'));
		await expectRecent();
	});

	it('an untitled buffer focused: no active document, and untitled never listed', async () => {
		const untitled = await vscode.workspace.openTextDocument({ language: 'typescript' });
		await vscode.window.showTextDocument(untitled, { viewColumn: vscode.ViewColumn.One, preview: false });
		await waitUntil(() => vscode.window.activeTextEditor?.document === untitled, 5000, 'the untitled editor');
		assert.equal(untitled.uri.scheme, 'untitled');
		await expectAnswer(a, activeDocument, { sessionId }, active(null));
		await expectAnswer(a, openDocuments, { sessionId }, documents('c.json', 'a.ts', 'b.md'));
		await expectRecent();
		await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
	});

	it('the output panel focused: no active document', async () => {
		await open('a.ts', vscode.ViewColumn.One);
		touched('a.ts');
		const channel = vscode.window.createOutputChannel('Agent Link editor state test');
		try {
			channel.appendLine('hello');
			channel.show(false);
			await waitUntil(() => vscode.window.activeTextEditor?.document.uri.scheme !== 'file', 10_000, 'the output panel to take focus');
			assert.equal(vscode.window.activeTextEditor?.document.uri.scheme ?? 'output', 'output');
			await expectAnswer(a, activeDocument, { sessionId }, active(null));
			await expectAnswer(a, openDocuments, { sessionId }, documents('a.ts', 'c.json', 'b.md'));
			await expectRecent();
		} finally {
			channel.dispose();
			await vscode.commands.executeCommand('workbench.action.closePanel');
		}
	});

	it('a webview focused: no active document, and the webview tab is not listed', async () => {
		await open('b.md', vscode.ViewColumn.One);
		touched('b.md');
		const panel = vscode.window.createWebviewPanel('agentLinkTest', 'Editor state test', vscode.ViewColumn.One, {});
		try {
			panel.webview.html = '<p>hello</p>';
			await waitUntil(() => vscode.window.activeTextEditor === undefined, 10_000, 'the webview to take focus');
			await expectAnswer(a, activeDocument, { sessionId }, active(null));
			await expectAnswer(a, openDocuments, { sessionId }, documents('b.md', 'a.ts', 'c.json'));
			await expectRecent();
		} finally {
			panel.dispose();
		}
	});

	it('a diff editor: both sides where they are files, the modified side first', async () => {
		await closeAll();
		await vscode.commands.executeCommand('vscode.diff', vscode.Uri.file(file('left.txt')), vscode.Uri.file(file('right.txt')), 'left ↔ right', { preview: false });
		await waitUntil(() => vscode.window.activeTextEditor?.document.uri.fsPath === file('right.txt'), 5000, 'the diff editor');
		touched('left.txt', 'right.txt');
		await expectAnswer(a, openDocuments, { sessionId }, documents('right.txt', 'left.txt'));
		await expectAnswer(a, activeDocument, { sessionId }, active('right.txt'));
		await expectRecent();

		// A side that is not a file (here a virtual document) is left out.
		const provider = vscode.workspace.registerTextDocumentContentProvider('agent-link-test', { provideTextDocumentContent: () => 'export const virtual = 1;\n' });
		try {
			await vscode.commands.executeCommand('vscode.diff', vscode.Uri.parse('agent-link-test:/virtual.ts'), vscode.Uri.file(file('a.ts')), 'virtual ↔ a.ts', { preview: false });
			await waitUntil(() => vscode.window.activeTextEditor?.document.uri.fsPath === file('a.ts'), 5000, 'the second diff editor');
			touched('a.ts');
			await expectAnswer(a, openDocuments, { sessionId }, documents('a.ts', 'right.txt', 'left.txt'));
			await expectAnswer(a, activeDocument, { sessionId }, active('a.ts'));
			await expectRecent();
		} finally {
			provider.dispose();
		}
	});

	it('files with spaces, #, % and non-ASCII names: file:/// URIs that map back to the exact path', async () => {
		await closeAll();
		const names = ['with space.ts', 'hash#1.ts', 'percent%41.ts', 'ünïcødé 日本.md'];
		for (const name of names) {
			await open(name);
		}
		touched(...names);
		await expectAnswer(a, openDocuments, { sessionId }, documents(...[...names].reverse()));
		await expectAnswer(a, activeDocument, { sessionId }, active('ünïcødé 日本.md'));
		await expectRecent();
		const answer = (await ask(a, openDocuments, { sessionId })).result as { documents: { uri: string }[] };
		for (const [i, name] of [...names].reverse().entries()) {
			const uri = answer.documents[i]!.uri;
			assert.ok(uri.startsWith('file:///'), uri);
			assert.equal(fileURLToPath(uri), file(name), uri);
			// The workspace folder's name has a space too; `%41` must not turn into `A`.
			assert.ok(uri.includes('workspace%20with%20space/'), uri);
		}
		assert.ok(answer.documents.some((d) => d.uri.endsWith('/percent%2541.ts')));
		assert.ok(answer.documents.some((d) => d.uri.endsWith('/hash%231.ts')));
	});

	it('a recent file deleted on disk is left out', async () => {
		await closeAll();
		await open('doomed.ts');
		touched('doomed.ts');
		await closeAll();
		await expectRecent();
		await expectAnswer(a, openDocuments, { sessionId }, documents());
		fs.unlinkSync(file('doomed.ts'));
		recent = recent.filter((n) => n !== 'doomed.ts');
		await expectRecent();
	});

	it('recent_documents: limit defaults to 50, is clamped, and 0 means none', async () => {
		assert.ok(recent.length > 3 && recent.length < 50, 'the history of this suite');
		await expectAnswer(a, recentDocuments, { sessionId }, documents(...recent));
		await expectAnswer(a, recentDocuments, { sessionId, limit: null }, documents(...recent));
		await expectAnswer(a, recentDocuments, { sessionId, limit: 2 }, documents(...recent.slice(0, 2)));
		await expectAnswer(a, recentDocuments, { sessionId, limit: 0 }, documents());
		await expectAnswer(a, recentDocuments, { sessionId, limit: 1e12 }, documents(...recent));
	});

	it('bad params get -32602 naming the field; only sessions this client created are accepted', async () => {
		const invalid = async (method: string, params: Record<string, unknown>, message: RegExp) => {
			const answer = await ask(a, method, params);
			assert.equal(answer.error?.code, -32602, `${method} ${JSON.stringify(params)}: ${JSON.stringify(answer)}`);
			assert.match(answer.error.message, message);
		};
		for (const limit of [-1, 1.5, '3', true]) {
			await invalid(recentDocuments, { sessionId, limit }, /limit: expected a non-negative integer/);
		}
		for (const method of [openDocuments, recentDocuments, activeDocument]) {
			await invalid(method, {}, /sessionId/);
			await invalid(method, { sessionId: 42 }, /sessionId/);
			await invalid(method, { sessionId: 'sess_not_ours' }, /unknown session "sess_not_ours"/);
		}
		// The agent's own id for the session still works, and the extension host is fine.
		await expectAnswer(a, activeDocument, { sessionId }, active(null));
	});

	it('URIs are files only: untitled, output and virtual documents never appear anywhere', async () => {
		const answers = [await ask(a, openDocuments, { sessionId }), await ask(a, recentDocuments, { sessionId, limit: MAX_RECENT_DOCUMENTS })];
		for (const answer of answers) {
			for (const d of (answer.result as { documents: { uri: string }[] }).documents) {
				assert.match(d.uri, /^file:\/\/\//);
			}
		}
		assert.deepEqual(
			(answers[1]!.result as { documents: { uri: string }[] }).documents.map((d) => d.uri),
			recent.map(uriOf),
		);
	});
});
