// User actions: classification of change and selection events, the ring buffer, the echo of an
// edit's own cursor move, coalescing, position encodings and the two revisions' shapes.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { UserActionRecorder, classifyEdit, userActionsForRevision, type EditorPosition } from '../../src/common/nes/userActions';

const A = 'file:///w/a.ts';
const B = 'file:///w/b.ts';
const at = (line: number, character: number, text = ''): EditorPosition => ({ line, character, lineText: () => text });

describe('user actions', () => {
	it('classifies edits', () => {
		const one = (text: string, rangeLength = 0) => [{ text, rangeLength }];
		assert.equal(classifyEdit(undefined, one('a')), 'insertChar');
		assert.equal(classifyEdit(undefined, one('😀')), 'insertChar');
		assert.equal(classifyEdit(undefined, one('\n    ')), 'insertChar', 'Enter with indentation');
		assert.equal(classifyEdit(undefined, one('\r\n\t')), 'insertChar');
		assert.equal(classifyEdit(undefined, one('()')), 'insertChar', 'auto-closed pair');
		assert.equal(classifyEdit(undefined, one('    ')), 'insertChar', 'Tab as spaces');
		assert.equal(classifyEdit(undefined, one('x', 5)), 'insertChar', 'typing over a selection');
		assert.equal(classifyEdit(undefined, one('', 1)), 'deleteChar');
		assert.equal(classifyEdit(undefined, one('', 40)), 'deleteChar');
		assert.equal(classifyEdit(undefined, one('console.log()')), 'insertText');
		assert.equal(classifyEdit(undefined, one('a\nb')), 'insertText');
		assert.equal(classifyEdit('undo', one('whatever', 3)), 'undo');
		assert.equal(classifyEdit('redo', one('')), 'redo');
		assert.equal(classifyEdit(undefined, one('')), undefined, 'an empty replacement is no action');
		assert.equal(classifyEdit(undefined, []), undefined);
		assert.equal(classifyEdit('undo', []), undefined);
	});

	it('records edits and selections, skipping the cursor move an edit causes', () => {
		const r = new UserActionRecorder('utf-16');
		r.recordEdit(A, 2, undefined, [{ text: 'x', rangeLength: 0 }], at(3, 4), 1000);
		r.recordSelection(A, 2, true, at(3, 5), 1001); // the typing's own cursor move
		r.recordSelection(A, 2, true, at(7, 0), 1400); // a real move
		r.recordSelection(A, 2, false, at(8, 2), 1800);
		r.recordEdit(A, 3, 'undo', [{ text: '', rangeLength: 1 }], at(3, 4), 2000);
		r.recordSelection(A, 3, true, at(3, 4), 2001, true); // by mouse: always an action
		assert.deepEqual(
			r.recent(100).map((x) => [x.action, x.line, x.character, x.timestampMs]),
			[
				['insertChar', 3, 4, 1000],
				['cursorMovement', 7, 0, 1400],
				['selectionChange', 8, 2, 1800],
				['undo', 3, 4, 2000],
				['cursorMovement', 3, 4, 2001],
			],
		);
	});

	it('does not take a later move, or a move in another file, for an echo', () => {
		const r = new UserActionRecorder('utf-16', { echoMs: 100 });
		r.recordEdit(A, 2, undefined, [{ text: 'x', rangeLength: 0 }], at(0, 0), 0);
		r.recordSelection(B, 2, true, at(1, 0), 10);
		r.recordSelection(A, 2, true, at(2, 0), 500);
		assert.deepEqual(
			r.recent(10).map((x) => x.action + x.uri.slice(-4)),
			['insertChara.ts', 'cursorMovementb.ts', 'cursorMovementa.ts'],
		);
	});

	it('coalesces a run of cursor moves in one file into its last position', () => {
		const r = new UserActionRecorder('utf-16', { coalesceMs: 100 });
		for (let i = 0; i < 10; i++) {
			r.recordSelection(A, 1, true, at(i, 0), i * 30);
		}
		r.recordSelection(A, 1, false, at(20, 1), 300);
		r.recordSelection(A, 1, true, at(21, 0), 1000);
		assert.deepEqual(
			r.recent(10).map((x) => [x.action, x.line]),
			[
				['cursorMovement', 9],
				['selectionChange', 20],
				['cursorMovement', 21],
			],
		);
	});

	it('keeps the most recent actions within its capacity and maxCount, oldest first', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 20 }), fc.nat({ max: 60 }), fc.nat({ max: 30 }), (capacity, n, max) => {
				const r = new UserActionRecorder('utf-16', { capacity });
				for (let i = 0; i < n; i++) {
					r.recordEdit(A, i, undefined, [{ text: 'a', rangeLength: 0 }], at(0, i), i);
				}
				const k = Math.min(capacity, max, n);
				assert.deepEqual(
					r.recent(max).map((x) => x.character),
					Array.from({ length: k }, (_, i) => n - k + i),
				);
			}),
		);
	});

	it('converts positions to the agent encoding, reading the line only when it must', () => {
		let reads = 0;
		const line = (character: number): EditorPosition => ({
			line: 0,
			character,
			lineText: () => {
				reads++;
				return 'é😀x';
			},
		});
		const utf16 = new UserActionRecorder('utf-16');
		utf16.recordSelection(A, 1, true, line(3), 0);
		assert.equal(reads, 0);
		const utf8 = new UserActionRecorder('utf-8');
		const utf32 = new UserActionRecorder('utf-32');
		utf8.recordSelection(A, 1, true, line(3), 0);
		utf32.recordSelection(A, 1, true, line(3), 0);
		assert.deepEqual([utf16, utf8, utf32].map((r) => r.recent(1)[0]!.character), [3, 6, 2]);
	});

	it('speaks each revision', () => {
		const actions = [{ action: 'insertChar' as const, uri: A, line: 5, character: 12, timestampMs: 1719400000000 }];
		assert.deepEqual(userActionsForRevision('seed', actions), [{ action: 'insertChar', uri: A, line: 5, offset: 12, timestampMs: 1719400000000 }]);
		assert.deepEqual(userActionsForRevision('merged', actions), [{ action: 'insertChar', uri: A, position: { line: 5, character: 12 }, timestampMs: 1719400000000 }]);
	});
});
