// Agent Link's editor tools as agents meet them: a scripted agent (test/fixtures/agents/mcp-agent.mjs)
// gets the server in session/new and connects with the MCP SDK's client in the transport it declared
// (Tools HTTP: mcpCapabilities.http; Tools Stdio: the bridge, run with the editor's runtime). The
// answers come from the real editor: TypeScript's diagnostics, definitions and references, VS Code's
// file search with files.exclude and .gitignore, the active editor. Paths outside the workspace, also
// through a symbolic link, are refused. A turn's tool call shows in the chat.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { ChatSession } from '../../../../src/vscode/chat/chatSessions';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { focusReport, hasBrowser, press, screenshot, type, waitFor, waitForSteady, webviewQuery } from '../browser';
import { api, repoRoot, waitUntil } from '../util';

const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
const any = z.unknown();
const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const ALL_TOOLS = ['stat', 'glob_search', 'read_binary_file', 'get_diagnostics', 'find_symbols', 'document_symbols', 'go_to_definition', 'find_references', 'hover', 'get_selection', 'get_open_editors'];

type ToolAnswer = { result?: { content: { text?: string }[]; isError?: boolean }; error?: { message: string } };
interface Info {
	transport: string;
	entry: { name: string; url?: string; command?: string; args?: string[]; headers?: { name: string; value: string }[]; env?: { name: string; value: string }[] };
	tools: string[];
}

async function chatWith(a: AgentLinkApi, agent: string): Promise<ChatSession> {
	const choice = a.agents.findChoice(agent);
	assert.ok(choice, agent);
	return a.chat.create(choice, folder());
}

/** Calls `name` through the agent's MCP client; the answer's text (JSON parsed when it is JSON) and whether it is an error. */
async function call(session: ChatSession, name: string, args: Record<string, unknown> = {}): Promise<{ value: unknown; text: string; isError: boolean }> {
	const answer = (await session.agent!.handle.connection.sendRequest('_test/mcpTool', { sessionId: session.sessionId, name, arguments: args }, any)) as ToolAnswer;
	assert.ok(answer.result, `${name}: ${JSON.stringify(answer.error)}`);
	const text = answer.result.content.map((c) => c.text ?? '').join('');
	let value: unknown = text;
	try {
		value = JSON.parse(text);
	} catch {
		// an error message
	}
	return { value, text, isError: answer.result.isError === true };
}

const info = (session: ChatSession) => session.agent!.handle.connection.sendRequest('_test/mcpInfo', { sessionId: session.sessionId }, any) as Promise<Info>;

describe('editor tools for agents (an MCP server in every chat session)', function () {
	this.timeout(120_000);
	let a: AgentLinkApi;
	const sessions: ChatSession[] = [];

	before(async () => {
		a = await api();
	});
	after(async () => {
		for (const s of sessions) {
			await s.close().catch(() => {});
		}
	});

	for (const [agent, transport] of [
		['Tools HTTP', 'http'],
		['Tools Stdio', 'stdio'],
	] as const) {
		describe(`${agent}: over ${transport}`, () => {
			let session: ChatSession;
			before(async () => {
				session = await chatWith(a, agent);
				sessions.push(session);
			});

			it(`gets the server in session/new as ${transport} and connects with only what it carries`, async () => {
				const got = await info(session);
				assert.equal(got.transport, transport);
				assert.equal(got.entry.name, 'agent-link-editor');
				assert.deepEqual(got.tools, ALL_TOOLS);
				if (transport === 'http') {
					assert.match(got.entry.url!, /^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
					assert.match(got.entry.headers![0]!.value, /^Bearer [0-9a-f]{64}$/);
					const response = await fetch(got.entry.url!, { method: 'POST', headers: { 'content-type': 'application/json' }, body: '{}' });
					assert.equal(response.status, 401, 'without the token nothing answers');
				} else {
					assert.equal(got.entry.command, process.execPath, 'the editor’s own runtime');
					assert.ok(got.entry.args![0]!.endsWith(path.join('dist', 'mcp-bridge.js')));
					assert.ok(got.entry.env!.some((e) => e.name === 'AGENT_LINK_MCP_TOKEN' && /^[0-9a-f]{64}$/.test(e.value)));
				}
			});

			it('lists the diagnostics of TypeScript, for a file and for the workspace', async () => {
				const use = path.join(folder(), 'src', 'use.ts');
				await vscode.window.showTextDocument(vscode.Uri.file(use));
				let diagnostics: { path: string; severity: string; message: string; source?: string; range: { start: { line: number } } }[] = [];
				await waitUntil(
					async () => {
						diagnostics = ((await call(session, 'get_diagnostics', { path: 'src/use.ts' })).value as { diagnostics: typeof diagnostics }).diagnostics;
						return diagnostics.length > 0;
					},
					60_000,
					'TypeScript’s diagnostics',
				);
				assert.equal(diagnostics.length, 1, JSON.stringify(diagnostics));
				assert.equal(diagnostics[0]!.severity, 'error');
				assert.match(diagnostics[0]!.message, /Type 'string' is not assignable to type 'number'/);
				assert.equal(diagnostics[0]!.source, 'ts');
				assert.equal(diagnostics[0]!.range.start.line, 4, '1-based lines');
				assert.equal(diagnostics[0]!.path, use);
				const all = (await call(session, 'get_diagnostics')).value as { diagnostics: typeof diagnostics };
				assert.ok(all.diagnostics.some((d) => d.path === use && /not assignable/.test(d.message)));
			});

			it('finds the definition, the references, the hover and the symbols through the language features', async () => {
				// `computeTotal` in `export const total = computeTotal([1, 2, 3]);` (line 3, character 22).
				const at = { path: 'src/use.ts', line: 3, character: 22 };
				const definition = (await call(session, 'go_to_definition', at)).value as { locations: { path: string; range: { start: { line: number; character: number } } }[] };
				assert.deepEqual(
					definition.locations.map((l) => [path.basename(l.path), l.range.start.line, l.range.start.character]),
					[['lib.ts', 1, 17]],
				);
				const references = (await call(session, 'find_references', at)).value as { locations: { path: string; range: { start: { line: number } } }[] };
				assert.deepEqual(references.locations.map((l) => `${path.basename(l.path)}:${l.range.start.line}`).sort(), ['lib.ts:1', 'use.ts:1', 'use.ts:3']);
				const withoutDeclaration = (await call(session, 'find_references', { ...at, includeDeclaration: false })).value as typeof references;
				assert.deepEqual(withoutDeclaration.locations.map((l) => `${path.basename(l.path)}:${l.range.start.line}`).sort(), ['use.ts:1', 'use.ts:3']);
				const hover = (await call(session, 'hover', at)).value as { contents: string[] };
				assert.match(hover.contents.join('\n'), /computeTotal\(values: number\[\]\): number/);
				const outline = (await call(session, 'document_symbols', { path: 'src/lib.ts' })).value as { symbols: { name: string; kind: string }[] };
				assert.deepEqual(outline.symbols.map((s) => [s.name, s.kind]), [['computeTotal', 'Function']]);
				let symbols: { name: string; kind: string; path: string }[] = [];
				// TypeScript's project may still be loading: asked again until the declaration is there.
				await waitUntil(
					async () => {
						symbols = ((await call(session, 'find_symbols', { query: 'computeTotal' })).value as { symbols: typeof symbols }).symbols;
						// TypeScript names functions with their parentheses on some versions ("computeTotal()").
						return symbols.some((s) => /^computeTotal(\(\))?$/.test(s.name) && s.path.endsWith(path.join('src', 'lib.ts')));
					},
					30_000,
					'computeTotal among the workspace symbols',
				).catch((error: unknown) => {
					throw new Error(`${String(error)}: ${JSON.stringify(symbols)}`);
				});
				assert.equal(symbols.find((s) => s.path.endsWith(path.join('src', 'lib.ts')))!.kind, 'Function');
			});

			it('globs the workspace as VS Code’s search does: files.exclude and .gitignore honoured', async () => {
				const found = (await call(session, 'glob_search', { pattern: '**/*.ts' })).value as { files: { path: string; absolute: string }[]; truncated: boolean };
				assert.deepEqual(
					found.files.map((f) => f.path),
					['src/lib.ts', 'src/use.ts'],
				);
				assert.equal(found.files[0]!.absolute, path.join(folder(), 'src', 'lib.ts'));
				assert.deepEqual(((await call(session, 'glob_search', { pattern: '*.log' })).value as { files: unknown[] }).files, [], '.gitignore’d');
				const limited = (await call(session, 'glob_search', { pattern: '**/*', maxResults: 1 })).value as { files: unknown[]; truncated: boolean };
				assert.equal(limited.files.length, 1);
				assert.equal(limited.truncated, true);
			});

			it('stats paths and reads bytes, bounded', async () => {
				const stat = (await call(session, 'stat', { path: 'src' })).value as { exists: boolean; isDirectory: boolean };
				assert.equal(stat.exists, true);
				assert.equal(stat.isDirectory, true);
				const file = (await call(session, 'stat', { path: path.join(folder(), 'data.bin') })).value as { size: number; modified: string };
				assert.equal(file.size, 10);
				assert.ok(!Number.isNaN(Date.parse(file.modified)));
				assert.deepEqual((await call(session, 'stat', { path: 'nope.txt' })).value, { path: path.join(folder(), 'nope.txt'), exists: false });
				const bytes = (await call(session, 'read_binary_file', { path: 'data.bin', byteOffset: 4, byteLimit: 3 })).value as { base64: string; size: number; bytesRead: number; endOfFile: boolean };
				assert.deepEqual([...Buffer.from(bytes.base64, 'base64')], [250, 251, 252]);
				assert.equal(bytes.endOfFile, false);
				const tail = (await call(session, 'read_binary_file', { path: 'data.bin', byteOffset: 8 })).value as typeof bytes;
				assert.deepEqual([...Buffer.from(tail.base64, 'base64')], [254, 255]);
				assert.equal(tail.endOfFile, true);
				const tooMuch = await call(session, 'read_binary_file', { path: 'data.bin', byteLimit: 2 * 1024 * 1024 });
				assert.equal(tooMuch.isError, true);
				assert.match(tooMuch.text, /byteLimit/);
			});

			it('refuses paths outside the workspace, also through a symbolic link, and reads nothing there', async () => {
				for (const outside of ['/etc/passwd', '../outside.txt', path.join(folder(), '..', 'x')]) {
					const answer = await call(session, 'stat', { path: outside });
					assert.equal(answer.isError, true, outside);
					assert.match(answer.text, /is outside the workspace folders/);
				}
				for (const tool of ['read_binary_file', 'stat', 'document_symbols']) {
					const answer = await call(session, tool, { path: 'escape/private.txt' });
					assert.equal(answer.isError, true, tool);
					assert.match(answer.text, /leads outside the workspace folders .* through a symbolic link/);
					assert.ok(!answer.text.includes('not for agents'));
				}
				const bad = await call(session, 'go_to_definition', { path: 'src/use.ts', line: 0, character: 1 });
				assert.equal(bad.isError, true);
				assert.match(bad.text, /Invalid arguments for go_to_definition: line/);
			});

			it('tells the selection and the open editors', async () => {
				const lib = vscode.Uri.file(path.join(folder(), 'src', 'lib.ts'));
				const editor = await vscode.window.showTextDocument(lib);
				editor.selection = new vscode.Selection(0, 16, 0, 28);
				const selection = (await call(session, 'get_selection')).value as { editor: { path: string; languageId: string; selections: { text: string; range: { start: { line: number; character: number } } }[] } };
				assert.equal(selection.editor.path, lib.fsPath);
				assert.equal(selection.editor.languageId, 'typescript');
				assert.equal(selection.editor.selections[0]!.text, 'computeTotal');
				assert.deepEqual(selection.editor.selections[0]!.range.start, { line: 1, character: 17 });
				const open = (await call(session, 'get_open_editors')).value as { editors: { path: string; isActive: boolean }[] };
				assert.ok(open.editors.some((e) => e.path === lib.fsPath && e.isActive));
				assert.ok(open.editors.some((e) => e.path.endsWith('use.ts') && !e.isActive));
			});

			it('logs every call: the tool, its arguments, the time', () => {
				const lines = a.recentLog().filter((l) => l.includes('Editor tool '));
				assert.ok(lines.some((l) => /Editor tool get_diagnostics \{"path":"src\/use\.ts"\}: ok in [\d.]+ ms/.test(l)), lines.slice(-5).join('\n'));
				assert.ok(lines.some((l) => /Editor tool stat \{"path":"\/etc\/passwd"\}: refused in [\d.]+ ms \(.*is outside the workspace folders/.test(l)), lines.filter((l) => l.includes('passwd')).join('\n'));
			});
		});
	}

	/**
	 * Waits for a settings change to reach the extension: its listener was registered before this one,
	 * so when this one hears the change, the extension has read it.
	 */
	async function settle(update: Thenable<void>): Promise<void> {
		const heard = new Promise<void>((resolve) => {
			const listener = vscode.workspace.onDidChangeConfiguration((event) => {
				if (event.affectsConfiguration('agentLink.editorTools')) {
					listener.dispose();
					resolve();
				}
			});
		});
		await update;
		await heard;
	}

	describe('settings and the chat', () => {
		it('offers only the tools left on, and none when turned off', async () => {
			const config = vscode.workspace.getConfiguration('agentLink');
			try {
				await settle(config.update('editorTools.disabled', ['hover', 'read_binary_file'], vscode.ConfigurationTarget.Global));
				const session = await chatWith(a, 'Tools Stdio');
				sessions.push(session);
				const tools = (await info(session)).tools;
				assert.deepEqual(tools, ALL_TOOLS.filter((t) => t !== 'hover' && t !== 'read_binary_file'));
				const refused = await call(session, 'read_binary_file', { path: 'data.bin' });
				assert.equal(refused.isError, true);
				assert.match(refused.text, /turned off/);

				await settle(config.update('editorTools.enabled', false, vscode.ConfigurationTarget.Global));
				const without = await chatWith(a, 'Tools HTTP');
				sessions.push(without);
				await assert.rejects(info(without), /no agent-link-editor server/);
			} finally {
				await config.update('editorTools.disabled', undefined, vscode.ConfigurationTarget.Global);
				await config.update('editorTools.enabled', undefined, vscode.ConfigurationTarget.Global);
			}
		});

		for (const agent of ['Tools Stdio', 'Tools HTTP']) {
			it(`${agent}: a tool the agent calls during a turn shows in the chat as its tool call`, async function () {
				if (!hasBrowser()) {
					this.skip();
				}
				// The file open and checked before the chat opens: the editor taking the keyboard as it
				// shows the file is not mistaken for the chat losing it.
				const use = vscode.Uri.file(path.join(folder(), 'src', 'use.ts'));
				await vscode.window.showTextDocument(use);
				await waitUntil(() => vscode.languages.getDiagnostics(use).length > 0, 60_000, 'TypeScript’s diagnostics of use.ts');
				// And the keyboard there, settled: in the second run the diagnostics are already in, and a
				// chat shown while the chat page still hears of losing the keyboard to the editor can end
				// up focused in the workbench but not in its page.
				await waitForSteady(async () => {
					const frames = await focusReport();
					return frames.length === 1 && frames[0]!.startsWith('workbench:') && !frames[0]!.includes('iframe');
				}, 'the editor has the keyboard');
				const key = await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent);
				assert.ok(key);
				try {
					await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat ready');
					await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
					const prompt = 'tool get_diagnostics {"path":"src/use.ts"}';
					await waitFor(
						async () => {
							if ((await webviewQuery('textarea.prompt-input')).texts[0] === prompt) {
								return true;
							}
							await press('Control+a', 'Delete');
							await type(prompt, 5);
							return false;
						},
						'the prompt typed',
						20_000,
					);
					await press('Enter');
					const title = 'agent-link-editor: get_diagnostics';
					await waitFor(async () => (await webviewQuery('.tool-call.status-completed .tool-title')).texts.includes(title), 'the completed tool call in the chat', 30_000);
					const content = (await webviewQuery('.tool-call.status-completed .tool-content')).texts.join('\n');
					assert.match(content, /"severity": "error"/);
					assert.match(content, /Type 'string' is not assignable to type 'number'/);
					await waitFor(async () => (await webviewQuery('.message.agent')).texts.some((t) => /get_diagnostics answered \(\d+ characters\)/.test(t)), 'the agent’s answer');
					await screenshot(agent === 'Tools Stdio' ? path.join(SHOTS, 'editor-tools-chat.png') : path.join(os.tmpdir(), 'editor-tools-chat-http.png'), '.part.sidebar');
				} finally {
					await a.chatController.closeTab(key);
				}
			});
		}
	});
});
