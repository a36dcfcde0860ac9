// Position encoding conversion, checked against references built on Node's own encoders
// (Buffer.byteLength for UTF-8, string iteration for code points) over random strings with
// astral characters, combining marks, CJK and lone surrogates.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
	createPositionConverter,
	encodedLength,
	fromAgentCharacter,
	toAgentCharacter,
	type PositionEncoding,
	type TextLines,
} from '../../src/common/positionEncoding';

const ENCODINGS: readonly PositionEncoding[] = ['utf-16', 'utf-8', 'utf-32'];

/** One "unit" of random text: mostly the cases that differ between encodings. */
const unit = fc.oneof(
	fc.constantFrom('a', 'Z', ' ', '\t', '0'),
	fc.constantFrom('é', 'ß', 'Ω', 'д'), // 2 UTF-8 bytes
	fc.constantFrom('中', '文', '€', '한'), // 3 UTF-8 bytes
	fc.constantFrom('😀', '👍🏽', '𝄞', '👨‍👩‍👧'), // astral (surrogate pairs), ZWJ sequences
	fc.constantFrom('\u0301', '\u0308', '\u20dd'), // combining marks
	fc.constantFrom('\ud83d', '\ude00'), // lone surrogates
	fc.string({ unit: 'binary', maxLength: 2 }),
);
const lineText = fc.string({ unit, maxLength: 30 });

/** The reference: the length of a UTF-16 prefix in each encoding, by Node's encoders. */
function reference(prefix: string, encoding: PositionEncoding): number {
	switch (encoding) {
		case 'utf-16':
			return prefix.length;
		case 'utf-8':
			return Buffer.byteLength(prefix, 'utf8');
		case 'utf-32':
			return [...prefix].length;
	}
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;
const isLow = (c: number) => c >= 0xdc00 && c <= 0xdfff;

/** UTF-16 offsets that do not split a surrogate pair. */
function boundaries(text: string): number[] {
	const result = [0];
	for (let i = 1; i <= text.length; i++) {
		if (!(i < text.length && isHigh(text.charCodeAt(i - 1)) && isLow(text.charCodeAt(i)))) {
			result.push(i);
		}
	}
	return result;
}

describe('position encoding', () => {
	it('measures prefixes as Node encodes them', () => {
		fc.assert(
			fc.property(lineText, fc.constantFrom(...ENCODINGS), (text, encoding) => {
				for (const b of boundaries(text)) {
					assert.equal(toAgentCharacter(text, b, encoding), reference(text.slice(0, b), encoding));
				}
				assert.equal(encodedLength(text, encoding), reference(text, encoding));
			}),
			{ numRuns: 2000 },
		);
	});

	it('round-trips every character boundary in both directions', () => {
		fc.assert(
			fc.property(lineText, fc.constantFrom(...ENCODINGS), (text, encoding) => {
				for (const b of boundaries(text)) {
					const agent = toAgentCharacter(text, b, encoding);
					assert.equal(fromAgentCharacter(text, agent, encoding), b, `from(to(${b}))`);
					assert.equal(toAgentCharacter(text, fromAgentCharacter(text, agent, encoding), encoding), agent);
				}
			}),
			{ numRuns: 2000 },
		);
	});

	it('moves an offset inside a character back to its start, never forward', () => {
		fc.assert(
			fc.property(lineText, fc.constantFrom(...ENCODINGS), fc.integer({ min: -3, max: 200 }), (text, encoding, offset) => {
				const back = fromAgentCharacter(text, offset, encoding);
				assert.ok(boundaries(text).includes(back), 'lands on a boundary');
				const agent = toAgentCharacter(text, back, encoding);
				const length = encodedLength(text, encoding);
				assert.ok(agent <= Math.max(0, offset), 'never rounds forward');
				// The next boundary would already be past the offset (or the line ends).
				const next = boundaries(text).find((b) => b > back);
				if (next !== undefined && offset < length) {
					assert.ok(toAgentCharacter(text, next, encoding) > offset);
				}
			}),
			{ numRuns: 2000 },
		);
		fc.assert(
			fc.property(lineText, fc.constantFrom(...ENCODINGS), fc.integer({ min: -3, max: 80 }), (text, encoding, offset) => {
				const agent = toAgentCharacter(text, offset, encoding);
				const expected = Math.max(0, Math.min(offset, text.length));
				const snapped = expected > 0 && expected < text.length && isHigh(text.charCodeAt(expected - 1)) && isLow(text.charCodeAt(expected)) ? expected - 1 : expected;
				assert.equal(agent, reference(text.slice(0, snapped), encoding));
			}),
			{ numRuns: 2000 },
		);
	});

	it('handles the examples the rules name', () => {
		const text = 'a😀b';
		assert.equal(toAgentCharacter(text, 2, 'utf-8'), 1, 'inside the pair: start of the emoji');
		assert.equal(toAgentCharacter(text, 3, 'utf-8'), 5);
		assert.equal(toAgentCharacter(text, 3, 'utf-32'), 2);
		assert.equal(fromAgentCharacter(text, 3, 'utf-8'), 1, 'inside the 4-byte sequence');
		assert.equal(fromAgentCharacter(text, 5, 'utf-8'), 3);
		assert.equal(fromAgentCharacter(text, 2, 'utf-32'), 3);
		assert.equal(fromAgentCharacter(text, 99, 'utf-32'), 4, 'past the end');
		assert.equal(toAgentCharacter(text, 99, 'utf-16'), 4);
		assert.equal(toAgentCharacter(text, -1, 'utf-8'), 0);
		assert.equal(fromAgentCharacter(text, -1, 'utf-16'), 0);
		const combining = 'e\u0301x'; // é as e + combining acute
		assert.equal(toAgentCharacter(combining, 1, 'utf-8'), 1, 'between base and mark is kept');
		assert.equal(toAgentCharacter(combining, 2, 'utf-8'), 3);
		assert.equal(toAgentCharacter('\ud83d!', 1, 'utf-8'), 3, 'a lone surrogate counts as U+FFFD');
		assert.equal(toAgentCharacter('\ud83d!', 1, 'utf-32'), 1);
	});

	it('clamps lines outside the document', () => {
		const text = ['first é', 'last 😀', ''];
		const lines: TextLines = { lineCount: 2, lineText: (l) => text[l]! };
		const c = createPositionConverter('utf-8', lines);
		assert.deepEqual(c.toAgentPosition({ line: 1, character: 7 }), { line: 1, character: 9 });
		assert.deepEqual(c.toAgentPosition({ line: 5, character: 0 }), { line: 1, character: 9 });
		assert.deepEqual(c.fromAgentPosition({ line: 2, character: 0 }), { line: 1, character: 7 }, '{lineCount, 0} is the end');
		assert.deepEqual(c.fromAgentPosition({ line: -1, character: 4 }), { line: 0, character: 0 });
		assert.deepEqual(c.fromAgentRange({ start: { line: 0, character: 7 }, end: { line: 0, character: 8 } }), {
			start: { line: 0, character: 6 },
			end: { line: 0, character: 7 },
		});
		assert.deepEqual(c.toAgentRange({ start: { line: 0, character: 0 }, end: { line: 1, character: 99 } }), {
			start: { line: 0, character: 0 },
			end: { line: 1, character: 9 },
		});
		const empty = createPositionConverter('utf-32', { lineCount: 1, lineText: () => '' });
		assert.deepEqual(empty.fromAgentPosition({ line: 3, character: 3 }), { line: 0, character: 0 });
	});

	it('converts ranges over multi-line documents, CRLF or not, round trip', () => {
		fc.assert(
			fc.property(fc.array(lineText, { minLength: 1, maxLength: 6 }), fc.constantFrom(...ENCODINGS), fc.nat(), fc.nat(), (lineTexts, encoding, a, b) => {
				const lines: TextLines = { lineCount: lineTexts.length, lineText: (l) => lineTexts[l]! };
				const c = createPositionConverter(encoding, lines);
				const pick = (n: number) => {
					const line = n % lineTexts.length;
					const bs = boundaries(lineTexts[line]!);
					return { line, character: bs[Math.floor(n / lineTexts.length) % bs.length]! };
				};
				const range = { start: pick(a), end: pick(b) };
				assert.deepEqual(c.fromAgentRange(c.toAgentRange(range)), range);
			}),
			{ numRuns: 1000 },
		);
	});
});
