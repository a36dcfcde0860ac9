// The real client (AgentHandle + AgentConnection over remoteTransport.ts) against real remote
// servers: the ACP SDK's own AcpServer on loopback (test/fixtures/remote/acp-server.mjs) in front of
// the fixture agents, over both profiles of the transport: Streamable HTTP (+SSE) and WebSocket.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import * as z from 'zod/mini';
import type { RemoteAgentDefinition } from '../../src/common/remoteAgent';
import { AgentHandle } from '../../src/node/agentHandle';
import { RemoteAuthError, RemoteLinkError } from '../../src/node/remoteTransport';
import { MemoryLog, clientInfo, repoRoot, waitFor } from './helpers';
import { RemoteServer, type RemoteServerOptions } from './remoteServer';

const any = z.unknown();
const servers: RemoteServer[] = [];
const handles: AgentHandle[] = [];
const scratch = mkdtempSync(join(tmpdir(), 'agent-link-remote-'));
after(async () => {
	await Promise.all(handles.map((h) => h.dispose()));
	await Promise.all(servers.map((s) => s.stop()));
	rmSync(scratch, { recursive: true, force: true });
});

async function serve(options: RemoteServerOptions = {}): Promise<RemoteServer> {
	const server = await RemoteServer.start(options);
	servers.push(server);
	return server;
}

function definition(url: string, headers: Record<string, string> = {}): RemoteAgentDefinition {
	return { url, headers, authHeader: 'Authorization' };
}

async function connect(url: string, options: { secret?: string; connectTimeoutMs?: number; log?: MemoryLog } = {}): Promise<AgentHandle> {
	const h = await AgentHandle.launch({ definition: definition(url), defaultCwd: repoRoot, maxLineBytes: 64 * 1024 * 1024, log: options.log ?? new MemoryLog(), secret: options.secret, connectTimeoutMs: options.connectTimeoutMs });
	handles.push(h);
	return h;
}

/** The text of the agent_message_chunks `h` receives for `sessionId`. */
function collectText(h: AgentHandle): { text: () => string } {
	let text = '';
	h.connection.onNotification('session/update', any, (params) => {
		const update = (params as { update?: { sessionUpdate?: string; content?: { text?: string } } }).update;
		if (update?.sessionUpdate === 'agent_message_chunk') {
			text += update.content?.text ?? '';
		}
	});
	return { text: () => text };
}

/** Why the connection closed, once it has. */
function closeCause(h: AgentHandle): Promise<Error> {
	return new Promise((resolve) => h.connection.onDidClose(resolve));
}

for (const profile of ['http', 'websocket'] as const) {
	describe(`remote agent over ${profile === 'http' ? 'Streamable HTTP' : 'WebSocket'}`, () => {
		it('initializes, opens a session and runs a turn as over stdio; the agent’s fs request is answered by the client', async () => {
			const server = await serve({
				fixture: {
					agentCapabilities: { loadSession: true },
					chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'hello ' } }, { ask: { method: 'fs/read_text_file', params: { path: '/remote/file.txt' } } }, { stream: { count: 20, text: 'x' } }],
				},
			});
			const h = await connect(server.url(profile));
			assert.equal(h.isRemote, true);
			assert.equal(h.pid, undefined);
			const reads: string[] = [];
			h.connection.onRequest('fs/read_text_file', z.object({ sessionId: z.string(), path: z.string() }), ({ path }) => {
				reads.push(path);
				return { content: 'local content' };
			});
			const chunks = collectText(h);
			const result = await h.initialize(clientInfo, { fs: { readTextFile: true, writeTextFile: false }, terminal: false });
			assert.equal(result.protocolVersion, 1);
			assert.equal(result.agentCapabilities?.loadSession, true);
			const session = (await h.connection.sendRequest('session/new', { cwd: repoRoot, mcpServers: [] }, any)) as { sessionId: string };
			assert.match(session.sessionId, /^chat-session-/);
			const answer = (await h.connection.sendRequest('session/prompt', { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'hi' }] }, any)) as { stopReason: string };
			assert.equal(answer.stopReason, 'end_turn');
			assert.deepEqual(reads, ['/remote/file.txt']);
			await waitFor(() => chunks.text().endsWith('x'.repeat(20)));
			assert.match(chunks.text(), /^hello fs\/read_text_file: \{"content":"local content"\}x{20}$/);
		});

		it('answers HTTP 401 with a RemoteAuthError (ask again, never retried blindly), and connects with the secret', async () => {
			const server = await serve({ token: 's3cret-token' });
			const refused = await connect(server.url(profile));
			const cause = closeCause(refused);
			await assert.rejects(refused.initialize(clientInfo, {}));
			const error = await cause;
			assert.ok(error instanceof RemoteAuthError, `got ${error.name}: ${error.message}`);
			assert.equal(error.status, 401);
			assert.doesNotMatch(error.message, /s3cret/);
			const log = new MemoryLog();
			const accepted = await connect(server.url(profile), { secret: 's3cret-token', log });
			assert.equal((await accepted.initialize(clientInfo, {})).protocolVersion, 1);
			assert.ok(!log.lines.some((l) => l.includes('s3cret-token')), 'the secret is never logged');
		});

		it('answers HTTP 403 (a credential without access) with a RemoteAuthError of its own status and message, apart from 401', async () => {
			const server = await serve({ token: 'good-token', forbidden: 'no-access-token' });
			const refused = await connect(server.url(profile), { secret: 'no-access-token' });
			const cause = closeCause(refused);
			await assert.rejects(refused.initialize(clientInfo, {}));
			const error = await cause;
			assert.ok(error instanceof RemoteAuthError, `got ${error.name}: ${error.message}`);
			assert.equal(error.status, 403);
			assert.match(error.message, /refused the credential \(HTTP 403: wrong, or without access there\)/);
			assert.doesNotMatch(error.message, /no-access-token/);
		});

		it('gives up on a server that never answers within the connect timeout, with a clear error', async () => {
			const server = await serve({ stall: true });
			const h = await connect(server.url(profile), { connectTimeoutMs: 500 });
			const cause = closeCause(h);
			await assert.rejects(h.initialize(clientInfo, {}));
			const error = await cause;
			assert.ok(error instanceof RemoteLinkError, `got ${error.name}: ${error.message}`);
			assert.match(error.message, /127\.0\.0\.1.*(No answer within 0\.5 s|handshake has timed out)/);
		});

		it('fails the turn in flight when the server drops the connection, and a new connection resumes the session', async () => {
			const go = join(scratch, `go-${profile}`);
			const store = join(scratch, `sessions-${profile}.json`);
			const server = await serve({
				fixture: { agentCapabilities: { loadSession: true, sessionCapabilities: { resume: {} } }, sessionStore: store, chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'started' } }, { waitForFile: go }] },
			});
			const h = await connect(server.url(profile));
			const chunks = collectText(h);
			await h.initialize(clientInfo, {});
			const { sessionId } = (await h.connection.sendRequest('session/new', { cwd: repoRoot, mcpServers: [] }, any)) as { sessionId: string };
			const cause = closeCause(h);
			const turn = h.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'long' }] }, any);
			const turnFailed = assert.rejects(turn);
			await waitFor(() => chunks.text() === 'started');
			await server.drop();
			await turnFailed;
			const error = await cause;
			assert.ok(error instanceof RemoteLinkError, `got ${error.name}: ${error.message}`);
			assert.ok(!existsSync(go));
			// A new transport connection, initialize, then session/resume (nothing in flight is replayed).
			const again = await connect(server.url(profile));
			const init = await again.initialize(clientInfo, {});
			assert.deepEqual((init.agentCapabilities as { sessionCapabilities?: unknown }).sessionCapabilities, { resume: {} });
			assert.deepEqual(await again.connection.sendRequest('session/resume', { sessionId, cwd: repoRoot, mcpServers: [] }, any), {});
			writeFileSync(go, '');
			const answer = (await again.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: 'again' }] }, any)) as { stopReason: string };
			assert.equal(answer.stopReason, 'end_turn');
			assert.equal(await server.connections(), 2);
		});
	});
}
