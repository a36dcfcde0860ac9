import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import { transcriptPatchSchema, transcriptSnapshotSchema } from '../../src/common/chat/transcriptWire';
import {
	DEFAULT_LIMITS,
	Transcript,
	TranscriptMirror,
	clip,
	titleFromPrompt,
	type Entry,
	type MessageEntry,
	type ToolCallEntry,
	type TranscriptEvent,
	type TranscriptLimits,
	type TranscriptSnapshot,
} from '../../src/common/chat/transcript';
import { contentBlockSchema, sessionUpdateSchema, toolCallUpdateSchema, type SessionUpdate } from '../../src/common/chat/updates';

/** An update as the connection hands it on: checked by the schema. */
function u(update: acp.SessionUpdate | Record<string, unknown>): SessionUpdate {
	return sessionUpdateSchema.parse(update);
}

const text = (t: string) => ({ type: 'text' as const, text: t });
const agent = (t: string, messageId?: string) => u({ sessionUpdate: 'agent_message_chunk', content: text(t), ...(messageId ? { messageId } : {}) });
const thought = (t: string) => u({ sessionUpdate: 'agent_thought_chunk', content: text(t) });
const userChunk = (t: string) => u({ sessionUpdate: 'user_message_chunk', content: text(t) });
const prompt = (t: string): TranscriptEvent => ({ type: 'prompt', blocks: [contentBlockSchema.parse(text(t))] });

function run(events: readonly (TranscriptEvent | SessionUpdate)[], limits?: Partial<TranscriptLimits>): Transcript {
	const transcript = new Transcript(limits);
	for (const event of events) {
		transcript.apply('sessionUpdate' in event ? { type: 'update', update: event } : event);
	}
	return transcript;
}

const entries = (t: Transcript) => t.snapshot().entries;
const kinds = (t: Transcript) => entries(t).map((e) => e.kind);
const textOf = (e: Entry | undefined) => (e && 'blocks' in e ? e.blocks.map((b) => (b.type === 'text' ? b.text : `[${b.type}]`)).join('') : undefined);
const toolCall = (t: Transcript, id: string) => entries(t).find((e): e is ToolCallEntry => e.kind === 'tool_call' && e.toolCallId === id);

/** The model without revision numbers, which depend on how many events built it. */
function shape(snapshot: TranscriptSnapshot): unknown {
	return JSON.parse(JSON.stringify({ ...snapshot, revision: 0 }), (k, v) => (k === 'rev' ? 0 : v));
}

describe('Transcript: messages', () => {
	it('merges consecutive chunks of one kind into one entry', () => {
		const t = run([agent('Hel'), agent('lo, '), agent('world')]);
		assert.deepEqual(kinds(t), ['agent']);
		assert.deepEqual((entries(t)[0] as MessageEntry).blocks, [{ type: 'text', text: 'Hello, world' }]);
	});

	it('starts a new entry when the kind changes, and again when it comes back', () => {
		const t = run([thought('Let me '), thought('look.'), agent('Found it'), thought('Hmm'), agent('.')]);
		assert.deepEqual(kinds(t), ['thought', 'agent', 'thought', 'agent']);
		assert.deepEqual(entries(t).map(textOf), ['Let me look.', 'Found it', 'Hmm', '.']);
	});

	it('starts a new entry when the message id changes (ACP: a new id is a new message)', () => {
		const t = run([agent('one', 'm1'), agent(' more', 'm1'), agent('two', 'm2'), agent('!')]);
		assert.deepEqual(entries(t).map(textOf), ['one more', 'two!']);
		assert.equal((entries(t)[1] as MessageEntry).messageId, 'm2');
	});

	it('keeps non-text content as blocks of their own, text after them in a new block', () => {
		const t = run([
			agent('See '),
			u({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'iVBOR', mimeType: 'image/png' } }),
			u({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' } }),
			agent('and '),
			agent('that.'),
		]);
		assert.deepEqual((entries(t)[0] as MessageEntry).blocks, [
			{ type: 'text', text: 'See ' },
			{ type: 'image', mimeType: 'image/png', data: 'iVBOR' },
			{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts' },
			{ type: 'text', text: 'and that.' },
		]);
	});

	it('keeps embedded text resources and only the address of binary ones', () => {
		const t = run([
			u({ sessionUpdate: 'user_message_chunk', content: { type: 'resource', resource: { uri: 'file:///w/a.ts', text: 'let a;', mimeType: 'text/x-typescript' } } }),
			u({ sessionUpdate: 'user_message_chunk', content: { type: 'resource', resource: { uri: 'file:///w/b.png', blob: 'AAAA' } } }),
		]);
		assert.deepEqual((entries(t)[0] as MessageEntry).blocks, [
			{ type: 'resource', uri: 'file:///w/a.ts', mimeType: 'text/x-typescript', text: 'let a;' },
			{ type: 'resource', uri: 'file:///w/b.png' },
		]);
	});

	it('ignores empty chunks and unknown content without moving the revision', () => {
		const t = run([agent('a')]);
		const rev = t.revision;
		assert.equal(t.update(agent('')), false);
		assert.equal(t.update(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'hologram' } })), false);
		assert.equal(t.revision, rev);
	});

	it('never merges replayed user chunks into a prompt sent from the panel', () => {
		const t = run([prompt('Fix it'), userChunk('Fix it'), agent('Done')]);
		assert.deepEqual(kinds(t), ['user', 'user', 'agent']);
	});

	it('starts a new agent message after a tool call or a turn end', () => {
		const t = run([
			agent('Looking'),
			u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' }),
			agent('Found'),
			{ type: 'turn_ended', stopReason: 'end_turn' },
			agent('Late'),
		]);
		assert.deepEqual(kinds(t), ['agent', 'tool_call', 'agent', 'turn_end', 'agent']);
	});
});

describe('Transcript: tool calls', () => {
	it('creates a tool call with defaults, and patches it by id', () => {
		const t = run([u({ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Run tests' })]);
		assert.deepEqual(toolCall(t, 't1'), { kind: 'tool_call', id: 1, rev: 1, toolCallId: 't1', title: 'Run tests', toolKind: 'other', status: 'pending', content: [], locations: [] });
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'in_progress', kind: 'execute', locations: [{ path: '/w/test.ts', line: 4 }] }));
		t.update(
			u({
				sessionUpdate: 'tool_call_update',
				toolCallId: 't1',
				status: 'completed',
				content: [{ type: 'content', content: { type: 'text', text: '3 passed' } }],
				rawOutput: { passed: 3 },
			}),
		);
		const call = toolCall(t, 't1')!;
		assert.equal(call.status, 'completed');
		assert.equal(call.toolKind, 'execute');
		assert.equal(call.title, 'Run tests', 'an update without a title keeps it');
		assert.deepEqual(call.locations, [{ path: '/w/test.ts', line: 4 }]);
		assert.deepEqual(call.content, [{ type: 'content', content: { type: 'text', text: '3 passed' } }]);
		assert.equal(call.rawOutput, '{\n  "passed": 3\n}');
		assert.equal(entries(t).length, 1);
	});

	it('replaces the content list on each update, and leaves it on null', () => {
		const t = run([
			u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', content: [{ type: 'diff', path: '/w/a', oldText: 'x', newText: 'y' }] }),
			u({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: [{ type: 'diff', path: '/w/b', newText: 'new file' }, { type: 'terminal', terminalId: 'term' }] }),
		]);
		assert.deepEqual(toolCall(t, 't')!.content, [
			{ type: 'diff', path: '/w/b', newText: 'new file' },
			{ type: 'terminal', terminalId: 'term' },
		]);
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', content: null, title: null, status: 'failed' }));
		assert.equal(toolCall(t, 't')!.content.length, 2);
		assert.equal(toolCall(t, 't')!.title, 'Edit');
	});

	it('creates the tool call when an update names an id it has not seen', () => {
		const t = run([u({ sessionUpdate: 'tool_call_update', toolCallId: 'ghost', status: 'in_progress', title: 'Fetch' })]);
		const call = toolCall(t, 'ghost')!;
		assert.equal(call.title, 'Fetch');
		assert.equal(call.status, 'in_progress');
	});

	it('takes a tool call sent again with the same id as an update, not a second entry', () => {
		const t = run([u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'A' }), agent('…'), u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'B', status: 'completed' })]);
		assert.deepEqual(kinds(t), ['tool_call', 'agent']);
		assert.equal(toolCall(t, 't')!.title, 'B');
	});

	it('patches a tool call in the middle without touching the entries around it', () => {
		const t = run([u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'A' }), agent('between'), u({ sessionUpdate: 'plan', entries: [] })]);
		const before = t.revision;
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
		const patch = t.changesSince(before);
		assert.deepEqual(
			patch.changes.map((c) => ('entry' in c ? c.entry.id : c.id)),
			[1],
		);
	});
});

describe('Transcript: permissions', () => {
	const ask = (requestId: string, toolCallId = 't'): TranscriptEvent => ({
		type: 'permission_asked',
		requestId,
		toolCall: toolCallUpdateSchema.parse({ toolCallId, title: 'Write a.ts', kind: 'edit' }),
		options: [
			{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
			{ optionId: 'no', name: 'Reject', kind: 'reject_once' },
		],
	});

	it('puts the prompt on its tool call and records the answer', () => {
		const t = run([prompt('go'), u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Write' }), ask('r1')]);
		assert.deepEqual(toolCall(t, 't')!.permission, {
			requestId: 'r1',
			options: [
				{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' },
				{ optionId: 'no', name: 'Reject', kind: 'reject_once' },
			],
			state: 'pending',
		});
		assert.equal(toolCall(t, 't')!.title, 'Write a.ts', 'the request’s tool call is an update of it');
		t.apply({ type: 'permission_answered', requestId: 'r1', optionId: 'yes' });
		assert.equal(toolCall(t, 't')!.permission?.state, 'selected');
		assert.equal(toolCall(t, 't')!.permission?.optionId, 'yes');
		assert.equal(t.apply({ type: 'permission_answered', requestId: 'r1', optionId: 'no' }), false, 'answered once');
	});

	it('creates the tool call when the request names one it has not seen', () => {
		const t = run([ask('r1', 'new')]);
		assert.equal(toolCall(t, 'new')!.permission?.state, 'pending');
	});

	it('cancels prompts still pending when the turn ends, fails, or the agent restarts', () => {
		for (const end of [{ type: 'turn_ended', stopReason: 'cancelled' }, { type: 'turn_failed', message: 'boom' }, { type: 'agent_restarted', resumed: true }, { type: 'conversation_ended' }] as const) {
			const t = run([prompt('go'), ask('r1'), end]);
			assert.equal(toolCall(t, 't')!.permission?.state, 'cancelled', end.type);
			assert.equal(t.apply({ type: 'permission_answered', requestId: 'r1', optionId: 'yes' }), false);
		}
	});

	it('ignores an answer to a request it does not know', () => {
		const t = run([prompt('go')]);
		assert.equal(t.apply({ type: 'permission_answered', requestId: 'nope' }), false);
	});
});

describe('Transcript: plans, notices, compaction', () => {
	const plan = (...items: string[]) => u({ sessionUpdate: 'plan', entries: items.map((content) => ({ content, priority: 'medium', status: 'pending' })) });

	it('replaces the plan of the current turn in place, and starts a new one in the next turn', () => {
		const t = run([prompt('one'), plan('a', 'b'), agent('working'), plan('a', 'b', 'c')]);
		assert.deepEqual(kinds(t), ['user', 'plan', 'agent']);
		const planEntry = entries(t)[1]!;
		assert.ok(planEntry.kind === 'plan');
		assert.deepEqual(
			planEntry.items.map((i) => i.content),
			['a', 'b', 'c'],
		);
		assert.equal(t.snapshot().session.planId, planEntry.id);
		t.apply(prompt('two'));
		t.update(plan('d'));
		assert.deepEqual(kinds(t), ['user', 'plan', 'agent', 'user', 'plan']);
		assert.equal(t.snapshot().session.planId, 5);
	});

	it('turns notices into entries', () => {
		const t = run([u({ sessionUpdate: 'notice', severity: 'warning', title: 'Slow down', description: 'Rate limited' })]);
		assert.deepEqual(entries(t), [{ kind: 'notice', id: 1, rev: 1, severity: 'warning', title: 'Slow down', description: 'Rate limited' }]);
	});

	it('upserts a compaction by id, streams its summary, and clears it on null', () => {
		const t = run([
			u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: 'We ' } }),
			u({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c', content: { type: 'text', text: 'fixed it.' } }),
		]);
		assert.deepEqual(entries(t), [{ kind: 'compaction', id: 1, rev: 2, compactionId: 'c', status: 'in_progress', blocks: [{ type: 'text', text: 'We fixed it.' }] }]);
		t.update(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'failed', error: 'out of tokens' }));
		const failed = entries(t)[0]!;
		assert.ok(failed.kind === 'compaction');
		assert.equal(failed.status, 'failed');
		assert.equal(failed.error, 'out of tokens');
		assert.equal(textOf(failed), 'We fixed it.', 'an absent summary is unchanged');
		t.update(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: [{ type: 'text', text: 'Short.' }], error: null }));
		const done = entries(t)[0]!;
		assert.ok(done.kind === 'compaction');
		assert.equal(textOf(done), 'Short.');
		assert.equal(done.error, undefined);
		t.update(u({ sessionUpdate: 'compaction_update', compactionId: 'c', status: 'completed', summary: null }));
		assert.equal(textOf(entries(t)[0]), '');
	});
});

describe('Transcript: session state', () => {
	it('titles the session from the first prompt until the agent gives a title, and back when it clears it', () => {
		const t = run([prompt('  \n  Why does   the build fail?\nDetails follow')]);
		assert.equal(t.snapshot().session.title, 'Why does the build fail?');
		assert.equal(t.snapshot().session.titleSource, 'prompt');
		t.apply(prompt('second prompt'));
		assert.equal(t.snapshot().session.title, 'Why does the build fail?');
		t.update(u({ sessionUpdate: 'session_info_update', title: 'Build failure' }));
		assert.equal(t.snapshot().session.title, 'Build failure');
		assert.equal(t.snapshot().session.titleSource, 'agent');
		t.update(u({ sessionUpdate: 'session_info_update', updatedAt: '2026-11-02T10:00:00Z' }));
		assert.equal(t.snapshot().session.title, 'Build failure', 'an absent title is unchanged');
		t.update(u({ sessionUpdate: 'session_info_update', title: null }));
		assert.equal(t.snapshot().session.title, 'Why does the build fail?');
	});

	it('keeps commands, modes, config options and usage current', () => {
		const t = run([
			{
				type: 'session_setup',
				modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code', description: 'Edits files' }] },
				configOptions: [{ type: 'boolean', id: 'web', name: 'Web', currentValue: false }],
			},
			u({ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'test', description: 'Run tests', input: { hint: 'pattern' } }] }),
			u({ sessionUpdate: 'current_mode_update', currentModeId: 'code' }),
			u({
				sessionUpdate: 'config_option_update',
				configOptions: [
					{ type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: 'b', options: [{ value: 'a', name: 'A' }, { value: 'b', name: 'B', description: 'Better' }] },
					{ type: 'select', id: 'effort', name: 'Effort', currentValue: 'lo', options: [{ group: 'g1', name: 'Cheap', options: [{ value: 'lo', name: 'Low' }] }] },
				],
			}),
			u({ sessionUpdate: 'usage_update', used: 5000, size: 200000, cost: { amount: 0.05, currency: 'USD' } }),
		]);
		const session = t.snapshot().session;
		assert.deepEqual(session.commands, [{ name: 'test', description: 'Run tests', hint: 'pattern' }]);
		assert.deepEqual(session.modes, {
			currentModeId: 'code',
			available: [
				{ id: 'ask', name: 'Ask' },
				{ id: 'code', name: 'Code', description: 'Edits files' },
			],
		});
		assert.deepEqual(session.configOptions, [
			{
				id: 'model',
				name: 'Model',
				category: 'model',
				type: 'select',
				currentValue: 'b',
				groups: [
					{
						options: [
							{ value: 'a', name: 'A' },
							{ value: 'b', name: 'B', description: 'Better' },
						],
					},
				],
			},
			{ id: 'effort', name: 'Effort', type: 'select', currentValue: 'lo', groups: [{ group: 'g1', name: 'Cheap', options: [{ value: 'lo', name: 'Low' }] }] },
		]);
		assert.deepEqual(session.usage, { used: 5000, size: 200000, cost: { amount: 0.05, currency: 'USD' } });
		t.apply({ type: 'session_setup', modes: null });
		assert.equal(t.snapshot().session.modes, undefined);
		assert.equal(t.snapshot().session.configOptions.length, 2, 'absent config options are left as they are');
	});

	it('tracks the turn: running from the prompt, idle with how it ended', () => {
		const t = run([prompt('go')]);
		assert.equal(t.snapshot().session.turn, 'running');
		t.apply({ type: 'turn_ended', stopReason: 'max_tokens' });
		assert.equal(t.snapshot().session.turn, 'idle');
		t.apply(prompt('again'));
		t.apply({ type: 'turn_failed', message: 'Internal error: model overloaded' });
		assert.deepEqual(
			entries(t)
				.filter((e) => e.kind === 'turn_end')
				.map((e) => ({ ...e, id: 0, rev: 0 })),
			[
				{ kind: 'turn_end', id: 0, rev: 0, stopReason: 'max_tokens' },
				{ kind: 'turn_end', id: 0, rev: 0, error: 'Internal error: model overloaded' },
			],
		);
	});

	it('says when the agent restarted and whether the conversation goes on', () => {
		const t = run([prompt('go'), { type: 'agent_restarted', resumed: true }]);
		assert.equal(t.snapshot().session.ended, false);
		t.apply({ type: 'agent_restarted', resumed: false, reason: 'The agent cannot resume sessions' });
		assert.equal(t.snapshot().session.ended, true);
		assert.deepEqual(
			entries(t)
				.filter((e) => e.kind === 'status')
				.map((e) => ('status' in e ? e.status : '')),
			['resumed', 'ended'],
		);
	});

	it('ignores unknown variants without a revision', () => {
		const t = new Transcript();
		assert.equal(t.update(u({ sessionUpdate: 'plan_removed', planId: 'p' })), false);
		assert.equal(t.revision, 0);
		assert.deepEqual(t.snapshot().entries, []);
	});
});

describe('Transcript: revisions and patches', () => {
	it('gives every entry a stable id and the revision of its last change', () => {
		const t = run([prompt('hi'), agent('a'), agent('b')]);
		assert.deepEqual(
			entries(t).map((e) => [e.id, e.rev]),
			[
				[1, 1],
				[2, 3],
			],
		);
	});

	it('sends only the text appended since the page’s revision', () => {
		const t = run([prompt('hi'), agent('Hello')]);
		const at = t.revision;
		t.update(agent(', wor'));
		t.update(agent('ld'));
		const patch = t.changesSince(at);
		assert.deepEqual(patch.changes, [{ id: 2, rev: at + 2, append: ', world' }]);
		assert.equal(patch.session, undefined, 'the session did not change');
		assert.deepEqual(t.changesSince(t.revision).changes, []);
	});

	it('sends the whole entry when more than text was appended, or the page is too far behind', () => {
		const t = run([agent('Hello')]);
		const at = t.revision;
		t.update(u({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA', mimeType: 'image/png' } }));
		assert.ok('entry' in t.changesSince(at).changes[0]!);
		const far = t.revision;
		for (let i = 0; i < 5000; i++) {
			t.update(agent(`${i} `));
		}
		const change = t.changesSince(far).changes[0]!;
		assert.ok('entry' in change, 'the tail keeps only recent pieces');
		const near = t.changesSince(t.revision - 3).changes[0]!;
		assert.deepEqual(near, { id: 1, rev: t.revision, append: '4997 4998 4999 ' });
	});

	it('sends only the appended text when a fast agent sent a thousand chunks since the last patch', () => {
		const t = run([prompt('go'), agent('start ')]);
		const at = t.revision;
		for (let i = 0; i < 1000; i++) {
			t.update(agent('word '));
		}
		assert.deepEqual(t.changesSince(at).changes, [{ id: 2, rev: t.revision, append: 'word '.repeat(1000) }]);
	});

	it('keeps the appended text of the four entries streamed to last, and sends an older one whole', () => {
		// Four answers streamed after the first one: the first lets its tail go.
		const first = run([prompt('q0'), agent('a0 ')]);
		const mid = first.revision;
		first.update(agent('b0 '));
		assert.deepEqual(first.changesSince(mid).changes, [{ id: 2, rev: first.revision, append: 'b0 ' }]);
		for (let i = 1; i <= 4; i++) {
			first.apply(prompt(`q${i}`));
			first.update(agent(`a${i} `));
			first.update(agent(`b${i} `));
		}
		const change = first.changesSince(mid).changes[0]!;
		assert.ok('entry' in change && change.entry.id === 2, 'the first answer whole');
		assert.equal(textOf(change.entry), 'a0 b0 ');
	});

	it('carries the session when it changed', () => {
		const t = run([agent('x')]);
		const at = t.revision;
		t.update(u({ sessionUpdate: 'usage_update', used: 1, size: 2 }));
		assert.deepEqual(t.changesSince(at).session?.usage, { used: 1, size: 2 });
	});

	it('refuses a revision it never had', () => {
		const t = run([agent('x')]);
		assert.throws(() => t.changesSince(5), /No revision 5 to patch from: this transcript is at 1/);
		assert.throws(() => t.changesSince(-1), RangeError);
	});

	it('rebuilds the host’s model on the page from a snapshot and patches', () => {
		const t = run([prompt('hi'), agent('Hel')]);
		const mirror = new TranscriptMirror(t.snapshot());
		t.update(agent('lo'));
		t.update(u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' }));
		const first = mirror.apply(t.changesSince(mirror.revision));
		assert.deepEqual(first, [2, 3]);
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
		t.update(agent('Done'));
		mirror.apply(t.changesSince(mirror.revision));
		assert.deepEqual(mirror.snapshot(), t.snapshot());
	});

	it('lets the page know when a patch does not fit its copy', () => {
		const t = run([agent('a')]);
		const mirror = new TranscriptMirror(t.snapshot());
		t.update(agent('b'));
		const patch = t.changesSince(mirror.revision);
		t.update(agent('c'));
		assert.equal(mirror.apply(t.changesSince(t.revision - 1)), undefined, 'a patch from a revision the page does not have');
		assert.deepEqual(mirror.apply(patch), [1]);
		assert.equal(mirror.apply({ from: mirror.revision, to: mirror.revision + 1, firstId: 1, dropped: 0, changes: [{ id: 9, rev: 9, append: 'x' }] }), undefined, 'an append to an entry it does not have');
		assert.equal(textOf(mirror.entries[0]), 'ab', 'a patch that does not fit changes nothing');
	});

	it('gives each changed entry on the page a new object and keeps the others', () => {
		const t = run([agent('a'), u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T' })]);
		const mirror = new TranscriptMirror(t.snapshot());
		const [before0, before1] = mirror.entries;
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
		mirror.apply(t.changesSince(mirror.revision));
		assert.equal(mirror.entries[0], before0);
		assert.notEqual(mirror.entries[1], before1);
	});
});

describe('Transcript: caps', () => {
	it('cuts an entry at its cap, marks it, and drops the rest without new revisions', () => {
		const t = run([agent('12345'), agent('67890')], { maxEntryChars: 8 });
		const entry = entries(t)[0] as MessageEntry;
		assert.equal(textOf(entry), '12345678');
		assert.equal(entry.truncated, true);
		const rev = t.revision;
		assert.equal(t.update(agent('more')), false);
		assert.equal(t.revision, rev);
	});

	it('never cuts between the halves of a surrogate pair', () => {
		assert.equal(clip('ab😀', 3), 'ab');
		assert.equal(clip('ab😀', 4), 'ab😀');
		const t = run([agent('ab😀cd')], { maxEntryChars: 3 });
		assert.equal(textOf(entries(t)[0]), 'ab');
	});

	it('drops the oldest entries beyond the entry cap and says how many', () => {
		const events: TranscriptEvent[] = [];
		for (let i = 0; i < 10; i++) {
			events.push(prompt(`q${i}`));
		}
		const t = run(events, { maxEntries: 4 });
		const snapshot = t.snapshot();
		assert.equal(snapshot.entries.length, 4);
		assert.equal(snapshot.dropped, 6);
		assert.equal(snapshot.firstId, 7);
		assert.deepEqual(snapshot.entries.map(textOf), ['q6', 'q7', 'q8', 'q9']);
	});

	it('drops the oldest entries beyond the character cap, never the one streaming', () => {
		const t = run([agent('a'.repeat(40)), thought('b'.repeat(40)), agent('c'.repeat(40))], { maxTotalChars: 100 });
		assert.deepEqual(kinds(t), ['thought', 'agent']);
		const big = run([agent('x'.repeat(90)), thought('y'.repeat(90))], { maxTotalChars: 100, maxEntryChars: 90 });
		assert.deepEqual(kinds(big), ['thought']);
	});

	it('forgets dropped tool calls: a later update for one starts it again', () => {
		const t = run([u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Old' }), agent('1'), thought('2')], { maxEntries: 2 });
		t.update(u({ sessionUpdate: 'tool_call_update', toolCallId: 't', status: 'completed' }));
		assert.deepEqual(kinds(t), ['thought', 'tool_call']);
		assert.equal(toolCall(t, 't')!.title, '');
	});

	it('keeps an image over the media cap without its data', () => {
		const t = run([u({ sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'A'.repeat(100), mimeType: 'image/png' } })], { maxMediaChars: 50 });
		assert.deepEqual((entries(t)[0] as MessageEntry).blocks, [{ type: 'image', mimeType: 'image/png', data: '', omitted: true }]);
	});

	it('caps blocks per message, list items, labels and raw JSON', () => {
		const link = (i: number) => u({ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: `file:///${i}`, name: `${i}` } });
		const t = run([link(1), link(2), link(3), link(4)], { maxBlocks: 2 });
		assert.equal((entries(t)[0] as MessageEntry).blocks.length, 2);
		assert.equal((entries(t)[0] as MessageEntry).truncated, true);

		const limits = { maxItems: 3, maxLabelChars: 10, maxRawChars: 20 };
		const many = run(
			[
				u({
					sessionUpdate: 'tool_call',
					toolCallId: 't',
					title: 'A very long title indeed',
					locations: Array.from({ length: 10 }, (_, i) => ({ path: `/${i}` })),
					content: Array.from({ length: 10 }, (_, i) => ({ type: 'terminal', terminalId: `${i}` })),
					rawInput: { command: 'x'.repeat(100) },
				}),
				u({ sessionUpdate: 'plan', entries: Array.from({ length: 10 }, () => ({ content: 'step', priority: 'low', status: 'pending' })) }),
				u({ sessionUpdate: 'available_commands_update', availableCommands: Array.from({ length: 10 }, (_, i) => ({ name: `c${i}`, description: '' })) }),
			],
			limits,
		);
		const call = toolCall(many, 't')!;
		assert.equal(call.title, 'A very lon');
		assert.equal(call.locations.length, 3);
		assert.equal(call.content.length, 3);
		assert.equal(call.truncated, true);
		assert.equal(call.rawInput?.length, 20);
		assert.ok(call.rawInput?.endsWith('…'));
		const planEntry = entries(many).find((e) => e.kind === 'plan');
		assert.ok(planEntry?.kind === 'plan');
		assert.equal(planEntry.items.length, 3);
		assert.equal(many.snapshot().session.commands.length, 3);
	});

	it('cuts a diff to the entry cap and marks it', () => {
		const t = run([u({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Edit', content: [{ type: 'diff', path: '/a', oldText: 'o'.repeat(30), newText: 'n'.repeat(30) }] })], { maxEntryChars: 40 });
		const diff = toolCall(t, 't')!.content[0]!;
		assert.ok(diff.type === 'diff');
		assert.equal(diff.newText.length, 30);
		assert.equal(diff.oldText?.length, 10);
		assert.equal(diff.truncated, true);
	});

	it('stays within its caps under a flood (a million chunks, thousands of tool calls)', () => {
		const limits = { maxEntries: 500, maxEntryChars: 10_000, maxTotalChars: 200_000 };
		const t = new Transcript(limits);
		const chunk = agent('0123456789');
		for (let i = 0; i < 1_000_000; i++) {
			t.update(chunk);
		}
		assert.equal(textOf(entries(t)[0])!.length, 10_000);
		for (let i = 0; i < 5_000; i++) {
			t.update(u({ sessionUpdate: 'tool_call', toolCallId: `t${i}`, title: 'x'.repeat(100) }));
		}
		const snapshot = t.snapshot();
		assert.equal(snapshot.entries.length, 500);
		const chars = snapshot.entries.reduce((n, e) => n + JSON.stringify(e).length, 0);
		assert.ok(chars < 2 * limits.maxTotalChars, `${chars} characters kept`);
	});
});

describe('Transcript: properties', () => {
	// Streams over a small pool of ids, so updates meet tool calls, compactions and requests they name.
	const id = fc.constantFrom('a', 'b', 'c');
	const chars = fc.string({ maxLength: 12, unit: 'grapheme' });
	const block = fc.oneof(
		{ weight: 6, arbitrary: chars.map((t) => ({ type: 'text', text: t })) },
		{ weight: 1, arbitrary: fc.constantFrom('AAAA', 'B'.repeat(40)).map((data) => ({ type: 'image', data, mimeType: 'image/png' })) },
		{ weight: 1, arbitrary: id.map((n) => ({ type: 'resource_link', uri: `file:///${n}`, name: n })) },
		{ weight: 1, arbitrary: chars.map((t) => ({ type: 'resource', resource: { uri: 'file:///r', text: t } })) },
	);
	const status = fc.constantFrom('pending', 'in_progress', 'completed', 'failed');
	const toolContent = fc.oneof(
		block.map((content) => ({ type: 'content', content })),
		fc.record({ type: fc.constant('diff'), path: fc.constant('/p'), oldText: fc.option(chars, { nil: undefined }), newText: chars }),
		id.map((terminalId) => ({ type: 'terminal', terminalId })),
	);
	const update = fc.oneof(
		{ weight: 8, arbitrary: fc.record({ sessionUpdate: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'), content: block, messageId: fc.option(id, { nil: undefined }) }) },
		{ weight: 2, arbitrary: fc.record({ sessionUpdate: fc.constant('tool_call'), toolCallId: id, title: chars, status, content: fc.array(toolContent, { maxLength: 3 }) }) },
		{ weight: 3, arbitrary: fc.record({ sessionUpdate: fc.constant('tool_call_update'), toolCallId: id, status: fc.option(status, { nil: undefined }), content: fc.option(fc.array(toolContent, { maxLength: 3 }), { nil: undefined }) }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('plan'), entries: fc.array(fc.record({ content: chars, priority: fc.constant('low'), status: fc.constant('pending') }), { maxLength: 3 }) }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('compaction_summary_chunk'), compactionId: id, content: block }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('compaction_update'), compactionId: id, status, summary: fc.option(fc.array(block, { maxLength: 2 }), { nil: undefined }) }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('session_info_update'), title: fc.option(chars, { nil: null }) }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('usage_update'), used: fc.nat(), size: fc.nat() }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constant('notice'), severity: fc.constant('info'), title: fc.constant('n') }) },
		{ weight: 1, arbitrary: fc.record({ sessionUpdate: fc.constantFrom('plan_update', 'subagent_update') }) },
	);
	const local: fc.Arbitrary<TranscriptEvent> = fc.oneof(
		chars.map((t) => prompt(t)),
		fc.constantFrom<TranscriptEvent>({ type: 'turn_ended', stopReason: 'end_turn' }, { type: 'turn_failed', message: 'x' }, { type: 'agent_restarted', resumed: true }),
		id.map((n): TranscriptEvent => ({ type: 'permission_asked', requestId: n, toolCall: toolCallUpdateSchema.parse({ toolCallId: n }), options: [{ optionId: 'o', name: 'O', kind: 'allow_once' }] })),
		fc.tuple(id, fc.option(fc.constant('o'), { nil: undefined })).map(([n, optionId]): TranscriptEvent => ({ type: 'permission_answered', requestId: n, ...(optionId ? { optionId } : {}) })),
	);
	const event: fc.Arbitrary<TranscriptEvent> = fc.oneof({ weight: 5, arbitrary: update.map((raw): TranscriptEvent => ({ type: 'update', update: u(raw) })) }, { weight: 1, arbitrary: local });
	const smallLimits: Partial<TranscriptLimits> = { maxEntries: 12, maxTotalChars: 400, maxEntryChars: 60, maxMediaChars: 20, maxBlocks: 4, maxItems: 3, maxLabelChars: 8 };

	it('gives the same model whether text arrives in one chunk or split anywhere', () => {
		// A message: chunks of one kind and message id, each text possibly split in pieces.
		const piece = fc.tuple(fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk'), fc.string({ maxLength: 30 }), fc.array(fc.nat(30), { maxLength: 4 }));
		fc.assert(
			fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
				const whole = new Transcript();
				const split = new Transcript();
				for (const [kind, textValue, cuts] of pieces) {
					whole.update(u({ sessionUpdate: kind, content: text(textValue) }));
					let start = 0;
					for (const cut of [...cuts].sort((a, b) => a - b)) {
						split.update(u({ sessionUpdate: kind, content: text(textValue.slice(start, Math.max(start, cut))) }));
						start = Math.max(start, cut);
					}
					split.update(u({ sessionUpdate: kind, content: text(textValue.slice(start)) }));
				}
				assert.deepEqual(shape(split.snapshot()), shape(whole.snapshot()));
			}),
			{ numRuns: 300 },
		);
	});

	it('reproduces the host’s model on the page from a snapshot taken anywhere and patches at any points', () => {
		fc.assert(
			fc.property(fc.array(event, { maxLength: 80 }), fc.array(fc.boolean(), { minLength: 80, maxLength: 80 }), fc.nat(80), fc.boolean(), (events, patchAfter, snapshotAt, small) => {
				const t = new Transcript(small ? smallLimits : {});
				let mirror: TranscriptMirror | undefined;
				events.forEach((e, i) => {
					if (i === Math.min(snapshotAt, events.length - 1)) {
						mirror = new TranscriptMirror(t.snapshot());
					}
					t.apply(e);
					if (mirror && patchAfter[i]) {
						const patch = t.changesSince(mirror.revision);
						assert.ok(transcriptPatchSchema.safeParse(patch).success, 'every patch passes the page’s check');
						assert.ok(mirror.apply(patch), 'every patch fits');
					}
				});
				mirror ??= new TranscriptMirror(t.snapshot());
				mirror.apply(t.changesSince(mirror.revision));
				const snapshot = t.snapshot();
				assert.ok(transcriptSnapshotSchema.safeParse(snapshot).success, 'every snapshot passes the page’s check');
				assert.deepEqual(mirror.snapshot(), snapshot);
			}),
			{ numRuns: 300 },
		);
	});

	it('gives the same model to the same events, and ids that count up without gaps', () => {
		fc.assert(
			fc.property(fc.array(event, { maxLength: 60 }), (events) => {
				const a = run(events, smallLimits).snapshot();
				const b = run(events, smallLimits).snapshot();
				assert.deepEqual(a, b);
				a.entries.forEach((e, i) => assert.equal(e.id, a.firstId + i));
				assert.ok(a.entries.every((e) => e.rev <= a.revision));
			}),
			{ numRuns: 200 },
		);
	});

	it('keeps within its caps whatever the stream', () => {
		fc.assert(
			fc.property(fc.array(event, { maxLength: 120 }), (events) => {
				const t = run(events, smallLimits);
				const snapshot = t.snapshot();
				assert.ok(snapshot.entries.length <= smallLimits.maxEntries!);
				for (const e of snapshot.entries) {
					if ('blocks' in e) {
						assert.ok(e.blocks.length <= smallLimits.maxBlocks!);
						const chars = e.blocks.reduce((n, b) => n + (b.type === 'text' ? b.text.length : b.type === 'resource' ? (b.text?.length ?? 0) : 0), 0);
						assert.ok(chars <= smallLimits.maxEntryChars!, `${chars} characters in one entry`);
					}
					if (e.kind === 'tool_call') {
						assert.ok(e.content.length <= smallLimits.maxItems! && e.title.length <= smallLimits.maxLabelChars!);
					}
				}
			}),
			{ numRuns: 200 },
		);
	});
});

describe('titleFromPrompt', () => {
	it('takes the first line with text, collapsed and cut at 80 characters', () => {
		assert.equal(titleFromPrompt('\n\n  fix   the\ttests  \nmore'), 'fix the tests');
		assert.equal(titleFromPrompt(' \n '), undefined);
		const long = titleFromPrompt('word '.repeat(40))!;
		assert.equal(long.length, 80);
		assert.ok(long.endsWith('…'));
	});

	it('uses the default limits unless told otherwise', () => {
		assert.equal(new Transcript().limits.maxEntries, DEFAULT_LIMITS.maxEntries);
		assert.equal(new Transcript({ maxEntries: 3 }).limits.maxEntries, 3);
	});
});
