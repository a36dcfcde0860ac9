import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cutDeepValues, mayNestDeeper } from '../../src/common/jsonDepth';
import { parseLine } from '../../src/common/ndjson';

const parses = (text: string) => {
	try {
		JSON.parse(text);
		return true;
	} catch {
		return false;
	}
};

/** The value with every object or array inside `max` others replaced by null: what cutDeepValues promises. */
function cutValue(value: unknown, depth: number, max: number): unknown {
	if (typeof value !== 'object' || value === null) {
		return value;
	}
	if (depth === max) {
		return null;
	}
	if (Array.isArray(value)) {
		return value.map((v) => cutValue(v, depth + 1, max));
	}
	return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, cutValue(v, depth + 1, max)]));
}

const at = (text: string, n: number) => n % (text.length + 1);
/** JSON texts, and texts that are nearly JSON: with characters put in, cut short, or made of JSON's pieces at random. */
const nearlyJson = fc.oneof(
	fc.json({ maxDepth: 8 }),
	fc.jsonValue({ maxDepth: 6 }).map((v) => JSON.stringify(v, null, '\t')),
	fc.tuple(fc.json({ maxDepth: 8 }), fc.nat(), fc.string({ maxLength: 3 })).map(([t, n, s]) => t.slice(0, at(t, n)) + s + t.slice(at(t, n))),
	fc.tuple(fc.json({ maxDepth: 8 }), fc.nat()).map(([t, n]) => t.slice(0, at(t, n))),
	fc.array(fc.constantFrom('{', '}', '[', ']', '"', ',', ':', '1', '-', '0', '.', 'e', 'E', '+', ' ', '\\', 'u', 'a', 'null', 'true', 'false', '\n', '\u0001', '"k":'), { maxLength: 30 }).map((p) => p.join('')),
);

describe('cutDeepValues', () => {
	it('accepts exactly what JSON.parse accepts, and gives the value with what is nested past the depth replaced by null', () => {
		fc.assert(
			fc.property(nearlyJson, fc.integer({ min: 0, max: 5 }), (text, max) => {
				const result = cutDeepValues(text, max);
				assert.equal(result !== undefined, parses(text), JSON.stringify(text));
				if (result) {
					assert.deepEqual(JSON.parse(result.text), cutValue(JSON.parse(text), 0, max));
					assert.equal(result.cut === 0, result.text === text);
				}
			}),
			{ numRuns: 20_000 },
		);
	});

	it('cuts a member nested 5 000 deep at the depth and keeps the rest, counting each value cut', () => {
		const deep = `${'{"d":'.repeat(5000)}0${'}'.repeat(5000)}`;
		const line = `{"jsonrpc":"2.0","id":1,"method":"m","params":{"sessionId":"s","extra":${deep},"list":[[[1]],[[2]]]}}`;
		const result = cutDeepValues(line, 3)!;
		assert.equal(result.cut, 3);
		assert.deepEqual(JSON.parse(result.text), { jsonrpc: '2.0', id: 1, method: 'm', params: { sessionId: 's', extra: { d: null }, list: [null, null] } });
		assert.equal(cutDeepValues(line.slice(0, -1), 3), undefined, 'a cut line is not JSON');
	});

	it('says whether a text has more opening brackets than the depth, inside strings or not', () => {
		assert.equal(mayNestDeeper('{"a":[1,{"b":2}]}', 3), false);
		assert.equal(mayNestDeeper('{"a":"[[[["}', 3), true);
	});
});

describe('parseLine and deep nesting', () => {
	it('parses a line nested past the depth with those values replaced by null, and says how many', () => {
		const line = `{"a":${'['.repeat(200)}${']'.repeat(200)},"b":1}`;
		const parsed = parseLine(line, 128);
		assert.ok(parsed.ok);
		assert.equal(parsed.cut, 1);
		let value = (parsed.value as { a: unknown }).a;
		let depth = 1;
		while (Array.isArray(value)) {
			value = value[0];
			depth++;
		}
		assert.equal(depth, 128, 'arrays down to the depth, then null');
		assert.equal(value, null);
		assert.deepEqual(parseLine('{"a":[[1]]}', 128), { ok: true, value: { a: [[1]] } });
		assert.deepEqual(parseLine(`{"a":${'['.repeat(200)}}`, 128), { ok: false, reason: 'not JSON' });
	});
});
