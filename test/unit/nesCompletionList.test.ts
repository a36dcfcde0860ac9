import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { observeCompletionList, inTheWay, type CompletionList, type CompletionListReport } from '../../src/common/nes/completionList';

const report = (selected: string, replaced: string, at = 'a.js#6@1:5'): CompletionListReport => ({ at, selected, replaced });
const replay = (...reports: (CompletionListReport | undefined)[]): CompletionList | undefined =>
	reports.reduce<CompletionList | undefined>((list, r) => observeCompletionList(list, r), undefined);

describe('observeCompletionList', () => {
	it('a list VS Code opened on the word just typed is in the way', () => {
		const list = replay(report('const', 'const'));
		assert.deepEqual(list, { at: 'a.js#6@1:5', first: 'const', moved: false, noOp: true });
		assert.equal(inTheWay(list), true);
	});

	it('a list whose selected item would change the text is not', () => {
		assert.equal(inTheWay(replay(report('console', 'cons'))), false);
		assert.equal(inTheWay(replay(report('setTimeout(() => {\n\t\n}, timeout);', 'sum'))), false);
	});

	it('a list the user moved in is theirs, even back to the first item', () => {
		const down = replay(report('const', 'const'), report('ConstantSourceNode', 'const'));
		assert.equal(down?.moved, true);
		assert.equal(inTheWay(down), false);
		const back = observeCompletionList(down, report('const', 'const'));
		assert.equal(back?.moved, true);
		assert.equal(back?.noOp, true);
		assert.equal(inTheWay(back), false);
	});

	it('the same selection reported again is not a move', () => {
		assert.equal(inTheWay(replay(report('const', 'const'), report('const', 'const'))), true);
	});

	it('a closed list is undefined, and in nobody\'s way', () => {
		assert.equal(replay(report('const', 'const'), undefined), undefined);
		assert.equal(inTheWay(undefined), false);
	});

	it('typing on opens a new list at the new place: an earlier move is forgotten', () => {
		const moved = replay(report('cons', 'co', 'a.js#5@1:2'), report('constructor', 'co', 'a.js#5@1:2'));
		assert.equal(moved?.moved, true);
		const next = observeCompletionList(moved, report('const', 'const', 'a.js#6@1:5'));
		assert.deepEqual(next, { at: 'a.js#6@1:5', first: 'const', moved: false, noOp: true });
	});

	it('a list that closed and opened again at the same place starts over', () => {
		const list = replay(report('const', 'const'), report('Constant', 'const'), undefined, report('const', 'const'));
		assert.equal(inTheWay(list), true);
	});
});
