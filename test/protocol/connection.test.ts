// The real client (AgentHandle + AgentConnection) against scripted agent processes.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { ErrorCodes } from '../../src/common/protocol';
import { CommandNotFoundError } from '../../src/node/agentProcess';
import { UnsupportedProtocolError, type AgentHandle } from '../../src/node/agentHandle';
import { AgentError, InvalidResponseError } from '../../src/node/connection';
import { MemoryLog, clientInfo, fixture, isAlive, launch, repoRoot, waitFor } from './helpers';

const any = z.unknown();
const handles: AgentHandle[] = [];
async function start(script: string, options: Record<string, unknown> = {}, log = new MemoryLog(), maxLineBytes?: number) {
	const h = await launch(fixture(script, options), log, maxLineBytes);
	handles.push(h);
	return h;
}
after(async () => {
	await Promise.all(handles.map((h) => h.dispose()));
});

describe('handshake', () => {
	it('sends protocol version 1, client info and only implemented capabilities, and keeps the agent’s answer', async () => {
		const h = await start('well-behaved.mjs', { agentCapabilities: { loadSession: true, nes: { events: {} } }, authMethods: [{ id: 'login', name: 'Log in', type: 'terminal', args: ['--login'] }] });
		const result = await h.initialize(clientInfo, { fs: { readTextFile: false, writeTextFile: false }, terminal: false });
		assert.equal(result.protocolVersion, 1);
		assert.deepEqual(result.agentCapabilities, { loadSession: true, nes: { events: {} } });
		assert.equal(result.authMethods?.[0]?.type, 'terminal');
		assert.deepEqual(h.initialized, result);
		const sent = (await h.connection.sendRequest('_test/initializeParams', {}, any)) as Record<string, unknown>;
		assert.deepEqual(sent, { protocolVersion: 1, clientInfo, clientCapabilities: { fs: { readTextFile: false, writeTextFile: false }, terminal: false } });
	});

	it('completes initialize with the SDK’s own example agent', async () => {
		const agent = join(repoRoot, 'node_modules', 'acp-sdk-1-9', 'dist', 'examples', 'agent.js');
		const h = await launch({ command: process.execPath, args: [agent], env: {} });
		handles.push(h);
		const result = await h.initialize(clientInfo, {});
		assert.equal(result.protocolVersion, 1);
		assert.equal(result.agentCapabilities?.loadSession, false);
	});

	it('rejects a protocol version it does not speak, clearly and at once', async () => {
		const h = await start('well-behaved.mjs', { protocolVersion: 2 });
		await assert.rejects(h.initialize(clientInfo, {}), (e: unknown) => e instanceof UnsupportedProtocolError && /version 2; Agent Link speaks version 1/.test(e.message));
	});

	it('rejects a malformed initialize reply, naming the field', async () => {
		const h = await start('well-behaved.mjs', { protocolVersion: 'one' });
		await assert.rejects(h.initialize(clientInfo, {}), (e: unknown) => e instanceof InvalidResponseError && /initialize.*protocolVersion/.test(e.message));
	});

	it('says a command cannot be found, and how to install it', async () => {
		await assert.rejects(
			launch({ command: 'agent-link-no-such-command', args: [], env: {} }).catch((e: unknown) => {
				throw e;
			}),
			(e: unknown) => e instanceof CommandNotFoundError && /not found on PATH/.test(e.message),
		);
		const { AgentHandle } = await import('../../src/node/agentHandle');
		await assert.rejects(
			AgentHandle.launch({ definition: { command: 'agent-link-no-such-command', args: [], env: {} }, defaultCwd: repoRoot, maxLineBytes: 1024, log: new MemoryLog(), install: 'npm install -g x' }),
			(e: unknown) => e instanceof CommandNotFoundError && /Install it with: npm install -g x/.test(e.message),
		);
	});
});

describe('requests from the agent', () => {
	it('answers an unknown request with -32601 and ignores unknown notifications', async () => {
		const log = new MemoryLog();
		const h = await start('well-behaved.mjs', {}, log);
		await h.initialize(clientInfo, {});
		const answer = (await h.connection.sendRequest('_test/ask', { method: 'no/such_method', params: {} }, any)) as { error?: { code: number } };
		assert.equal(answer.error?.code, ErrorCodes.MethodNotFound);
		await h.connection.sendRequest('_test/notifyClient', { method: 'no/such_notification', params: { x: 1 } }, any);
		assert.deepEqual(await h.connection.sendRequest('_test/echo', { still: 'up' }, any), { still: 'up' });
		await waitFor(() => log.lines.some((l) => /Ignored notification no\/such_notification/.test(l)));
	});

	it('validates params before the handler runs: -32602 naming the field', async () => {
		const h = await start('well-behaved.mjs');
		let calls = 0;
		h.connection.onRequest('test/greet', z.object({ name: z.string(), times: z.optional(z.int()) }), (p) => {
			calls++;
			return { greeting: `hi ${p.name}` };
		});
		await h.initialize(clientInfo, {});
		const bad = (await h.connection.sendRequest('_test/ask', { method: 'test/greet', params: { name: 42 } }, any)) as { error?: { code: number; message: string } };
		assert.equal(bad.error?.code, ErrorCodes.InvalidParams);
		assert.match(bad.error?.message ?? '', /name/);
		const bad2 = (await h.connection.sendRequest('_test/ask', { method: 'test/greet', params: { name: 'x', times: 1.5 } }, any)) as { error?: { code: number; message: string } };
		assert.match(bad2.error?.message ?? '', /times/);
		assert.equal(calls, 0);
		const good = await h.connection.sendRequest('_test/ask', { method: 'test/greet', params: { name: 'ada' } }, any);
		assert.deepEqual(good, { result: { greeting: 'hi ada' } });
	});

	it('answers a request the agent cancels with -32800', async () => {
		const h = await start('well-behaved.mjs');
		let sawCancel = false;
		h.connection.onRequest('test/slow', z.object({}), async (_p, token) => {
			await new Promise<void>((resolve) => token.onCancellationRequested(() => resolve()));
			sawCancel = true;
			return { done: true };
		});
		await h.initialize(clientInfo, {});
		const answer = (await h.connection.sendRequest('_test/askAndCancel', { method: 'test/slow', params: {}, afterMs: 50 }, any)) as { error?: { code: number } };
		assert.equal(answer.error?.code, ErrorCodes.RequestCancelled);
		assert.ok(sawCancel);
	});

	it('turns a handler’s exception into an error reply, not a crash', async () => {
		const h = await start('well-behaved.mjs');
		h.connection.onRequest('test/throws', z.object({}), () => {
			throw new Error('boom');
		});
		await h.initialize(clientInfo, {});
		const answer = (await h.connection.sendRequest('_test/ask', { method: 'test/throws', params: {} }, any)) as { error?: { code: number; message: string } };
		assert.equal(answer.error?.code, ErrorCodes.InternalError);
		assert.match(answer.error?.message ?? '', /boom/);
	});
});

describe('requests to the agent', () => {
	it('sends $/cancel_request with the request id when a request is cancelled', async () => {
		const h = await start('well-behaved.mjs');
		await h.initialize(clientInfo, {});
		const source = new CancellationTokenSource();
		const pending = h.connection.sendRequest('_test/sleep', { ms: 5000 }, any, source.token);
		setTimeout(() => source.cancel(), 50);
		await assert.rejects(pending, (e: unknown) => e instanceof AgentError && e.code === ErrorCodes.RequestCancelled);
		const received = (await h.connection.sendRequest('_test/received', {}, any)) as { method: string; params: { requestId: unknown } }[];
		const cancel = received.find((r) => r.method === '$/cancel_request');
		assert.ok(cancel, 'the agent received $/cancel_request');
		assert.equal(typeof cancel.params.requestId, 'number');
	});

	it('keeps the order of many messages, and many requests in flight at once resolve to their own answers', async () => {
		const h = await start('slow-agent.mjs', { delayMs: 20 });
		await h.initialize(clientInfo, {});
		const answers = await Promise.all(Array.from({ length: 50 }, (_, i) => h.connection.sendRequest('_test/echo', { i }, any)));
		assert.deepEqual(answers, Array.from({ length: 50 }, (_, i) => ({ i })));
		for (let i = 0; i < 200; i++) {
			void h.connection.sendNotification('test/seq', { i });
		}
		const received = (await h.connection.sendRequest('_test/received', {}, any)) as { method: string; params: { i: number } }[];
		assert.deepEqual(
			received.filter((r) => r.method === 'test/seq').map((r) => r.params.i),
			Array.from({ length: 200 }, (_, i) => i),
		);
	});

	it('turns an error reply into an AgentError with code and data', async () => {
		const h = await start('well-behaved.mjs');
		await h.initialize(clientInfo, {});
		await assert.rejects(h.connection.sendRequest('no/such', {}, any), (e: unknown) => e instanceof AgentError && e.code === ErrorCodes.MethodNotFound && e.method === 'no/such');
	});
});

describe('a misbehaving agent', () => {
	it('survives garbage lines: logs their first bytes and keeps the connection', async () => {
		const log = new MemoryLog();
		const h = await start('garbage-agent.mjs', {}, log);
		await h.initialize(clientInfo, {});
		assert.deepEqual(await h.connection.sendRequest('_test/echo', { a: 1 }, any), { a: 1 });
		assert.deepEqual(await h.connection.sendRequest('_test/echo', { a: 2 }, any), { a: 2 });
		assert.ok(log.lines.some((l) => /Ignored a line from the agent that is not JSON: "this is not json"/.test(l)));
		assert.ok(log.lines.some((l) => /Answered -32600 to a message from the agent \(Invalid Request: .*\): "\{\\"no\\":\\"jsonrpc field\\"\}"/.test(l)));
		assert.equal(h.connection.isClosed, false);
	});

	it('closes the connection on a line over the cap and fails pending calls at once, naming the cause', async () => {
		const h = await start('garbage-agent.mjs', {}, new MemoryLog(), 8 * 1024 * 1024);
		await h.initialize(clientInfo, {});
		const pending = h.connection.sendRequest('_test/sleep', { ms: 60_000 }, any);
		void h.connection.sendRequest('_test/hugeLine', { mb: 100 }, any).catch(() => {});
		const started = Date.now();
		await assert.rejects(pending, /larger than 8 MiB/);
		assert.ok(Date.now() - started < 5000);
		assert.equal(h.connection.isClosed, true);
		await assert.rejects(h.connection.sendRequest('_test/echo', {}, any), /larger than 8 MiB/);
	});

	it('fails every pending call within a second when the agent dies mid-request, with exit code and stderr', async () => {
		const h = await start('crash-agent.mjs');
		await h.initialize(clientInfo, {});
		// Measured from the agent's exit, which is what the client reacts to: how long the agent takes
		// to get there depends on the machine, not on Agent Link.
		const exited = h.process!.onExit.then(() => performance.now());
		const calls = [h.connection.sendRequest('_test/echo', {}, any), h.connection.sendRequest('_test/sleep', { ms: 10_000 }, any)];
		for (const call of calls) {
			await assert.rejects(call, (e: unknown) => e instanceof Error && /exited with code 3/.test(e.message) && /simulated crash while handling _test\/echo/.test(e.message));
		}
		const after = performance.now() - (await exited);
		assert.ok(after < 1000, `failed ${after.toFixed(0)} ms after the agent exited`);
	});

	it('fails pending calls when the agent is killed by a signal', async () => {
		const h = await start('slow-agent.mjs', { delayMs: 0 });
		await h.initialize(clientInfo, {});
		const pending = h.connection.sendRequest('_test/sleep', { ms: 10_000 }, any);
		const exited = h.process!.onExit.then(() => performance.now());
		process.kill(h.pid!, 'SIGKILL');
		await assert.rejects(pending, /killed by SIGKILL/);
		const after = performance.now() - (await exited);
		assert.ok(after < 1000, `failed ${after.toFixed(0)} ms after the agent exited`);
	});
});

describe('process lifetime', () => {
	it('ends the agent and the processes it started', async () => {
		const h = await launch(fixture('well-behaved.mjs', { spawnChild: true }));
		await h.initialize(clientInfo, {});
		const { pid, childPid } = (await h.connection.sendRequest('_test/pids', {}, any)) as { pid: number; childPid: number };
		assert.ok(isAlive(pid) && isAlive(childPid));
		await h.dispose();
		await waitFor(() => !isAlive(pid) && !isAlive(childPid));
	});

	it('kills an agent that ignores SIGTERM', async () => {
		const script = "process.on('SIGTERM', () => {}); process.stdin.resume(); setInterval(() => {}, 1000);";
		const h = await launch({ command: process.execPath, args: ['-e', script], env: {} });
		const pid = h.pid!;
		await new Promise((r) => setTimeout(r, 200));
		await h.dispose(300);
		await waitFor(() => !isAlive(pid));
	});
});
