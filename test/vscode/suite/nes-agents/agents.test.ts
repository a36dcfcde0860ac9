// The NES agent beside the chat agent (agentLink.nes.agent): each in its own process with its own
// connection, restart policy and status; one process when both roles name the same agent; editor
// state answered to each agent for the sessions it created.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { EditorStateMethods } from '../../../../src/common/editorStateProtocol';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { OpenAiTestServer } from '../../../shared/openAiServer';
import { press, query, type } from '../browser';
import { api, isAlive, waitForState, waitUntil } from '../util';

const any = z.unknown();
const NES_AGENT = 'NES Fixture';
const CHAT_WITH_NES = 'Chat With NES';

async function setNesAgent(name: string): Promise<void> {
	await vscode.workspace.getConfiguration('agentLink').update('nes.agent', name, vscode.ConfigurationTarget.Global);
}

async function pidOf(agents: AgentLinkApi['agents']): Promise<number> {
	const agent = agents.readyAgent;
	assert.ok(agent, 'an agent is ready');
	return ((await agent.handle.connection.sendRequest('_test/pids', {}, any)) as { pid: number }).pid;
}

describe('the NES agent beside the chat agent', function () {
	this.timeout(60_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	it('starts the NES agent on its own at startup and opens the NES session with it', async () => {
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === NES_AGENT);
		assert.equal(a.agents.state.kind, 'stopped', 'no chat agent was asked for');
		await waitUntil(() => a.nes.current?.agent.name === NES_AGENT, 15_000, 'the NES session with the NES agent');
		assert.equal(a.nesAgentSelector.source, a.nesAgents);
	});

	it('runs the chat agent beside it, each in its own process, and keeps the NES session where it is', async () => {
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Fixture Agent');
		await waitForState(a, (s) => s.kind === 'ready' && s.name === 'Fixture Agent');
		const chatPid = await pidOf(a.agents);
		const nesPid = await pidOf(a.nesAgents);
		assert.notEqual(chatPid, nesPid);
		assert.ok(isAlive(chatPid) && isAlive(nesPid));
		assert.equal(a.nes.current?.agent.name, NES_AGENT);
	});

	it('answers editor state to each agent for the sessions it created, and only those', async () => {
		const nesSession = a.nes.current!.id;
		const nesAnswer = (await a.nesAgents.readyAgent!.handle.connection.sendRequest('_test/ask', { method: EditorStateMethods.activeDocument, params: { sessionId: nesSession } }, any)) as { result?: unknown; error?: { code: number } };
		assert.ok('result' in nesAnswer, JSON.stringify(nesAnswer));
		const chatAnswer = (await a.agents.readyAgent!.handle.connection.sendRequest('_test/ask', { method: EditorStateMethods.activeDocument, params: { sessionId: nesSession } }, any)) as { error?: { code: number } };
		assert.equal(chatAnswer.error?.code, -32602, 'the chat agent cannot use the NES agent’s session');
	});

	it('restarts a crashed NES agent in its own manager, leaving the chat agent alone', async () => {
		const chatPid = await pidOf(a.agents);
		const nesPid = await pidOf(a.nesAgents);
		process.kill(nesPid, 'SIGKILL');
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'crashed');
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === NES_AGENT);
		assert.notEqual(await pidOf(a.nesAgents), nesPid);
		assert.equal(await pidOf(a.agents), chatPid);
		assert.equal(a.agents.state.kind, 'ready');
		await waitUntil(() => a.nes.current?.agent.name === NES_AGENT, 15_000, 'a new NES session with the restarted agent');
	});

	it('shares one process when both roles name the same agent', async () => {
		await setNesAgent(CHAT_WITH_NES);
		await vscode.commands.executeCommand('agentLink.selectAgent', CHAT_WITH_NES);
		await waitForState(a, (s) => s.kind === 'ready' && s.name === CHAT_WITH_NES);
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === CHAT_WITH_NES);
		assert.equal(a.nesAgents.readyAgent, a.agents.readyAgent, 'one connection');
		assert.equal(await pidOf(a.nesAgents), await pidOf(a.agents), 'one process');
		assert.ok(a.nesAgentSelector.shared);
		await waitUntil(() => a.nes.current?.agent.name === CHAT_WITH_NES, 15_000, 'the NES session with the shared agent');
		await waitUntil(() => a.pool.get(NES_AGENT) === undefined, 10_000, 'the NES fixture, held by nobody now, stopped');
	});

	it('follows the chat agent when the setting is empty, and starts the NES agent again when it names one', async () => {
		await setNesAgent('');
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Fixture Agent');
		await waitForState(a, (s) => s.kind === 'ready' && s.name === 'Fixture Agent');
		await waitUntil(() => a.nes.current === undefined, 10_000, 'no NES session: the chat agent offers none');
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'stopped');
		await waitUntil(() => a.pool.get(CHAT_WITH_NES) === undefined, 10_000, 'the agent nobody holds any more, stopped');
		await setNesAgent(NES_AGENT);
		await waitForState({ agents: a.nesAgents }, (s) => s.kind === 'ready' && s.name === NES_AGENT);
		await waitUntil(() => a.nes.current?.agent.name === NES_AGENT, 15_000, 'the NES session back with the NES agent');
	});
});

describe('Agent Link NES (built in) as the NES agent', function () {
	this.timeout(60_000);
	let a: AgentLinkApi;
	const BUILT_IN = 'Agent Link NES (built in)';
	const nesState = (predicate: (s: AgentLinkApi['agents']['state']) => boolean) => waitForState({ agents: a.nesAgents }, predicate);

	const model = new OpenAiTestServer();
	const SECRET = 'sk-test-not-a-real-key-4242';

	before(async () => {
		a = await api();
		await model.start();
	});
	after(async () => {
		await model.stop();
		const config = vscode.workspace.getConfiguration('agentLink');
		await config.update('nesAgent.model.endpoint', undefined, vscode.ConfigurationTarget.Global);
		await config.update('nesAgent.model.model', undefined, vscode.ConfigurationTarget.Global);
	});

	it('runs the shipped agent with the editor’s runtime, and opens the NES session with it', async () => {
		await setNesAgent(BUILT_IN);
		await nesState((s) => s.kind === 'ready' && s.name === BUILT_IN);
		await waitUntil(() => a.nes.current?.agent.name === BUILT_IN, 15_000, 'the NES session with the built-in agent');
		assert.ok(a.recentLog().some((l) => /\[agent stderr\] \[agent-link-nes\] Initialized with agent-link; .*engine: edit-by-example/.test(l)), 'edit-by-example, with no model configured');
	});

	it('restarts it with the model settings when they change, and passes them through its environment', async () => {
		const config = vscode.workspace.getConfiguration('agentLink');
		const before = a.nesAgents.pid;
		await config.update('nesAgent.model.model', 'tiny-next-edit', vscode.ConfigurationTarget.Global);
		await config.update('nesAgent.model.endpoint', model.url, vscode.ConfigurationTarget.Global);
		await waitUntil(() => a.nesAgents.state.kind === 'ready' && a.nesAgents.pid !== before, 20_000, 'the restart');
		await waitUntil(() => a.recentLog().some((l) => l.includes(`engine: model tiny-next-edit (sweep format) at ${model.url}`)), 15_000, 'the model engine');
		await waitUntil(() => a.nes.current?.agent.name === BUILT_IN, 15_000, 'the NES session with the restarted agent');
	});

	it('sends the API key typed into Set NES Model API Key to the model, and never writes it to settings or the log', async () => {
		const before = a.nesAgents.pid;
		void vscode.commands.executeCommand('agentLink.nesAgent.setApiKey');
		await waitUntil(async () => (await query('.quick-input-widget input[type="password"]')).count > 0, 10_000, 'the password box');
		await type(SECRET);
		await press('Enter');
		await waitUntil(() => a.nesAgents.state.kind === 'ready' && a.nesAgents.pid !== before, 20_000, 'the restart with the key');
		await waitUntil(() => a.nes.current?.agent.name === BUILT_IN, 15_000, 'the NES session');
		// Ask for a suggestion: the model is asked, with the key.
		const file = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0]!.uri, 'main.js');
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file), { preview: false });
		editor.selection = new vscode.Selection(0, 0, 0, 0);
		model.behaviors.push({ reply: '' });
		await waitUntil(async () => {
			await vscode.commands.executeCommand('agentLink.nes.suggest');
			return model.seen.length > 0;
		}, 20_000, 'a request to the model');
		assert.equal(model.seen.at(-1)?.authorization, `Bearer ${SECRET}`);
		assert.ok(!a.recentLog().some((l) => l.includes(SECRET)), 'the key is in no log line');
		assert.ok(!JSON.stringify(vscode.workspace.getConfiguration('agentLink')).includes(SECRET), 'the key is in no setting');
	});
});
