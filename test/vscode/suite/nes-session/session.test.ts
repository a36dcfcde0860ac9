// The NES session: nes/start with workspace and repository, both revisions, auth, nes/close.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { behindAnotherPageThroughout } from '../browser';
import { api, waitForState, waitUntil } from '../util';

const any = z.unknown();

interface Received {
	readonly method: string;
	readonly params: Record<string, unknown>;
	readonly request?: boolean;
}

async function received(a: AgentLinkApi): Promise<Received[]> {
	return (await a.agents.readyAgent!.handle.connection.sendRequest('_test/received', {}, any)) as Received[];
}

async function select(a: AgentLinkApi, name: string): Promise<void> {
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === name);
}

async function setNesEnabled(enabled: boolean): Promise<void> {
	await vscode.workspace.getConfiguration('agentLink').update('nes.enabled', enabled, vscode.ConfigurationTarget.Global);
}

describe('Agent Link: NES session', function () {
	behindAnotherPageThroughout(); // nothing drawn is looked at
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	afterEach(async () => {
		await setNesEnabled(true);
		await vscode.commands.executeCommand('agentLink.stopAgent');
	});

	it('offers NES and all three position encodings in initialize', async () => {
		await select(a, 'NES Merged');
		const init = (await a.agents.readyAgent!.handle.connection.sendRequest('_test/initializeParams', {}, any)) as { clientCapabilities: Record<string, unknown> };
		assert.deepEqual(init.clientCapabilities.positionEncodings, ['utf-16', 'utf-8', 'utf-32']);
		assert.ok(init.clientCapabilities.nes && typeof init.clientCapabilities.nes === 'object');
	});

	it('starts a merged-revision session with the workspace and its git repository', async () => {
		await select(a, 'NES Merged');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		const session = a.nes.current!;
		assert.equal(session.profile.revision, 'merged');
		assert.equal(session.profile.encoding, 'utf-16');
		assert.ok(a.agents.readyAgent!.sessions.has(session.id));
		const start = (await received(a)).find((r) => r.method === 'nes/start');
		const folder = vscode.workspace.workspaceFolders![0]!;
		assert.deepEqual(start?.params, {
			workspaceUri: folder.uri.toString(),
			workspaceFolders: [{ uri: folder.uri.toString(), name: folder.name }],
			repository: { name: 'my-app', owner: 'alice', remoteUrl: 'https://example.com/alice/my-app.git' },
		});
	});

	it('closes the session when NES is turned off, and starts a new one when it is turned back on', async () => {
		await select(a, 'NES Merged');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		const first = a.nes.current!.id;
		await setNesEnabled(false);
		await waitUntil(async () => (await received(a)).some((r) => r.method === 'nes/close'), 10_000, 'nes/close');
		const close = (await received(a)).find((r) => r.method === 'nes/close');
		assert.deepEqual(close?.params, { sessionId: first });
		assert.equal(a.nes.current, undefined);
		assert.equal(a.agents.readyAgent!.sessions.has(first), false);
		await setNesEnabled(true);
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'a new NES session');
		assert.notEqual(a.nes.current!.id, first);
	});

	it('sends nes/close before stopping the agent', async () => {
		await select(a, 'NES Merged');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		const sessionId = a.nes.current!.id;
		await vscode.commands.executeCommand('agentLink.stopAgent');
		// The agent logged every message it received, up to the end of its input.
		const logFile = path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.agent-messages.jsonl');
		const messages = fs.readFileSync(logFile, 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { method?: string; params?: unknown });
		const last = messages.filter((m) => m.method?.startsWith('nes/')).at(-1);
		assert.deepEqual({ method: last?.method, params: last?.params }, { method: 'nes/close', params: { sessionId } });
	});

	it('speaks the seed revision to an agent with the seed capability shape, and sends no nes/close', async () => {
		await select(a, 'NES Seed');
		await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
		assert.equal(a.nes.current!.profile.revision, 'seed');
		assert.deepEqual(a.nes.current!.profile.events, { didOpen: true, didChange: undefined, didClose: false, didSave: false, didFocus: false });
		await setNesEnabled(false);
		await waitUntil(() => a.nes.current === undefined);
		const methods = (await received(a)).map((r) => r.method);
		assert.ok(methods.includes('nes/start'));
		assert.ok(!methods.includes('nes/close'), 'the seed revision has no nes/close');
	});

	it('offers the agent’s sign-in when nes/start needs authentication, then retries', async () => {
		const selecting = vscode.commands.executeCommand('agentLink.selectAgent', 'NES Auth');
		await waitUntil(async () => {
			await vscode.commands.executeCommand('workbench.action.acceptSelectedQuickOpenItem');
			return a.nes.current !== undefined;
		}, 20_000, 'sign-in and the NES session');
		await selecting;
		const log = (await received(a)).map((r) => `${r.method} ${JSON.stringify(r.params)}`);
		assert.deepEqual(
			log.filter((l) => /^(nes\/start|authenticate)/.test(l)).map((l) => l.split(' ')[0]),
			['nes/start', 'authenticate', 'nes/start'],
		);
		assert.ok(log.some((l) => l === 'authenticate {"methodId":"browser-login"}'));
	});

	it('keeps NES off, with a log line, when the agent’s NES capabilities are invalid', async () => {
		await select(a, 'NES Invalid');
		await waitUntil(() => a.recentLog().some((l) => /NES Invalid advertises next edit suggestions, but its capabilities are invalid \(nes\.events\.document\.didChange\.syncKind/.test(l)));
		assert.equal(a.nes.current, undefined);
		assert.ok(!(await received(a)).some((r) => r.method === 'nes/start'));
	});

	it('does not start NES with an agent that does not offer it', async () => {
		await select(a, 'Fixture Agent');
		assert.equal(a.nes.current, undefined);
		assert.ok(!(await received(a)).some((r) => r.method.startsWith('nes/')));
	});
});
