// The window opens untrusted with both roles naming the same agent; trust is then granted through
// the workbench, which starts both roles at once.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { click, query, runFromPalette } from '../browser';
import { api, waitUntil } from '../util';
import { assertOneProcess, bothOnShared, startedPids } from '../one-process/shared';

describe('one agent for both roles, trust granted later: one process', function () {
	this.timeout(90_000);
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	it('starts nothing while the workspace is untrusted', async () => {
		assert.equal(vscode.workspace.isTrusted, false);
		await waitUntil(() => a.recentLog().some((l) => /Not starting the default agent "Shared Agent"/.test(l)), 10_000, 'the log line');
		assert.equal(a.pool.launches, 0);
		assert.deepEqual(startedPids(), []);
	});

	it('starts one process for both roles when the user trusts the folder', async () => {
		await runFromPalette('Workspaces: Manage Workspace Trust');
		await waitUntil(async () => (await query('.workspace-trust-editor .monaco-button')).count > 0, 10_000, 'the trust editor');
		await click('.workspace-trust-editor .monaco-button', 'Trust');
		await waitUntil(() => vscode.workspace.isTrusted, 10_000, 'trust');
		await bothOnShared(a);
		await assertOneProcess(a, 1);
	});
});
