// Agents from the ACP Registry, end to end in a real VS Code and through the keyboard: a local
// registry and download server on 127.0.0.1 serves a fixture agent as a tar.gz; the user opens the
// command palette, runs Select Agent, types the agent's name, confirms in the consent prompt, and
// the agent is downloaded, verified, unpacked and started until it completes initialize. Then an
// update from the status bar's command, with the old version removed.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { RegistryServer, fixtureArchives, sha256 } from '../../../shared/registryServer';
import { QUICK_ROWS, press, query, runFromPalette, screenshot, type } from '../browser';
import { api, repoRoot, waitForState, waitUntil } from '../util';

const AGENT = 'Fixture Registry Agent';
const ID = 'fixture-registry-agent';
const platform = `${process.platform === 'darwin' ? 'darwin' : process.platform === 'win32' ? 'windows' : 'linux'}-${process.arch === 'arm64' ? 'aarch64' : 'x86_64'}`;
const shots = process.env.AGENT_LINK_SCREENSHOTS ? path.join(repoRoot, 'media', 'screenshots') : undefined;

function registryDocument(server: RegistryServer, version: string, archive: Buffer) {
	return {
		version: '1.0.0',
		agents: [
			{
				id: ID,
				name: AGENT,
				version,
				description: 'A tiny agent served from this machine for the end-to-end test',
				authors: ['Agent Link tests'],
				license: 'MIT',
				distribution: { binary: { [platform]: { archive: server.url(`/agent-${version}.tar.gz`), cmd: './bin/agent', sha256: sha256(archive) } } },
			},
			{ id: 'broken-entry', name: 'Broken', version: '1.0.0', distribution: {} },
			{ id: 'uv-agent', name: 'Python Agent', version: '0.3.0', description: 'Runs with uvx', license: 'Apache-2.0', distribution: { uvx: { package: 'python-acp-agent' } } },
		],
	};
}


describe('agents from the ACP Registry, from the command palette', function () {
	this.timeout(120_000);
	const server = new RegistryServer();
	const v1 = fixtureArchives(repoRoot, '1.0.0').tarGz;
	const v2 = fixtureArchives(repoRoot, '2.0.0').tarGz;

	before(async () => {
		await server.start();
		server.set('/agent-1.0.0.tar.gz', v1);
		server.set('/agent-2.0.0.tar.gz', v2);
		server.set('/registry.json', registryDocument(server, '1.0.0', v1));
		await vscode.workspace.getConfiguration('agentLink').update('registry.url', server.url('/registry.json'), vscode.ConfigurationTarget.Global);
	});
	after(async () => {
		await vscode.workspace.getConfiguration('agentLink').update('registry.url', undefined, vscode.ConfigurationTarget.Global);
		await server.stop();
	});

	it('picks a registry agent in the palette, asks consent, downloads, verifies and starts it', async () => {
		const a = await api();
		await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
		await runFromPalette('Agent Link: Select Agent', 'Agent Link: Select Agent');
		// Enter with no row highlighted (here: none matches) keeps the picker open, with what was typed.
		const before = a.agents.state;
		await type('zqxzqx');
		await waitUntil(async () => (await query(QUICK_ROWS, { visible: true })).count === 0, 10_000, 'no row left in the picker');
		await press('Enter');
		await new Promise((resolve) => setTimeout(resolve, 1000));
		assert.deepEqual((await query('.quick-input-widget input', { visible: true })).texts, ['zqxzqx'], 'the picker is still open with what was typed');
		assert.deepEqual(a.agents.state, before, 'nothing was picked');
		await press('Control+A', 'Backspace');
		// The registry's section arrives once the list has loaded (the picker does not wait for it):
		// typing filters what is there and what comes.
		await type(AGENT);
		await waitUntil(async () => (await query(QUICK_ROWS)).texts[0]?.includes(AGENT) ?? false, 15_000, 'the registry agent first in the picker').catch(async (error: unknown) => {
			throw new Error(`${String(error)}; the picker shows: ${(await query(QUICK_ROWS)).texts.join(' | ')}`);
		});
		const row = (await query(QUICK_ROWS)).texts[0] ?? '';
		assert.match(row, /v1\.0\.0 · MIT · download/);
		assert.match(row, /A tiny agent served from this machine/);
		assert.ok(a.recentLog().some((l) => /ACP Registry: entry 2 \("broken-entry"\) was skipped/.test(l)), 'the malformed entry is left out, and logged');
		if (shots) {
			await screenshot(path.join(shots, 'registry-picker.png'));
		}
		await press('Enter');

		// Consent: what runs and where it comes from, one fact a row.
		await waitUntil(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('Install and run Fixture Registry Agent 1.0.0')), 10_000, 'the consent prompt');
		const consent = (await query(QUICK_ROWS)).texts.join('\n');
		assert.ok(consent.includes(server.url('/agent-1.0.0.tar.gz')), consent);
		assert.ok(consent.includes(sha256(v1)), consent);
		assert.ok(consent.includes('its sha256, checked before anything runs'), consent);
		assert.ok(consent.includes('./bin/agent'), consent);
		assert.equal((await query('.quick-input-widget .quick-input-title')).texts[0], 'Agent Link: run Fixture Registry Agent 1.0.0 from the ACP Registry?');
		if (shots) {
			await screenshot(path.join(shots, 'registry-consent.png'));
		}
		// An Enter right away counts only after half a second: wait that out, as a person reading would.
		await new Promise((resolve) => setTimeout(resolve, 600));
		await press('Enter');

		const state = await waitForState(a, (s) => (s.kind === 'ready' || s.kind === 'failed') && 'name' in s && s.name === AGENT, 60_000);
		assert.equal(state.kind, 'ready', JSON.stringify(state));
		assert.ok(a.recentLog().some((l) => l.includes(`${AGENT} is ready: ACP protocol 1, Scripted Agent 1.0.0`)), 'initialize completed with the downloaded agent');
		assert.ok(a.recentLog().some((l) => /Installed Fixture Registry Agent 1\.0\.0 from .* \(sha256 verified\)/.test(l)));
		assert.equal(server.hits.get('/agent-1.0.0.tar.gz'), 1);
	});

	it('offers the update when the registry lists a newer version, and removes the old one after the switch', async () => {
		const a = await api();
		server.set('/registry.json', registryDocument(server, '2.0.0', v2));
		await a.registry.load(true);
		assert.equal(a.registry.availableUpdate()?.version, '2.0.0');
		await runFromPalette('Agent Link: Update Agent from the ACP Registry');
		await waitUntil(async () => (await query(QUICK_ROWS)).texts.some((t) => t.includes('Install and run Fixture Registry Agent 2.0.0')), 15_000, 'consent for the new version');
		await new Promise((resolve) => setTimeout(resolve, 600));
		await press('Enter');
		await waitUntil(() => a.recentLog().some((l) => l.includes(`${AGENT} is ready: ACP protocol 1, Scripted Agent 2.0.0`)), 60_000, 'version 2 to start');
		const home = path.join(a.registry.storageFolder, 'agents', ID);
		await waitUntil(() => !fs.existsSync(path.join(home, '1.0.0')), 10_000, 'the old version to be removed');
		assert.deepEqual(fs.readdirSync(home), ['2.0.0']);
	});

	it('can be chosen as the NES agent once installed, and runs beside the chat agent', async () => {
		const a = await api();
		await vscode.commands.executeCommand('agentLink.selectAgent', 'Fixture Agent');
		await waitForState(a, (s) => s.kind === 'ready' && s.name === 'Fixture Agent');
		assert.ok(a.nesAgents.findChoice(AGENT), 'the installed registry agent is a choice for the NES role');
		await vscode.workspace.getConfiguration('agentLink').update('nes.agent', AGENT, vscode.ConfigurationTarget.Global);
		try {
			await waitUntil(() => a.nesAgents.state.kind === 'ready' && 'name' in a.nesAgents.state && a.nesAgents.state.name === AGENT, 20_000, 'the registry agent as the NES agent');
			assert.equal(a.agents.state.kind, 'ready', 'the chat agent still runs');
		} finally {
			await vscode.workspace.getConfiguration('agentLink').update('nes.agent', '', vscode.ConfigurationTarget.Global);
		}
	});
});
