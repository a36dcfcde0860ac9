// Backpressure on requests from the agent, through the real connection over in-memory streams: at most
// maxConcurrentRequests are handled at once; the rest, and the notifications after them, wait in order;
// $/cancel_request never waits.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { AgentConnection } from '../../src/node/connection';
import { onMessages, type Answer } from '../shared/answerReader';
import { MemoryLog, waitFor } from './helpers';

function setup(maxConcurrentRequests: number) {
	const toClient = new PassThrough();
	const fromClient = new PassThrough();
	const connection = new AgentConnection({ input: toClient, output: fromClient, maxLineBytes: 1024 * 1024, log: new MemoryLog(), maxConcurrentRequests });
	const answers: Answer[] = [];
	onMessages(fromClient, (answer) => answers.push(answer));
	const send = (message: object) => toClient.write(`${JSON.stringify({ jsonrpc: '2.0', ...message })}\n`);
	return { connection, answers, send };
}

describe('requests from the agent under backpressure', () => {
	it('handles at most the limit at once, keeps later requests and notifications in order, and lets cancellation through', async () => {
		const { connection, answers, send } = setup(2);
		const started: string[] = [];
		const release = new Map<string, () => void>();
		const events: string[] = [];
		connection.onRequest('test/hold', z.object({ name: z.string() }), async (p, token) => {
			started.push(p.name);
			events.push(`start ${p.name}`);
			await new Promise<void>((resolve) => {
				release.set(p.name, resolve);
				token.onCancellationRequested(() => resolve());
			});
			return { done: p.name };
		});
		connection.onNotification('test/note', z.object({ n: z.number() }), (p) => {
			events.push(`note ${p.n}`);
		});
		connection.listen();

		send({ id: 1, method: 'test/hold', params: { name: 'a' } });
		send({ id: 2, method: 'test/hold', params: { name: 'b' } });
		send({ id: 3, method: 'test/hold', params: { name: 'c' } });
		send({ method: 'test/note', params: { n: 1 } });
		send({ id: 4, method: 'test/hold', params: { name: 'd' } });
		await waitFor(() => started.length === 2);
		await new Promise((resolve) => setTimeout(resolve, 50));
		assert.deepEqual(started, ['a', 'b'], 'two at once');
		assert.deepEqual(events, ['start a', 'start b'], 'the notification waits behind request c');

		// A waiting request is answered as cancelled at once and never handled.
		send({ method: '$/cancel_request', params: { requestId: 4 } });
		await waitFor(() => answers.some((a) => a.id === 4));
		assert.equal(answers.find((a) => a.id === 4)?.error?.code, -32800);

		// A request being handled is cancelled at once, although others wait.
		send({ method: '$/cancel_request', params: { requestId: 1 } });
		await waitFor(() => answers.some((a) => a.id === 1));
		assert.equal(answers.find((a) => a.id === 1)?.error?.code, -32800);

		// Its place goes to c, then the notification after it.
		await waitFor(() => started.length === 3);
		await waitFor(() => events.includes('note 1'));
		assert.deepEqual(events, ['start a', 'start b', 'start c', 'note 1']);
		release.get('b')!();
		release.get('c')!();
		await waitFor(() => answers.filter((a) => a.result !== undefined).length === 2);
		assert.deepEqual(started, ['a', 'b', 'c'], 'd was never handled');
		assert.deepEqual(answers.map((a) => a.id).sort(), [1, 2, 3, 4]);
		connection.dispose();
	});
});
