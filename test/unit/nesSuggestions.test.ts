import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { NesSuggestion } from '../../src/common/nes/protocol';
import { suggestionsFromAgent } from '../../src/common/nes/suggestions';
import { createPositionConverter } from '../../src/common/positionEncoding';

const text = ["const s = 'café 😀!';", 'second line'];
const lines = { lineCount: text.length, lineText: (l: number) => text[l] ?? '' };
const uri = 'file:///project/a.ts';
// In UTF-8, 'é' is 2 bytes and '😀' 4; in UTF-16 they are 1 and 2 units.
const emojiEndUtf16 = text[0]!.indexOf('😀') + 2;
const emojiEndUtf8 = Buffer.byteLength(text[0]!.slice(0, emojiEndUtf16));

describe('suggestionsFromAgent', () => {
	const converter = (u: string) => (u === uri ? createPositionConverter('utf-8', lines) : undefined);

	it('moves every position of every suggestion kind into UTF-16 (but cursorPosition)', () => {
		const at = { line: 0, character: emojiEndUtf8 };
		const suggestions: NesSuggestion[] = [
			{ kind: 'edit', id: 'e', uri, edits: [{ range: { start: at, end: at }, newText: 'x' }], cursorPosition: at },
			{ kind: 'jump', id: 'j', uri, position: at },
			{ kind: 'rename', id: 'r', uri, position: at, newName: 'n' },
			{ kind: 'action', id: 'a', actionId: 'rename', arguments: { uri, position: at, newName: 'n' } },
			{ kind: 'searchAndReplace', id: 's', uri, search: 'a', replace: 'b' },
		];
		const out = suggestionsFromAgent(suggestions, converter);
		const expected = { line: 0, character: emojiEndUtf16 };
		assert.equal(out.length, 5);
		const [edit, jump, rename, action, replace] = out;
		assert.ok(edit?.kind === 'edit' && jump?.kind === 'jump' && rename?.kind === 'rename' && action?.kind === 'action');
		assert.deepEqual(edit.edits[0]?.range, { start: expected, end: expected });
		assert.deepEqual(edit.cursorPosition, at, 'cursorPosition describes the text after the edit: converted when applied');
		assert.deepEqual(jump.position, expected);
		assert.deepEqual(rename.position, expected);
		assert.deepEqual(action.arguments?.position, expected);
		assert.deepEqual(replace, suggestions[4]);
		assert.notEqual(emojiEndUtf8, emojiEndUtf16);
	});

	it('leaves out suggestions for documents it cannot read', () => {
		const out = suggestionsFromAgent([{ kind: 'jump', id: 'j', uri: 'file:///elsewhere.ts', position: { line: 0, character: 0 } }], converter);
		assert.deepEqual(out, []);
	});
});
