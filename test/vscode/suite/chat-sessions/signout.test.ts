// Agent Link: Sign Out of Agent, run from the command palette with real keys while two agents run
// (the built-in NES agent and a chat's agent): the agent is picked in a quick pick, `logout` is sent
// only to an agent that advertises auth.logout, and the env_var sign-in values Agent Link keeps for
// it are forgotten once it succeeds; an agent without auth.logout and a failed logout are said in a
// notification, and nothing is forgotten then. And the ACP v1 capabilities the running extension
// advertises are those of src/common/clientCapabilities.ts, which the coverage test checks.
import * as assert from 'node:assert/strict';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { ACP_V1_CLIENT_CAPABILITIES } from '../../../../src/common/clientCapabilities';
import type { ChatSession } from '../../../../src/vscode/chat/chatSessions';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { press, query, QUICK_ROWS, runFromPalette, screenshot, type, waitFor } from '../browser';
import { NOTIFICATIONS, notificationShown } from '../notifications';
import { api, waitForState, waitUntil } from '../util';

const any = z.unknown();
const TITLE = 'Agent Link: Sign Out of Agent';
const KEY = { SIGN_OUT_KEY: 'sign-out-secret' };

/** A chat with `name`, signed in with the value Agent Link keeps for it (suites.mjs: the agent asks for a sign-in without it). */
async function signedInChat(a: AgentLinkApi, name: string): Promise<ChatSession> {
	await a.pool.credentials!.store(name, KEY);
	const choice = a.agents.findChoice(name);
	assert.ok(choice, name);
	const session = await a.chat.create(choice, vscode.workspace.workspaceFolders![0]!.uri.fsPath);
	assert.equal(session.status.kind, 'idle', 'the chat is open: signed in with the kept value');
	return session;
}

async function received(session: ChatSession): Promise<string[]> {
	const messages = (await session.agent!.handle.connection.sendRequest('_test/received', {}, any)) as { method: string }[];
	return messages.map((m) => m.method).filter((m) => !m.startsWith('_test/'));
}

/** Sign Out of Agent from the palette; `name` picked from the running agents by typing it, Enter. */
async function signOutFromPalette(name: string, shot?: string): Promise<void> {
	await runFromPalette(TITLE, TITLE);
	await waitFor(async () => {
		const rows = (await query(QUICK_ROWS, { visible: true })).texts;
		return rows.some((t) => t.includes(name)) && rows.some((t) => t.includes('Agent Link NES'));
	}, 'the running agents in the picker: the chat’s and the NES agent');
	if (shot) {
		await screenshot(shot, '.quick-input-widget');
	}
	await type(name, 10);
	await waitFor(async () => (await query(`${QUICK_ROWS}.focused`, { visible: true })).texts.some((t) => t.includes(name)), `${name} chosen`);
	await press('Enter');
}

/** A notification holding `text`, as shown: a toast, or (headless Chromium often shows no toast) in the notification center, opened as the bell does. */
const notified = (text: string) => waitFor(() => notificationShown(text), `a notification: ${text}`, 15_000);

describe('Sign Out of Agent', function () {
	this.timeout(90_000);
	let a: AgentLinkApi;
	const open: ChatSession[] = [];

	before(async () => {
		a = await api();
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready');
	});

	afterEach(async () => {
		await Promise.all(open.splice(0).map((s) => s.close()));
		await vscode.commands.executeCommand('notifications.clearAll');
		await vscode.commands.executeCommand('notifications.hideList');
	});

	it('signs out of the picked agent with logout and forgets the sign-in values kept for it', async () => {
		const session = await signedInChat(a, 'Chat Signs Out');
		open.push(session);
		assert.ok(a.pool.credentials!.agents().includes('Chat Signs Out'));
		await signOutFromPalette('Chat Signs Out', path.join(process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir(), 'sign-out-picker.png'));
		await notified('signed out of Chat Signs Out');
		assert.deepEqual(await received(session), ['initialize', 'session/new', 'logout']);
		await waitUntil(() => !a.pool.credentials!.agents().includes('Chat Signs Out'), 5000, 'the kept values forgotten');
		assert.deepEqual(await a.pool.credentials!.env('Chat Signs Out'), {});
		// The agent is signed out: a new session asks for a sign-in.
		await assert.rejects(session.agent!.handle.connection.sendRequest('session/new', { cwd: os.tmpdir(), mcpServers: [] }, any), (e: { code?: number }) => e.code === -32000);
		assert.ok(a.recentLog().some((l) => l.includes('Signed out of Chat Signs Out.')));
		assert.ok(!a.recentLog().some((l) => l.includes(KEY.SIGN_OUT_KEY)), 'the value is in no log line');
	});

	it('an agent that does not advertise auth.logout is not sent it: the notification says so, and the kept values stay', async () => {
		const session = await signedInChat(a, 'Chat Keeps Sign-in');
		open.push(session);
		await signOutFromPalette('Chat Keeps Sign-in');
		await notified('Chat Keeps Sign-in does not offer signing out');
		assert.ok((await query(NOTIFICATIONS, { visible: true })).texts.some((t) => t.includes('Forget Sign-in Values')), 'offers to forget the kept values');
		assert.deepEqual(await received(session), ['initialize', 'session/new'], 'no logout sent');
		assert.deepEqual(await a.pool.credentials!.env('Chat Keeps Sign-in'), KEY, 'the kept values stay');
		await a.pool.credentials!.forget('Chat Keeps Sign-in');
	});

	it('a logout the agent refuses is said with its message; the kept values stay', async () => {
		const session = await signedInChat(a, 'Chat Sign-out Fails');
		open.push(session);
		await signOutFromPalette('Chat Sign-out Fails');
		await notified('signing out of Chat Sign-out Fails failed');
		assert.ok((await query(NOTIFICATIONS, { visible: true })).texts.some((t) => t.includes('the token store is locked') && t.includes('are kept')), "the agent's message, and that the values are kept");
		assert.deepEqual(await received(session), ['initialize', 'session/new', 'logout']);
		assert.deepEqual(await a.pool.credentials!.env('Chat Sign-out Fails'), KEY, 'the kept values stay');
		await a.pool.credentials!.forget('Chat Sign-out Fails');
	});
});

describe('ACP v1 client capabilities', () => {
	it('the extension advertises exactly those of clientCapabilities.ts (besides the extensions’ own: workspace, nes, positionEncodings)', async () => {
		const a = await api();
		const advertised = a.pool.clientCapabilities() as Record<string, unknown>;
		const v1 = Object.fromEntries(Object.entries(advertised).filter(([key]) => ['fs', 'terminal', 'session', 'auth', 'elicitation'].includes(key)));
		assert.deepEqual(v1, ACP_V1_CLIENT_CAPABILITIES);
	});
});
