// Chat history with 500 stored chats (the figure: the history opens in under 100 ms), over
// the pure core (src/common/chat/history.ts) that the picker runs when it opens and a chat is saved:
//   index     the index of 500 records read back: JSON.parse and each record checked
//   items     the picker's rows built: relative time, folder, notes (what historyPicker.ts does per record)
//   search    searchByTitle over the 500
//   save      putRecord of one more chat into 500 (the bound applied) and the index written out
//   reopen    one stored transcript of 150 entries read back (checked) and Transcript.restore'd
// The in-editor part (command to rows visible in the browser) is the bench-chat-history suite.
//
//   node out/bench/chatHistory.bench.js [--rounds 20] [--chats 500]
import { parseArgs } from 'node:util';
import {
	MAX_HISTORY_RECORDS,
	parseHistoryIndex,
	parseStoredTranscript,
	putRecord,
	relativeTime,
	searchByTitle,
	serializeHistoryIndex,
	serializeTranscript,
	type HistoryRecord,
} from '../src/common/chat/history';
import { Transcript } from '../src/common/chat/transcript';
import { sessionUpdateSchema } from '../src/common/chat/updates';

const { values } = parseArgs({ options: { rounds: { type: 'string', default: '20' }, chats: { type: 'string', default: '500' } } });
const rounds = Number(values.rounds);
const chats = Number(values.chats);

const words = ['Fix', 'the', 'flaky', 'retry', 'test', 'in', 'the', 'config', 'loader', 'and', 'explain', 'why', 'it', 'fails', 'on', 'CI'];
const now = Date.now();
function record(i: number): HistoryRecord {
	return {
		id: `${(now - i * 60_000).toString(36)}-${i.toString(16).padStart(12, '0')}`,
		agentName: ['Claude Code', 'Codex', 'Gemini CLI'][i % 3]!,
		sessionId: `session-${i}-${'x'.repeat(24)}`,
		cwd: `/home/someone/projects/app-${i % 4}`,
		title: `${words.slice(i % 8, (i % 8) + 6).join(' ')} #${i}`,
		createdAt: now - i * 120_000,
		updatedAt: now - i * 60_000,
		bytes: 20_000 + (i % 50) * 1000,
		entries: 20 + (i % 40),
		changedFiles: Array.from({ length: i % 5 }, (_, k) => `/home/someone/projects/app-${i % 4}/src/file${k}.ts`),
		...(i % 3 === 2 ? {} : { continueWith: i % 3 === 0 ? ('load' as const) : ('resume' as const) }),
	};
}
const records = Array.from({ length: chats }, (_, i) => record(i));
const index = serializeHistoryIndex(records);

function transcript(entries: number): Transcript {
	const t = new Transcript();
	for (let i = 0; i < entries / 2; i++) {
		t.apply({ type: 'prompt', blocks: [{ type: 'text', text: `Question ${i}: ${words.join(' ')}` }] });
		t.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: `Answer ${i}: ${words.join(' ').repeat(8)}\n\n\`\`\`ts\nconst x = ${i};\n\`\`\`\n` } }));
		t.apply({ type: 'turn_ended', stopReason: 'end_turn' });
	}
	return t;
}
const stored = serializeTranscript('bench', transcript(100).snapshot());

const time = (f: () => void): number => {
	const started = performance.now();
	f();
	return performance.now() - started;
};
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * 0.95))]!;
const results = { index: [] as number[], items: [] as number[], search: [] as number[], save: [] as number[], reopen: [] as number[] };
for (let r = 0; r < rounds; r++) {
	let parsed: HistoryRecord[] = [];
	results.index.push(
		time(() => {
			parsed = parseHistoryIndex(index).records;
		}),
	);
	if (parsed.length !== chats) {
		throw new Error(`read back ${parsed.length} of ${chats}`);
	}
	results.items.push(
		time(() => {
			const at = Date.now();
			const rows = parsed.map((rec) => ({
				label: rec.title ?? 'Untitled chat',
				description: `${relativeTime(rec.updatedAt, at)} · ${rec.agentName}`,
				detail: [`$(folder) ${rec.cwd}`, rec.changedFiles.length > 0 ? `${rec.changedFiles.length} files changed` : undefined, rec.continueWith ? undefined : 'read-only'].filter(Boolean).join(' · '),
			}));
			if (rows.length !== chats) {
				throw new Error('rows');
			}
		}),
	);
	results.search.push(time(() => searchByTitle(parsed, 'flaky retry')));
	results.save.push(
		time(() => {
			const next = putRecord(parsed, { ...record(chats + r), updatedAt: Date.now() }, { maxBytes: 64 * 2 ** 20, maxRecords: MAX_HISTORY_RECORDS });
			serializeHistoryIndex(next.records);
		}),
	);
	results.reopen.push(
		time(() => {
			const snapshot = parseStoredTranscript('bench', stored);
			if (!snapshot || Transcript.restore(snapshot).size !== 150) {
				throw new Error('reopen');
			}
		}),
	);
}

const line = (name: string, xs: number[]) => `  ${name.padEnd(56)} median ${median(xs).toFixed(2)} ms, p95 ${p95(xs).toFixed(2)} ms`;
console.log(`chat history, ${chats} stored chats (index ${(index.length / 1024).toFixed(0)} KiB), ${rounds} rounds`);
console.log(line('index read back (JSON.parse + each record checked)', results.index));
console.log(line('picker rows built', results.items));
console.log(line('search by title', results.search));
console.log(line('one chat saved (bound applied, index written out)', results.save));
console.log(line(`a 150-entry transcript (${(stored.length / 1024).toFixed(0)} KiB) read back and restored`, results.reopen));
console.log(`  opening the history, host side (index + rows): median ${(median(results.index) + median(results.items)).toFixed(2)} ms (target: under 100 ms with the picker drawn; see bench-chat-history)`);
