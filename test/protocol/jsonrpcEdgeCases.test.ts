// JSON-RPC 2.0 edge cases from a scripted agent process: every request Agent Link can identify gets
// exactly one answer with the right code; what cannot be answered is logged; the connection lives on.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import * as z from 'zod/mini';
import { EditorStateMethods, recentDocumentsParamsSchema, sessionParamsSchema } from '../../src/common/editorStateProtocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { MemoryLog, clientInfo, fixture, launch } from './helpers';

const any = z.unknown();

interface Answer {
	readonly id: string | number | null;
	readonly result?: unknown;
	readonly error?: { readonly code: number; readonly message: string };
}

describe('JSON-RPC edge cases from an agent process', () => {
	const log = new MemoryLog();
	let h: AgentHandle;

	before(async () => {
		h = await launch(fixture('well-behaved.mjs'), log);
		h.connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, () => ({ document: null }));
		h.connection.onRequest(EditorStateMethods.recentDocuments, recentDocumentsParamsSchema, (p) => ({ documents: [], limit: p.limit ?? null }));
		h.connection.onRequest('test/optionalParams', z.looseObject({ verbose: z.optional(z.boolean()) }), (p) => ({ verbose: p.verbose ?? false }));
		await h.initialize(clientInfo, {});
	});
	after(() => h.dispose());

	/** Has the agent write `lines`, then collects the client's answers until `expected` of them arrived, and checks no more come. */
	async function exchange(lines: string[], expected: number): Promise<Answer[]> {
		await h.connection.sendRequest('_test/rawLines', { lines }, any);
		const answers: Answer[] = [];
		const deadline = Date.now() + 10_000;
		while (answers.length < expected && Date.now() < deadline) {
			answers.push(...((await h.connection.sendRequest('_test/strayResponses', {}, any)) as Answer[]));
			await new Promise((resolve) => setTimeout(resolve, 10));
		}
		// One more round trip: any answer still on its way has arrived by now.
		await h.connection.sendRequest('_test/echo', {}, any);
		answers.push(...((await h.connection.sendRequest('_test/strayResponses', {}, any)) as Answer[]));
		assert.equal(answers.length, expected, `answers: ${JSON.stringify(answers)}`);
		return answers;
	}

	const byId = (answers: Answer[], id: string | number) => {
		const found = answers.filter((a) => a.id === id);
		assert.equal(found.length, 1, `exactly one answer for ${JSON.stringify(id)}: ${JSON.stringify(answers)}`);
		return found[0]!;
	};

	it('treats "params": null as absent: the schema names the missing field, or the method answers', async () => {
		const answers = await exchange(
			[
				'{"jsonrpc":"2.0","id":"null-1","method":"workspace/active_document","params":null}',
				'{"jsonrpc":"2.0","id":"null-2","method":"test/optionalParams","params":null}',
				'{"jsonrpc":"2.0","id":"null-3","method":"workspace/recent_documents","params":null}',
			],
			3,
		);
		const missing = byId(answers, 'null-1');
		assert.equal(missing.error?.code, -32602);
		assert.match(missing.error?.message ?? '', /sessionId/);
		assert.deepEqual(byId(answers, 'null-2').result, { verbose: false });
		assert.match(byId(answers, 'null-3').error?.message ?? '', /sessionId/);
	});

	it('answers -32602 to params that are neither an object nor an array, and to positional params', async () => {
		const answers = await exchange(
			[
				'{"jsonrpc":"2.0","id":"p-1","method":"workspace/active_document","params":5}',
				'{"jsonrpc":"2.0","id":"p-2","method":"workspace/active_document","params":"s1"}',
				'{"jsonrpc":"2.0","id":"p-3","method":"test/optionalParams","params":true}',
				'{"jsonrpc":"2.0","id":"p-4","method":"workspace/active_document","params":[{"sessionId":"s1"}]}',
				'{"jsonrpc":"2.0","id":"p-5","method":"workspace/active_document","params":[{"sessionId":"s1"},5]}',
			],
			5,
		);
		for (const id of ['p-1', 'p-2', 'p-3', 'p-4', 'p-5']) {
			assert.equal(byId(answers, id).error?.code, -32602, id);
		}
		assert.match(byId(answers, 'p-1').error?.message ?? '', /object or an array, not a number/);
	});

	it('answers -32600 with the id to a method that is not a string or a jsonrpc that is not "2.0"', async () => {
		const answers = await exchange(
			[
				'{"jsonrpc":"2.0","id":"m-1","method":42}',
				'{"jsonrpc":"2.0","id":17,"method":{"name":"x"},"params":{}}',
				'{"jsonrpc":"1.0","id":"v-1","method":"workspace/active_document","params":{"sessionId":"s1"}}',
				'{"id":"v-2","method":"workspace/active_document"}',
			],
			4,
		);
		for (const id of ['m-1', 17, 'v-1', 'v-2']) {
			assert.equal(byId(answers, id).error?.code, -32600, String(id));
		}
	});

	it('answers -32600 with id null when the id cannot be read, and once to a batch', async () => {
		const answers = await exchange(
			[
				'{"jsonrpc":"2.0","id":{"nested":1},"method":"workspace/active_document","params":{"sessionId":"s1"}}',
				'{"jsonrpc":"2.0","id":[1],"method":"workspace/active_document"}',
				'[{"jsonrpc":"2.0","id":"b-1","method":"workspace/active_document"},{"jsonrpc":"2.0","id":"b-2","method":"test/optionalParams"}]',
			],
			3,
		);
		assert.ok(answers.every((a) => a.id === null && a.error?.code === -32600), JSON.stringify(answers));
	});

	it('logs and skips a line that is not JSON, and logs and drops a response to an id it never used', async () => {
		await exchange(['{"jsonrpc":"2.0","id":"cut-1","method":"workspace/act', '{"jsonrpc":"2.0","id":987654,"result":{"x":1}}', '{"jsonrpc":"2.0","id":"never-sent","error":{"code":-32603,"message":"boom"}}'], 0);
		assert.ok(log.lines.some((l) => /Ignored a line from the agent that is not JSON: "\{\\"jsonrpc\\":\\"2.0\\",\\"id\\":\\"cut-1\\"/.test(l)));
		assert.ok(log.lines.some((l) => /Ignored a response from the agent to request 987654, which Agent Link never sent/.test(l)));
		assert.ok(log.lines.some((l) => /to request "never-sent", which Agent Link never sent/.test(l)));
	});

	it('keeps answering well-formed requests afterwards', async () => {
		const answers = await exchange(['{"jsonrpc":"2.0","id":"ok-1","method":"workspace/recent_documents","params":{"sessionId":"s1","limit":3}}', '{"jsonrpc":"2.0","id":"ok-2","method":"no/such_method"}'], 2);
		assert.deepEqual(byId(answers, 'ok-1').result, { documents: [], limit: 3 });
		assert.equal(byId(answers, 'ok-2').error?.code, -32601);
		assert.equal(h.connection.isClosed, false);
	});
});

describe('a flood of requests from an agent', () => {
	it('answers 10 000 editor-state requests in flight at once, every one of them', async () => {
		const h = await launch(fixture('well-behaved.mjs'));
		try {
			let calls = 0;
			h.connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, () => {
				calls++;
				return { document: { uri: 'file:///project/a.ts', languageId: 'typescript' } };
			});
			await h.initialize(clientInfo, {});
			const flood = (await h.connection.sendRequest('_test/flood', { method: EditorStateMethods.activeDocument, params: { sessionId: 's1' }, count: 10_000 }, any)) as { answered: number; codes: Record<string, number> };
			assert.deepEqual(flood, { answered: 10_000, codes: { result: 10_000 } });
			assert.equal(calls, 10_000);
			assert.equal(h.connection.isClosed, false);
		} finally {
			await h.dispose();
		}
	});
});
