// Remote agents against a local one, in the same run: request round trips per second and the
// latency from `session/prompt` to the turn's first `agent_message_chunk`, through the real client
// (AgentHandle + AgentConnection), to the same scripted agent
//   - over stdio (the agent is this process's child),
//   - over WebSocket and over Streamable HTTP (+SSE) via remoteTransport.ts, to the ACP SDK's
//     AcpServer on loopback (test/fixtures/remote/acp-server.mjs), which bridges each connection to
//     its own agent process: one more process hop than stdio, as a real remote server has.
// As a control, the round trips of the SDK's own client connection over the same two transport
// streams: what the bridge to our connection (NDJSON lines over Node streams) costs on top.
// Rounds alternate the order of the transports so machine noise hits all alike.
//
//   node out/bench/remote.bench.js [--rounds 5] [--requests 1000] [--prompts 100]
import { spawn, type ChildProcessByStdio } from 'node:child_process';
import type { Readable, Writable } from 'node:stream';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import WebSocket from 'ws';
import { client } from '@agentclientprotocol/sdk';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream, type WebSocketConstructor } from '@agentclientprotocol/sdk/experimental/ws-client';
import * as z from 'zod/mini';
import type { AgentDefinition } from '../src/common/config';
import { nullLogger } from '../src/common/log';
import { AgentHandle } from '../src/node/agentHandle';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '5' },
		requests: { type: 'string', default: '1000' },
		prompts: { type: 'string', default: '100' },
	},
});
const rounds = Number(values.rounds);
const requests = Number(values.requests);
const prompts = Number(values.prompts);

const root = join(__dirname, '..', '..'); // out/bench -> repository root
const fixture = { chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'first' } }, { stream: { count: 20, text: 'more ' } }] };
const any = z.unknown();
type Transport = 'stdio' | 'websocket' | 'http';
const TRANSPORTS: readonly Transport[] = ['stdio', 'websocket', 'http'];

/** The remote server, started once for the run. */
async function startServer(): Promise<{ child: ChildProcessByStdio<Writable, Readable, null>; http: string; ws: string }> {
	const child = spawn(process.execPath, [join(root, 'test', 'fixtures', 'remote', 'acp-server.mjs')], {
		cwd: root,
		env: { ...process.env, AGENT_LINK_REMOTE: JSON.stringify({ fixture }) },
		stdio: ['pipe', 'pipe', 'inherit'],
	});
	child.stdout.setEncoding('utf8');
	const line = await new Promise<string>((resolve) => {
		let out = '';
		child.stdout.on('data', (d: string) => {
			out += d;
			if (out.includes('\n')) {
				resolve(out.slice(0, out.indexOf('\n')));
			}
		});
	});
	return { child, ...(JSON.parse(line) as { http: string; ws: string }) };
}

interface Figures {
	readonly roundTripsPerSec: number;
	readonly firstChunkMs: number[];
}

async function measure(definition: AgentDefinition): Promise<Figures> {
	const handle = await AgentHandle.launch({ definition, defaultCwd: root, maxLineBytes: 64 * 1024 * 1024, log: nullLogger });
	await handle.initialize({ name: 'bench', title: 'bench', version: '0' }, {});
	let firstChunk: (() => void) | undefined;
	handle.connection.onNotification('session/update', any, (params) => {
		if ((params as { update?: { sessionUpdate?: string } }).update?.sessionUpdate === 'agent_message_chunk') {
			firstChunk?.();
			firstChunk = undefined;
		}
	});
	for (let i = 0; i < 100; i++) {
		await handle.connection.sendRequest('_test/echo', { warm: i }, any);
	}
	let start = performance.now();
	for (let i = 0; i < requests; i++) {
		await handle.connection.sendRequest('_test/echo', { i, text: 'a short payload' }, any);
	}
	const roundTripsPerSec = requests / ((performance.now() - start) / 1000);
	const { sessionId } = (await handle.connection.sendRequest('session/new', { cwd: root, mcpServers: [] }, any)) as { sessionId: string };
	const firstChunkMs: number[] = [];
	for (let i = 0; i < prompts; i++) {
		const first = new Promise<void>((resolve) => (firstChunk = resolve));
		start = performance.now();
		const turn = handle.connection.sendRequest('session/prompt', { sessionId, prompt: [{ type: 'text', text: `prompt ${i}` }] }, any);
		await first;
		firstChunkMs.push(performance.now() - start);
		await turn;
	}
	await handle.dispose();
	return { roundTripsPerSec, firstChunkMs };
}

/** Round trips/s of the SDK's own client over its transport stream to `url`: the control. */
async function sdkRoundTrips(url: string): Promise<number> {
	const stream = url.startsWith('ws') ? createWebSocketStream(url, { WebSocket: WebSocket as unknown as WebSocketConstructor }) : createHttpStream(url);
	const connection = client().connect(stream);
	await connection.agent.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
	for (let i = 0; i < 100; i++) {
		await connection.agent.request('_test/echo', { warm: i });
	}
	const start = performance.now();
	for (let i = 0; i < requests; i++) {
		await connection.agent.request('_test/echo', { i, text: 'a short payload' });
	}
	const rate = requests / ((performance.now() - start) / 1000);
	connection.close();
	return rate;
}

function percentile(xs: readonly number[], p: number): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function main(): Promise<void> {
	const server = await startServer();
	const definitions: Record<Transport, AgentDefinition> = {
		stdio: { command: process.execPath, args: [join(root, 'test', 'fixtures', 'agents', 'well-behaved.mjs')], env: { AGENT_LINK_FIXTURE: JSON.stringify(fixture) } },
		websocket: { url: server.ws, headers: {}, authHeader: 'Authorization' },
		http: { url: server.http, headers: {}, authHeader: 'Authorization' },
	};
	const results: Record<Transport, Figures[]> = { stdio: [], websocket: [], http: [] };
	const control: Record<'websocket' | 'http', number[]> = { websocket: [], http: [] };
	for (let round = 0; round < rounds; round++) {
		const order = TRANSPORTS.map((_, i) => TRANSPORTS[(i + round) % TRANSPORTS.length]!);
		for (const transport of order) {
			results[transport].push(await measure(definitions[transport]));
			if (transport !== 'stdio') {
				control[transport].push(await sdkRoundTrips(transport === 'websocket' ? server.ws : server.http));
			}
		}
	}
	server.child.stdin.end();
	console.log(`remote transport benchmark: ${rounds} rounds, ${requests} sequential requests and ${prompts} prompts per round and transport`);
	for (const transport of TRANSPORTS) {
		const rates = results[transport].map((r) => r.roundTripsPerSec);
		const chunks = results[transport].flatMap((r) => r.firstChunkMs);
		console.log(
			`  ${transport.padEnd(9)}: ${percentile(rates, 50).toFixed(0)} round trips/s (median of rounds); first chunk ${percentile(chunks, 50).toFixed(2)} ms median, ${percentile(chunks, 95).toFixed(2)} ms p95` +
				(transport === 'stdio' ? '' : `; the SDK's own client over the same stream: ${percentile(control[transport], 50).toFixed(0)} round trips/s`),
		);
	}
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
