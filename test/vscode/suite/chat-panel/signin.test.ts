// Signing in from the chat, through the browser: an agent that answers session/new or session/prompt
// with auth-required (-32000) gets its methods shown in the chat as buttons. An agent method runs
// `authenticate`; an env_var method asks for the value in a password box, keeps it in secret storage
// and starts the agent again with it (and on every later start); Not now fails the request with the
// agent's answer. Each time the request is tried once more after the sign-in.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { press, query, screenshot, type, waitFor, waitForSteady, webviewQuery } from '../browser';
import { repoRoot, waitUntil } from '../util';
import { chatHooks } from '../chatKit';

const SECRET = 'fixture-secret-1234';
const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const agentText = (a: AgentLinkApi, key: string) =>
	(a.chatController.tab(key)?.transcript.snapshot().entries ?? [])
		.filter((e) => e.kind === 'agent')
		.flatMap((e) => ('blocks' in e ? e.blocks : []))
		.map((b) => (b.type === 'text' ? b.text : ''))
		.join('');
const signInButtons = async () => (await webviewQuery('.sign-in:not([hidden]) .sign-in-method button')).texts.map((t) => t.trim());
const focused = async (selector: string) => (await webviewQuery(`${selector}:focus`)).count === 1;

async function newChat(a: AgentLinkApi, agent: string): Promise<string> {
	const key = await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent);
	assert.ok(key, `a chat with ${agent}`);
	return key;
}

describe('chat panel: signing in', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('signin');

	it('shows the agent’s sign-in methods in the chat; Enter on the first (the agent’s own) signs in and the chat opens', async () => {
		const a = chatApi();
		const key = await newChat(a, 'Chat Sign-in');
		await waitUntil(() => a.chatController.tab(key)?.state === 'auth_required', 20_000, 'the chat asking for a sign-in');
		await waitFor(async () => (await signInButtons()).length === 3, 'the three methods as buttons');
		assert.deepEqual(await signInButtons(), ['Log in with the fixture', 'Use an API key', 'Log in in a terminal']);
		assert.ok((await webviewQuery('.sign-in h2')).texts.includes('Sign in to Chat Sign-in'));
		assert.ok((await webviewQuery('.sign-in-detail')).texts.includes('The fixture signs you in at once.'), 'the method’s description');
		assert.equal((await webviewQuery('button.send:disabled')).count, 1, 'no prompt sent until signed in');
		await waitFor(() => focused('.sign-in-method button.primary'), 'the first method focused');
		const shots = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
		await screenshot(path.join(shots, 'chat-sign-in.png'), '.part.sidebar');
		await press('Enter');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 20_000, 'the chat open after the sign-in');
		assert.equal((await webviewQuery('.sign-in:not([hidden])')).count, 0, 'the sign-in card gone');
		assert.ok(a.recentLog().some((l) => /Signed in to Chat Sign-in with Log in with the fixture/.test(l)));
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused once signed in');
		await type('hello', 10);
		await press('Enter');
		await waitUntil(() => agentText(a, key).includes('Signed in and listening.'), 20_000, 'the answer');
	});

	it('an env_var method asks for the key in a password box, keeps it in secret storage and starts the agent again with it, and on later starts', async () => {
		const a = chatApi();
		const pids = path.join(folder(), '.chat-key-pids');
		const started = () => (fs.existsSync(pids) ? fs.readFileSync(pids, 'utf8').trim().split('\n').length : 0);
		const key = await newChat(a, 'Chat Key');
		await waitFor(async () => (await signInButtons()).includes('Use an API key'), 'the env_var method', 20_000);
		assert.equal(started(), 1);
		await waitFor(() => focused('.sign-in-method button.primary'), 'the method focused');
		await press('Enter');
		await waitFor(async () => (await query('.quick-input-widget input[type="password"]', { visible: true })).count === 1, 'a password box');
		assert.ok((await query('.quick-input-widget', { visible: true })).texts.some((t) => t.includes('Fixture API key') && t.includes('FIXTURE_API_KEY')), 'what to give, and as which variable');
		// An empty value is refused in the box: it stays open.
		await press('Enter');
		await waitFor(async () => (await query('.quick-input-widget .quick-input-message', { visible: true })).texts.some((t) => /needed to sign in/.test(t)), 'the box says the key is needed');
		await type(SECRET, 5);
		await press('Enter');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat open with the key');
		assert.equal(started(), 2, 'the agent started again, with the key');
		assert.ok(!a.recentLog().some((l) => l.includes(SECRET)), 'the key is in no log line');
		assert.ok(a.recentLog().some((l) => /Kept FIXTURE_API_KEY for Chat Key \(secret storage\)/.test(l)));
		await a.chatController.closeTab(key);
		await waitUntil(() => a.pool.get('Chat Key') === undefined, 10_000, 'Chat Key stopped (nobody holds it)');

		// A new chat starts the agent with the key it kept: no sign-in asked.
		const again = await newChat(a, 'Chat Key');
		await waitUntil(() => a.chatController.tab(again)?.state === 'ready' || a.chatController.tab(again)?.state === 'auth_required', 30_000, 'the second chat');
		assert.equal(a.chatController.tab(again)?.state, 'ready', 'signed in with the kept key');
		assert.equal(started(), 3);
		await a.chatController.closeTab(again);
		await waitUntil(() => a.pool.get('Chat Key') === undefined, 10_000, 'Chat Key stopped again');

		// Forget Sign-in Values: the next chat asks again.
		await vscode.commands.executeCommand('agentLink.forgetSignIn', 'Chat Key');
		const third = await newChat(a, 'Chat Key');
		await waitUntil(() => a.chatController.tab(third)?.state === 'auth_required', 30_000, 'a sign-in asked for again');
	});

	it('a prompt the agent refuses until sign-in: Not now fails the turn; the next time, signing in sends the prompt again', async () => {
		const a = chatApi();
		const key = await newChat(a, 'Chat Prompt Sign-in');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 20_000, 'the chat');
		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused');
		await type('first try', 10);
		await press('Enter');
		await waitFor(async () => (await signInButtons()).includes('Log in'), 'the sign-in card for the prompt');
		await waitFor(() => focused('.sign-in-method button.primary'), 'the method focused');
		await press('Tab'); // to Not now
		await waitFor(() => focused('.sign-in-dismiss'), 'Not now focused');
		await press('Enter');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().entries.some((e) => e.kind === 'turn_end' && /Authentication required/.test(e.error ?? '')) === true, 10_000, 'the turn failed with the agent’s answer');
		assert.equal(a.chatController.tab(key)?.state, 'ready', 'the chat goes on');

		await waitForSteady(() => focused('textarea.prompt-input'), 'the input focused again');
		await type('second try', 10);
		await press('Enter');
		await waitFor(async () => (await signInButtons()).includes('Log in'), 'the sign-in card again');
		await waitFor(() => focused('.sign-in-method button.primary'), 'the method focused');
		await press('Enter');
		await waitUntil(() => agentText(a, key).includes('Now I can answer.'), 20_000, 'the prompt sent again and answered');
	});
});
