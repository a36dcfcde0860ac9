import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { isInsideFolders, newProblemNear, ProblemWatch, schedulesAutomatic, shouldTrigger, type TriggerInputs } from '../../src/common/nes/triggers';

const base: TriggerInputs = { kind: 'automatic', now: 1000, languageId: 'typescript', disabledLanguages: [], scheme: 'file', inWorkspace: true, selections: 1 };

describe('shouldTrigger', () => {
	it('asks for an ordinary keystroke in a workspace file', () => {
		assert.deepEqual(shouldTrigger(base), { ok: true });
	});

	it('never asks for other schemes, files outside the workspace or files too large, even manually', () => {
		for (const kind of ['automatic', 'manual'] as const) {
			assert.equal(shouldTrigger({ ...base, kind, scheme: 'untitled' }).ok, false);
			assert.equal(shouldTrigger({ ...base, kind, inWorkspace: false }).ok, false);
			assert.equal(shouldTrigger({ ...base, kind, tooLarge: true }).ok, false);
		}
	});

	it('automatic and diagnostic triggers respect the snooze, the language setting, several cursors and undo', () => {
		for (const kind of ['automatic', 'diagnostic'] as const) {
			assert.equal(shouldTrigger({ ...base, kind, snoozedUntil: 2000 }).ok, false);
			assert.equal(shouldTrigger({ ...base, kind, disabledLanguages: ['typescript'] }).ok, false);
			assert.equal(shouldTrigger({ ...base, kind, selections: 2 }).ok, false);
			assert.equal(shouldTrigger({ ...base, kind, undoRedo: true }).ok, false);
		}
		assert.equal(shouldTrigger({ ...base, snoozedUntil: 1000 }).ok, true, 'the snooze has ended');
	});

	it('a manual request ignores the snooze and the language setting', () => {
		assert.equal(shouldTrigger({ ...base, kind: 'manual', snoozedUntil: 5000, disabledLanguages: ['typescript'], selections: 3 }).ok, true);
	});
});

describe('isInsideFolders', () => {
	const folders = ['file:///project/app', 'file:///other/'];
	it('contains the folder itself and files below it', () => {
		assert.equal(isInsideFolders('file:///project/app', folders), true);
		assert.equal(isInsideFolders('file:///project/app/src/a.ts', folders), true);
		assert.equal(isInsideFolders('file:///other/x.ts', folders), true);
	});
	it('not siblings with the same prefix, parents or other schemes', () => {
		assert.equal(isInsideFolders('file:///project/apple/a.ts', folders), false);
		assert.equal(isInsideFolders('file:///project/a.ts', folders), false);
		assert.equal(isInsideFolders('untitled:///project/app/a.ts', folders), false);
		assert.equal(isInsideFolders('file:///project/app/a.ts', []), false);
	});
});

describe('newProblemNear', () => {
	const e = (line: number, message = 'bad', severity: 'error' | 'warning' | 'information' | 'hint' = 'error') => ({ line, message, severity });
	it('a new error or warning within the window counts', () => {
		assert.equal(newProblemNear([], [e(5)], 3), true);
		assert.equal(newProblemNear([], [e(6, 'w', 'warning')], 3), true);
	});
	it('known ones, far ones and hints do not', () => {
		assert.equal(newProblemNear([e(5)], [e(5)], 5), false);
		assert.equal(newProblemNear([], [e(20)], 5), false);
		assert.equal(newProblemNear([], [e(5, 'h', 'hint'), e(5, 'i', 'information')], 5), false);
	});
});

describe('schedulesAutomatic', () => {
	const on = { attached: true, languageId: 'typescript', disabledLanguages: [], snoozed: false };
	it('starts the timer for a session in an enabled language, not snoozed', () => {
		assert.equal(schedulesAutomatic(on), true);
		assert.equal(schedulesAutomatic({ ...on, languageId: undefined, disabledLanguages: ['typescript'] }), true, 'no active editor: the language cannot stop it');
	});
	it('no timer without a session, in a disabled language or while snoozed', () => {
		assert.equal(schedulesAutomatic({ ...on, attached: false }), false);
		assert.equal(schedulesAutomatic({ ...on, disabledLanguages: ['markdown', 'typescript'] }), false);
		assert.equal(schedulesAutomatic({ ...on, snoozed: true }), false);
	});
});

describe('ProblemWatch', () => {
	const e = (line: number, message = 'bad') => ({ line, message, severity: 'error' as const });
	it('a problem is new once: the same report again is known', () => {
		const watch = new ProblemWatch();
		assert.equal(watch.update('file:///a.ts', [e(5)], 5), true);
		assert.equal(watch.update('file:///a.ts', [e(5)], 5), false);
		assert.equal(watch.update('file:///a.ts', [e(5), e(6, 'other')], 5), true, 'another message on a near line');
	});
	it('another document starts afresh, and coming back forgets what was seen before', () => {
		const watch = new ProblemWatch();
		watch.update('file:///a.ts', [e(5)], 5);
		assert.equal(watch.update('file:///b.ts', [e(5)], 5), true);
		assert.equal(watch.update('file:///a.ts', [e(5)], 5), true);
	});
	it('only within the window around the cursor; a far problem is remembered all the same', () => {
		const watch = new ProblemWatch();
		assert.equal(watch.update('file:///a.ts', [e(20)], 5, 3), false);
		assert.equal(watch.update('file:///a.ts', [e(20)], 19, 3), false, 'known since the last report');
		assert.equal(watch.update('file:///a.ts', [e(20), e(8)], 5, 3), true);
	});
});
