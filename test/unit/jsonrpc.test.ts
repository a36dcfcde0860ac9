import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { classifyEnvelope, type Envelope } from '../../src/common/jsonrpc';

const classify = (line: string): Envelope => classifyEnvelope(JSON.parse(line));
const answer = (id: string | number | null, code: number) => ({ kind: 'answer', id, code });
const pick = (e: Envelope) => (e.kind === 'answer' ? { kind: e.kind, id: e.id, code: e.code } : { kind: e.kind });

describe('classifyEnvelope: valid messages', () => {
	it('passes requests, notifications and responses on unchanged', () => {
		const request = classify('{"jsonrpc":"2.0","id":1,"method":"m","params":{"a":1}}');
		assert.deepEqual(request, { kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'm', params: { a: 1 } } });
		assert.equal(classify('{"jsonrpc":"2.0","id":"x","method":"m","params":[1]}').kind, 'request');
		assert.equal(classify('{"jsonrpc":"2.0","method":"m"}').kind, 'notification');
		assert.equal(classify('{"jsonrpc":"2.0","id":1,"result":null}').kind, 'response');
		assert.equal(classify('{"jsonrpc":"2.0","id":null,"error":{"code":-32700,"message":"parse error"}}').kind, 'response');
	});

	it('treats "params": null as absent, in requests and notifications', () => {
		const request = classify('{"jsonrpc":"2.0","id":1,"method":"m","params":null}');
		assert.equal(request.kind, 'request');
		assert.ok(request.kind === 'request' && !('params' in request.message));
		const notification = classify('{"jsonrpc":"2.0","method":"m","params":null}');
		assert.ok(notification.kind === 'notification' && !('params' in notification.message));
	});
});

describe('classifyEnvelope: what gets an answer', () => {
	it('answers -32602 with the id for params that are neither an object nor an array', () => {
		for (const params of ['5', '"text"', 'true', '0']) {
			assert.deepEqual(pick(classify(`{"jsonrpc":"2.0","id":"r","method":"m","params":${params}}`)), answer('r', -32602));
		}
		const e = classify('{"jsonrpc":"2.0","id":3,"method":"m","params":"text"}');
		assert.ok(e.kind === 'answer' && /params must be an object or an array, not a string/.test(e.message));
	});

	it('answers -32600 with the id when the method is not a string or jsonrpc is not "2.0"', () => {
		assert.deepEqual(pick(classify('{"jsonrpc":"2.0","id":4,"method":5}')), answer(4, -32600));
		assert.deepEqual(pick(classify('{"jsonrpc":"2.0","id":"s","method":null}')), answer('s', -32600));
		assert.deepEqual(pick(classify('{"jsonrpc":"1.0","id":5,"method":"m"}')), answer(5, -32600));
		assert.deepEqual(pick(classify('{"id":6,"method":"m"}')), answer(6, -32600));
		assert.deepEqual(pick(classify('{"jsonrpc":2,"id":7,"method":"m"}')), answer(7, -32600));
	});

	it('answers -32600 with id null when the id cannot be read', () => {
		for (const id of ['{}', '[1]', 'true', 'null', '{"a":{"b":1}}']) {
			assert.deepEqual(pick(classify(`{"jsonrpc":"2.0","id":${id},"method":"m"}`)), answer(null, -32600), id);
		}
		assert.deepEqual(pick(classify('{"jsonrpc":"1.0","id":{},"method":"m"}')), answer(null, -32600));
		assert.deepEqual(pick(classify('{"jsonrpc":"2.0","id":1e999,"method":"m"}')), answer(null, -32600));
	});

	it('answers one -32600 with id null to a batch, and to a value that is not an object', () => {
		assert.deepEqual(pick(classify('[{"jsonrpc":"2.0","id":1,"method":"m"},{"jsonrpc":"2.0","id":2,"method":"m"}]')), answer(null, -32600));
		assert.deepEqual(pick(classify('[]')), answer(null, -32600));
		for (const value of ['5', '"x"', 'null', 'true']) {
			assert.deepEqual(pick(classify(value)), answer(null, -32600), value);
		}
	});

	it('answers -32600 to an object that is neither a request nor a response', () => {
		assert.deepEqual(pick(classify('{"jsonrpc":"2.0","id":9}')), answer(9, -32600));
		assert.deepEqual(pick(classify('{"no":"jsonrpc field"}')), answer(null, -32600));
	});

	it('keeps error messages short for huge or deeply nested values', () => {
		const e = classify(`{"jsonrpc":"${'x'.repeat(100_000)}","id":1,"method":"m"}`);
		assert.ok(e.kind === 'answer' && e.message.length < 200);
		const deep = classifyEnvelope({ jsonrpc: JSON.parse(`${'['.repeat(100_000)}${']'.repeat(100_000)}`), id: 1, method: 'm' });
		assert.ok(deep.kind === 'answer' && deep.message.length < 200);
	});
});

describe('classifyEnvelope: what is never answered', () => {
	it('logs a notification with params of the wrong type instead of answering it', () => {
		assert.equal(classify('{"jsonrpc":"2.0","method":"m","params":5}').kind, 'badNotification');
	});

	it('never answers a malformed response (ids are per direction), but names the request it claims to answer', () => {
		const cases: [string, string | number | undefined][] = [
			['{"jsonrpc":"2.0","id":1,"result":1,"error":{"code":1,"message":"m"}}', 1],
			['{"jsonrpc":"1.0","id":"a","result":1}', 'a'],
			['{"jsonrpc":"2.0","id":2,"error":"bad"}', 2],
			['{"jsonrpc":"2.0","id":3,"error":{"code":1.5,"message":"m"}}', 3],
			['{"jsonrpc":"2.0","id":4,"error":{"code":1}}', 4],
			['{"jsonrpc":"2.0","id":{},"result":1}', undefined],
		];
		for (const [line, id] of cases) {
			const e = classify(line);
			assert.equal(e.kind, 'badResponse', line);
			assert.ok(e.kind === 'badResponse' && e.id === id, line);
		}
	});
});

/** Any JSON value, including the keys that have tripped up JavaScript code before. */
const jsonValue = fc.letrec((tie) => ({
	value: fc.oneof(
		{ depthSize: 'small' },
		fc.constantFrom(null, true, false, 0, -1, 1.5, '', '2.0', 'method', '__proto__'),
		fc.string(),
		fc.double({ noNaN: true, noDefaultInfinity: true }),
		fc.array(tie('value'), { maxLength: 4 }),
		fc.dictionary(fc.oneof(fc.constantFrom('jsonrpc', 'id', 'method', 'params', 'result', 'error', '__proto__', 'constructor', 'toString'), fc.string()), tie('value'), { maxKeys: 6 }),
	),
})).value;

describe('classifyEnvelope: properties', () => {
	it('never throws, and answers every message that names a method and a readable id', () => {
		fc.assert(
			fc.property(jsonValue, (value) => {
				const before = Object.getOwnPropertyNames(Object.prototype).join();
				// Parse it back from text, as the reader does, so `__proto__` is an own key.
				const envelope = classifyEnvelope(JSON.parse(JSON.stringify(value) ?? 'null'));
				assert.equal(Object.getOwnPropertyNames(Object.prototype).join(), before);
				const message = value as Record<string, unknown>;
				if (typeof value === 'object' && value !== null && !Array.isArray(value) && 'method' in message) {
					const idReadable = typeof message.id === 'string' || (typeof message.id === 'number' && Number.isFinite(message.id));
					if (idReadable) {
						assert.ok(envelope.kind === 'request' || (envelope.kind === 'answer' && envelope.id === message.id));
					} else if (message.id !== undefined) {
						assert.ok(envelope.kind === 'answer' && envelope.id === null);
					} else {
						assert.ok(['notification', 'badNotification', 'answer'].includes(envelope.kind));
					}
				}
				if (typeof value !== 'object' || value === null || Array.isArray(value)) {
					assert.deepEqual(pick(envelope), answer(null, -32600));
				}
			}),
			{ numRuns: 3000 },
		);
	});

	it('passes every well-formed request on with the same id, method and params', () => {
		const id = fc.oneof(fc.string(), fc.integer());
		const params = fc.oneof(fc.dictionary(fc.string(), jsonValue, { maxKeys: 4 }), fc.array(jsonValue, { maxLength: 3 }));
		fc.assert(
			fc.property(id, fc.string(), params, (i, method, p) => {
				const message = JSON.parse(JSON.stringify({ jsonrpc: '2.0', id: i, method, params: p })) as Record<string, unknown>;
				const envelope = classifyEnvelope(message);
				assert.equal(envelope.kind, 'request');
				assert.ok(envelope.kind === 'request' && envelope.message.id === i && envelope.message.method === method);
				assert.deepEqual(envelope.kind === 'request' && envelope.message.params, JSON.parse(JSON.stringify(p)));
			}),
			{ numRuns: 1000 },
		);
	});
});
