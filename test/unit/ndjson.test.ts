import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { LineSplitter, LineTooLongError, encodeLine, parseLine, previewOf } from '../../src/common/ndjson';

const enc = (s: string) => new TextEncoder().encode(s);

describe('LineSplitter', () => {
	it('splits several messages in one chunk', () => {
		const s = new LineSplitter(1024);
		assert.deepEqual(s.push(enc('{"a":1}\n{"b":2}\n{"c"')), ['{"a":1}', '{"b":2}']);
		assert.deepEqual(s.push(enc(':3}\n')), ['{"c":3}']);
	});

	it('joins a message split across many chunks, including inside a multi-byte character', () => {
		const text = '{"emoji":"😀 héllo 中文"}\n';
		const bytes = enc(text);
		const s = new LineSplitter(1024);
		const out: string[] = [];
		for (let i = 0; i < bytes.length; i++) {
			out.push(...s.push(bytes.subarray(i, i + 1)));
		}
		assert.deepEqual(out, [text.trimEnd()]);
	});

	it('tolerates CRLF and skips blank lines', () => {
		const s = new LineSplitter(1024);
		assert.deepEqual(s.push(enc('{"a":1}\r\n\r\n\n   \n{"b":2}\r\n')), ['{"a":1}', '{"b":2}']);
	});

	it('does not keep a reference to the caller’s buffer', () => {
		const s = new LineSplitter(1024);
		const buf = enc('{"a":');
		s.push(buf);
		buf.fill(0x20);
		assert.deepEqual(s.push(enc('1}\n')), ['{"a":1}']);
	});

	it('throws as soon as an unterminated line passes the cap, without buffering more', () => {
		const s = new LineSplitter(10);
		s.push(enc('12345'));
		assert.throws(() => s.push(enc('678901')), LineTooLongError);
		assert.equal(s.bufferedBytes, 0);
	});

	it('throws for a complete line over the cap in a single chunk', () => {
		const s = new LineSplitter(4);
		assert.throws(() => s.push(enc('123456\n')), (e: unknown) => e instanceof LineTooLongError && /4 B/.test(e.message));
	});

	it('accepts a line of exactly the cap', () => {
		const s = new LineSplitter(7);
		assert.deepEqual(s.push(enc('{"a":1}\n')), ['{"a":1}']);
	});

	it('splits any chunking of any messages into the same lines (property)', () => {
		fc.assert(
			fc.property(fc.array(fc.jsonValue(), { maxLength: 8 }), fc.array(fc.nat(40), { maxLength: 20 }), (values, cuts) => {
				const messages = values.map((v) => ({ jsonrpc: '2.0', method: 'm', params: { v } }));
				const bytes = enc(messages.map((m) => encodeLine(m)).join(''));
				const s = new LineSplitter(1 << 20);
				const lines: string[] = [];
				let pos = 0;
				for (const cut of cuts) {
					lines.push(...s.push(bytes.subarray(pos, Math.min(bytes.length, pos + cut))));
					pos = Math.min(bytes.length, pos + cut);
				}
				lines.push(...s.push(bytes.subarray(pos)));
				assert.deepEqual(
					lines.map((l) => JSON.parse(l)),
					messages.map((m) => JSON.parse(JSON.stringify(m))),
				);
			}),
		);
	});
});

describe('parseLine', () => {
	it('parses any JSON value, and says why a line is not; previewOf shows a short start of it', () => {
		assert.deepEqual(parseLine('{"a":1}'), { ok: true, value: { a: 1 } });
		const line = `not json ${'x'.repeat(500)}`;
		assert.deepEqual(parseLine(line), { ok: false, reason: 'not JSON' });
		assert.ok(previewOf(line).length < 100 && previewOf(line).startsWith('"not json x'));
		assert.deepEqual(parseLine('[1]'), { ok: true, value: [1] });
		assert.deepEqual(parseLine('null'), { ok: true, value: null });
	});

	it('reports JSON nested too deep for the parser as not JSON instead of throwing', () => {
		const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
		const parsed = parseLine(deep);
		// V8 may parse it or give up; either way nothing throws.
		assert.ok(parsed.ok || parsed.reason === 'not JSON');
	});
});
