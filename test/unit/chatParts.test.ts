import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { splitParts } from '../../src/webview/chat/parts';

describe('streamed markdown parts (src/webview/chat/parts.ts)', () => {
	it('cuts after blank lines outside code fences', () => {
		assert.deepEqual(splitParts('one\n\ntwo\n\nthree'), ['one\n\n', 'two\n\n', 'three']);
		assert.deepEqual(splitParts('```js\na\n\nb\n```\n\nafter'), ['```js\na\n\nb\n```\n\n', 'after']);
		assert.deepEqual(splitParts('~~~\n\n```\n\n~~~\n\nx'), ['~~~\n\n```\n\n~~~\n\n', 'x']);
	});

	it('keeps indented continuations and runs of blank lines with what came before', () => {
		assert.deepEqual(splitParts('- item\n\n    more of the item\n\nnext'), ['- item\n\n    more of the item\n\n', 'next']);
		assert.deepEqual(splitParts('a\n\n\n\nb'), ['a\n\n\n\n', 'b']);
		assert.deepEqual(splitParts('a\n\n'), ['a\n\n']);
		assert.deepEqual(splitParts(''), []);
	});

	const markdownish = fc.array(fc.constantFrom('word ', 'x', '\n', '\n\n', '```', '~~~', '    ', '\t', '- ', '`', ' '), { maxLength: 80 }).map((pieces) => pieces.join(''));

	it('loses nothing: the parts join to the text', () => {
		fc.assert(fc.property(markdownish, (text) => assert.equal(splitParts(text).join(''), text)), { numRuns: 2000 });
	});

	it('never takes back a finished part as the text grows (what lets the page keep their rendering)', () => {
		fc.assert(
			fc.property(markdownish, markdownish, (prefix, more) => {
				const before = splitParts(prefix);
				const after = splitParts(prefix + more);
				const finished = Math.max(0, before.length - 1);
				assert.deepEqual(after.slice(0, finished), before.slice(0, finished));
			}),
			{ numRuns: 3000 },
		);
	});
});
