// Opened with Workspace Trust on and the folder untrusted: the default agent must not start by itself.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import { api, waitUntil } from '../util';

describe('Agent Link: untrusted workspace', () => {
	it('does not start the default agent automatically', async () => {
		const a = await api();
		assert.equal(vscode.workspace.isTrusted, false);
		assert.equal(vscode.workspace.getConfiguration('agentLink').get('defaultAgent'), 'Shared Agent');
		await waitUntil(() => a.recentLog().some((l) => /Not starting the default agent "Shared Agent": the workspace is not trusted/.test(l)));
		assert.equal(a.agents.state.kind, 'stopped');
		assert.equal(a.agents.pid, undefined);
	});
});
