// The chat transcript reducer on a streamed answer: 20 000 `agent_message_chunk` notifications (the
// issue's streaming benchmark size), as lines of JSON. For each round:
//   receive   JSON.parse + the `session/update` schema, per line (what arrives before the reducer), and
//             the same with the host's text chunk fast path (textChunkFastPath.ts) in the schema's place
//   reduce    Transcript.update per chunk, and the longest single one
//   patches   the host's per-frame patch (every 16 chunks, as a model streams; every 500, as the
//             bench-chat agent does at 30 000 chunks a second) and the page's TranscriptMirror applying it
// then the same per-chunk cost at 10x the chunks (flat if a chunk costs O(its length)), and a flood
// past the caps (a million chunks, 5 000 tool calls) with the heap it leaves.
//
//   node out/bench/chatTranscript.bench.js [--rounds 5] [--chunks 20000]
import { parseArgs } from 'node:util';
import { textChunkFastPath } from '../src/common/chat/textChunkFastPath';
import { Transcript, TranscriptMirror } from '../src/common/chat/transcript';
import { sessionNotificationSchema, sessionUpdateSchema, type SessionUpdate } from '../src/common/chat/updates';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '5' }, chunks: { type: 'string', default: '20000' } } });
const rounds = Number(values.rounds);
const chunks = Number(values.chunks);
const CHUNKS_PER_FRAME = 16;
const CHUNKS_PER_FAST_FRAME = 500;

// Pieces like a model's: words, markdown, code, a little non-ASCII.
const pieces = ['The ', 'build ', 'fails ', 'because ', '`tsc` ', 'cannot ', 'find ', 'the ', 'module.\n\n', '```ts\n', "import { x } from './x';\n", '```\n', '- **fix**: ', 'add ', 'the ', 'path ', '→ ', 'done. ', 'Ça ', 'marche ✓\n'];
function lines(n: number): string[] {
	return Array.from({ length: n }, (_, i) =>
		JSON.stringify({ jsonrpc: '2.0', method: 'session/update', params: { sessionId: 'sess-1', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: pieces[i % pieces.length] }, messageId: 'm1' } } }),
	);
}

function receive(wire: string[], fast = false): { ms: number; updates: SessionUpdate[] } {
	const started = performance.now();
	const updates: SessionUpdate[] = [];
	for (const line of wire) {
		const params = (JSON.parse(line) as { params: unknown }).params;
		const quick = fast ? textChunkFastPath(params) : undefined;
		if (quick) {
			updates.push(quick.update);
			continue;
		}
		const parsed = sessionNotificationSchema.safeParse(params);
		if (!parsed.success) {
			throw new Error('a chunk was rejected');
		}
		updates.push(parsed.data.update);
	}
	return { ms: performance.now() - started, updates };
}

function reduce(updates: SessionUpdate[]): { ms: number; worstMs: number } {
	const transcript = new Transcript();
	transcript.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'Why does the build fail?' }] });
	let worst = 0;
	const started = performance.now();
	for (const update of updates) {
		const t = performance.now();
		transcript.update(update);
		worst = Math.max(worst, performance.now() - t);
	}
	return { ms: performance.now() - started, worstMs: worst };
}

function withPatches(updates: SessionUpdate[], every = CHUNKS_PER_FRAME): { ms: number; patchMs: number; worstFrameMs: number; bytes: number } {
	const transcript = new Transcript();
	const mirror = new TranscriptMirror(transcript.snapshot());
	let patchMs = 0;
	let worstFrame = 0;
	let bytes = 0;
	const started = performance.now();
	updates.forEach((update, i) => {
		transcript.update(update);
		if ((i + 1) % every === 0 || i === updates.length - 1) {
			const t = performance.now();
			const patch = transcript.changesSince(mirror.revision);
			bytes += JSON.stringify(patch).length;
			if (!mirror.apply(patch)) {
				throw new Error('a patch did not fit');
			}
			const frame = performance.now() - t;
			patchMs += frame;
			worstFrame = Math.max(worstFrame, frame);
		}
	});
	const ms = performance.now() - started;
	const [a, b] = [JSON.stringify(mirror.snapshot()), JSON.stringify(transcript.snapshot())];
	if (a !== b) {
		throw new Error('the page’s copy differs from the host’s');
	}
	return { ms, patchMs, worstFrameMs: worstFrame, bytes };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const wire = lines(chunks);
const wire10 = lines(chunks * 10);
const results = { receive: [] as number[], receiveFast: [] as number[], reduce: [] as number[], worst: [] as number[], frames: [] as number[], patch: [] as number[], worstFrame: [] as number[], bytes: 0, fastPatch: [] as number[], fastBytes: 0, reduce10: [] as number[] };
for (let r = 0; r < rounds; r++) {
	const received = receive(wire);
	results.receive.push(received.ms);
	results.receiveFast.push(receive(wire, true).ms);
	const reduced = reduce(received.updates);
	results.reduce.push(reduced.ms);
	results.worst.push(reduced.worstMs);
	const framed = withPatches(received.updates);
	results.frames.push(framed.ms);
	results.patch.push(framed.patchMs);
	results.worstFrame.push(framed.worstFrameMs);
	results.bytes = framed.bytes;
	const fast = withPatches(received.updates, CHUNKS_PER_FAST_FRAME);
	results.fastPatch.push(fast.patchMs);
	results.fastBytes = fast.bytes;
	results.reduce10.push(reduce(receive(wire10).updates).ms);
}

const perChunk = (ms: number, n: number) => `${((ms * 1000) / n).toFixed(2)} µs/chunk`;
const textChars = wire.reduce((n, _, i) => n + pieces[i % pieces.length]!.length, 0);
console.log(`chat transcript, ${chunks} streamed agent_message_chunk (${textChars} characters of answer), ${rounds} rounds (medians)`);
console.log(`  receive (JSON.parse + schema): ${median(results.receive).toFixed(1)} ms (${perChunk(median(results.receive), chunks)})`);
console.log(`  receive (JSON.parse + the text chunk fast path): ${median(results.receiveFast).toFixed(1)} ms (${perChunk(median(results.receiveFast), chunks)}; ${(median(results.receive) / median(results.receiveFast)).toFixed(1)}x faster)`);
console.log(`  reduce (Transcript.update):    ${median(results.reduce).toFixed(1)} ms (${perChunk(median(results.reduce), chunks)}), longest single chunk ${median(results.worst).toFixed(3)} ms`);
console.log(`  reduce + a patch every ${CHUNKS_PER_FRAME} chunks applied by the page's mirror: ${median(results.frames).toFixed(1)} ms, of which patches ${median(results.patch).toFixed(1)} ms (longest ${median(results.worstFrame).toFixed(3)} ms), ${(results.bytes / 1024).toFixed(0)} KiB of patches in all`);
console.log(`  a patch every ${CHUNKS_PER_FAST_FRAME} chunks: patches ${median(results.fastPatch).toFixed(1)} ms, ${(results.fastBytes / 1024).toFixed(0)} KiB of patches in all`);
console.log(`  reduce at ${chunks * 10} chunks: ${median(results.reduce10).toFixed(1)} ms (${perChunk(median(results.reduce10), chunks * 10)}; flat per chunk = linear)`);

// A pathological agent: far more than the caps keep.
const heapBefore = process.memoryUsage().heapUsed;
const flood = new Transcript();
const chunk = sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x'.repeat(100) } });
let started = performance.now();
for (let i = 0; i < 1_000_000; i++) {
	flood.update(chunk);
}
const floodChunksMs = performance.now() - started;
started = performance.now();
for (let i = 0; i < 5_000; i++) {
	flood.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'Run the tests', content: [{ type: 'content', content: { type: 'text', text: 'y'.repeat(2_000) } }] }));
	flood.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: `t${i}`, status: 'completed' }));
}
const floodToolsMs = performance.now() - started;
const snapshot = flood.snapshot();
console.log(
	`  flood: 1 000 000 chunks of 100 characters in ${floodChunksMs.toFixed(0)} ms (the message kept ${(JSON.stringify(snapshot.entries[0]).length / 1e6).toFixed(1)} M characters of 100 M), 10 000 tool call updates parsed and applied in ${floodToolsMs.toFixed(0)} ms; ` +
		`${snapshot.entries.length} entries kept, heap grew ${((process.memoryUsage().heapUsed - heapBefore) / 2 ** 20).toFixed(0)} MiB`,
);
