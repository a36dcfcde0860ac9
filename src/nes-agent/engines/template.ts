/**
 * The template of a repeated transformation (`repeatedTransformation.ts`): the user's last edit of
 * a line, widened to whole tokens, as a pattern other lines are matched against, with the tokens
 * around the change as its anchors. Literal where the change itself says little (an insertion, one
 * identifier replaced by another); a template must name at least one identifier or keyword.
 */
import { KEYWORDS, escapeRegExp, isIdentifier, isIdentifierChar } from './identifiers';
import { widenToTokens, type SingleLineChange } from './lineChange';

/** A template changes a few tokens; a rewrite of most of a line is not an example of anything. */
const MAX_REMOVED_TOKENS = 4;
const MAX_INSERTED_TOKENS = 8;
/** A new argument is anchored by the function it is passed to, so it may be longer. */
const MAX_ARGUMENT_TOKENS = 16;

const IDENTIFIER = '[A-Za-z_$\\u00C0-\\uFFFF][\\w$\\u00C0-\\uFFFF]*';
const NUMBER = '[0-9][\\w$.]*';
export const NOT_AFTER_IDENTIFIER = '(?<![\\w$\\u00C0-\\uFFFF])';
export const NOT_BEFORE_IDENTIFIER = '(?![\\w$\\u00C0-\\uFFFF])';
const DECLARATION_KEYWORDS = '(?:function|def|fn|func|void|async)';

interface Token {
	readonly text: string;
	readonly identifier: boolean;
	/** Whitespace separates it from the token before it. */
	readonly spaced: boolean;
}

function tokenize(text: string): Token[] {
	const tokens: Token[] = [];
	let i = 0;
	let spaced = false;
	while (i < text.length) {
		const code = text.charCodeAt(i);
		if (code === 0x20 || code === 0x09) {
			spaced = true;
			i++;
			continue;
		}
		let end = i + 1;
		const identifier = isIdentifierChar(code);
		if (identifier) {
			while (end < text.length && isIdentifierChar(text.charCodeAt(end))) {
				end++;
			}
		}
		tokens.push({ text: text.slice(i, end), identifier, spaced });
		spaced = false;
		i = end;
	}
	return tokens;
}

/** A template ready to be matched against lines. */
export interface Template {
	/** Matches one place; group 1 is the text before the replaced span. */
	readonly pattern: RegExp;
	/** A string every matching line contains (a fast filter before the expression). */
	readonly needle: string;
	readonly removed: string;
	readonly inserted: string;
}

/** The changed line around the change: what went, what came, and the tokens on each side. */
interface ChangeParts {
	readonly removed: string;
	readonly inserted: string;
	readonly before: string;
	readonly after: string;
	readonly leftTokens: Token[];
	readonly rightTokens: Token[];
	readonly removedTokens: number;
	readonly insertedTokens: number;
	readonly spacedBefore: boolean;
	readonly spacedAfter: boolean;
}

/** The template the burst's change makes, or `undefined` when it is not one worth repeating. */
export function templateOf(change: SingleLineChange): Template | undefined {
	const { oldLine, newLine, start, oldEnd, newEnd } = widenToTokens(change);
	const removed = oldLine.slice(start, oldEnd);
	const inserted = newLine.slice(start, newEnd);
	if (removed.trim() === '' && inserted.trim() === '') {
		return undefined;
	}
	const before = oldLine.slice(0, start);
	const after = oldLine.slice(oldEnd);
	const parts: ChangeParts = {
		removed,
		inserted,
		before,
		after,
		leftTokens: tokenize(before),
		rightTokens: tokenize(after),
		removedTokens: tokenize(removed).length,
		insertedTokens: tokenize(inserted).length,
		spacedBefore: /[ \t]$/.test(before),
		spacedAfter: /^[ \t]/.test(after),
	};
	const argument = argumentTemplate(parts);
	if (argument !== NOT_AN_ARGUMENT) {
		return argument;
	}
	if (parts.removedTokens > MAX_REMOVED_TOKENS || parts.insertedTokens > MAX_INSERTED_TOKENS) {
		return undefined;
	}
	return anchoredTemplate(parts);
}

const NOT_AN_ARGUMENT = Symbol('not an argument');

/**
 * A new argument of a call: the template for its other calls, `undefined` where it must stay
 * silent (the function's declaration), or {@link NOT_AN_ARGUMENT}.
 */
function argumentTemplate({ removed, inserted, before, rightTokens, insertedTokens }: ChangeParts): Template | undefined | typeof NOT_AN_ARGUMENT {
	// A new last argument: `f(a, b)` to `f(a, b, c)` repeats on every call of `f` that has arguments.
	const call = removed === '' && inserted.trimStart().startsWith(',') && rightTokens[0]?.text === ')' ? callee(before) : undefined;
	// A new parameter where the function is declared (`function f(a: T)` to `f(a: T, b: U)`) says nothing
	// about its calls, which get a value, not `b: U`: silent.
	if (call !== undefined && (new RegExp(`${DECLARATION_KEYWORDS}[ \\t]+${escapeRegExp(call)}\\s*\\($`).test(before.slice(0, before.lastIndexOf('(') + 1)) || /^\s*,\s*[\w$]+\??\s*:/.test(inserted))) {
		return undefined;
	}
	if (call !== undefined && insertedTokens <= MAX_ARGUMENT_TOKENS) {
		// Not where the function is declared (`function f(a: T)`): only calls.
		const left = `${NOT_AFTER_IDENTIFIER}(?<!${DECLARATION_KEYWORDS}[ \\t]+)${escapeRegExp(call)}\\s*\\([^()]*[^()\\s]`;
		return { pattern: new RegExp(`(${left})(?=\\s*\\)(?!\\s*(?:[{:]|=>)))`, 'g'), needle: call, removed, inserted };
	}

	// A first argument: `f()` to `f(x)` repeats at the calls of `f` that have none (not where `f` is declared).
	const first = removed === '' && rightTokens[0]?.text === ')' ? /(?:^|[^\w$.])([A-Za-z_$][\w$]*)\s*\(\s*$/.exec(before)?.[1] : undefined;
	if (first !== undefined && !KEYWORDS.has(first) && insertedTokens <= MAX_ARGUMENT_TOKENS && /[\p{L}_$]/u.test(inserted)) {
		if (new RegExp(`${DECLARATION_KEYWORDS}[ \\t]+${escapeRegExp(first)}\\s*\\($`).test(before.trimEnd()) || /^\s*[\w$]+\??\s*:/.test(inserted)) {
			return undefined;
		}
		const left = `${NOT_AFTER_IDENTIFIER}(?<!${DECLARATION_KEYWORDS}[ \\t]+)(?<![.\\w$])${escapeRegExp(first)}\\s*\\([ \\t]*`;
		return { pattern: new RegExp(`(${left})(?=\\)(?!\\s*(?:[{:]|=>)))`, 'g'), needle: `${first}(`, removed, inserted };
	}
	return NOT_AN_ARGUMENT;
}

/** Any other change: the removed text between a token or two of its neighbours on each side, as anchors. */
function anchoredTemplate({ removed, inserted, leftTokens, rightTokens, spacedBefore, spacedAfter }: ChangeParts): Template | undefined {
	// Identifiers or keywords the template names: without one it is too vague to repeat.
	const literals: string[] = [];
	const anchorLiterals: string[] = [];
	if (/[\p{L}_$]/u.test(removed) || /[\p{L}_$]/u.test(inserted)) {
		literals.push(removed.trim() || inserted.trim());
	}

	const identifierSwap = isIdentifier(removed) && isIdentifier(inserted) && !KEYWORDS.has(removed) && !KEYWORDS.has(inserted);
	// How many tokens anchor each side, and whether identifiers among them are kept literally.
	let leftCount = removed === '' || identifierSwap ? 2 : 1;
	let rightCount = removed === '' ? 2 : 1;
	// Anchors that name nothing (`X, e` to `X as e`: any name, a comma, any name) match far too much:
	// one more token on each side, keywords kept as they are (`except X, e:` lines only).
	const names = (tokens: Token[]) => tokens.some((t) => t.identifier && !KEYWORDS.has(t.text));
	const nearLiteral = removed === '' || identifierSwap;
	let widened = false;
	if (!nearLiteral && !identifierSwap && !names(tokenize(removed)) && !names(tokenize(inserted)) && !leftTokens.slice(-leftCount).concat(rightTokens.slice(0, rightCount)).some((t) => t.identifier && KEYWORDS.has(t.text))) {
		leftCount++;
		rightCount++;
		widened = true;
	}
	const literalNear = removed === '' || identifierSwap;
	const literalFar = identifierSwap;

	const anchor = (tokens: Token[], near: 'last' | 'first', count: number): string | undefined => {
		const picked = near === 'last' ? tokens.slice(-count) : tokens.slice(0, count);
		if (picked.length === 0) {
			return undefined;
		}
		let out = '';
		picked.forEach((token, index) => {
			const isNear = near === 'last' ? index === picked.length - 1 : index === 0;
			const named = !token.identifier || (isNear ? literalNear : literalFar);
			// Keywords are the code's structure, never a name: always literal.
			const literal = named || KEYWORDS.has(token.text);
			if (named && token.identifier) {
				literals.push(token.text);
				anchorLiterals.push(token.text);
			}
			const piece = literal ? escapeRegExp(token.text) : widened && /^[0-9]/.test(token.text) ? NUMBER : IDENTIFIER;
			if (index > 0) {
				const previous = picked[index - 1]!;
				out += token.spaced ? (previous.identifier && token.identifier ? '[ \\t]+' : '[ \\t]*') : '';
			}
			out += piece;
		});
		return out;
	};

	const leftAnchor = anchor(leftTokens, 'last', leftCount);
	const rightAnchor = anchor(rightTokens, 'first', rightCount);
	// An insertion is placed by its anchors alone: they must name something.
	if (literals.length === 0 || (removed === '' && anchorLiterals.length === 0)) {
		return undefined;
	}
	let left: string;
	if (leftAnchor === undefined) {
		left = '^[ \\t]*';
	} else {
		const first = leftTokens.slice(-leftCount)[0]!;
		const bounded = first.identifier ? NOT_AFTER_IDENTIFIER : '';
		const fewer = leftTokens.length < leftCount ? '^[ \\t]*' : '';
		left = `${fewer}${bounded}${leftAnchor}${spacedBefore ? '[ \\t]+' : ''}`;
	}
	let right: string;
	if (rightAnchor === undefined) {
		right = '[ \\t]*$';
	} else {
		const picked = rightTokens.slice(0, rightCount);
		const last = picked[picked.length - 1]!;
		const fewer = rightTokens.length < rightCount ? '[ \\t]*$' : '';
		right = `${spacedAfter ? '[ \\t]+' : ''}${rightAnchor}${last.identifier ? NOT_BEFORE_IDENTIFIER : ''}${fewer}`;
	}
	const startsWord = removed !== '' && isIdentifierChar(removed.charCodeAt(0)) ? NOT_AFTER_IDENTIFIER : '';
	const endsWord = removed !== '' && isIdentifierChar(removed.charCodeAt(removed.length - 1)) ? NOT_BEFORE_IDENTIFIER : '';
	const pattern = new RegExp(`(${left})${startsWord}${escapeRegExp(removed)}${endsWord}(?=${right})`, 'g');
	const needle = removed !== '' ? removed : longest(anchorLiterals);
	return { pattern, needle, removed, inserted };
}

/** The function called by the innermost unclosed `(` of `text`, if its arguments so far hold no parentheses. */
function callee(text: string): string | undefined {
	const open = text.lastIndexOf('(');
	if (open === -1 || text.indexOf(')', open) !== -1 || text.slice(open + 1).trim() === '') {
		return undefined;
	}
	const name = /([A-Za-z_$][\w$]*)\s*$/.exec(text.slice(0, open))?.[1];
	return name !== undefined && !KEYWORDS.has(name) ? name : undefined;
}

function longest(texts: readonly string[]): string {
	return texts.reduce((a, b) => (b.length > a.length ? b : a), '');
}
