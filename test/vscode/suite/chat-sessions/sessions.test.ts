// Chat sessions as the panel drives them (the API under it): a full turn with the SDK's example
// agent, permission included; two chats with two agents streaming at once beside the NES agent;
// stopping a turn; sign-in; an agent crash resumed or ended.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import type { ChatSession, SessionUpdate } from '../../../../src/vscode/chat/chatSessions';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import * as os from 'node:os';
import * as path from 'node:path';
import { press, query, screenshot } from '../browser';
import { api, isAlive, repoRoot, waitForState, waitUntil } from '../util';

/** README screenshots are refreshed with AGENT_LINK_SCREENSHOTS=1. */
const SHOTS = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : undefined;

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;

function record(session: ChatSession): SessionUpdate[] {
	const updates: SessionUpdate[] = [];
	session.onDidUpdate((u) => updates.push(u));
	return updates;
}

const text = (updates: readonly SessionUpdate[]) =>
	updates
		.filter((u) => u.sessionUpdate === 'agent_message_chunk')
		.map((u) => (u as { content?: { text?: string } }).content?.text ?? '')
		.join('');

async function chatWith(a: AgentLinkApi, name: string): Promise<ChatSession> {
	const choice = a.agents.findChoice(name);
	assert.ok(choice, name);
	return a.chat.create(choice, folder());
}

describe('chat sessions', function () {
	this.timeout(90_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready');
	});

	it('runs a full turn with the SDK example agent: streamed text, tool calls, a permission answered', async () => {
		const session = await chatWith(a, 'SDK Example Agent');
		const updates = record(session);
		const asked: string[] = [];
		session.permissionHandler = async (request) => {
			asked.push(request.toolCall.title ?? '');
			return { outcome: 'selected', optionId: request.options.find((o) => o.kind === 'allow_once')!.optionId };
		};
		assert.equal(await session.prompt([{ type: 'text', text: 'Hello' }]), 'end_turn');
		assert.deepEqual(asked, ['Modifying critical configuration file']);
		const kinds = new Set<string>(updates.map((u) => u.sessionUpdate));
		for (const kind of ['agent_message_chunk', 'tool_call', 'tool_call_update']) {
			assert.ok(kinds.has(kind), `${kind} in ${[...kinds].join(', ')}`);
		}
		assert.match(text(updates), /I'll help you with that/);
		await session.close();
	});

	it('runs two chats with two agents at once while the NES agent keeps its session; closing one leaves the other', async () => {
		const nesPid = a.nesAgents.pid;
		const [first, second] = await Promise.all([chatWith(a, 'Chat A'), chatWith(a, 'Chat B')]);
		const firstUpdates = record(first);
		const secondUpdates = record(second);
		first.permissionHandler = async () => ({ outcome: 'selected', optionId: 'yes' });
		const secondTurn = second.prompt([{ type: 'text', text: 'go' }]);
		await waitUntil(() => text(secondUpdates).includes('B here.'), 10_000, 'B streaming');
		assert.equal(await first.prompt([{ type: 'text', text: 'go' }]), 'end_turn', 'A finishes while B is still streaming');
		assert.match(text(firstUpdates), /permission: \{"outcome":"selected","optionId":"yes"\}/);
		assert.equal(second.status.kind, 'prompting');
		const firstPid = a.pool.get('Chat A')!.pid!;
		await first.close();
		await waitUntil(() => a.pool.get('Chat A') === undefined && !isAlive(firstPid), 10_000, 'Chat A stopped: nobody holds it');
		assert.equal(second.status.kind, 'prompting', 'B still streaming');
		fs.writeFileSync(path.join(folder(), '.chat-b-go'), ''); // B's go-ahead to finish (suites.mjs)
		assert.equal(await secondTurn, 'end_turn');
		assert.match(text(secondUpdates), /B here\. B done\./);
		assert.equal(a.nesAgents.pid, nesPid, 'the NES agent kept running');
		assert.ok(a.nes.current, 'and kept its NES session');
		await second.close();
	});

	it('stops a turn: session/cancel, the pending permission answered cancelled, the stop reason cancelled', async () => {
		const session = await chatWith(a, 'Chat A');
		const updates = record(session);
		let asked!: () => void;
		const askedPromise = new Promise<void>((resolve) => (asked = resolve));
		session.permissionHandler = (_request, signal) => {
			asked();
			return new Promise((resolve) => signal.addEventListener('abort', () => resolve({ outcome: 'selected', optionId: 'yes' })));
		};
		const turn = session.prompt([{ type: 'text', text: 'go' }]);
		await askedPromise;
		session.cancel();
		assert.equal(await turn, 'cancelled');
		assert.match(text(updates), /permission: \{"outcome":"cancelled"\}/);
		await session.close();
	});

	it('signs in when session/new needs it, then opens the chat', async () => {
		const creating = chatWith(a, 'Chat Signs In');
		await waitUntil(async () => (await query('.quick-input-widget .quick-input-title', { visible: true })).texts.some((t) => /Sign in to Chat Signs In/.test(t)), 15_000, 'the sign-in picker');
		await press('Enter');
		const session = await creating;
		assert.equal(session.status.kind, 'idle');
		await session.close();
	});

	it('signs in in a terminal when the agent offers a terminal method: its program run with the method’s arguments, exit 0, then the chat opens', async () => {
		assert.ok(a.recentLog().some((l) => /Client capabilities: .*"auth":\{"terminal":true\}/.test(l)), 'auth.terminal advertised');
		const creating = chatWith(a, 'Chat Terminal Sign-in');
		await waitUntil(async () => (await query('.quick-input-widget .quick-input-title', { visible: true })).texts.some((t) => /Sign in to Chat Terminal Sign-in/.test(t)), 15_000, 'the sign-in picker');
		await press('Enter');
		await waitUntil(() => vscode.window.terminals.some((t) => t.name === 'Sign in: Chat Terminal Sign-in'), 10_000, 'the terminal');
		await waitUntil(async () => (await query('.terminal-wrapper .xterm-rows', { visible: true })).texts.some((t) => /Sign in to the fixture \(test realm\): press Enter/.test(t)), 15_000, 'the sign-in prompt in the terminal');
		await screenshot(path.join(SHOTS ?? os.tmpdir(), 'sign-in-terminal.png'));
		await press('Enter');
		const session = await creating;
		assert.equal(session.status.kind, 'idle');
		await session.close();
	});

	it('resumes a chat after its agent crashes and restarts, when the agent can resume', async () => {
		const session = await chatWith(a, 'Chat Resumes');
		const id = session.sessionId;
		const pid = a.pool.get('Chat Resumes')!.pid!;
		process.kill(pid, 'SIGKILL');
		await waitUntil(() => session.status.kind === 'restarting', 10_000, 'restarting');
		await waitUntil(() => session.status.kind === 'idle', 20_000, 'resumed');
		assert.equal(session.sessionId, id);
		assert.equal(await session.prompt([{ type: 'text', text: 'still there?' }]), 'end_turn');
		await session.close();
	});

	it('ends a chat whose agent crashes and cannot resume, and says so', async () => {
		const session = await chatWith(a, 'Chat A');
		process.kill(a.pool.get('Chat A')!.pid!, 'SIGKILL');
		await waitUntil(() => session.status.kind === 'ended', 20_000, 'ended');
		assert.match((session.status as { message: string }).message, /cannot resume this conversation/);
		await assert.rejects(session.prompt([{ type: 'text', text: 'hello?' }]), /cannot resume/);
		await session.close();
	});
});
