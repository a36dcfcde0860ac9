import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Drafts } from '../../src/webview/chat/drafts';

/** Types `text` into `draft` as the input does (its draft's text follows the input's value). */
const typeInto = (draft: { text: string }, text: string) => {
	draft.text += text;
};

describe('chat drafts (src/webview/chat/drafts.ts)', () => {
	it('gives what was typed before any tab was shown to the first tab shown, once', () => {
		const drafts = new Drafts(undefined);
		typeInto(drafts.unassigned, 'Please tidy the config');
		const draft = drafts.forTab('tab-1');
		assert.equal(draft.text, 'Please tidy the config');
		assert.equal(drafts.unassigned.text, '', 'taken, not copied');
		assert.equal(drafts.forTab('tab-2').text, '');
		assert.equal(drafts.forTab('tab-1'), draft, 'the same draft each time the tab is shown');
	});

	it('adds the keys typed to a tab’s kept draft or seed, after its text, with its attachments', () => {
		const drafts = new Drafts({ drafts: { 'tab-1': { text: 'Draft,', attachments: [], history: ['earlier'] } } });
		typeInto(drafts.unassigned, 'then more');
		assert.deepEqual(drafts.forTab('tab-1'), { text: 'Draft, then more', attachments: [], history: ['earlier'] });
		const seed = { text: 'Go on from [the chat](x) ', attachments: [{ type: 'file' as const, path: '/w/a.ts' }] };
		drafts.unassigned.attachments.push({ type: 'file', path: '/w/a.ts' }, { type: 'file', path: '/w/b.ts' });
		typeInto(drafts.unassigned, 'and this');
		assert.deepEqual(drafts.forTab('tab-2', seed), {
			text: 'Go on from [the chat](x) and this',
			attachments: [
				{ type: 'file', path: '/w/a.ts' },
				{ type: 'file', path: '/w/b.ts' },
			],
			history: [],
		});
	});

	it('keeps what was typed with no tab shown across the page being loaded again, and forgets drafts of closed tabs', () => {
		const drafts = new Drafts({ drafts: { 'tab-1': { text: 'one', attachments: [], history: [] }, 'tab-2': { text: 'two', attachments: [], history: [] } } });
		assert.equal(drafts.saved().unassigned, undefined, 'nothing typed with no tab shown: nothing saved for it');
		typeInto(drafts.unassigned, 'P');
		drafts.keepOnly(new Set(['tab-2']));
		const again = new Drafts(JSON.parse(JSON.stringify(drafts.saved())));
		assert.deepEqual(Object.keys(again.saved().drafts), ['tab-2']);
		assert.equal(again.forTab('tab-2').text, 'two P');
		assert.equal(again.forTab('tab-1').text, '', 'a closed tab’s draft is gone');
	});
});
