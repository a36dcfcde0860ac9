// Request round trips per second and notification throughput of Agent Link's connection
// (vscode-jsonrpc + our NDJSON reader/writer + zod checks) against the ACP SDK's own connection
// (`client().connect(ndJsonStream(...))`), both talking to the same scripted agent process in the
// same run. Rounds alternate between the two so machine noise hits both alike; the figure that
// matters is the ratio.
//
//   node out/bench/connection.bench.js [--rounds 5] [--requests 3000] [--notifications 30000]
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import { client, ndJsonStream } from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';
import { nullLogger } from '../src/common/log';
import { AgentConnection } from '../src/node/connection';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '5' },
		requests: { type: 'string', default: '3000' },
		notifications: { type: 'string', default: '30000' },
	},
});
const rounds = Number(values.rounds);
const requests = Number(values.requests);
const notifications = Number(values.notifications);

const root = join(__dirname, '..', '..'); // out/bench -> repository root
const agentScript = join(root, 'test', 'fixtures', 'agents', 'well-behaved.mjs');
const any = z.unknown();

interface Peer {
	request(method: string, params: unknown): Promise<unknown>;
	notify(method: string, params: unknown): Promise<void>;
	close(): void;
}

function spawnAgent(): ChildProcessWithoutNullStreams {
	return spawn(process.execPath, [agentScript], { stdio: ['pipe', 'pipe', 'pipe'] });
}

function ours(): Peer {
	const child = spawnAgent();
	const connection = new AgentConnection({ input: child.stdout, output: child.stdin, maxLineBytes: 64 * 1024 * 1024, log: nullLogger });
	connection.listen();
	return {
		request: (method, params) => connection.sendRequest(method, params, any),
		notify: (method, params) => connection.sendNotification(method, params),
		close: () => {
			connection.dispose();
			child.kill();
		},
	};
}

function sdk(): Peer {
	const child = spawnAgent();
	const stream = ndJsonStream(Writable.toWeb(child.stdin) as WritableStream<Uint8Array>, Readable.toWeb(child.stdout) as ReadableStream<Uint8Array>);
	const connection = client().connect(stream);
	return {
		request: (method, params) => connection.agent.request(method, params),
		notify: (method, params) => connection.agent.notify(method, params),
		close: () => {
			connection.close();
			child.kill();
		},
	};
}

async function measure(make: () => Peer): Promise<{ roundTripsPerSec: number; notificationsPerSec: number }> {
	const peer = make();
	await peer.request('initialize', { protocolVersion: 1, clientCapabilities: {} });
	for (let i = 0; i < 200; i++) {
		await peer.request('_test/echo', { warm: i });
	}
	let start = performance.now();
	for (let i = 0; i < requests; i++) {
		await peer.request('_test/echo', { i, text: 'a short payload' });
	}
	const roundTripsPerSec = requests / ((performance.now() - start) / 1000);
	start = performance.now();
	const sends: Promise<void>[] = [];
	for (let i = 0; i < notifications; i++) {
		sends.push(peer.notify('bench/note', { i, text: 'a short payload' }));
	}
	await Promise.all(sends);
	// The agent handles messages in order: its answer to this request means it read every notification.
	await peer.request('_test/echo', { barrier: true });
	const notificationsPerSec = notifications / ((performance.now() - start) / 1000);
	peer.close();
	return { roundTripsPerSec, notificationsPerSec };
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

async function main(): Promise<void> {
	const results = { ours: [] as { roundTripsPerSec: number; notificationsPerSec: number }[], sdk: [] as { roundTripsPerSec: number; notificationsPerSec: number }[] };
	for (let round = 0; round < rounds; round++) {
		// Alternate which goes first so neither always gets the warmer machine.
		const order: ('ours' | 'sdk')[] = round % 2 === 0 ? ['ours', 'sdk'] : ['sdk', 'ours'];
		for (const which of order) {
			results[which].push(await measure(which === 'ours' ? ours : sdk));
		}
	}
	const summary = (which: 'ours' | 'sdk') => ({
		roundTripsPerSec: median(results[which].map((r) => r.roundTripsPerSec)),
		notificationsPerSec: median(results[which].map((r) => r.notificationsPerSec)),
	});
	const a = summary('ours');
	const b = summary('sdk');
	console.log(`connection benchmark: ${rounds} rounds, ${requests} sequential requests and ${notifications} notifications per round (medians)`);
	console.log(`  Agent Link : ${a.roundTripsPerSec.toFixed(0)} round trips/s, ${a.notificationsPerSec.toFixed(0)} notifications/s`);
	console.log(`  ACP SDK    : ${b.roundTripsPerSec.toFixed(0)} round trips/s, ${b.notificationsPerSec.toFixed(0)} notifications/s`);
	console.log(`  ratio (Agent Link / SDK): round trips ${(a.roundTripsPerSec / b.roundTripsPerSec).toFixed(2)}, notifications ${(a.notificationsPerSec / b.notificationsPerSec).toFixed(2)}`);
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
