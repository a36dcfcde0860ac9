import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ABSENT, TurnLedger, beforeFromDiffs, changeBytes, describeUndo, inSkippedFolder, namedFiles, planUndo, text, unknown, type FileChange } from '../../src/common/chat/turnFiles';

describe('turn files: what a tool call names', () => {
	it('takes the locations and the paths of the diffs, once each, and the diffs', () => {
		const named = namedFiles({
			locations: [{ path: '/w/a.ts' }, { path: '/w/b.ts' }],
			content: [
				{ type: 'content', content: { type: 'text', text: 'x' } },
				{ type: 'diff', path: '/w/a.ts', oldText: 'one', newText: 'two' },
				{ type: 'diff', path: '/w/new.ts', newText: 'made' },
				{ type: 'diff', path: 7, newText: 'not a path' },
				{ type: 'terminal', terminalId: 't' },
			],
		});
		assert.deepEqual(named.paths, ['/w/a.ts', '/w/b.ts', '/w/new.ts']);
		assert.deepEqual(named.diffs, [
			{ path: '/w/a.ts', oldText: 'one', newText: 'two' },
			{ path: '/w/new.ts', newText: 'made' },
		]);
	});

	it('takes nothing from a call without locations or content', () => {
		assert.deepEqual(namedFiles({ locations: null, content: null }), { paths: [], diffs: [] });
	});
});

describe('turn files: the text before, rebuilt from a tool call’s diffs', () => {
	it('a diff of the whole file gives the whole old text; a chain of them the first one’s', () => {
		assert.deepEqual(beforeFromDiffs('c\n', [{ path: 'f', oldText: 'a\n', newText: 'c\n' }]), text('a\n'));
		assert.deepEqual(
			beforeFromDiffs('c\n', [
				{ path: 'f', oldText: 'a\n', newText: 'b\n' },
				{ path: 'f', oldText: 'b\n', newText: 'c\n' },
			]),
			text('a\n'),
		);
	});

	it('a diff without old text whose new text is the file: the file was new', () => {
		assert.deepEqual(beforeFromDiffs('made\n', [{ path: 'f', newText: 'made\n' }]), ABSENT);
	});

	it('diffs of fragments (an edit tool’s old and new string) are undone where each occurs once, last first', () => {
		const now = 'const a = 2;\nconst b = 20;\nconst c = 3;\n';
		const diffs = [
			{ path: 'f', oldText: 'a = 1', newText: 'a = 2' },
			{ path: 'f', oldText: 'b = 10', newText: 'b = 20' },
		];
		assert.deepEqual(beforeFromDiffs(now, diffs), text('const a = 1;\nconst b = 10;\nconst c = 3;\n'));
	});

	it('gives up when a fragment is not in the file, or is there twice, or has no old text', () => {
		assert.equal(beforeFromDiffs('x = 2; x = 2;', [{ path: 'f', oldText: 'x = 1', newText: 'x = 2' }]), undefined);
		assert.equal(beforeFromDiffs('y = 3;', [{ path: 'f', oldText: 'x = 1', newText: 'x = 2' }]), undefined);
		assert.equal(beforeFromDiffs('y = 3; z', [{ path: 'f', newText: 'z' }]), undefined);
		assert.equal(beforeFromDiffs('y', []), undefined);
	});

	it('property: a fragment replaced once in a text is undone exactly', () => {
		fc.assert(
			fc.property(fc.string(), fc.string({ minLength: 1 }), fc.string(), fc.string(), (head, fragment, tail, old) => {
				const now = `${head}${fragment}${tail}`;
				fc.pre(now.indexOf(fragment) === head.length && now.indexOf(fragment, head.length + 1) < 0 && now !== fragment);
				assert.deepEqual(beforeFromDiffs(now, [{ path: 'f', oldText: old, newText: fragment }]), text(`${head}${old}${tail}`));
			}),
		);
	});
});

describe('turn files: the ledger of a turn', () => {
	it('keeps the first text before and the last text after; a file back as it was is no change', () => {
		const ledger = new TurnLedger();
		ledger.changed('/w/a', text('one'), text('two'));
		ledger.changed('/w/a', text('two'), text('three'));
		ledger.changed('/w/b', text('same'), text('other'));
		ledger.changed('/w/b', text('other'), text('same'));
		ledger.changed('/w/c', ABSENT, text('new'));
		ledger.changed('/w/d', text('gone'), ABSENT);
		assert.deepEqual(ledger.changes(), [
			{ path: '/w/a', before: text('one'), after: text('three'), where: 'disk' },
			{ path: '/w/c', before: ABSENT, after: text('new'), where: 'disk' },
			{ path: '/w/d', before: text('gone'), after: ABSENT, where: 'disk' },
		]);
		assert.equal(ledger.has('/w/a'), true);
		assert.equal(ledger.has('/w/x'), false);
	});

	it('a file the user saved from the editor is theirs, unless the agent changed it first', () => {
		const ledger = new TurnLedger();
		ledger.userSaved('/w/mine', 'typed by the user');
		assert.deepEqual(ledger.changes(), []);
		assert.deepEqual(ledger.before('/w/mine'), text('typed by the user'));
		ledger.changed('/w/mine', ledger.before('/w/mine')!, text('then the agent'));
		ledger.changed('/w/agent', text('a'), text('b'));
		ledger.userSaved('/w/agent', 'b and the user');
		assert.deepEqual(
			ledger.changes().map((c) => [c.path, c.before]),
			[
				['/w/mine', text('typed by the user')],
				['/w/agent', text('a')],
			],
		);
	});

	it('a change in the buffer stays there until the disk changes too', () => {
		const ledger = new TurnLedger();
		ledger.changed('/w/a', text('one'), text('two'), 'buffer');
		assert.equal(ledger.where('/w/a'), 'buffer');
		ledger.changed('/w/a', text('one'), text('three'), 'buffer');
		assert.equal(ledger.where('/w/a'), 'buffer');
		ledger.changed('/w/a', text('one'), text('four'), 'disk');
		assert.equal(ledger.where('/w/a'), 'disk');
	});
});

describe('turn files: undoing a turn', () => {
	const change = (path: string, before = text('before'), after = text('after'), where: 'disk' | 'buffer' = 'disk'): FileChange => ({ path, before, after, where });

	it('puts back the files as the turn left them; leaves alone (and names) the changed, the unsaved and the unknown', () => {
		const changes = [change('/w/same'), change('/w/edited'), change('/w/dirty'), change('/w/big', unknown('it is larger than 1 MB')), change('/w/made', ABSENT), change('/w/gone', text('x'), ABSENT)];
		const now: Record<string, { text: ReturnType<typeof text>; dirty: boolean }> = {
			'/w/same': { text: text('after'), dirty: false },
			'/w/edited': { text: text('after, and the user'), dirty: false },
			'/w/dirty': { text: text('after'), dirty: true },
			'/w/big': { text: text('after'), dirty: false },
			'/w/made': { text: text('after'), dirty: false },
			'/w/gone': { text: ABSENT, dirty: false },
		};
		const plan = planUndo(changes, (c) => now[c.path]!);
		assert.deepEqual(
			plan.restore.map((c) => c.path),
			['/w/same', '/w/made', '/w/gone'],
		);
		assert.deepEqual(plan.leftAlone, [
			{ path: '/w/edited', why: 'changed' },
			{ path: '/w/dirty', why: 'unsaved' },
			{ path: '/w/big', why: 'unknown' },
		]);
		const { title, lines } = describeUndo(plan, (p) => p.slice(3));
		assert.equal(title, "Undo this turn's changes to 3 files?");
		assert.deepEqual(lines, ['same: put back', 'made: deleted', 'gone: restored', 'edited: left alone (changed since)', 'dirty: left alone (has unsaved changes)', 'big: left alone (no copy from before the turn)']);
	});

	it('a change made in the buffer is undone from the buffer, unsaved edits and all', () => {
		const plan = planUndo([change('/w/a', text('x'), text('y'), 'buffer')], () => ({ text: text('y'), dirty: true }));
		assert.equal(plan.restore.length, 1);
	});

	it('says when nothing can be undone', () => {
		const plan = planUndo([change('/w/a')], () => ({ text: text('changed since'), dirty: false }));
		assert.equal(describeUndo(plan, (p) => p).title, 'Nothing of this turn can be undone.');
	});

	it('counts what a checkpoint holds', () => {
		assert.equal(changeBytes(change('/w', text('ab'), ABSENT)), (2 + 2) * 2);
	});
});

describe('turn files: skipped folders', () => {
	it('skips .git and node_modules anywhere in the path, nothing else', () => {
		assert.equal(inSkippedFolder('.git/index'), true);
		assert.equal(inSkippedFolder('packages/app/node_modules/x/index.js'), true);
		assert.equal(inSkippedFolder('src\\node_modules\\y.js'), true);
		assert.equal(inSkippedFolder('src/git/node.ts'), false);
	});
});
