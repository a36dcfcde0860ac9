// How the connection takes in an agent's input under a flood, through the real AgentConnection over
// in-memory streams: reading stops while what was read waits to be handled (the agent's writes are held
// back); a flooded connection is handled in time slices, so another connection's request is answered
// in the middle of the flood; the answers of a slice go out in one write; a request with a member nested
// thousands of levels deep is answered, that member cut at MAX_JSON_DEPTH.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import * as z from 'zod/mini';
import { EditorStateMethods, sessionParamsSchema } from '../../src/common/editorStateProtocol';
import { MAX_JSON_DEPTH } from '../../src/common/ndjson';
import { AgentConnection, type AgentConnectionOptions } from '../../src/node/connection';
import { onMessages, type Answer } from '../shared/answerReader';
import { MemoryLog, waitFor } from './helpers';

function setup(options: Partial<AgentConnectionOptions> = {}) {
	const toClient = new PassThrough();
	const fromClient = new PassThrough();
	const log = new MemoryLog();
	const connection = new AgentConnection({ input: toClient, output: fromClient, maxLineBytes: 1024 * 1024, log, ...options });
	const answers: Answer[] = [];
	onMessages(fromClient, (answer) => answers.push(answer));
	connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, () => ({ document: null }));
	connection.listen();
	return { connection, toClient, fromClient, answers, log };
}

const request = (id: string | number, method = EditorStateMethods.activeDocument as string, params: object = { sessionId: 's' }) =>
	`${JSON.stringify({ jsonrpc: '2.0', id, method, params })}\n`;

describe('input under a flood', () => {
	it('stops reading while what was read waits to be handled, so the agent’s writes are held back, and answers everything', async () => {
		const { connection, toClient, answers } = setup({ pacing: { highWaterBytes: 64 * 1024 } });
		const lines = 20_000;
		let heldBack = 0;
		let pausedSeen = false;
		const chunk = 500;
		for (let i = 0; i < lines; i += chunk) {
			const text = Array.from({ length: chunk }, (_, k) => request(i + k)).join('');
			// An agent with flow control: when write says no, it waits for 'drain'.
			if (!toClient.write(text)) {
				heldBack++;
				pausedSeen ||= toClient.readableFlowing === false;
				await new Promise((resolve) => toClient.once('drain', resolve));
			}
		}
		await waitFor(() => answers.length === lines, 60_000);
		assert.ok(heldBack > 0, 'the agent was made to wait');
		assert.ok(pausedSeen, 'the client stopped reading meanwhile');
		assert.equal(toClient.readableFlowing, true, 'reading again once caught up');
		assert.ok(answers.every((a) => a.result !== undefined));
		connection.dispose();
	});

	it('handles a flood in time slices: another connection’s request is answered before the flood is', async () => {
		const flooded = setup();
		const other = setup();
		const lines = 30_000;
		flooded.toClient.write(Array.from({ length: lines }, (_, i) => request(i, 'unknown/method')).join(''));
		let floodAnsweredWhenOtherWas = -1;
		other.fromClient.on('data', () => (floodAnsweredWhenOtherWas = flooded.answers.length));
		other.toClient.write(request('other'));
		await waitFor(() => other.answers.length === 1 && flooded.answers.length === lines, 60_000);
		assert.deepEqual(other.answers[0], { jsonrpc: '2.0', id: 'other', result: { document: null } });
		assert.ok(floodAnsweredWhenOtherWas < lines, `the other request waited for the whole flood (${floodAnsweredWhenOtherWas} of ${lines} answered first)`);
		assert.ok(flooded.answers.every((a) => a.error?.code === -32601));
		flooded.connection.dispose();
		other.connection.dispose();
	});

	it('writes the answers of a slice together, not one write each', async () => {
		const { connection, toClient, fromClient, answers } = setup();
		let writes = 0;
		fromClient.on('data', () => writes++);
		const count = 200;
		toClient.write(Array.from({ length: count }, (_, i) => request(i)).join(''));
		await waitFor(() => answers.length === count);
		assert.ok(writes <= count / 10, `${writes} writes for ${count} answers`);
		connection.dispose();
	});

	it('answers a request with a member nested 5 000 deep, that member cut at the depth, and says so once in the log', async () => {
		const { connection, toClient, answers, log } = setup();
		let got: unknown;
		connection.onRequest('test/deep', z.looseObject({ sessionId: z.string() }), (params) => {
			got = params;
			return { ok: true };
		});
		const deep = `${'{"d":'.repeat(5000)}0${'}'.repeat(5000)}`;
		for (const id of [1, 2]) {
			toClient.write(`{"jsonrpc":"2.0","id":${id},"method":"test/deep","params":{"sessionId":"s","extra":${deep}}}\n`);
		}
		await waitFor(() => answers.length === 2);
		assert.deepEqual(answers.map((a) => a.result), [{ ok: true }, { ok: true }]);
		let value = (got as { extra: unknown }).extra;
		let depth = 3; // the message, params, extra
		while (typeof value === 'object' && value !== null) {
			value = (value as { d: unknown }).d;
			depth++;
		}
		assert.equal(value, null, 'cut');
		assert.equal(depth, MAX_JSON_DEPTH + 1, 'objects down to the depth, then null');
		assert.equal(log.lines.filter((l) => l.includes(`nests deeper than ${MAX_JSON_DEPTH} levels`)).length, 2);
		connection.dispose();
	});
});
