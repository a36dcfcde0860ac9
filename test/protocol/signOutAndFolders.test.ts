// Sign-out and additional directories against the scripted fixture agent, through the real
// connection: `logout` goes only to an agent that advertises auth.logout, signs it out (its next
// session/new asks for a sign-in), and a failure is reported with the agent's message; the
// fixture takes additionalDirectories on session/new, load and resume when it advertises them.
import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import * as z from 'zod/mini';
import { otherFolders, takesAdditionalDirectories } from '../../src/common/agentAbilities';
import { ErrorCodes } from '../../src/common/protocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { logout } from '../../src/node/logout';
import { clientInfo, fixture, launch } from './helpers';

const any = z.unknown();
const handles: AgentHandle[] = [];
after(async () => {
	await Promise.all(handles.map((h) => h.dispose()));
});

async function start(options: Record<string, unknown>, env: Record<string, string> = {}) {
	const definition = fixture('well-behaved.mjs', options);
	const h = await launch({ ...definition, env: { ...definition.env, ...env } });
	handles.push(h);
	const initialized = await h.initialize(clientInfo, { fs: { readTextFile: false, writeTextFile: false } });
	const received = async () => ((await h.connection.sendRequest('_test/received', {}, any)) as { method: string; params?: Record<string, unknown> }[]).filter((m) => !m.method.startsWith('_test/'));
	return { h, caps: initialized.agentCapabilities, received };
}

const signedInEnv = { authEnv: { name: 'FIXTURE_KEY', value: 'k' }, chatAuthRequired: true, authMethods: [{ id: 'key', name: 'Key', type: 'env_var', vars: [{ name: 'FIXTURE_KEY' }] }] };

describe('sign-out (logout)', () => {
	it('an agent that advertises auth.logout gets logout and is signed out: its next session/new asks for a sign-in', async () => {
		// Signed in with an env_var value, as after Agent Link's own sign-in.
		const { h, caps, received } = await start({ agentCapabilities: { auth: { logout: {} } }, ...signedInEnv }, { FIXTURE_KEY: 'k' });
		await h.connection.sendRequest('session/new', { cwd: '/tmp', mcpServers: [] }, any);
		assert.deepEqual(await logout(h.connection, caps), { kind: 'signed_out' });
		assert.deepEqual((await received()).map((m) => m.method), ['initialize', 'session/new', 'logout']);
		await assert.rejects(h.connection.sendRequest('session/new', { cwd: '/tmp', mcpServers: [] }, any), (e: { code?: number }) => e.code === ErrorCodes.AuthRequired);
	});

	it('an agent that does not advertise it is sent nothing', async () => {
		for (const agentCapabilities of [{ loadSession: false }, { auth: {} }, { auth: { logout: null } }]) {
			const { h, caps, received } = await start({ agentCapabilities });
			assert.deepEqual(await logout(h.connection, caps), { kind: 'not_offered' });
			assert.deepEqual((await received()).map((m) => m.method), ['initialize'], JSON.stringify(agentCapabilities));
		}
	});

	it('a logout the agent refuses is a failure with its message', async () => {
		const { h, caps } = await start({ agentCapabilities: { auth: { logout: {} } }, logoutError: { code: -32603, message: 'the token store is locked' } });
		const outcome = await logout(h.connection, caps);
		assert.equal(outcome.kind, 'failed');
		assert.match(outcome.kind === 'failed' ? outcome.message : '', /the token store is locked/);
	});
});

describe('additional directories', () => {
	it('the fixture advertises them when told to, and gets them on session/new, load and resume', async () => {
		const { h, caps, received } = await start({ agentCapabilities: { loadSession: true, sessionCapabilities: { additionalDirectories: {}, resume: {} } } });
		assert.equal(takesAdditionalDirectories(caps), true);
		const additionalDirectories = otherFolders('/w/api', ['/w/api', '/w/web app']);
		await h.connection.sendRequest('session/new', { cwd: '/w/api', additionalDirectories, mcpServers: [] }, any);
		await h.connection.sendRequest('session/load', { sessionId: 'chat-session-1', cwd: '/w/api', additionalDirectories, mcpServers: [] }, any);
		await h.connection.sendRequest('session/resume', { sessionId: 'chat-session-1', cwd: '/w/api', additionalDirectories, mcpServers: [] }, any);
		const sessionRequests = (await received()).filter((m) => m.method.startsWith('session/'));
		assert.deepEqual(
			sessionRequests.map((m) => [m.method, m.params?.additionalDirectories]),
			[
				['session/new', ['/w/web app']],
				['session/load', ['/w/web app']],
				['session/resume', ['/w/web app']],
			],
		);
	});

	it('an agent that does not advertise them is not taken to', async () => {
		const { caps } = await start({ agentCapabilities: { loadSession: true } });
		assert.equal(takesAdditionalDirectories(caps), false);
	});
});
