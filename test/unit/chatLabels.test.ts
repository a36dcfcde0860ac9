import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { attachmentLabel, formatTokens } from '../../src/webview/chat/labels';

describe('chat input labels (src/webview/chat/labels.ts)', () => {
	it('names a file by its last path segment, with its lines when it has them, on either separator', () => {
		assert.equal(attachmentLabel({ type: 'file', path: '/work/app/src/config.json', lines: { start: 2, end: 3 } }), 'config.json:2-3');
		assert.equal(attachmentLabel({ type: 'file', path: 'C:\\app\\README.md' }), 'README.md');
		assert.equal(attachmentLabel({ type: 'folder', path: '/work/app/src' }), 'src');
	});

	it('names a symbol, an image and an OpenCtx item as the user picked them', () => {
		assert.equal(attachmentLabel({ type: 'symbol', path: '/work/app/src/parse.ts', name: 'parseConfig', lines: { start: 10, end: 24 } }), 'parseConfig:10-24');
		assert.equal(attachmentLabel({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=', name: 'diagram.png' }), 'diagram.png');
		assert.equal(attachmentLabel({ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' }), 'image', 'a pasted image has no name');
		const item = { type: 'openctx' as const, provider: 'docs', providerName: 'Docs', title: 'Intro', uri: 'https://example.invalid/intro' };
		assert.equal(attachmentLabel(item), 'Docs: Intro');
		assert.equal(attachmentLabel({ ...item, message: true }), 'Docs (for this message)');
	});

	it('counts tokens in units, thousands and millions with one decimal, a count that rounds to a thousand thousands in millions', () => {
		assert.deepEqual([0, 950, 1000, 12_345, 999_949, 999_950, 999_999, 1_000_000, 1_234_567].map(formatTokens), ['0', '950', '1.0k', '12.3k', '999.9k', '1.0M', '1.0M', '1.0M', '1.2M']);
	});
});
