// A flood that is mostly valid requests, through the real AgentConnection and a real agent process
// (test/fixtures/agents/hostile-flood-agent.mjs, mix 'mostlyValid'): 100 000 lines, one in eight a valid
// `workspace/*` request (some with an extra member nested 5 000 deep), random Unicode garbage, cut JSON,
// the hostile rotation, and a 2 MiB `agent_message_chunk` every 1 000 lines; then a valid request.
// Editor state handlers like the extension's (a session check, answers built per call) and the chat's
// `session/update` check. Measured in the same run, in alternating rounds:
//   - the flood: lines/s, answers/s, valid requests answered/s, the valid request after it;
//   - its peer: the same 12 500 valid requests alone (`_test/validRequests`): valid requests/s;
//   - a second agent's chat turn streaming 2 000 chunks, and 20 `nes/suggest` round trips 50 ms
//     apart, alone and while the first agent floods;
//   - this process's peak heap during the flood (sampled every 50 ms).
// Printed, never asserted.
//
//   node out/bench/validFlood.bench.js [--rounds 3] [--lines 100000]
//   node --cpu-prof --cpu-prof-dir=<dir> out/bench/validFlood.bench.js --rounds 1 --only flood
// AGENT_LINK_BENCH_PROFILE=<dir> also writes a CPU profile of each agent process.
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { getHeapStatistics } from 'node:v8';
import { ResponseError } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { sessionNotificationSchema } from '../src/common/chat/updates';
import { EditorStateMethods, recentDocumentsParamsSchema, recentLimit, sessionParamsSchema } from '../src/common/editorStateProtocol';
import { nullLogger } from '../src/common/log';
import { AgentHandle } from '../src/node/agentHandle';
import type { FloodReport } from '../test/shared/floodReport';

const { values } = parseArgs({
	options: {
		rounds: { type: 'string', default: '3' },
		lines: { type: 'string', default: '100000' },
		only: { type: 'string' },
	},
});
const rounds = Number(values.rounds);
const lines = Number(values.lines);
const only = values.only;

const root = join(__dirname, '..', '..'); // out/bench -> repository root
const fixtures = join(root, 'test', 'fixtures', 'agents');
const any = z.unknown();
const SESSION = 'flood-session';
const CHAT_CHUNKS = 2000;
const SUGGESTIONS = 20;

async function launch(script: string, options: Record<string, unknown> = {}): Promise<AgentHandle> {
	const profile = process.env.AGENT_LINK_BENCH_PROFILE ? ['--cpu-prof', `--cpu-prof-dir=${process.env.AGENT_LINK_BENCH_PROFILE}`] : [];
	const definition = { command: process.execPath, args: [...profile, join(fixtures, script)], env: { AGENT_LINK_FIXTURE: JSON.stringify(options) } };
	const handle = await AgentHandle.launch({ definition, defaultCwd: root, maxLineBytes: 64 * 1024 * 1024, log: nullLogger });
	await handle.initialize({ name: 'bench', title: 'Bench', version: '0' }, {});
	return handle;
}

/** Handlers as the extension registers them: a session check, then an answer built per call. */
function answerEditorState(handle: AgentHandle): void {
	const documents = Array.from({ length: 20 }, (_, i) => ({ uri: `file:///home/dev/project/src/file${i}.ts`, languageId: 'typescript' }));
	const check = (sessionId: string) => {
		if (sessionId !== SESSION) {
			throw new ResponseError(-32602, `Invalid params: sessionId: unknown session ${JSON.stringify(sessionId)}`);
		}
	};
	const c = handle.connection;
	c.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, (p) => (check(p.sessionId), { document: documents[0]! }));
	c.onRequest(EditorStateMethods.openDocuments, sessionParamsSchema, async (p) => (check(p.sessionId), { documents: documents.map((d) => ({ ...d })) }));
	c.onRequest(EditorStateMethods.recentDocuments, recentDocumentsParamsSchema, async (p) => (check(p.sessionId), { documents: documents.slice(0, recentLimit(p.limit)) }));
	const chats = new Map<string, number>();
	c.onNotification('session/update', sessionNotificationSchema, (p) => {
		if (chats.has(p.sessionId)) {
			chats.set(p.sessionId, chats.get(p.sessionId)! + 1);
		}
	});
}

interface Others {
	/** A chat turn of CHAT_CHUNKS streamed chunks: prompt to its answer, with every chunk received. */
	readonly chatMs: number;
	/** `nes/suggest` round trips: median and longest. */
	readonly suggestMedianMs: number;
	readonly suggestMaxMs: number;
}

/** The second agent's chat turn, then its suggestions. */
async function otherAgent(handle: AgentHandle): Promise<Others> {
	let chunks = 0;
	const listener = handle.connection.onNotification('session/update', sessionNotificationSchema, () => void chunks++);
	const started = performance.now();
	await handle.connection.sendRequest('session/prompt', { sessionId: 'chat', prompt: [{ type: 'text', text: 'go' }] }, any);
	const chatMs = performance.now() - started;
	listener.dispose();
	if (chunks !== CHAT_CHUNKS) {
		throw new Error(`the chat got ${chunks} chunks of ${CHAT_CHUNKS}`);
	}
	const times: number[] = [];
	for (let i = 0; i < SUGGESTIONS; i++) {
		const t = performance.now();
		await handle.connection.sendRequest('nes/suggest', { sessionId: 'nes', uri: 'file:///a.ts', position: { line: 0, character: 0 } }, any);
		times.push(performance.now() - t);
		await new Promise((resolve) => setTimeout(resolve, 50));
	}
	return { chatMs, suggestMedianMs: median(times), suggestMaxMs: Math.max(...times) };
}

function median(xs: number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	const mid = Math.floor(s.length / 2);
	return s.length % 2 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/** Samples this process's heap every 50 ms until stopped; returns the peak in MiB. */
function heapPeak(): () => number {
	const used = () => getHeapStatistics().used_heap_size;
	let peak = used();
	const timer = setInterval(() => (peak = Math.max(peak, used())), 50);
	return () => {
		clearInterval(timer);
		return Math.max(peak, used()) / (1024 * 1024);
	};
}

interface FloodRow extends FloodReport {
	readonly heapPeakMiB: number;
	/** CPU seconds this process (the client) spent during the flood. */
	readonly cpuSeconds: number;
}

async function flood(handle: AgentHandle): Promise<FloodRow> {
	const stop = heapPeak();
	const cpu = process.cpuUsage();
	const report = (await handle.connection.sendRequest('_test/hostileFlood', { sessionId: SESSION, lines, mix: 'mostlyValid' }, any)) as FloodRow;
	const heapPeakMiB = stop();
	const used = process.cpuUsage(cpu);
	const cpuSeconds = (used.user + used.system) / 1e6;
	if (report.missing !== 0 || report.timedOut || report.unexpected.length > 0 || report.valid.result === undefined) {
		throw new Error(`the flood was not answered as owed: ${JSON.stringify({ missing: report.missing, timedOut: report.timedOut, unexpected: report.unexpected, valid: report.valid })}`);
	}
	return { ...report, heapPeakMiB, cpuSeconds };
}

async function main(): Promise<void> {
	const flooder = await launch('hostile-flood-agent.mjs');
	answerEditorState(flooder);
	const other = await launch('well-behaved.mjs', { chatTurn: [{ stream: { count: CHAT_CHUNKS, text: 'a streamed chunk of the answer ' } }] });
	const rows: { peer?: number; peerPerCpu?: number; flood?: FloodRow; alone?: Others; during?: Others; floodDuring?: FloodRow }[] = [];
	for (let round = 0; round < rounds; round++) {
		global.gc?.();
		const row: (typeof rows)[number] = {};
		if (!only || only === 'peer') {
			const cpu = process.cpuUsage();
			const peer = (await flooder.connection.sendRequest('_test/validRequests', { sessionId: SESSION, count: Math.floor(lines / 8) }, any)) as { validPerSecond: number; validRequests: number };
			const used = process.cpuUsage(cpu);
			row.peer = peer.validPerSecond;
			row.peerPerCpu = peer.validRequests / ((used.user + used.system) / 1e6);
		}
		if (!only || only === 'flood') {
			row.flood = await flood(flooder);
		}
		if (!only || only === 'others') {
			row.alone = await otherAgent(other);
			const during = flood(flooder);
			await new Promise((resolve) => setTimeout(resolve, 200));
			row.during = await otherAgent(other);
			row.floodDuring = await during;
		}
		rows.push(row);
		const f = row.flood;
		console.log(
			`round ${round + 1}:` +
				(row.peer !== undefined ? ` valid alone ${Math.round(row.peer).toLocaleString('en')}/s (${Math.round(row.peerPerCpu!).toLocaleString('en')} per client CPU s) |` : '') +
				(f
					? ` flood ${Math.round(f.linesPerSecond).toLocaleString('en')} lines/s, ${Math.round(f.answersPerSecond).toLocaleString('en')} answers/s, valid ${Math.round(f.validPerSecond).toLocaleString('en')}/s (${(f.floodMs / 1000).toFixed(2)} s), ` +
						`request after it ${(f.validLatencyMs / 1000).toFixed(2)} s, heap peak ${f.heapPeakMiB.toFixed(0)} MiB, client CPU ${f.cpuSeconds.toFixed(2)} s (${Math.round(f.lines / f.cpuSeconds).toLocaleString('en')} lines per CPU s) |`
					: '') +
				(row.alone && row.during
					? ` chat ${row.alone.chatMs.toFixed(0)} ms alone, ${row.during.chatMs.toFixed(0)} ms during a flood; nes/suggest median ${row.alone.suggestMedianMs.toFixed(1)} / ${row.during.suggestMedianMs.toFixed(1)} ms, longest ${row.alone.suggestMaxMs.toFixed(1)} / ${row.during.suggestMaxMs.toFixed(1)} ms` +
						` (that flood ${(row.floodDuring!.floodMs / 1000).toFixed(2)} s)`
					: ''),
		);
	}
	for (const handle of [flooder, other]) {
		// Closing its input ends the agent, which then writes its profile, if asked to.
		handle.connection.dispose();
		await Promise.race([handle.process?.onExit, new Promise((resolve) => setTimeout(resolve, 5000))]);
		await handle.dispose();
	}
}

void main().then(
	() => process.exit(0),
	(error: unknown) => {
		console.error(error);
		process.exit(1);
	},
);
