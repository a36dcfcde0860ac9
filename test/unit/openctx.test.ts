import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseResult } from '../../src/common/openctx/protocol';
import { parseProviders } from '../../src/common/openctx/providers';
import { MAX_PAUSE_MS, newPace, pauseAfterChange, PAUSE_MS, REST_MS } from '../../src/common/openctx/pace';
import { annotationSelectors, matchMessageSelectors, matchSelectors, selectorPath } from '../../src/common/openctx/selectors';

describe('OpenCtx answers', () => {
	it('takes well-formed answers of every method, extra fields dropped', () => {
		const meta = parseResult('meta', { name: 'Links', annotations: { selectors: [{ path: '**/*.ts' }] }, mentions: { label: 'Search' }, extra: 1 });
		assert.ok(meta.ok);
		assert.equal(meta.value.name, 'Links');
		assert.deepEqual(meta.value.annotations?.selectors, [{ path: '**/*.ts' }]);
		const items = parseResult('items', [{ title: 'Doc', url: 'https://example.invalid/doc', ui: { hover: { text: 'hi' } }, ai: { content: 'body' } }]);
		assert.ok(items.ok);
		assert.equal(items.value[0]?.ai?.content, 'body');
		const annotations = parseResult('annotations', [{ uri: 'file:///a.ts', range: { start: { line: 1, character: 0 }, end: { line: 1, character: 4 } }, item: { title: 'TODO' } }]);
		assert.ok(annotations.ok);
		assert.equal(annotations.value[0]?.range?.start.line, 1);
	});

	it('reads an absent answer as empty, and a missing meta as no metadata', () => {
		assert.deepEqual(parseResult('annotations', undefined), { ok: true, value: [] });
		assert.deepEqual(parseResult('mentions', null), { ok: true, value: [] });
		assert.deepEqual(parseResult('meta', undefined), { ok: true, value: {} });
	});

	it('refuses malformed answers, naming the field', () => {
		const noTitle = parseResult('items', [{ url: 'https://example.invalid' }]);
		assert.ok(!noTitle.ok);
		assert.match(noTitle.error, /malformed items answer at 0\.title/);
		const badRange = parseResult('annotations', [{ uri: 'file:///a', range: { start: { line: -1, character: 0 }, end: { line: 0, character: 0 } }, item: { title: 't' } }]);
		assert.ok(!badRange.ok);
		assert.match(badRange.error, /range\.start\.line/);
		assert.ok(!parseResult('mentions', { title: 'not a list' }).ok);
		assert.ok(!parseResult('meta', 'Links').ok);
		assert.ok(!parseResult('annotations', Array.from({ length: 2001 }, () => ({ uri: 'u', item: { title: 't' } }))).ok, 'too many annotations');
	});
});

describe('OpenCtx provider settings', () => {
	it('keeps enabled http(s) and file:// providers with their settings, in order', () => {
		const { providers, problems } = parseProviders({
			'https://ctx.example.invalid/api': true,
			'file:///opt/providers/links.mjs': { token: 'x' },
			'http://127.0.0.1:9/off': false,
		});
		assert.deepEqual(problems, []);
		assert.deepEqual(
			providers.map((p) => [p.uri, p.kind, p.settings]),
			[
				['https://ctx.example.invalid/api', 'http', {}],
				['file:///opt/providers/links.mjs', 'module', { token: 'x' }],
			],
		);
	});

	it('reports entries that cannot be providers and leaves them out', () => {
		const { providers, problems } = parseProviders({ 'ftp://x/y': true, './relative.js': true, 'https://ok.invalid': 'yes' });
		assert.equal(providers.length, 0);
		assert.equal(problems.length, 3);
		assert.match(problems[2]!, /expected true, false or a settings object/);
	});
});

describe('OpenCtx selectors', () => {
	const ts = { uri: 'file:///home/u/project/src/main.ts', content: 'const x = 1; // TODO: y' };

	it('matches the glob against host and path without the leading slash', () => {
		assert.equal(selectorPath('file:///home/u/a%20b.ts'), 'home/u/a b.ts');
		assert.equal(selectorPath('https://github.com/o/r/blob/main/x.go'), 'github.com/o/r/blob/main/x.go');
		assert.ok(matchSelectors([{ path: '**/*.ts' }], ts));
		assert.ok(!matchSelectors([{ path: '**/*.go' }], ts));
		assert.ok(matchSelectors([{ path: 'home/u/**' }], ts));
	});

	it('needs every condition of a selector, and any one selector', () => {
		assert.ok(matchSelectors([{ path: '**/*.ts', contentContains: 'TODO' }], ts));
		assert.ok(!matchSelectors([{ path: '**/*.ts', contentContains: 'FIXME' }], ts));
		assert.ok(matchSelectors([{ path: '**/*.go' }, { contentContains: 'TODO' }], ts));
	});

	it('calls a provider without selectors everywhere and one with an empty list nowhere', () => {
		assert.ok(matchSelectors(undefined, ts));
		assert.ok(!matchSelectors([], ts));
	});

	it('scopes annotations by annotations.selectors, else the first protocol selector', () => {
		assert.deepEqual(annotationSelectors({ annotations: { selectors: [{ path: 'a' }] }, selector: [{ path: 'b' }] }), [{ path: 'a' }]);
		assert.deepEqual(annotationSelectors({ selector: [{ path: 'b' }] }), [{ path: 'b' }]);
		assert.equal(annotationSelectors({ name: 'x' }), undefined);
	});

	it('matches messages by regular expression; none or an invalid one matches nothing', () => {
		assert.ok(matchMessageSelectors([{ pattern: 'ticket-\\d+' }], 'look at ticket-42 please'));
		assert.ok(!matchMessageSelectors([{ pattern: 'ticket-\\d+' }], 'nothing here'));
		assert.ok(!matchMessageSelectors(undefined, 'ticket-1'));
		assert.ok(!matchMessageSelectors([{ pattern: '(' }], '('));
	});
});

describe('OpenCtx annotations: the pause in typing before providers are asked again', () => {
	it('is short for a document that rested, and doubles, up to its ceiling, each time a change comes after a round', () => {
		const pace = newPace();
		assert.equal(pauseAfterChange(pace, 10_000), PAUSE_MS, 'a first change');
		// A key every 900 ms: the providers are asked only when the pause ends before the next key.
		let now = 10_000;
		let rounds = 1;
		pace.askedAt = now + PAUSE_MS;
		const pauses: number[] = [];
		for (let key = 0; key < 6; key++) {
			now += 900;
			const pause = pauseAfterChange(pace, now);
			pauses.push(pause);
			if (pause < 900) {
				pace.askedAt = now + pause;
				rounds++;
			}
		}
		assert.deepEqual(pauses, [500, 1000, 1000, 1000, 1000, 1000]);
		assert.equal(rounds, 2, 'two rounds for seven keys, then none until the typing stops');
		pace.askedAt = now + 1; // a round that went out just before a slow key
		assert.equal(pauseAfterChange(pace, now + 5), 2000);
		pace.askedAt = now + 10;
		assert.equal(pauseAfterChange(pace, now + 20), MAX_PAUSE_MS, 'never past the ceiling');
	});

	it('does not grow while changes come faster than the pause (nobody was asked in between)', () => {
		const pace = newPace();
		let now = 0;
		for (let key = 0; key < 20; key++) {
			now += 100;
			assert.equal(pauseAfterChange(pace, now), PAUSE_MS);
		}
	});

	it('is short again once the document rested', () => {
		const pace = newPace();
		pace.pauseMs = MAX_PAUSE_MS;
		pace.changedAt = 1000;
		pace.askedAt = 3000;
		assert.equal(pauseAfterChange(pace, 1000 + REST_MS + 1), PAUSE_MS);
	});
});
