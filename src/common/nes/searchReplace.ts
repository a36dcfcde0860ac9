/**
 * Matching for `searchAndReplace` suggestions (and the seed revision's
 * `action` `searchAndReplace`), with limits: the pattern comes from the agent
 * and runs in the extension host, where a catastrophic regular expression would
 * freeze every extension. JavaScript cannot interrupt a running `exec`, so
 * patterns whose shape can backtrack exponentially are refused before they run,
 * and the number of matches and the size of the text are bounded.
 */

export interface SearchLimits {
	/** Longest pattern accepted, in UTF-16 code units. */
	readonly maxPatternLength: number;
	/** More matches than this and the suggestion is refused (nobody reviews that many). */
	readonly maxMatches: number;
	/** Largest text searched, in UTF-16 code units. */
	readonly maxTextLength: number;
}

export const DEFAULT_SEARCH_LIMITS: SearchLimits = { maxPatternLength: 1000, maxMatches: 5000, maxTextLength: 4 * 1024 * 1024 };

/** One match: UTF-16 offsets into the text and what replaces it. */
export interface SearchMatch {
	readonly start: number;
	readonly end: number;
	readonly newText: string;
}

export type SearchResult = { readonly ok: true; readonly matches: readonly SearchMatch[] } | { readonly ok: false; readonly reason: string };

/**
 * Every match of `search` in `text`, each with its replacement. Plain text
 * unless `isRegex`; regular expressions use JavaScript syntax (flags `gmu`),
 * and `replace` may use `$&`, `$1`…`$99`, `$<name>` and `$$`.
 */
export function findMatches(text: string, search: string, replace: string, isRegex: boolean, limits: SearchLimits = DEFAULT_SEARCH_LIMITS): SearchResult {
	if (search === '') {
		return { ok: false, reason: 'the search is empty' };
	}
	if (search.length > limits.maxPatternLength) {
		return { ok: false, reason: `the search is longer than ${limits.maxPatternLength} characters` };
	}
	if (text.length > limits.maxTextLength) {
		return { ok: false, reason: `the document is too large to search (more than ${limits.maxTextLength} characters)` };
	}
	if (!isRegex) {
		return literalMatches(text, search, replace, limits);
	}
	const unsafe = unsafePattern(search);
	if (unsafe) {
		return { ok: false, reason: `the regular expression is refused: ${unsafe}` };
	}
	let re: RegExp;
	try {
		re = new RegExp(search, 'gmu');
	} catch (error) {
		return { ok: false, reason: `invalid regular expression: ${error instanceof Error ? error.message : String(error)}` };
	}
	if (re.test('')) {
		return { ok: false, reason: 'the regular expression matches empty text' };
	}
	re.lastIndex = 0;
	const matches: SearchMatch[] = [];
	for (let m = re.exec(text); m !== null; m = re.exec(text)) {
		if (m[0] === '') {
			// Lookarounds can still match empty text somewhere; step over it.
			re.lastIndex = m.index + 1;
			continue;
		}
		if (matches.length >= limits.maxMatches) {
			return { ok: false, reason: `more than ${limits.maxMatches} matches` };
		}
		matches.push({ start: m.index, end: m.index + m[0].length, newText: expandReplacement(replace, m) });
	}
	return { ok: true, matches };
}

function literalMatches(text: string, search: string, replace: string, limits: SearchLimits): SearchResult {
	const matches: SearchMatch[] = [];
	for (let at = text.indexOf(search); at !== -1; at = text.indexOf(search, at + search.length)) {
		if (matches.length >= limits.maxMatches) {
			return { ok: false, reason: `more than ${limits.maxMatches} matches` };
		}
		matches.push({ start: at, end: at + search.length, newText: replace });
	}
	return { ok: true, matches };
}

/** `replace` with `$…` references filled from `match`. */
export function expandReplacement(replace: string, match: RegExpExecArray): string {
	return replace.replace(/\$(\$|&|<([^>]*)>|(\d{1,2}))/g, (whole, token: string, name: string | undefined, digits: string | undefined) => {
		if (token === '$') {
			return '$';
		}
		if (token === '&') {
			return match[0];
		}
		if (name !== undefined) {
			return match.groups && name in match.groups ? (match.groups[name] ?? '') : whole;
		}
		if (digits !== undefined) {
			// `$12` means group 12 when there is one, otherwise group 1 followed by "2".
			const two = Number(digits);
			if (digits.length === 2 && two > 0 && two < match.length) {
				return match[two] ?? '';
			}
			const one = Number(digits[0]);
			if (one > 0 && one < match.length) {
				return (match[one] ?? '') + digits.slice(1);
			}
		}
		return whole;
	});
}

/**
 * Why a pattern is refused before running it, or `undefined` when it looks
 * safe. Conservative: it refuses backreferences and any quantified group that
 * itself contains a quantifier or an alternation (`(a+)+`, `(a|aa)*`, `(\w*)*`,
 * `(?:x+y?){2,}`), the shapes behind exponential backtracking. Lookarounds are
 * refused too (they can hide the same shapes).
 */
export function unsafePattern(pattern: string): string | undefined {
	// The group stack: for each open group, whether it contains a quantifier or `|`.
	const stack: { risky: boolean }[] = [];
	let inClass = false;
	for (let i = 0; i < pattern.length; i++) {
		const ch = pattern[i]!;
		if (ch === '\\') {
			const next = pattern[i + 1] ?? '';
			if (!inClass && (/[1-9]/.test(next) || (next === 'k' && pattern[i + 2] === '<'))) {
				return 'backreferences are not allowed';
			}
			i++;
			continue;
		}
		if (inClass) {
			if (ch === ']') {
				inClass = false;
			}
			continue;
		}
		switch (ch) {
			case '[':
				inClass = true;
				break;
			case '(':
				if (pattern.startsWith('(?=', i) || pattern.startsWith('(?!', i) || pattern.startsWith('(?<=', i) || pattern.startsWith('(?<!', i)) {
					return 'lookarounds are not allowed';
				}
				stack.push({ risky: false });
				if (pattern[i + 1] === '?') {
					// `(?:`, `(?<name>`: the `?` opens a group kind, it is not a quantifier.
					const close = pattern[i + 2] === '<' ? pattern.indexOf('>', i) : i + 2;
					i = close === -1 ? pattern.length : close;
				}
				break;
			case ')': {
				const group = stack.pop();
				if (!group) {
					return undefined; // unbalanced: let RegExp report it as invalid
				}
				const quantified = isQuantifier(pattern, i + 1);
				if (group.risky && quantified) {
					return 'a repeated group that contains a repetition or an alternative (exponential backtracking)';
				}
				const parent = stack[stack.length - 1];
				if (parent && (group.risky || quantified)) {
					parent.risky = true;
				}
				break;
			}
			case '|': {
				const top = stack[stack.length - 1];
				if (top) {
					top.risky = true;
				}
				break;
			}
			default:
				if (isQuantifier(pattern, i)) {
					const top = stack[stack.length - 1];
					if (top) {
						top.risky = true;
					}
				}
		}
	}
	return undefined;
}

function isQuantifier(pattern: string, at: number): boolean {
	const ch = pattern[at];
	return ch === '*' || ch === '+' || ch === '?' || (ch === '{' && /^\{\d+(,\d*)?\}/.test(pattern.slice(at, at + 24)));
}
