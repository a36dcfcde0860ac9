import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { expandReplacement, findMatches, unsafePattern } from '../../src/common/nes/searchReplace';

const ok = (r: ReturnType<typeof findMatches>) => {
	assert.ok(r.ok, r.ok ? '' : r.reason);
	return r.matches;
};

describe('findMatches: plain text', () => {
	it('finds every non-overlapping occurrence with its offsets', () => {
		assert.deepEqual(ok(findMatches('aaaa foo aaaa', 'aa', 'b', false)), [
			{ start: 0, end: 2, newText: 'b' },
			{ start: 2, end: 4, newText: 'b' },
			{ start: 9, end: 11, newText: 'b' },
			{ start: 11, end: 13, newText: 'b' },
		]);
	});

	it('treats regex characters literally and $ in the replacement as text', () => {
		assert.deepEqual(ok(findMatches('a.b a+b', 'a+b', '$&', false)), [{ start: 4, end: 7, newText: '$&' }]);
	});

	it('no match is an empty list, not an error', () => {
		assert.deepEqual(ok(findMatches('abc', 'x', 'y', false)), []);
	});

	it('refuses an empty search, an overlong one, too many matches and too much text', () => {
		assert.equal(findMatches('abc', '', 'x', false).ok, false);
		assert.equal(findMatches('abc', 'a'.repeat(11), 'x', false, { maxPatternLength: 10, maxMatches: 10, maxTextLength: 100 }).ok, false);
		assert.equal(findMatches('a'.repeat(20), 'a', 'x', false, { maxPatternLength: 10, maxMatches: 10, maxTextLength: 100 }).ok, false);
		assert.equal(findMatches('a'.repeat(101), 'b', 'x', false, { maxPatternLength: 10, maxMatches: 10, maxTextLength: 100 }).ok, false);
	});
});

describe('findMatches: regular expressions', () => {
	it('replaces with groups, named groups, $& and $$', () => {
		const m = ok(findMatches('let x = 1;\nlet y = 22;', 'let (?<name>\\w+) = (\\d+)', 'const $<name> = $2 /* $& $$ */', true));
		assert.deepEqual(
			m.map((x) => x.newText),
			['const x = 1 /* let x = 1 $ */', 'const y = 22 /* let y = 22 $ */'],
		);
	});

	it('is multi-line: ^ and $ match at line boundaries', () => {
		assert.equal(ok(findMatches('a\nb\na', '^a$', 'c', true)).length, 2);
	});

	it('counts code points with the u flag', () => {
		assert.deepEqual(ok(findMatches('x😀y', 'x.y', 'z', true)), [{ start: 0, end: 4, newText: 'z' }]);
	});

	it('an invalid regular expression is refused with the reason', () => {
		const r = findMatches('abc', '(a', 'x', true);
		assert.ok(!r.ok && /invalid regular expression/.test(r.reason), JSON.stringify(r));
	});

	it('a pattern that matches empty text is refused', () => {
		assert.equal(findMatches('abc', 'x*', 'y', true).ok, false);
	});

	it('catastrophic patterns are refused before they run', () => {
		for (const pattern of ['(a+)+$', '(a*)*b', '(a|aa)*c', '(?:\\w+\\s?)+$', '(x+x+)+y', '(a{1,3}){2,}', '((ab)*)+', '(\\d+)\\1', '(?<n>a)\\k<n>', '(?=a+)a']) {
			const r = findMatches(`${'a'.repeat(40)}!`, pattern, 'x', true);
			assert.ok(!r.ok && /refused/.test(r.reason), `${pattern}: ${JSON.stringify(r)}`);
		}
	});
});

describe('unsafePattern', () => {
	it('accepts ordinary patterns, groups without nested repetition and escaped characters', () => {
		for (const pattern of ['foo', '\\bfoo\\w*', '(foo|bar)baz', '(?:ab)+', '(?<name>\\w+)=(\\d+)', '[(+*)]+', '\\(a+\\)+', 'a{2}b?', 'x(y)?z']) {
			assert.equal(unsafePattern(pattern), undefined, pattern);
		}
	});
});

describe('expandReplacement', () => {
	it('$12 is group 12 when there is one, else group 1 then "2"; unknown references stay', () => {
		const m = /(a)(b)/.exec('ab')!;
		assert.equal(expandReplacement('$12|$2|$3|$<x>', m), 'a2|b|$3|$<x>');
	});
});
