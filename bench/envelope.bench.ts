// Per-message cost of sorting an incoming envelope: classifyEnvelope (since the JSON-RPC edge cases
// were answered) against the zod union the reader used before, on the same typical ACP messages
// (responses, requests with params, notifications), parsed from the same lines. Rounds alternate so
// machine noise hits both alike; the ratio is the figure. The union is kept here only as the peer.
//
//   node out/bench/envelope.bench.js [--rounds 7] [--messages 200000]
import { parseArgs } from 'node:util';
import * as z from 'zod/mini';
import { classifyEnvelope } from '../src/common/jsonrpc';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '7' }, messages: { type: 'string', default: '200000' } } });
const rounds = Number(values.rounds);
const count = Number(values.messages);

const idSchema = z.union([z.string(), z.number(), z.null()]);
const previousEnvelope = z.union([
	z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), id: z.optional(idSchema), params: z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])) }),
	z.looseObject({ jsonrpc: z.literal('2.0'), id: idSchema, result: z.unknown() }).check(z.refine((m) => 'result' in m, 'missing result')),
	z.looseObject({ jsonrpc: z.literal('2.0'), id: idSchema, error: z.looseObject({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) }) }),
]);

const lines = [
	'{"jsonrpc":"2.0","id":17,"result":{"documents":[{"uri":"file:///project/src/a.ts","languageId":"typescript"}]}}',
	'{"jsonrpc":"2.0","id":"agent-4","method":"workspace/recent_documents","params":{"sessionId":"sess-1","limit":20}}',
	'{"jsonrpc":"2.0","method":"session/update","params":{"sessionId":"sess-1","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"Hello there"}}}}',
	'{"jsonrpc":"2.0","id":18,"error":{"code":-32602,"message":"Invalid params: sessionId: expected a session id (string)"}}',
];

function time(check: (value: unknown) => unknown): number {
	const started = performance.now();
	let sink = 0;
	for (let i = 0; i < count; i++) {
		// Parse each time, as the reader does: classifyEnvelope may change the value in place.
		const value: unknown = JSON.parse(lines[i % lines.length]!);
		sink += check(value) ? 1 : 0;
	}
	if (sink !== count) {
		throw new Error('a typical message was not accepted');
	}
	return ((performance.now() - started) * 1e6) / count; // ns per message
}

const ours: number[] = [];
const before: number[] = [];
const parseOnly: number[] = [];
for (let r = 0; r < rounds; r++) {
	ours.push(time((v) => { const e = classifyEnvelope(v); return e.kind === 'request' || e.kind === 'response' || e.kind === 'notification'; }));
	before.push(time((v) => previousEnvelope.safeParse(v).success));
	parseOnly.push(time(() => true));
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const [o, b, p] = [median(ours), median(before), median(parseOnly)];
console.log(`envelope check, ${count} typical messages per round, ${rounds} rounds (medians, JSON.parse included: ${p.toFixed(0)} ns of it)`);
console.log(`  classifyEnvelope : ${o.toFixed(0)} ns/message (${(o - p).toFixed(0)} ns beyond parsing)`);
console.log(`  previous zod union: ${b.toFixed(0)} ns/message (${(b - p).toFixed(0)} ns beyond parsing)`);
console.log(`  ratio (now / before): ${(o / b).toFixed(2)}`);
