import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { textChunkFastPath } from '../../src/common/chat/textChunkFastPath';
import { sessionNotificationSchema } from '../../src/common/chat/updates';

/** Params as the connection reads them: parsed from the line's JSON. */
const wire = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

const chunk = (kind: string, text: unknown, extra: Record<string, unknown> = {}, content: Record<string, unknown> = {}) =>
	wire({ sessionId: 'sess-1', update: { sessionUpdate: kind, content: { type: 'text', text, ...content }, ...extra } });

describe('text chunks checked without zod', () => {
	it('answers for the text chunks agents stream, exactly as the schema does (new objects, same keys in the same order)', () => {
		for (const kind of ['agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk']) {
			for (const params of [chunk(kind, 'Hello'), chunk(kind, ''), chunk(kind, 'x', { messageId: 'm-1' }), wire({ update: { content: { text: 'y', type: 'text' }, sessionUpdate: kind }, sessionId: 's' })]) {
				const fast = textChunkFastPath(params);
				assert.ok(fast, JSON.stringify(params));
				const slow = sessionNotificationSchema.parse(params);
				assert.deepStrictEqual(fast, slow);
				assert.equal(JSON.stringify(fast), JSON.stringify(slow));
				assert.notEqual(fast, params);
				assert.notEqual(fast.update, (params as { update: unknown }).update);
			}
		}
	});

	it('leaves every other shape to the schema', () => {
		const others = [
			chunk('agent_message_chunk', 'x', { _meta: { a: 1 } }),
			chunk('agent_message_chunk', 'x', {}, { annotations: { priority: 1 } }),
			chunk('agent_message_chunk', 'x', {}, { _meta: null }),
			chunk('agent_message_chunk', 'x', { messageId: null }),
			chunk('agent_message_chunk', 'x', { messageId: 7 }),
			chunk('agent_message_chunk', 7),
			chunk('tool_call', 'x'),
			chunk('plan', 'x'),
			chunk('agent_message_chunk', 'x', { extra: true }),
			wire({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'image', data: 'AA==', mimeType: 'image/png' } } }),
			wire({ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: [{ type: 'text', text: 'x' }] } }),
			wire({ sessionId: 7, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } }),
			wire({ sessionId: 's', _meta: {}, update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' } } }),
			JSON.parse('{"sessionId":"s","update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x","__proto__":{"polluted":1}}}}'),
			JSON.parse('{"sessionId":"s","__proto__":{"x":1},"update":{"sessionUpdate":"agent_message_chunk","content":{"type":"text","text":"x"}}}'),
			null,
			'text',
			[],
			{},
		];
		for (const params of others) {
			assert.equal(textChunkFastPath(params), undefined, JSON.stringify(params));
		}
	});

	it('never answers differently from the schema, on any JSON shaped like a chunk', () => {
		const value = fc.oneof(fc.string(), fc.integer(), fc.constant(null), fc.boolean(), fc.dictionary(fc.string(), fc.string(), { maxKeys: 2 }));
		const keyed = (keys: string[]) => fc.dictionary(fc.constantFrom(...keys), value, { maxKeys: keys.length });
		const content = fc.oneof(keyed(['type', 'text', 'annotations', '_meta']), fc.record({ type: fc.constantFrom('text', 'image', 'x'), text: value }), value);
		const update = fc.record({ sessionUpdate: fc.constantFrom('agent_message_chunk', 'agent_thought_chunk', 'user_message_chunk', 'tool_call', 'x'), content }, { requiredKeys: [] });
		const withExtra = fc.tuple(update, keyed(['messageId', '_meta', 'other'])).map(([u, extra]) => ({ ...u, ...extra }));
		const params = fc.tuple(fc.oneof(fc.string(), value), withExtra, keyed(['_meta', 'x'])).map(([sessionId, u, extra]) => wire({ sessionId, update: u, ...extra }));
		fc.assert(
			fc.property(params, (p) => {
				const fast = textChunkFastPath(p);
				if (fast === undefined) {
					return;
				}
				const slow = sessionNotificationSchema.safeParse(p);
				assert.ok(slow.success, `the schema refuses what the fast path took: ${JSON.stringify(p)}`);
				assert.equal(JSON.stringify(fast), JSON.stringify(slow.data));
			}),
			{ numRuns: 3000 },
		);
	});
});
