import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { describeZodError } from '../../src/common/protocol';
import { OutputBuffer, createTerminalParamsSchema, keepLastBytes, stripAnsi, terminalParamsSchema, terminalText, utf8Length } from '../../src/common/terminalProtocol';

/** Text with every UTF-8 length: ASCII, 2-byte, 3-byte and 4-byte (surrogate pair) characters. */
const pieces = fc.array(fc.constantFrom('a', 'z', '\n', 'é', 'ß', '€', '中', '😀', '𝄞', ' '), { maxLength: 80 }).map((p) => p.join(''));

describe('terminal output: UTF-8 byte limit', () => {
	it('counts UTF-8 bytes as Node does', () => {
		fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 60 }), (text) => utf8Length(text) === Buffer.byteLength(text, 'utf8')));
		assert.equal(utf8Length('a€😀'), 1 + 3 + 4);
	});

	it('keeps the end within the limit, cut at a character boundary, and as much as fits', () => {
		fc.assert(
			fc.property(pieces, fc.integer({ min: 0, max: 200 }), (text, limit) => {
				const kept = keepLastBytes(text, limit);
				assert.ok(text.endsWith(kept), 'the end of the text');
				assert.ok(Buffer.byteLength(kept, 'utf8') <= limit, 'within the limit');
				assert.equal(Buffer.from(kept, 'utf8').toString('utf8'), kept, 'valid UTF-8: no half character');
				assert.ok(!/^[\udc00-\udfff]/.test(kept), 'no lone low surrogate at the start');
				if (kept.length < text.length) {
					// One more character would not have fitted.
					const before = text.slice(0, text.length - kept.length);
					const last = [...before].pop()!;
					assert.ok(Buffer.byteLength(last + kept, 'utf8') > limit, `"${last}" would fit too`);
				}
			}),
		);
	});

	it('drops a 4-byte character whole rather than split it', () => {
		assert.equal(keepLastBytes('😀abc', 6), 'abc');
		assert.equal(keepLastBytes('😀abc', 7), '😀abc');
		assert.equal(keepLastBytes('ééé', 5), 'éé');
		assert.equal(keepLastBytes('abc', 0), '');
	});

	it('an output buffer fed in any pieces keeps what the limit keeps of the whole, and says it truncated', () => {
		fc.assert(
			fc.property(fc.array(pieces, { maxLength: 12 }), fc.integer({ min: 0, max: 120 }), (chunks, limit) => {
				const buffer = new OutputBuffer(limit);
				chunks.forEach((c) => buffer.append(c));
				const whole = chunks.join('');
				assert.equal(buffer.text, keepLastBytes(whole, limit));
				assert.equal(buffer.truncated, Buffer.byteLength(whole, 'utf8') > limit);
			}),
		);
	});

	it('gives the last characters without joining it all, never half a surrogate pair', () => {
		fc.assert(
			fc.property(fc.array(pieces, { maxLength: 12 }), fc.integer({ min: 0, max: 60 }), (chunks, max) => {
				const buffer = new OutputBuffer(1000);
				chunks.forEach((c) => buffer.append(c));
				const tail = buffer.tail(max);
				assert.ok(buffer.text.endsWith(tail.text));
				assert.ok(tail.text.length <= max);
				assert.ok(tail.text.length >= max - 1 || !tail.cut, 'at most one unit short');
				assert.equal(tail.cut, buffer.text.length > max);
				assert.ok(!/^[\udc00-\udfff]/.test(tail.text));
			}),
		);
	});

	it('keeps a large output line by line within the limit, the end whole', () => {
		const buffer = new OutputBuffer(4 * 1024 * 1024);
		const line = `${'x'.repeat(70)} é\n`;
		for (let i = 0; i < 200_000; i++) {
			buffer.append(line);
			if (i % 1000 === 0) {
				buffer.tail(100_000);
			}
		}
		assert.ok(buffer.truncated);
		assert.ok(Buffer.byteLength(buffer.text) <= 4 * 1024 * 1024);
		assert.ok(buffer.text.endsWith(line));
		assert.ok(Buffer.byteLength(buffer.text) > 4 * 1024 * 1024 - 4, 'as much as fits');
	});

	it('shrinks to a lower limit later, keeping the end', () => {
		const buffer = new OutputBuffer(100);
		buffer.append('line one\nline two\n');
		assert.equal(buffer.truncated, false);
		buffer.shrink(9);
		assert.equal(buffer.text, 'line two\n');
		assert.equal(buffer.truncated, true);
	});
});

describe('terminal output: what the chat shows', () => {
	it('strips colours, cursor moves, titles and other control characters', () => {
		assert.equal(stripAnsi('\x1b[32m✓\x1b[0m passes \x1b[1;31mfails\x1b[m'), '✓ passes fails');
		assert.equal(stripAnsi('\x1b]0;title\x07text\x1b]8;;https://x\x1b\\link\x1b]8;;\x1b\\'), 'textlink');
		assert.equal(stripAnsi('a\x1b[2K\x1b[1Gb\x07\x08c\td'), 'abc\td');
	});

	it('lets a carriage return overwrite its line, and keeps CRLF line ends as line ends', () => {
		assert.equal(terminalText('progress 10%\rprogress 100%\ndone\r\n', 1000).text, 'progress 100%\ndone\n');
		assert.equal(terminalText('abcdef\rXY', 1000).text, 'XYcdef');
	});

	it('shows at most maxChars from the end, from a line start when one is near, and says it cut', () => {
		const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`).join('\n');
		const shown = terminalText(lines, 50);
		assert.ok(shown.cut);
		assert.ok(shown.text.length <= 50);
		assert.ok(shown.text.startsWith('line '), shown.text);
		assert.ok(shown.text.endsWith('line 99'));
		assert.deepEqual(terminalText('short', 50), { text: 'short', cut: false });
		const huge = terminalText(`${'\x1b[31mred\x1b[0m\n'.repeat(10_000)}end`, 100);
		assert.ok(huge.cut && huge.text.endsWith('red\nend') && !huge.text.includes('\x1b'));
	});
});

describe('terminal/* params', () => {
	it('accepts what the SDK sends', () => {
		assert.ok(createTerminalParamsSchema.safeParse({ sessionId: 's', command: 'npm', args: ['test'], env: [{ name: 'CI', value: '1' }], cwd: '/w', outputByteLimit: 1024 }).success);
		assert.ok(createTerminalParamsSchema.safeParse({ sessionId: 's', command: 'npm test', cwd: null, outputByteLimit: null, _meta: { x: 1 } }).success);
		assert.ok(terminalParamsSchema.safeParse({ sessionId: 's', terminalId: 't' }).success);
	});

	it('refuses what cannot run, naming the field', () => {
		const bad: [unknown, RegExp][] = [
			[{ sessionId: 's' }, /^Invalid params: command: expected a command/],
			[{ sessionId: 's', command: '' }, /command: expected a command \(non-empty string\)/],
			[{ sessionId: 's', command: 'ls', args: 'la' }, /args: expected an array of strings/],
			[{ sessionId: 's', command: 'ls', args: ['a\0b'] }, /args\.0: must not contain NUL/],
			[{ sessionId: 's', command: 'ls', env: [{ name: 'A=B', value: '1' }] }, /env\.0\.name: a variable name must not contain "="/],
			[{ sessionId: 's', command: 'ls', env: { A: '1' } }, /env: expected an array of \{name, value\}/],
			[{ sessionId: 's', command: 'ls', outputByteLimit: -1 }, /outputByteLimit: expected 0 or more/],
			[{ sessionId: 's', command: 'ls', outputByteLimit: 1.5 }, /outputByteLimit: expected a whole number/],
			[{ command: 'ls' }, /sessionId: expected a session id/],
		];
		for (const [params, message] of bad) {
			const result = createTerminalParamsSchema.safeParse(params);
			assert.ok(!result.success, JSON.stringify(params));
			assert.match(describeZodError(result.error), message);
		}
		const noId = terminalParamsSchema.safeParse({ sessionId: 's' });
		assert.ok(!noId.success);
		assert.match(describeZodError(noId.error), /terminalId: expected a terminal id/);
	});
});
