import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Elicitation } from '../../src/common/chat/transcriptModel';
import { FormDrafts } from '../../src/webview/chat/formDrafts';

const form = (requestId: string, message = 'Which branch?'): Elicitation => ({
	requestId,
	mode: 'form',
	message,
	fields: [
		{ name: 'branch', title: 'Branch', type: 'text', required: true },
		{ name: 'dryRun', title: 'Dry run', type: 'boolean', required: false },
	],
	state: 'pending',
});

describe('chat form drafts (src/webview/chat/formDrafts.ts)', () => {
	it('keeps what is in a form’s fields across the page being loaded again, and forgets it once answered', () => {
		let saves = 0;
		const drafts = new FormDrafts(undefined, () => saves++);
		drafts.keep(form('elicitation-1'), { branch: 'release/3', dryRun: false });
		assert.equal(saves, 1, 'saved as it changes');
		const again = new FormDrafts(JSON.parse(JSON.stringify(drafts.saved())), () => {});
		assert.deepEqual(again.values(form('elicitation-1')), { branch: 'release/3', dryRun: false });
		again.keep(form('elicitation-1'), undefined);
		assert.equal(again.values(form('elicitation-1')), undefined);
		assert.deepEqual(again.saved(), {});
	});

	it('gives nothing to another form with the same request id (the host counting again)', () => {
		const drafts = new FormDrafts(undefined, () => {});
		drafts.keep(form('elicitation-1'), { branch: 'release/3' });
		assert.equal(drafts.values(form('elicitation-1', 'Which tag?')), undefined);
	});

	it('keeps the newest 32 forms, and reads a broken saved state as none', () => {
		const drafts = new FormDrafts(undefined, () => {});
		for (let i = 1; i <= 40; i++) {
			drafts.keep(form(`elicitation-${i}`), { branch: `b${i}` });
		}
		assert.equal(Object.keys(drafts.saved()).length, 32);
		assert.equal(drafts.values(form('elicitation-8')), undefined);
		assert.deepEqual(drafts.values(form('elicitation-40')), { branch: 'b40' });
		for (const broken of [null, 'x', { a: null }, { a: { form: 1, values: {} } }]) {
			assert.deepEqual(new FormDrafts(broken, () => {}).saved(), {});
		}
	});
});
