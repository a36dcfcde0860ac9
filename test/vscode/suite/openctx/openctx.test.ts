// OpenCtx providers in a real VS Code: an HTTP provider annotating TODO comments and a module
// provider offering team docs (both written with @openctx/provider's types, providers.ts), plus a
// failing, a slow and a malformed one. Code lenses and hovers on the right lines (in the editor's
// DOM too), a mention picked in the chat page reaching the agent as an embedded resource, context
// offered for a message without being sent unasked, and NES related snippets from annotations.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { click, press, query, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { chatHooks } from '../chatKit';
import { repoRoot, waitUntil } from '../util';
import { failing, serveProviders, slow, todoLinks } from './providers';

const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const tasks = () => vscode.Uri.joinPath(folder(), 'src', 'tasks.ts');
const any = z.unknown();
const LENSES = '.editor-instance .monaco-editor .codelens-decoration';
const TIMEOUT_MS = 1500;

async function setProviders(providers: Record<string, unknown>): Promise<void> {
	await vscode.workspace.getConfiguration('agentLink').update('openctx.providers', providers, vscode.ConfigurationTarget.Global);
}

/** Opens src/tasks.ts and waits until every provider has answered (or been cut off) for its version. */
async function openTasks(a: AgentLinkApi): Promise<vscode.TextEditor> {
	const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(tasks()), { preview: false });
	await a.openctx.annotations.annotationsFor(editor.document);
	return editor;
}

async function received(a: AgentLinkApi): Promise<{ method: string; params: Record<string, unknown> }[]> {
	return (await a.agents.readyAgent!.handle.connection.sendRequest('_test/received', {}, any)) as { method: string; params: Record<string, unknown> }[];
}

describe('OpenCtx providers', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('openctx');
	let server: Awaited<ReturnType<typeof serveProviders>>;
	const calls: string[] = [];
	const moduleUrl = () => vscode.Uri.file(path.join(__dirname, 'docsModule.js')).toString();
	const malformedUrl = () => vscode.Uri.joinPath(folder(), 'providers', 'malformed.mjs').toString();

	before(async () => {
		server = await serveProviders({ todo: todoLinks, failing, slow: slow(20_000) }, (name, method) => calls.push(`${name}:${method}`));
	});
	after(async () => {
		await setProviders({});
		await server?.close();
	});

	it('shows code lenses on the TODO lines and hovers with the ticket and its link', async () => {
		const a = chatApi();
		await setProviders({ [server.url('todo')]: { root: folder().fsPath } });
		const editor = await openTasks(a);
		const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri)) ?? [];
		const ours = lenses.filter((l) => l.command?.command === 'agentLink.openctx.openItem');
		assert.deepEqual(
			ours.map((l) => [l.range.start.line, l.command?.title]),
			[
				[2, 'Ticket #12: retry failed steps'],
				[4, 'Ticket #34: see src/lib.ts#L2-L4'],
			],
		);
		// What a person sees: the lenses drawn above those lines.
		await waitFor(async () => (await query(LENSES)).texts.some((t) => t.includes('Ticket #12')), 'the lenses drawn in the editor');
		assert.deepEqual((await query(LENSES)).texts.map((t) => t.trim()).filter((t) => t.startsWith('Ticket')).sort(), ['Ticket #12: retry failed steps', 'Ticket #34: see src/lib.ts#L2-L4']);

		const hovers = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(2, 8))) ?? [];
		const text = hovers.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').replace(/&nbsp;/g, ' ');
		assert.match(text, /Ticket #12/);
		assert.match(text, /\[Open tracker\.example\.invalid\]\(https:\/\/tracker\.example\.invalid\/issues\/12\)/);
		assert.match(text, /TODO links/);
		const none = (await vscode.commands.executeCommand<vscode.Hover[]>('vscode.executeHoverProvider', editor.document.uri, new vscode.Position(3, 4))) ?? [];
		assert.ok(!none.flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n').includes('Ticket'), 'no hover on a line without a TODO');

		// The hover drawn: the provider's <img onerror> stays out of the page.
		editor.selection = new vscode.Selection(2, 8, 2, 8);
		await vscode.commands.executeCommand('editor.action.showHover');
		await waitFor(async () => (await query('.monaco-hover .rendered-markdown')).texts.some((t) => t.includes('Ticket #12')), 'the hover shown');
		assert.equal((await query('.monaco-hover img')).count, 0, 'no image from the provider markdown');
		await screenshot(path.join(SHOTS, 'openctx-hover.png'));
		await press('Escape');
		await screenshot(path.join(SHOTS, 'openctx-annotations.png'));

		// Typing moves the annotations along with a new version of the document.
		await editor.edit((b) => b.insert(new vscode.Position(0, 0), '// header\n'));
		const moved = await a.openctx.annotations.annotationsFor(editor.document);
		assert.deepEqual(moved.map((s) => s.range.start.line), [3, 5]);
		await vscode.commands.executeCommand('undo');
	});

	it('lists the file\'s items in a quick pick, and turns annotations off and on', async () => {
		const a = chatApi();
		const editor = await openTasks(a);
		void vscode.commands.executeCommand('agentLink.openctx.listItems');
		await waitFor(async () => (await query('.quick-input-widget .monaco-list-row')).texts.some((t) => t.includes('Ticket #34')), 'the items listed');
		await click('.quick-input-widget .monaco-list-row', 'Ticket #34');
		await waitUntil(() => editor.selection.active.line === 4, 5000, 'the cursor on the item\'s line');
		await vscode.commands.executeCommand('agentLink.openctx.toggleAnnotations');
		await waitUntil(async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri)) ?? []).length === 0, 5000, 'no lenses');
		await vscode.commands.executeCommand('agentLink.openctx.toggleAnnotations');
		await waitUntil(async () => ((await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri)) ?? []).length === 2, 10_000, 'the lenses back');
	});

	it('leaves out a failing, a malformed and a slow provider; the others still answer', async () => {
		const a = chatApi();
		await vscode.workspace.getConfiguration('agentLink').update('openctx.timeout', TIMEOUT_MS, vscode.ConfigurationTarget.Global);
		await setProviders({ [server.url('failing')]: true, [server.url('slow')]: true, [malformedUrl()]: true, [server.url('todo')]: { root: folder().fsPath } });
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		const started = Date.now();
		const editor = await openTasks(a);
		const elapsed = Date.now() - started;
		assert.ok(elapsed < 15_000, `the slow provider (20 s) was cut off, not waited for (${elapsed} ms)`);
		const lenses = (await vscode.commands.executeCommand<vscode.CodeLens[]>('vscode.executeCodeLensProvider', editor.document.uri)) ?? [];
		assert.deepEqual(lenses.filter((l) => l.command?.command === 'agentLink.openctx.openItem').map((l) => l.command?.title), ['Ticket #12: retry failed steps', 'Ticket #34: see src/lib.ts#L2-L4'], 'only the TODO provider\'s lenses');
		const log = a.recentLog().join('\n');
		assert.match(log, /Failing provider: annotations failed, left out: error -32000: the backend is down/);
		assert.match(log, /Slow provider: annotations failed, left out: no answer to annotations within 1500 ms/);
		assert.match(log, /Malformed provider: annotations failed, left out: malformed annotations answer at 0\.item/);
		assert.ok(calls.includes('slow:annotations'), 'the slow provider was asked');
		await waitFor(async () => (await query('.statusbar-item')).texts.some((t) => t.includes('OpenCtx 1/4')), 'the status bar says 1 of 4 answered');
		await vscode.workspace.getConfiguration('agentLink').update('openctx.timeout', undefined, vscode.ConfigurationTarget.Global);
		await setProviders({ [server.url('todo')]: { root: folder().fsPath }, [moduleUrl()]: true });
	});

	it('offers provider mentions in the @-picker, grouped by provider; the chosen one reaches the agent as an embedded resource', async () => {
		const a = chatApi();
		await setProviders({ [server.url('todo')]: { root: folder().fsPath }, [moduleUrl()]: true });
		const key = await vscode.commands.executeCommand<string>('agentLink.chat.new', 'OpenCtx Agent');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat ready');
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
		await type('@guide', 30);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion-group')).texts.includes('Team docs'), 'the provider group in the picker', 30_000);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion-label')).texts.includes('Deploy guide'), 'the provider mentions');
		const labels = (await webviewQuery('.suggestions .suggestion-label')).texts;
		assert.ok(labels.includes('Style guide'), labels.join('|'));
		await screenshot(path.join(SHOTS, 'openctx-mentions.png'));
		await webviewClick('.suggestions .suggestion', 'Deploy guide');
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes('Team docs: Deploy guide')), 'the chip');
		// A message about deploying: the provider's message selector offers context, not added by itself.
		await type('how do we deploy?', 10);
		await waitFor(async () => (await webviewQuery('.composer .chips .chip.offered')).texts.some((t) => t.includes('Team docs: context for this message')), 'context offered for the message');
		await press('Enter');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().entries.some((e) => e.kind === 'turn_end') ?? false, 20_000, 'the turn');
		const session = a.chatController.tab(key)!.session!;
		const prompts = (await received(a)).filter((m) => m.method === 'session/prompt' && m.params.sessionId === session.sessionId).map((m) => m.params.prompt);
		assert.deepEqual(prompts, [
			[
				{ type: 'text', text: 'how do we deploy?' },
				{ type: 'resource', resource: { uri: 'https://docs.example.invalid/deploy', text: 'Deploy with ./ship.sh from the main branch; never on Fridays.', mimeType: 'text/plain' } },
			],
		]);

		// Added this time: the items for the message go too.
		await type('and deploy the docs?', 10);
		await waitFor(async () => (await webviewQuery('.composer .chips .chip.offered')).count === 1, 'context offered again');
		await webviewClick('.composer .chips .chip.offered button');
		await waitFor(async () => (await webviewQuery('.composer .chips .chip:not(.offered)')).texts.some((t) => t.includes('Team docs (for this message)')), 'the offer taken');
		await press('Enter');
		await waitUntil(() => (a.chatController.tab(key)?.transcript.snapshot().entries.filter((e) => e.kind === 'turn_end').length ?? 0) === 2, 20_000, 'the second turn');
		const second = (await received(a)).filter((m) => m.method === 'session/prompt' && m.params.sessionId === session.sessionId).map((m) => m.params.prompt)[1];
		assert.deepEqual(second, [
			{ type: 'text', text: 'and deploy the docs?' },
			{ type: 'resource', resource: { uri: 'https://docs.example.invalid/deploy', text: 'Deploy with ./ship.sh from the main branch; never on Fridays.', mimeType: 'text/plain' } },
		]);
	});

	it('sends annotations that link to workspace code as NES related snippets', async () => {
		const a = chatApi();
		await setProviders({ [server.url('todo')]: { root: folder().fsPath } });
		await waitUntil(() => a.nes.current !== undefined, 20_000, 'the NES session');
		const editor = await openTasks(a);
		editor.selection = new vscode.Selection(5, 0, 5, 0);
		await vscode.commands.executeCommand('agentLink.nes.suggest');
		const suggests = (await received(a)).filter((m) => m.method === 'nes/suggest');
		const last = suggests[suggests.length - 1]!.params as { context?: { relatedSnippets?: { uri: string; excerpts: { startLine: number; endLine: number; text: string }[] }[] } };
		const lib = (last.context?.relatedSnippets ?? []).find((s) => s.uri.endsWith('/src/lib.ts'));
		assert.ok(lib, JSON.stringify(last.context));
		assert.deepEqual(lib.excerpts, [{ startLine: 1, endLine: 3, text: 'export function retry(times: number): number {\n\treturn Math.min(times, limit);\n}' }]);
	});
});
