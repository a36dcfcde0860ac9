// The fixture agent the editor state suites use checks clientCapabilities before it calls, as the
// RFD requires agents to: shown here against the real connection, so the integration tests that
// reach the methods through it also show the capability is advertised.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as z from 'zod/mini';
import { EditorStateMethods, clientEditorStateCapabilities, sessionParamsSchema } from '../../src/common/editorStateProtocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { clientInfo, fixture, launch } from './helpers';

const any = z.unknown();
const handles: AgentHandle[] = [];
after(async () => {
	await Promise.all(handles.map((h) => h.dispose()));
});

async function start(): Promise<{ h: AgentHandle; calls: string[] }> {
	const h = await launch(fixture('editor-state-agent.mjs'));
	handles.push(h);
	const calls: string[] = [];
	for (const method of Object.values(EditorStateMethods)) {
		h.connection.onRequest(method, sessionParamsSchema, () => {
			calls.push(method);
			return method === EditorStateMethods.activeDocument ? { document: null } : { documents: [] };
		});
	}
	return { h, calls };
}

describe('editor state fixture agent', () => {
	it('does not call a method the client did not advertise', async () => {
		const { h, calls } = await start();
		await h.initialize(clientInfo, { fs: { readTextFile: false, writeTextFile: false } });
		for (const method of Object.values(EditorStateMethods)) {
			assert.deepEqual(await h.connection.sendRequest('_test/editorState', { method, params: { sessionId: 's' } }, any), { notAdvertised: true });
		}
		assert.deepEqual(calls, []);
	});

	it('calls each method once the client advertises it', async () => {
		const { h, calls } = await start();
		await h.initialize(clientInfo, { fs: { readTextFile: false, writeTextFile: false }, ...clientEditorStateCapabilities() });
		assert.deepEqual(await h.connection.sendRequest('_test/editorState', { method: EditorStateMethods.openDocuments, params: { sessionId: 's' } }, any), {
			result: { documents: [] },
		});
		assert.deepEqual(await h.connection.sendRequest('_test/editorState', { method: EditorStateMethods.activeDocument, params: { sessionId: 's' } }, any), {
			result: { document: null },
		});
		const timed = (await h.connection.sendRequest('_test/editorStateTimed', { method: EditorStateMethods.recentDocuments, params: { sessionId: 's' }, count: 3 }, any)) as {
			ms: number[];
		};
		assert.equal(timed.ms.length, 3);
		assert.deepEqual(calls, [EditorStateMethods.openDocuments, EditorStateMethods.activeDocument, ...Array<string>(3).fill(EditorStateMethods.recentDocuments)]);
	});
});
