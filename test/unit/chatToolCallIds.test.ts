// Tool call ids used again in later turns (the ACP SDK's example agent sends `call_1` in every
// turn): each turn gets its own card, updates go to the newest card with the id, an earlier turn's
// cards never change again, and each reuse is noted once for the log.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ToolCallCards } from '../../src/common/chat/toolCallIds';
import { Transcript, type ToolCallEntry, type TranscriptEvent } from '../../src/common/chat/transcript';
import { contentBlockSchema, sessionUpdateSchema, toolCallUpdateSchema, type SessionUpdate } from '../../src/common/chat/updates';

const u = (update: Record<string, unknown>): SessionUpdate => sessionUpdateSchema.parse(update);
const prompt = (text: string): TranscriptEvent => ({ type: 'prompt', blocks: [contentBlockSchema.parse({ type: 'text', text })] });
const agent = (text: string) => u({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text } });

function run(events: readonly (TranscriptEvent | SessionUpdate)[], transcript = new Transcript()): Transcript {
	for (const event of events) {
		transcript.apply('sessionUpdate' in event ? { type: 'update', update: event } : event);
	}
	return transcript;
}

const cards = (t: Transcript) => t.snapshot().entries.filter((e): e is ToolCallEntry => e.kind === 'tool_call');

/** One turn of the SDK's example agent, as it sends it (examples/agent.js), up to its permission request. */
function exampleTurn(text: string, requestId: string): (TranscriptEvent | SessionUpdate)[] {
	return [
		prompt(text),
		agent("I'll help you with that."),
		u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Reading project files', kind: 'read', status: 'pending', locations: [{ path: '/project/README.md' }] }),
		u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_1', status: 'completed', content: [{ type: 'content', content: { type: 'text', text: '# My Project' } }] }),
		agent(' Now I understand the project structure.'),
		u({ sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Modifying critical configuration file', kind: 'edit', status: 'pending' }),
		{
			type: 'permission_asked',
			requestId,
			toolCall: toolCallUpdateSchema.parse({ toolCallId: 'call_2', title: 'Modifying critical configuration file', kind: 'edit', status: 'pending' }),
			options: [
				{ optionId: 'allow', name: 'Allow this change', kind: 'allow_once' },
				{ optionId: 'reject', name: 'Skip this change', kind: 'reject_once' },
			],
		},
	];
}

describe('Tool call ids reused across turns', () => {
	it('gives the second turn of the SDK example agent its own cards; the first turn keeps ✓ and its answer', () => {
		const t = run([
			...exampleTurn('first', 'r1'),
			{ type: 'permission_answered', requestId: 'r1', optionId: 'allow' },
			u({ sessionUpdate: 'tool_call_update', toolCallId: 'call_2', status: 'completed' }),
			{ type: 'turn_ended', stopReason: 'end_turn' },
		]);
		const firstTurn = JSON.stringify(cards(t));
		// The second turn, stopped with Escape while it reads.
		run(
			[
				prompt('second'),
				agent("I'll help you with that."),
				u({ sessionUpdate: 'tool_call', toolCallId: 'call_1', title: 'Reading project files', kind: 'read', status: 'pending' }),
				{ type: 'turn_ended', stopReason: 'cancelled' },
			],
			t,
		);
		const all = cards(t);
		assert.deepEqual(
			all.map((c) => [c.toolCallId, c.status]),
			[
				['call_1', 'completed'],
				['call_2', 'completed'],
				['call_1', 'pending'],
			],
		);
		assert.equal(JSON.stringify(all.slice(0, 2)), firstTurn, 'the first turn’s cards did not change at all');
		assert.ok(all[2]!.id > t.snapshot().entries.find((e) => e.kind === 'user' && e.blocks.some((b) => b.type === 'text' && b.text === 'second'))!.id, 'the new card is in the second turn');
		assert.deepEqual(t.takeReusedToolCallIds(), ['call_1'], 'the first turn reused nothing; the second reused call_1');
		assert.deepEqual(t.takeReusedToolCallIds(), [], 'taken once');
	});

	it('notes each reuse once, not each update after it', () => {
		const t = run([prompt('a'), u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'A' }), prompt('b')]);
		t.takeReusedToolCallIds();
		run(
			[
				u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'B' }),
				u({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'in_progress' }),
				u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'B again' }),
				u({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'completed' }),
			],
			t,
		);
		assert.deepEqual(t.takeReusedToolCallIds(), ['x']);
		assert.deepEqual(
			cards(t).map((c) => [c.title, c.status]),
			[
				['A', 'pending'],
				['B again', 'completed'],
			],
		);
	});

	it('sends a tool_call_update with an earlier turn’s id to a new card of this turn', () => {
		const t = run([prompt('a'), u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'Read', status: 'completed' }), prompt('b'), u({ sessionUpdate: 'tool_call_update', toolCallId: 'x', status: 'in_progress', title: 'Read again' })]);
		assert.deepEqual(
			cards(t).map((c) => [c.title, c.status]),
			[
				['Read', 'completed'],
				['Read again', 'in_progress'],
			],
		);
		assert.deepEqual(t.takeReusedToolCallIds(), ['x']);
	});

	it('puts a permission request whose id belongs to an earlier turn on a card of this turn', () => {
		const t = run([
			...exampleTurn('first', 'r1'),
			{ type: 'permission_answered', requestId: 'r1', optionId: 'reject' },
			{ type: 'turn_ended', stopReason: 'end_turn' },
			prompt('second'),
			// No tool_call first: the request alone names call_2.
			{ type: 'permission_asked', requestId: 'r2', toolCall: toolCallUpdateSchema.parse({ toolCallId: 'call_2', title: 'Edit again' }), options: [{ optionId: 'allow', name: 'Allow', kind: 'allow_once' }] },
		]);
		const calls = cards(t).filter((c) => c.toolCallId === 'call_2');
		assert.deepEqual(
			calls.map((c) => [c.title, c.permission?.requestId, c.permission?.state]),
			[
				['Modifying critical configuration file', 'r1', 'selected'],
				['Edit again', 'r2', 'pending'],
			],
		);
		t.apply({ type: 'permission_answered', requestId: 'r2', optionId: 'allow' });
		assert.equal(cards(t).filter((c) => c.toolCallId === 'call_2')[0]!.permission?.optionId, 'reject', 'the first answer stays');
	});

	it('still takes an id sent again within one turn as the same card', () => {
		const t = run([prompt('a'), u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'A' }), agent('…'), u({ sessionUpdate: 'tool_call', toolCallId: 'x', title: 'B', status: 'completed' })]);
		assert.deepEqual(
			cards(t).map((c) => c.title),
			['B'],
		);
		assert.deepEqual(t.takeReusedToolCallIds(), []);
	});

	it('treats each replayed user message (session/load) as a new turn, and goes on from a stored snapshot', () => {
		const userChunk = (text: string) => u({ sessionUpdate: 'user_message_chunk', content: { type: 'text', text } });
		const t = run([userChunk('one'), u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'One', status: 'completed' }), userChunk('two'), u({ sessionUpdate: 'tool_call', toolCallId: 'c', title: 'Two', status: 'completed' })]);
		assert.deepEqual(
			cards(t).map((c) => c.title),
			['One', 'Two'],
		);
		const restored = Transcript.restore(t.snapshot());
		run([u({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'failed' })], restored);
		assert.deepEqual(
			cards(restored).map((c) => [c.title, c.status]),
			[
				['One', 'completed'],
				['Two', 'failed'],
			],
			'an update in the stored last turn goes to its card',
		);
		run([prompt('three'), u({ sessionUpdate: 'tool_call_update', toolCallId: 'c', status: 'in_progress' })], restored);
		assert.deepEqual(
			cards(restored).map((c) => c.status),
			['completed', 'failed', 'in_progress'],
			'a new turn after the restore gets its own card',
		);
	});

	it('never changes a card of an earlier turn, whatever ids the agent sends (generated streams)', () => {
		const id = fc.constantFrom('call_1', 'call_2', 'call_3');
		const step = fc.oneof(
			fc.record({ kind: fc.constant('call' as const), id, status: fc.constantFrom('pending', 'in_progress', 'completed', 'failed') }),
			fc.record({ kind: fc.constant('update' as const), id, status: fc.constantFrom('pending', 'in_progress', 'completed', 'failed') }),
			fc.record({ kind: fc.constant('ask' as const), id }),
			fc.record({ kind: fc.constant('text' as const) }),
		);
		fc.assert(
			fc.property(fc.array(fc.array(step, { maxLength: 8 }), { minLength: 1, maxLength: 6 }), (turns) => {
				const t = new Transcript();
				let request = 0;
				let frozen = new Map<number, string>();
				for (const [index, turn] of turns.entries()) {
					t.apply(prompt(`turn ${index}`));
					const turnStart = t.snapshot().entries.at(-1)!.id;
					for (const s of turn) {
						const event: TranscriptEvent =
							s.kind === 'call'
								? { type: 'update', update: u({ sessionUpdate: 'tool_call', toolCallId: s.id, title: `${s.id} in ${index}`, status: s.status }) }
								: s.kind === 'update'
									? { type: 'update', update: u({ sessionUpdate: 'tool_call_update', toolCallId: s.id, status: s.status }) }
									: s.kind === 'ask'
										? { type: 'permission_asked', requestId: `r${request++}`, toolCall: toolCallUpdateSchema.parse({ toolCallId: s.id }), options: [{ optionId: 'y', name: 'Yes', kind: 'allow_once' }] }
										: { type: 'update', update: agent('…') };
						t.apply(event);
					}
					t.apply({ type: 'turn_ended', stopReason: 'end_turn' });
					const now = cards(t);
					for (const [cardId, json] of frozen) {
						assert.equal(JSON.stringify(now.find((c) => c.id === cardId)), json, `card ${cardId} of an earlier turn changed`);
					}
					// At most one card per id in this turn.
					const ids = now.filter((c) => c.id > turnStart).map((c) => c.toolCallId);
					assert.equal(new Set(ids).size, ids.length, `one card per id in turn ${index}: ${ids.join()}`);
					frozen = new Map(now.map((c) => [c.id, JSON.stringify(c)]));
				}
			}),
			{ numRuns: 300 },
		);
	});
});

describe('ToolCallCards', () => {
	it('finds the newest card of the turn, notes an earlier turn’s id, and forgets only the card it holds', () => {
		const index = new ToolCallCards<string>();
		assert.equal(index.find('a', 1), undefined);
		index.add('a', 'first', 1);
		assert.equal(index.find('a', 1), 'first');
		assert.equal(index.find('a', 2), undefined);
		index.add('a', 'second', 2);
		assert.equal(index.find('a', 2), 'second');
		index.forget('a', 'first');
		assert.equal(index.find('a', 2), 'second', 'an older card dropped leaves the newer');
		index.forget('a', 'second');
		assert.equal(index.find('a', 2), undefined);
		assert.deepEqual(index.takeReused(), ['a']);
	});

	it('keeps at most 100 noted ids until they are taken', () => {
		const index = new ToolCallCards<number>();
		for (let i = 0; i < 500; i++) {
			index.add(`id${i}`, i, 0);
			index.find(`id${i}`, 1);
		}
		assert.equal(index.takeReused().length, 100);
	});
});
