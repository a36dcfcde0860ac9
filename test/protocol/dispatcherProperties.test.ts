// Property-based tests of the reader and the dispatcher: the real AgentConnection over in-memory
// streams, fed generated lines of every shape. Invariants: every request that can be identified gets
// exactly one answer with the right code; nothing throws out of the connection; the connection stays
// open; no object prototype is changed.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import { AnswerBook } from '../shared/answerReader';
import { generateCase, registerAnswerers, type Case } from '../shared/jsonrpcCases';
import { AgentConnection } from '../../src/node/connection';
import { MemoryLog } from './helpers';

describe('the connection under generated input', () => {
	const toClient = new PassThrough();
	const fromClient = new PassThrough();
	const log = new MemoryLog();
	const connection = new AgentConnection({ input: toClient, output: fromClient, maxLineBytes: 64 * 1024 * 1024, log });
	const book = new AnswerBook(fromClient);
	const answers = book.byId;
	const unhandled: unknown[] = [];
	const onUnhandled = (error: unknown) => unhandled.push(error);
	const prototypeKeys = () => [Object, Array, Function, String, Number].map((c) => Object.getOwnPropertyNames(c.prototype).join()).join('|');
	const prototypesBefore = prototypeKeys();

	before(() => {
		process.on('unhandledRejection', onUnhandled);
		process.on('uncaughtException', onUnhandled);
		registerAnswerers(connection);
		connection.listen();
	});
	after(() => {
		process.off('unhandledRejection', onUnhandled);
		process.off('uncaughtException', onUnhandled);
		connection.dispose();
	});

	let sentinel = 0;
	/** Resolves once every answer the cases call for has arrived, plus the answer to one more request sent last. */
	async function settle(cases: readonly Case[], nullsBefore: number): Promise<void> {
		const id = `sentinel-${++sentinel}`;
		toClient.write(`{"jsonrpc":"2.0","id":"${id}","method":"workspace/active_document","params":{"sessionId":"s"}}\n`);
		const expectedNulls = nullsBefore + cases.filter((c) => c.expect.kind === 'nullAnswer').length;
		const ids = cases.flatMap((c) => (c.expect.kind === 'answer' ? [c.expect.id] : []));
		const deadline = Date.now() + 10_000;
		while (!(answers.has(id) && ids.every((i) => answers.has(i)) && book.nullAnswers >= expectedNulls) && Date.now() < deadline) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		answers.delete(id);
	}

	it('answers every identifiable request exactly once with the right code, and nothing else', async () => {
		let runs = 0;
		await fc.assert(
			fc.asyncProperty(fc.array(generateCase(), { minLength: 1, maxLength: 12 }), fc.integer({ min: 1, max: 4 }), async (cases, pieces) => {
				runs++;
				answers.clear();
				const nullsBefore = book.nullAnswers;
				// Lines arrive cut into arbitrary chunks, as from a pipe.
				const bytes = Buffer.from(cases.map((c) => `${c.line}\n`).join(''), 'utf8');
				const size = Math.ceil(bytes.length / pieces);
				for (let offset = 0; offset < bytes.length; offset += size) {
					toClient.write(bytes.subarray(offset, offset + size));
				}
				await settle(cases, nullsBefore);
				for (const c of cases) {
					if (c.expect.kind !== 'answer') {
						continue;
					}
					const got = answers.get(c.expect.id) ?? [];
					assert.equal(got.length, 1, `${c.label}: ${got.length} answers to ${c.line.slice(0, 200)}`);
					const answer = got[0]!;
					if (c.expect.code === undefined) {
						assert.equal(answer.error, undefined, `${c.label}: ${JSON.stringify(answer.error)}`);
					} else {
						assert.equal(answer.error?.code, c.expect.code, `${c.label}: ${c.line.slice(0, 200)} -> ${JSON.stringify(answer)}`);
						if (c.expect.mentions) {
							assert.ok(answer.error?.message.includes(c.expect.mentions), `${c.label}: ${answer.error?.message} should name ${c.expect.mentions}`);
						}
					}
				}
				const expectedIds = new Set(cases.flatMap((c) => (c.expect.kind === 'answer' ? [c.expect.id] : [])));
				for (const id of answers.keys()) {
					assert.ok(expectedIds.has(id), `an answer nobody asked for: ${JSON.stringify(id)}`);
				}
				assert.equal(book.nullAnswers - nullsBefore, cases.filter((c) => c.expect.kind === 'nullAnswer').length, 'answers with id null');
				assert.deepEqual(unhandled, []);
				assert.equal(connection.isClosed, false);
				assert.equal(prototypeKeys(), prototypesBefore);
				assert.equal(({} as Record<string, unknown>).polluted, undefined);
			}),
			{ numRuns: Number(process.env.AGENT_LINK_PROPERTY_RUNS ?? 3000) },
		);
		assert.ok(runs > 0);
	});
});
