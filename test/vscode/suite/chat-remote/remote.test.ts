// Chats with agents on another machine through the panel, with real keys: the ACP SDK's AcpServer
// on loopback (test/fixtures/remote/acp-server.mjs) in front of the fixture agent, reached over
// WebSocket and over Streamable HTTP from `agentLink.agents` entries with `url`. The agent's file
// read is answered by this editor; a server that asks for a token gets it from a password box
// (kept in secret storage, never logged; Escape stores nothing; HTTP 403 told apart from 401); a
// server that drops the connection mid-turn is reconnected to and the chat goes on with
// session/resume. Every question (the plain-text host, the password box) is answered with keys
// only: it has the keyboard though a chat opens, and the chat gets it back once it is answered.
// Two chats with one remote agent run side by side, answer permissions with keys, and one is taken
// up again from the history (session/load over the wire).
// A remote NES agent (the scripted one behind the server) gets its editor-state requests answered
// and its suggestion shown in the editor, accepted with Tab.
import * as assert from 'node:assert/strict';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EditorStateMethods } from '../../../../src/common/editorStateProtocol';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { GHOST_TEXT, press, query, screenshot, type, waitFor, waitForSteady, webviewQuery } from '../browser';
import { chatHooks, inputFocused, openChat } from '../chatKit';
import { api, repoRoot, waitForState, waitUntil } from '../util';

/** Into the README's folder with AGENT_LINK_SCREENSHOTS=1, else the temp folder, for a look. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
const TOKEN = 'remote-token-5150';
const GUARD_TOKEN = 'guard-token-8086';
const NO_ACCESS_TOKEN = 'no-access-token-6502';
const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const entries = (a: AgentLinkApi, key: string) => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];
const agentText = (a: AgentLinkApi, key: string) =>
	entries(a, key)
		.filter((e) => e.kind === 'agent')
		.flatMap((e) => ('blocks' in e ? e.blocks : []))
		.map((b) => (b.type === 'text' ? b.text : ''))
		.join('');
/** Waits for the password box to be shown with the keyboard in it, and checks what it says. */
async function passwordBox(says: RegExp): Promise<void> {
	await waitFor(async () => (await query('.quick-input-widget input[type="password"]:focus', { visible: true })).count === 1, 'a password box with the keyboard', 30_000);
	const text = (await query('.quick-input-widget', { visible: true })).texts.join(' ');
	assert.match(text, says, 'the box says why');
}
const noPasswordBox = async () => (await query('.quick-input-widget input[type="password"]', { visible: true })).count === 0;
const prompts = (a: AgentLinkApi, key: string) => entries(a, key).flatMap((e) => (e.kind === 'user' ? e.blocks.map((b) => (b.type === 'text' ? b.text : '')) : []));

/** A remote server: the fixture server as a process of its own, its addresses, and its commands. */
class Server {
	private out = '';
	constructor(private readonly child: ChildProcessWithoutNullStreams) {
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (d: string) => (this.out += d));
		child.stderr.on('data', (d: Buffer) => console.log(`[remote server] ${d.toString().trim()}`));
	}

	static async start(node: string, options: Record<string, unknown>): Promise<Server> {
		const child = spawn(node, [path.join(repoRoot, 'test', 'fixtures', 'remote', 'acp-server.mjs')], {
			cwd: repoRoot,
			env: { ...process.env, ELECTRON_RUN_AS_NODE: '1', AGENT_LINK_REMOTE: JSON.stringify(options) },
		});
		const server = new Server(child);
		await waitUntil(() => server.line((l) => typeof l.http === 'string') !== undefined, 15_000, 'the remote server listening');
		return server;
	}

	get urls(): { http: string; ws: string } {
		return this.line((l) => typeof l.http === 'string') as { http: string; ws: string };
	}

	async drop(): Promise<void> {
		this.child.stdin.write('drop\n');
		await waitUntil(() => this.line((l) => l.dropped === true) !== undefined, 10_000, 'the server dropped its connections');
	}

	stop(): void {
		this.child.stdin.end();
		setTimeout(() => this.child.kill('SIGKILL'), 2000).unref();
	}

	private line(match: (line: Record<string, unknown>) => boolean): Record<string, unknown> | undefined {
		for (const text of this.out.split('\n')) {
			try {
				const line = JSON.parse(text) as Record<string, unknown>;
				if (match(line)) {
					return line;
				}
			} catch {
				// a partial line
			}
		}
		return undefined;
	}
}

describe('chat: agents on another machine', function () {
	this.timeout(180_000);
	const chatApi = chatHooks('remote');
	const servers: Server[] = [];
	let plain: Server;
	let locked: Server;
	let guarded: Server;
	let dropping: Server;
	let nesServer: Server;
	let sessions: Server;
	const go = path.join(os.tmpdir(), `agent-link-remote-go-${process.pid}`);
	const store = path.join(os.tmpdir(), `agent-link-remote-sessions-${process.pid}.json`);
	const sessionsStore = path.join(os.tmpdir(), `agent-link-remote-loads-${process.pid}.json`);

	before(async () => {
		const section = vscode.workspace.getConfiguration('agentLink');
		const agents = (section.inspect<Record<string, unknown>>('agents')?.globalValue ?? {}) as Record<string, { command?: string }>;
		// The fixture agents' runtime: the one the shared agents run with.
		const node = agents['Fixture Agent']?.command;
		assert.ok(node, 'the fixture agents’ runtime');
		const notes = path.join(folder(), 'notes.txt');
		fs.writeFileSync(notes, 'kept on this machine\n');
		const turn = [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Remote says hi. ' } }, { ask: { method: 'fs/read_text_file', params: { path: notes } } }];
		plain = await Server.start(node, { fixture: { chatTurn: turn } });
		locked = await Server.start(node, { token: TOKEN, fixture: { chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Behind a token.' } }] } });
		guarded = await Server.start(node, { token: GUARD_TOKEN, forbidden: NO_ACCESS_TOKEN, fixture: { chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Guarded.' } }] } });
		fs.rmSync(go, { force: true });
		dropping = await Server.start(node, {
			fixture: {
				agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } },
				sessionStore: store,
				// Each turn waits for the test's go-ahead: the first is cut by the drop, the next (on the new connection) gets it.
				chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working…' } }, { waitForFile: go }, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' Back again.' } }],
			},
		});
		nesServer = await Server.start(node, { agent: 'nes-scripted-agent.mjs', fixture: { revision: 'merged' } });
		// Sessions side by side, each turn asking a permission; kept by the agent, so a chat from the history is loaded again.
		sessions = await Server.start(node, {
			fixture: {
				agentCapabilities: { loadSession: true },
				sessionStore: sessionsStore,
				chatTurn: [
					{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'May I? ' } },
					{ permission: { toolCall: { toolCallId: 'remote-edit', title: 'Edit the remote notes' }, options: [{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } },
				],
			},
		});
		servers.push(plain, locked, guarded, dropping, nesServer, sessions);
		await section.update(
			'agents',
			{
				...agents,
				'Remote WS': { url: plain.urls.ws },
				'Remote HTTP': { url: plain.urls.http },
				'Remote Locked': { url: locked.urls.ws },
				'Remote Guarded': { url: guarded.urls.http },
				'Remote Dropping': { url: dropping.urls.http },
				'Remote NES': { url: nesServer.urls.ws },
				'Remote Sessions': { url: sessions.urls.ws },
				// Not this machine, over plain text (TEST-NET-1: nothing answers there).
				'Remote Far': { url: 'ws://192.0.2.1:9/acp' },
			},
			vscode.ConfigurationTarget.Global,
		);
		const a = await api();
		await waitUntil(() => a.agents.findChoice('Remote Dropping') !== undefined, 10_000, 'the remote agents in the settings');
	});

	after(() => {
		for (const server of servers) {
			server.stop();
		}
		fs.rmSync(go, { force: true });
		fs.rmSync(store, { force: true });
		fs.rmSync(sessionsStore, { force: true });
	});

	for (const [name, profile] of [
		['Remote WS', 'WebSocket'],
		['Remote HTTP', 'Streamable HTTP'],
	] as const) {
		it(`chats over ${profile}: the notice says what it is offered, the prompt is typed and sent, its file read is answered here`, async () => {
			const a = chatApi();
			const key = await openChat(a, name);
			assert.equal(a.chatController.tab(key)?.session?.agent?.handle.isRemote, true);
			await waitFor(async () => (await webviewQuery('.notice')).texts.some((t) => t.includes(`${name} runs on another machine`) && t.includes('editor tools')), 'the notice about the remote agent');
			await type('What is in the notes?', 10);
			await press('Enter');
			await waitUntil(() => agentText(a, key).includes('kept on this machine'), 30_000, 'the answer with the file read here');
			assert.match(agentText(a, key), /^Remote says hi\. fs\/read_text_file: \{"content":"kept on this machine\\n"\}/);
			await waitFor(async () => (await webviewQuery('.entry-agent')).texts.some((t) => t.includes('kept on this machine')), 'the answer drawn');
			assert.ok(a.recentLog().some((l) => new RegExp(`MCP server "agent-link-editor" left out for ${name}`).test(l)), 'the log says the editor tools were left out');
			if (name === 'Remote WS') {
				await screenshot(path.join(SHOTS, 'chat-remote-agent.png'));
			}
		});
	}

	it('the password box declined with Escape: the chat says no credential was given and how to try again; nothing is stored', async () => {
		const a = chatApi();
		const opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Remote Locked');
		await passwordBox(/asks for a credential \(HTTP 401\)/);
		await press('Escape');
		const key = await opening;
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key)?.state === 'failed', 30_000, 'the chat failed without a credential');
		assert.match(a.chatController.tab(key)?.detail ?? '', /HTTP 401\)\. No credential was given, so nothing was stored\. Start a new chat with Remote Locked \(or Restart Agent\) to be asked again\./);
		await waitFor(async () => (await webviewQuery('.banner')).texts.some((t) => t.includes('No credential was given')), 'the chat says so');
		// The box declined, the failed chat has the keyboard (VS Code focusing it late would take it from the next box).
		await waitForSteady(inputFocused, 'the input focused');
		assert.ok(a.recentLog().some((l) => /No credential given for Remote Locked; nothing was stored/.test(l)));
		assert.ok(!a.recentLog().some((l) => /Kept a credential for Remote Locked/.test(l)), 'nothing stored');
		await a.chatController.closeTab(key);
	});

	it('asks again for the token on the next chat, keeps it in secret storage, never logs it; the chat has the keyboard after', async () => {
		const a = chatApi();
		const opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Remote Locked');
		await passwordBox(/asks for a credential \(HTTP 401\)/);
		await type(TOKEN, 5);
		await press('Enter');
		const key = await opening;
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat open with the token');
		// The password box had the keyboard while the chat opened; the chat takes it back once the box is answered.
		await waitForSteady(inputFocused, 'the input focused');
		await type('hello', 10);
		await press('Enter');
		await waitUntil(() => agentText(a, key).includes('Behind a token.'), 20_000, 'the answer');
		assert.ok(!a.recentLog().some((l) => l.includes(TOKEN)), 'the token is in no log line');
		assert.ok(a.recentLog().some((l) => /Kept a credential for Remote Locked \(secret storage\)/.test(l)));
	});

	it('HTTP 403 is told apart from 401: a credential without access is said so and not asked about in a loop; a stored one refused is asked for again', async () => {
		const a = chatApi();
		let opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Remote Guarded');
		await passwordBox(/asks for a credential \(HTTP 401\)/);
		await type(NO_ACCESS_TOKEN, 5);
		await press('Enter');
		let key = await opening;
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key!)?.state === 'failed', 30_000, 'the chat failed: the credential has no access');
		assert.match(a.chatController.tab(key)?.detail ?? '', /refused the credential \(HTTP 403: wrong, or without access there\)\. The credential just given has no access there either\./);
		assert.ok(await noPasswordBox(), 'not asked again in a loop');
		// The failed chat has the keyboard before the next one starts (as a user sees it fail first).
		await waitForSteady(inputFocused, 'the input focused');
		await a.chatController.closeTab(key);
		// The next chat sends the stored credential, is refused (403), and the box says so.
		opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Remote Guarded');
		await passwordBox(/refused the stored credential \(HTTP 403\): it is wrong or has no access there/);
		await type(GUARD_TOKEN, 5);
		await press('Enter');
		key = await opening;
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key!)?.state === 'ready', 30_000, 'the chat open with the other token');
		await waitForSteady(inputFocused, 'the input focused');
		await type('hello', 10);
		await press('Enter');
		await waitUntil(() => agentText(a, key!).includes('Guarded.'), 20_000, 'the answer');
		assert.ok(!a.recentLog().some((l) => l.includes(GUARD_TOKEN) || l.includes(NO_ACCESS_TOKEN)), 'no token in the log');
	});

	it('two chats with one remote agent side by side, permissions answered with keys, and a chat taken up again from the history with session/load', async () => {
		const a = chatApi();
		const permission = async (keys: string[]) => {
			await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 2, 'the permission prompt', 20_000);
			// The buttons ignore keys for half a second after they appear.
			await new Promise((r) => setTimeout(r, 650));
			await press(...keys);
		};
		const turnEnded = (key: string, count: number) => entries(a, key).filter((e) => e.kind === 'turn_end').length === count;
		const first = await openChat(a, 'Remote Sessions');
		await type('first chat', 10);
		await press('Enter');
		await permission(['Enter']);
		const second = await openChat(a, 'Remote Sessions');
		await type('second chat', 10);
		await press('Enter');
		await permission(['Tab', 'Enter']);
		await waitUntil(() => turnEnded(first, 1) && turnEnded(second, 1), 30_000, 'both turns ended');
		assert.match(agentText(a, first), /permission: \{"outcome":"selected","optionId":"yes"\}/);
		assert.match(agentText(a, second), /permission: \{"outcome":"selected","optionId":"no"\}/);
		const firstSession = a.chatController.tab(first)!.session!;
		assert.equal(firstSession.agent?.handle.isRemote, true);
		assert.notEqual(firstSession.sessionId, a.chatController.tab(second)!.session!.sessionId, 'two sessions on the one connection');
		// Closed, then opened from the history: the agent loads it over the wire, and it goes on.
		const historyId = a.chatController.tab(first)!.historyId;
		const sessionId = firstSession.sessionId;
		await a.chatController.flushHistory();
		await a.chatController.closeTab(first);
		const reopened = await a.chatController.openFromHistory(historyId);
		await waitUntil(() => a.chatController.tab(reopened)?.state === 'ready', 30_000, 'the chat loaded again');
		assert.equal(a.chatController.tab(reopened)!.session!.sessionId, sessionId, 'the same session, loaded');
		const received = (await a.chatController.tab(reopened)!.session!.agent!.handle.connection.sendRequest('_test/received', {}, z.unknown())) as { method: string; params?: { sessionId?: string } }[];
		assert.ok(received.some((r) => r.method === 'session/load' && r.params?.sessionId === sessionId), 'session/load reached the remote agent');
		await waitFor(async () => (await webviewQuery('.entry-user')).texts.some((t) => t.includes('first chat')), 'the stored transcript drawn');
		await a.chatController.showTab(reopened);
		await waitForSteady(inputFocused, 'the input focused');
		await type('and more', 10);
		await press('Enter');
		await permission(['Enter']);
		await waitUntil(() => turnEnded(reopened, 2), 30_000, 'the next turn ended');
		assert.deepEqual(prompts(a, reopened), ['first chat', 'and more']);
	});

	it('a connection dropped mid-turn: the turn fails, the agent is connected to again, the chat resumes and what was typed is kept', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Remote Dropping');
		await type('start the long job', 10);
		await press('Enter');
		await waitUntil(() => agentText(a, key).includes('Working…'), 20_000, 'the turn under way');
		const typedMeanwhile = 'typed while it was down';
		await type(typedMeanwhile, 10);
		await dropping.drop();
		await waitUntil(() => entries(a, key).some((e) => e.kind === 'notice' && e.title === 'Reconnected to Remote Dropping'), 30_000, 'the chat reconnected');
		assert.ok(a.recentLog().some((l) => /Remote Dropping lost its connection/.test(l)), 'the log says the connection was lost');
		assert.ok(a.recentLog().some((l) => /resumed with Remote Dropping after a restart/.test(l)), 'resumed with session/resume');
		assert.deepEqual(prompts(a, key), ['start the long job'], 'the sent prompt stays in the transcript');
		await waitForSteady(inputFocused, 'the input focused');
		assert.equal((await webviewQuery('textarea.prompt-input')).texts[0], typedMeanwhile, 'what was typed while it was down is still in the input');
		fs.writeFileSync(go, '');
		await press('Enter');
		await waitUntil(() => agentText(a, key).includes('Back again.'), 30_000, 'the next turn answered after the reconnect');
		assert.deepEqual(prompts(a, key), ['start the long job', typedMeanwhile]);
	});

	it('a remote NES agent: its editor-state requests are answered, its suggestion shows in the editor and Tab accepts it', async () => {
		const a = chatApi();
		const any = z.unknown();
		const nes = (method: string, params: Record<string, unknown>) => a.nesAgents.readyAgent!.handle.connection.sendRequest(method, params, any) as Promise<Record<string, unknown>>;
		await vscode.workspace.getConfiguration('agentLink').update('nes.agent', 'Remote NES', vscode.ConfigurationTarget.Global);
		try {
			await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === 'Remote NES');
			assert.equal(a.nesAgents.readyAgent?.handle.isRemote, true);
			await waitUntil(() => a.nes.current?.agent.name === 'Remote NES' && a.nesController.state !== 'off', 15_000, 'the NES session with the remote agent');
			const file = vscode.Uri.file(path.join(folder(), 'remote-nes.txt'));
			fs.writeFileSync(file.fsPath, 'const greeting = "hello";\nconsole.log(gre\n');
			const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
			const cursor = new vscode.Position(1, 15);
			editor.selection = new vscode.Selection(cursor, cursor);
			await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
			// Editor state, asked by the agent over the remote transport and answered by this editor.
			const sessionId = a.nes.current!.id;
			const active = (await nes('_test/ask', { method: EditorStateMethods.activeDocument, params: { sessionId } })) as { result?: { document?: { uri?: string } | null } };
			assert.equal(active.result?.document?.uri, file.toString(), JSON.stringify(active));
			const open = (await nes('_test/ask', { method: EditorStateMethods.openDocuments, params: { sessionId } })) as { result?: { documents?: { uri: string }[] } };
			assert.ok(open.result?.documents?.some((d) => d.uri === file.toString()), JSON.stringify(open));
			// A suggestion at the end of what is typed: shown as ghost text, Tab inserts it.
			const suggestion = { kind: 'edit', id: 'remote-tab', uri: file.toString(), edits: [{ range: { start: { line: 1, character: 17 }, end: { line: 1, character: 17 } }, newText: 'ing);' }] };
			await nes('_test/script', { entries: [{ at: { line: 1, character: 17 }, suggestions: [suggestion] }] });
			await type('et');
			await waitUntil(() => a.nesController.shown?.presentation.id === 'remote-tab' && a.nesController.keysReady, 15_000, 'the remote suggestion shown');
			await waitFor(async () => (await query(GHOST_TEXT, { visible: true })).texts.join('').includes('ing);'), 'the ghost text drawn');
			await screenshot(path.join(SHOTS, 'chat-remote-nes.png'));
			await press('Tab');
			await waitUntil(() => editor.document.lineAt(1).text === 'console.log(greeting);', 10_000, 'the accepted text');
			await waitUntil(
				async () => ((await nes('_test/received', {})) as unknown as { method: string; params: { id?: string } }[]).some((r) => r.method === 'nes/accept' && r.params.id === 'remote-tab'),
				10_000,
				'nes/accept at the remote agent',
			);
			await vscode.workspace.saveAll(false);
		} finally {
			await vscode.workspace.getConfiguration('agentLink').update('nes.agent', undefined, vscode.ConfigurationTarget.Global);
		}
	});

	it('asks before plain text to another machine: Escape connects to nothing, Connect is remembered for the host', async () => {
		const a = chatApi();
		const dialog = async () => (await query('.quick-input-widget', { visible: true })).texts.join(' ');
		const questionFocused = async () => (await query('.quick-input-widget input:focus', { visible: true })).count > 0;
		const connecting = () => a.recentLog().filter((l) => l.includes('Connecting to ws://192.0.2.1:9/acp')).length;
		void vscode.commands.executeCommand('agentLink.chat.new', 'Remote Far');
		await waitFor(async () => (await dialog()).includes('without encryption'), 'the question about plain text', 20_000);
		assert.match(await dialog(), /Connect to 192\.0\.2\.1:9 without encryption/);
		// Asked before the chat opens: the question keeps the keyboard.
		await waitForSteady(questionFocused, 'the question to have the keyboard');
		await press('Escape');
		await waitUntil(() => a.recentLog().some((l) => /Not connecting to 192\.0\.2\.1:9/.test(l)), 10_000, 'declined');
		assert.equal(connecting(), 0, 'nothing was sent there');
		for (const key of [...a.chatController.tabKeys]) {
			await a.chatController.closeTab(key);
		}
		// Asked again (a refusal is not remembered); Connect is.
		void vscode.commands.executeCommand('agentLink.chat.new', 'Remote Far');
		await waitFor(async () => (await dialog()).includes('without encryption'), 'the question again', 20_000);
		await waitForSteady(questionFocused, 'the question to have the keyboard');
		await press('Enter'); // the first choice: Connect
		await waitUntil(() => connecting() === 1, 10_000, 'connecting after Connect');
		// The chat opens after the answer, with the keyboard in its input.
		await waitForSteady(inputFocused, 'the input focused');
		for (const key of [...a.chatController.tabKeys]) {
			await a.chatController.closeTab(key);
		}
		await waitUntil(() => a.pool.get('Remote Far') === undefined, 30_000, 'Remote Far stopped (nobody holds it)');
		void vscode.commands.executeCommand('agentLink.chat.new', 'Remote Far');
		await waitUntil(() => connecting() === 2, 20_000, 'connecting again without a question');
		assert.equal(await dialog(), '', 'no question the second time');
	});
});
