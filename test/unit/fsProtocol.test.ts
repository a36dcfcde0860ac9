import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { readTextFileParamsSchema, sliceLines } from '../../src/common/fsProtocol';

describe('fs/read_text_file: line and limit', () => {
	const text = 'one\ntwo\r\nthree\nfour';

	it('gives the whole text without line and limit', () => {
		assert.equal(sliceLines(text), text);
		assert.equal(sliceLines(text, null, null), text);
	});

	it('counts lines from 1 and keeps each line ending as it is', () => {
		assert.equal(sliceLines(text, 1, 1), 'one\n');
		assert.equal(sliceLines(text, 2, 1), 'two\r\n');
		assert.equal(sliceLines(text, 2), 'two\r\nthree\nfour');
		assert.equal(sliceLines(text, 4, 10), 'four');
	});

	it('gives nothing past the end, and nothing for a limit of 0', () => {
		assert.equal(sliceLines(text, 5), '');
		assert.equal(sliceLines(text, 99, 2), '');
		assert.equal(sliceLines(text, 1, 0), '');
		assert.equal(sliceLines('', 1, 1), '');
	});

	it('joined slices give the text back, for any text and split point', () => {
		fc.assert(
			fc.property(fc.array(fc.constantFrom('a', 'b', '\n', '\r\n', 'é', '😀'), { maxLength: 60 }), fc.integer({ min: 1, max: 40 }), (parts, split) => {
				const t = parts.join('');
				assert.equal(sliceLines(t, 1, split - 1) + sliceLines(t, split), t);
			}),
			{ numRuns: 500 },
		);
	});

	it('refuses a line below 1, a negative or fractional limit, and a missing path, naming the field', () => {
		const bad = [
			[{ sessionId: 's', path: '/a', line: 0 }, /line: expected 1 or more/],
			[{ sessionId: 's', path: '/a', limit: -1 }, /limit: expected 0 or more/],
			[{ sessionId: 's', path: '/a', limit: 1.5 }, /limit: expected a whole number/],
			[{ sessionId: 's' }, /path: expected an absolute path/],
		] as const;
		for (const [params, message] of bad) {
			const result = readTextFileParamsSchema.safeParse(params);
			assert.ok(!result.success);
			assert.match(result.error.issues.map((i) => i.message).join('; '), message);
		}
		assert.ok(readTextFileParamsSchema.safeParse({ sessionId: 's', path: '/a', line: null, limit: null, extra: 1 }).success);
	});
});
