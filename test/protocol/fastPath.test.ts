// A notification handler's fast path, through the real connection over in-memory streams: params it
// takes reach the handler as it returned them, without the schema; params it leaves (undefined) go
// through the schema as before, invalid ones dropped. The chat's session/update handler uses it for
// text chunks (src/common/chat/textChunkFastPath.ts).
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { textChunkFastPath } from '../../src/common/chat/textChunkFastPath';
import { sessionNotificationSchema, type SessionNotification } from '../../src/common/chat/updates';
import { AgentConnection } from '../../src/node/connection';
import { MemoryLog, waitFor } from './helpers';

function setup() {
	const toClient = new PassThrough();
	const connection = new AgentConnection({ input: toClient, output: new PassThrough(), maxLineBytes: 1024 * 1024, log: new MemoryLog() });
	const send = (message: object) => toClient.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
	return { connection, send };
}

describe('a notification handler with a fast path', () => {
	it('skips the schema for the params the fast path takes, and checks the others with it', async () => {
		const { connection, send } = setup();
		let parses = 0;
		const counted = z.pipe(
			z.object({ n: z.number() }),
			z.transform((value) => {
				parses++;
				return { n: value.n, by: 'schema' };
			}),
		);
		const seen: unknown[] = [];
		connection.onNotification('test/note', counted, (p) => void seen.push(p), (p) => (typeof p === 'object' && p !== null && (p as { n?: unknown }).n === 1 ? { n: 1, by: 'fast' } : undefined));
		connection.listen();
		send({ method: 'test/note', params: { n: 1 } });
		send({ method: 'test/note', params: { n: 2 } });
		send({ method: 'test/note', params: { n: 'three' } });
		send({ method: 'test/note', params: { n: 4 } });
		await waitFor(() => seen.length === 3);
		assert.deepEqual(seen, [
			{ n: 1, by: 'fast' },
			{ n: 2, by: 'schema' },
			{ n: 4, by: 'schema' },
		]);
		assert.equal(parses, 2, 'the schema ran for the params the fast path left, not for the one it took');
		connection.dispose();
	});

	it('hands the chat the same updates with the text chunk fast path as with the schema alone', async () => {
		const lines = [
			{ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } } },
			{ sessionId: 's', update: { sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'hm' }, messageId: 'm' } },
			{ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', annotations: { priority: 0.5 } } } },
			{ sessionId: 's', update: { sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read' } },
			{ sessionId: 's', update: { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 7 } } },
		];
		const received = async (withFastPath: boolean) => {
			const { connection, send } = setup();
			const seen: SessionNotification[] = [];
			connection.onNotification('session/update', sessionNotificationSchema, (p) => void seen.push(p), withFastPath ? textChunkFastPath : undefined);
			connection.listen();
			for (const params of lines) {
				send({ method: 'session/update', params });
			}
			await waitFor(() => seen.length === 4);
			connection.dispose();
			return seen;
		};
		assert.deepStrictEqual(await received(true), await received(false));
	});
});
