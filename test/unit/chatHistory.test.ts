import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
	MAX_CHANGED_FILES,
	bound,
	historyNotes,
	noteTurnChanges,
	noteWrite,
	parseHistoryIndex,
	parseStoredTranscript,
	putRecord,
	relativeTime,
	searchByTitle,
	serializeHistoryIndex,
	serializeTranscript,
	transcriptToMarkdown,
	type HistoryRecord,
} from '../../src/common/chat/history';
import { Transcript, type TranscriptSnapshot } from '../../src/common/chat/transcript';
import { sessionUpdateSchema } from '../../src/common/chat/updates';
import { ABSENT, text, unknown } from '../../src/common/chat/turnFiles';

function record(id: string, updatedAt: number, bytes = 100, extra: Partial<HistoryRecord> = {}): HistoryRecord {
	return { id, agentName: 'Agent', cwd: '/project', createdAt: updatedAt, updatedAt, bytes, entries: 2, changedFiles: [], ...extra };
}

const limits = { maxBytes: 1000, maxRecords: 5 };

/** A short chat: a prompt, an answer, an edit with its diff, a turn's end. */
function chat(): Transcript {
	const transcript = new Transcript();
	transcript.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'Raise the retry limit' }] });
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Done: it is ' } }));
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: '5 now.' } }));
	transcript.update(
		sessionUpdateSchema.parse({
			sessionUpdate: 'tool_call',
			toolCallId: 'edit-1',
			title: 'Edit config',
			kind: 'edit',
			status: 'completed',
			content: [{ type: 'diff', path: '/project/config.json', oldText: '3', newText: '5' }],
			locations: [{ path: '/project/config.json' }],
		}),
	);
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'del-1', title: 'Delete old file', kind: 'delete', status: 'completed', locations: [{ path: '/project/old.txt' }] }));
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 'read-1', title: 'Read', kind: 'read', status: 'completed', locations: [{ path: '/project/read.txt' }] }));
	transcript.apply({ type: 'turn_ended', stopReason: 'end_turn' });
	return transcript;
}

describe('chat history: the bounded store', () => {
	it('keeps records newest first and replaces a record with the same id', () => {
		let records: HistoryRecord[] = [];
		records = putRecord(records, record('a', 1), limits).records;
		records = putRecord(records, record('b', 3), limits).records;
		records = putRecord(records, record('c', 2), limits).records;
		assert.deepEqual(
			records.map((r) => r.id),
			['b', 'c', 'a'],
		);
		records = putRecord(records, record('a', 4, 200), limits).records;
		assert.deepEqual(
			records.map((r) => [r.id, r.bytes]),
			[
				['a', 200],
				['b', 100],
				['c', 100],
			],
		);
	});

	it('drops the oldest first beyond the bytes and the number of records', () => {
		let records: HistoryRecord[] = [];
		const dropped: string[] = [];
		for (let i = 1; i <= 12; i++) {
			const result = putRecord(records, record(`r${i}`, i, 300), limits);
			records = result.records;
			dropped.push(...result.dropped.map((r) => r.id));
		}
		// 1000 bytes hold three records of 300.
		assert.deepEqual(
			records.map((r) => r.id),
			['r12', 'r11', 'r10'],
		);
		assert.deepEqual(dropped, ['r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7', 'r8', 'r9']);
		const many = Array.from({ length: 8 }, (_, i) => record(`s${i}`, i, 1));
		assert.deepEqual(
			bound(
				putRecord([], many[0]!, limits).records.concat(many.slice(1)).sort((a, b) => b.updatedAt - a.updatedAt),
				limits,
			).records.map((r) => r.id),
			['s7', 's6', 's5', 's4', 's3'],
		);
	});

	it('drops from the oldest end until the rest fit, even when an older chat is small', () => {
		const records = [record('new', 3, 600), record('mid', 2, 500), record('old', 1, 300)];
		const result = bound(records, limits);
		assert.deepEqual(
			result.records.map((r) => r.id),
			['new'],
		);
		assert.deepEqual(
			result.dropped.map((r) => r.id),
			['old', 'mid'],
		);
	});

	it('does not keep a chat that is over the bound by itself, nor an older copy of it (a bound of 0 keeps nothing)', () => {
		const kept = putRecord([record('a', 1)], record('big', 2, 5000), limits);
		assert.deepEqual(
			kept.records.map((r) => r.id),
			['a'],
		);
		assert.deepEqual(
			kept.dropped.map((r) => r.id),
			['big'],
		);
		const none = putRecord([record('a', 1)], record('b', 2), { maxBytes: 0, maxRecords: 5 });
		assert.deepEqual(none.records, []);
		assert.deepEqual(
			none.dropped.map((r) => r.id),
			['a', 'b'],
		);
		const replaced = putRecord([record('a', 1), record('big', 0, 10)], record('big', 2, 5000), limits);
		assert.deepEqual(
			[replaced.records.map((r) => r.id), replaced.dropped.map((r) => [r.id, r.bytes])],
			[['a'], [['big', 5000]]],
		);
	});

	it('holds its bounds whatever is written, newest kept, and never loses a record it was not told to drop', () => {
		const write = fc.record({ id: fc.constantFrom('a', 'b', 'c', 'd', 'e', 'f', 'g'), updatedAt: fc.nat(1000), bytes: fc.nat(600) });
		fc.assert(
			fc.property(fc.array(write, { maxLength: 60 }), (writes) => {
				let records: HistoryRecord[] = [];
				for (const w of writes) {
					const before = new Set(records.map((r) => r.id));
					const result = putRecord(records, record(w.id, w.updatedAt, w.bytes), limits);
					records = result.records;
					const total = records.reduce((n, r) => n + r.bytes, 0);
					assert.ok(total <= limits.maxBytes && records.length <= limits.maxRecords);
					assert.equal(new Set(records.map((r) => r.id)).size, records.length);
					for (let i = 1; i < records.length; i++) {
						assert.ok(records[i - 1]!.updatedAt >= records[i]!.updatedAt);
					}
					// Every record that was there is kept or reported dropped (or replaced by the write).
					for (const id of before) {
						assert.ok(records.some((r) => r.id === id) || result.dropped.some((r) => r.id === id), id);
					}
					// Oldest first: nothing dropped is newer than anything kept (but a write too big to keep).
					const oldestKept = Math.min(...records.map((r) => r.updatedAt));
					for (const r of result.dropped) {
						assert.ok(r.updatedAt <= oldestKept || r.bytes > limits.maxBytes, `${r.id} dropped before older ones`);
					}
				}
			}),
		);
	});
});

describe('chat history: reading back what was stored', () => {
	it('reads back the index it wrote', () => {
		const records = [record('b', 2, 10, { title: 'Second', sessionId: 's-2', continueWith: 'load', changedFiles: ['/project/a.ts'] }), record('a', 1)];
		assert.deepEqual(parseHistoryIndex(serializeHistoryIndex(records)), { records, dropped: 0 });
	});

	it('reads a damaged index as empty history, saying why, and never throws', () => {
		for (const content of ['', '{', 'null', '[]', '{"version":2,"records":[]}', '{"version":1}', '{"version":1,"records":{}}', '\u0000\u0001']) {
			const parsed = parseHistoryIndex(content);
			assert.deepEqual(parsed.records, [], content);
			assert.ok(parsed.problem, content);
		}
	});

	it('drops records that do not check (ids that could name a file elsewhere among them), and repeated ids keep the newest', () => {
		const good = record('good', 5);
		const raw = {
			version: 1,
			records: [
				good,
				{ ...record('x', 1), id: '../../settings' },
				{ ...record('y', 1), id: 'a/b' },
				{ ...record('z', 1), bytes: -1 },
				{ ...record('w', 1), continueWith: 'fork' },
				{ ...record('v', 1), changedFiles: Array.from({ length: MAX_CHANGED_FILES + 1 }, (_, i) => `/f${i}`) },
				'not a record',
				null,
				record('dup', 1, 1, { title: 'old' }),
				record('dup', 9, 1, { title: 'new' }),
			],
		};
		const parsed = parseHistoryIndex(JSON.stringify(raw));
		assert.deepEqual(
			parsed.records.map((r) => [r.id, r.title]),
			[
				['dup', 'new'],
				['good', undefined],
			],
		);
		assert.equal(parsed.dropped, 8);
		assert.equal(parsed.problem, undefined);
	});

	it('survives random bytes and random JSON', () => {
		fc.assert(
			fc.property(fc.oneof(fc.string(), fc.json(), fc.jsonValue().map((v) => JSON.stringify({ version: 1, records: [v] }))), (content) => {
				const parsed = parseHistoryIndex(content);
				assert.ok(Array.isArray(parsed.records));
				assert.equal(parseStoredTranscript('a', content), undefined);
			}),
		);
	});

	it('reads back a stored transcript exactly, and refuses another chat’s or a damaged one', () => {
		const snapshot = chat().snapshot();
		const content = serializeTranscript('abc', snapshot);
		assert.deepEqual(parseStoredTranscript('abc', content), snapshot);
		assert.equal(parseStoredTranscript('other', content), undefined);
		assert.equal(parseStoredTranscript('abc', content.slice(0, -10)), undefined);
		const tampered = JSON.parse(content) as { snapshot: { entries: { kind: string }[] } };
		tampered.snapshot.entries[0]!.kind = 'script';
		assert.equal(parseStoredTranscript('abc', JSON.stringify(tampered)), undefined);
	});
});

describe('chat history: a transcript taken up again', () => {
	it('goes on from a stored snapshot with the same entries, and later events continue it', () => {
		const original = chat();
		const stored = JSON.parse(JSON.stringify(original.snapshot())) as TranscriptSnapshot;
		const restored = Transcript.restore(stored);
		assert.deepEqual(restored.snapshot(), original.snapshot());
		for (const t of [original, restored]) {
			t.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'And the timeout?' }] });
			t.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Also 5.' } }));
			t.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'failed' }));
		}
		assert.deepEqual(restored.snapshot(), original.snapshot());
		assert.equal(restored.snapshot().session.title, 'Raise the retry limit', 'the first prompt stays the title');
		// A page that had the stored snapshot follows the restored transcript's patches.
		const patch = Transcript.restore(stored);
		const before = patch.revision;
		patch.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'More.' } }));
		assert.equal(patch.changesSince(before).changes.length, 1);
	});

	it('settles what cannot go on: a running turn is idle, a pending permission cancelled', () => {
		const transcript = new Transcript();
		transcript.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'Edit it' }] });
		transcript.apply({ type: 'permission_asked', requestId: 'p1', toolCall: { toolCallId: 't1', title: 'Edit' }, options: [{ optionId: 'ok', name: 'Allow', kind: 'allow_once' }] });
		const restored = Transcript.restore(transcript.snapshot()).snapshot();
		assert.equal(restored.session.turn, 'idle');
		const tool = restored.entries.find((e) => e.kind === 'tool_call');
		assert.equal(tool?.kind === 'tool_call' ? tool.permission?.state : undefined, 'cancelled');
	});

	it('numbers a damaged snapshot’s entries again, and keeps an agent’s title as the agent’s', () => {
		const transcript = chat();
		transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'session_info_update', title: 'Retries' }));
		const snapshot = transcript.snapshot();
		const damaged: TranscriptSnapshot = { ...snapshot, entries: snapshot.entries.map((e, i) => ({ ...e, id: i * 7 + 100 })) };
		const restored = Transcript.restore(damaged);
		assert.deepEqual(
			restored.snapshot().entries.map((e) => e.id),
			snapshot.entries.map((_, i) => snapshot.firstId + i),
		);
		restored.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'Another prompt' }] });
		assert.equal(restored.snapshot().session.title, 'Retries');
	});
});

describe('chat history: what a record says', () => {
	it('counts a file as changed only when a write changed its content (made it, or changed its text)', () => {
		const files = new Set<string>();
		assert.equal(noteWrite(files, { path: '/project/same.txt', before: 'x\n', after: 'x\n' }), false, 'the same text written again');
		assert.equal(noteWrite(files, { path: '/project/config.json', before: '3', after: '5' }), true);
		assert.equal(noteWrite(files, { path: '/project/new.txt', before: undefined, after: '' }), true, 'a file made, empty or not');
		assert.equal(noteWrite(files, { path: '/project/config.json', before: '5', after: '6' }), false, 'once per file');
		assert.deepEqual([...files], ['/project/config.json', '/project/new.txt']);
		const many = new Set<string>();
		for (let i = 0; i < MAX_CHANGED_FILES + 5; i++) {
			noteWrite(many, { path: `/f${i}`, before: 'a', after: 'b' });
		}
		assert.equal(many.size, MAX_CHANGED_FILES);
	});

	it('counts the files a turn changed, whoever wrote them: created, rewritten, deleted; not one written back as it was, nor one whose text is not known either side', () => {
		const files = new Set<string>(['/project/written.txt']);
		noteTurnChanges(files, [
			{ path: '/project/written.txt', before: text('a'), after: text('b'), where: 'disk' },
			{ path: '/project/made.txt', before: ABSENT, after: text(''), where: 'disk' },
			{ path: '/project/gone.txt', before: text('x'), after: ABSENT, where: 'disk' },
			{ path: '/project/same.txt', before: text('x'), after: text('x'), where: 'disk' },
			{ path: '/project/big.bin', before: unknown('too large'), after: unknown('too large'), where: 'disk' },
			{ path: '/project/grew.log', before: unknown('too large'), after: text('now small'), where: 'disk' },
			{ path: '/project/open.ts', before: text('1'), after: text('2'), where: 'buffer' },
		]);
		assert.deepEqual([...files], ['/project/written.txt', '/project/made.txt', '/project/gone.txt', '/project/grew.log', '/project/open.ts']);
		const many = new Set<string>();
		noteTurnChanges(
			many,
			Array.from({ length: MAX_CHANGED_FILES + 5 }, (_, i) => ({ path: `/f${i}`, before: text('a'), after: text('b'), where: 'disk' as const })),
		);
		assert.equal(many.size, MAX_CHANGED_FILES);
	});

	it('says what is true of a chat in the picker: files changed, read-only only when it cannot go on, open', () => {
		const plain = { changedFiles: [], sessionId: 's-1' };
		assert.deepEqual(historyNotes({ ...plain, continueWith: undefined }, { open: { readOnly: false } }), ['open'], 'an agent that can neither resume nor load: open and usable, not read-only');
		assert.deepEqual(historyNotes({ ...plain, continueWith: undefined }, {}), ['read-only'], 'the same chat closed cannot go on');
		assert.deepEqual(historyNotes({ ...plain, continueWith: undefined }, { open: { readOnly: true } }), ['read-only', 'open'], 'open read-only (from an earlier window)');
		assert.deepEqual(historyNotes({ ...plain, continueWith: 'load' }, {}), [], 'closed, and its agent loads it');
		assert.deepEqual(historyNotes({ changedFiles: [], continueWith: 'resume' }, {}), ['read-only'], 'never started with its agent');
		assert.deepEqual(historyNotes({ ...plain, changedFiles: ['/a'], continueWith: 'resume' }, { listedBy: 'Lister', open: { readOnly: false } }), ['1 file changed', 'kept by Lister', 'open']);
		assert.deepEqual(historyNotes({ ...plain, changedFiles: ['/a', '/b'], continueWith: 'resume' }, {}), ['2 files changed']);
	});

	it('searches by title, every word in any case', () => {
		const records = [record('a', 3, 1, { title: 'Raise the retry limit' }), record('b', 2, 1, { title: 'Fix the build' }), record('c', 1, 1)];
		assert.deepEqual(
			searchByTitle(records, 'RETRY raise').map((r) => r.id),
			['a'],
		);
		assert.deepEqual(
			searchByTitle(records, 'the').map((r) => r.id),
			['a', 'b'],
		);
		assert.equal(searchByTitle(records, '  ').length, 3);
	});

	it('writes a chat as Markdown with its messages, tool calls and changed files', () => {
		const markdown = transcriptToMarkdown(chat().snapshot(), { agentName: 'Agent', cwd: '/project', updatedAt: Date.UTC(2026, 0, 2), title: 'Retries', changedFiles: ['/project/config.json', '/project/old.txt'] });
		assert.match(markdown, /^# Retries\n\nAgent: Agent {2}\nFolder: \/project {2}\nLast active: 2026-01-02T00:00:00.000Z\n/);
		assert.match(markdown, /## You\n\nRaise the retry limit\n/);
		assert.match(markdown, /## Agent\n\nDone: it is 5 now\.\n/);
		assert.match(markdown, /- Tool call: Edit config \(edit, completed\)\n {2}- changed \/project\/config\.json/);
		assert.match(markdown, /## Changed files\n\n- \/project\/config\.json\n- \/project\/old\.txt\n$/);
	});

	it('says how long ago in words', () => {
		const now = Date.UTC(2026, 5, 15, 12);
		assert.equal(relativeTime(now - 10_000, now), 'just now');
		assert.equal(relativeTime(now - 60_000, now), '1 minute ago');
		assert.equal(relativeTime(now - 5 * 60_000, now), '5 minutes ago');
		assert.equal(relativeTime(now - 3 * 3600_000, now), '3 hours ago');
		assert.equal(relativeTime(now - 30 * 3600_000, now), 'yesterday');
		assert.equal(relativeTime(now - 5 * 86_400_000, now), '5 days ago');
		assert.equal(relativeTime(Date.UTC(2025, 11, 24), now), '2025-12-24');
	});
});
