/**
 * Reading a JSON text without building what is nested past a depth. `JSON.parse`
 * builds every object of a value nested 5 000 deep (about 1.5 ms a line), which an
 * agent can send as an extra member of a request no handler reads. Here the text is
 * checked against the JSON grammar (RFC 8259, exactly what `JSON.parse` accepts)
 * without building anything, and each value that opens past `maxDepth` is replaced
 * by `null`; the rest is then short enough to parse as usual.
 *
 * Only lines with more than `maxDepth` brackets can nest that deep, so the check
 * runs on those alone ({@link mayNestDeeper}). Pure.
 */

/** The result: the text with each value nested past the depth replaced by `null`, and how many were; undefined if the text is not JSON. */
export interface CutText {
	readonly text: string;
	readonly cut: number;
}

const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const COMMA = 0x2c;
const COLON = 0x3a;
const MINUS = 0x2d;
const ZERO = 0x30;
const NINE = 0x39;
const DOT = 0x2e;

/** Whether `text` has more than `maxDepth` opening brackets (inside strings or not): only then can it nest deeper. */
export function mayNestDeeper(text: string, maxDepth: number): boolean {
	let count = 0;
	for (const bracket of ['{', '[']) {
		let at = text.indexOf(bracket);
		while (at !== -1) {
			if (++count > maxDepth) {
				return true;
			}
			at = text.indexOf(bracket, at + 1);
		}
	}
	return false;
}

function isHex(c: number): boolean {
	return (c >= ZERO && c <= NINE) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66);
}

/** The end of the string starting at `i` (its opening quote), or -1 if it is not a valid JSON string. */
function stringEnd(text: string, i: number): number {
	for (i++; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c === QUOTE) {
			return i + 1;
		}
		if (c < 0x20) {
			return -1;
		}
		if (c === BACKSLASH) {
			const e = text.charCodeAt(++i);
			if (e === 0x75) {
				for (let k = 1; k <= 4; k++) {
					if (!isHex(text.charCodeAt(i + k))) {
						return -1;
					}
				}
				i += 4;
			} else if (!(e === QUOTE || e === BACKSLASH || e === 0x2f || e === 0x62 || e === 0x66 || e === 0x6e || e === 0x72 || e === 0x74)) {
				return -1;
			}
		}
	}
	return -1;
}

function digitsEnd(text: string, i: number): number {
	const start = i;
	while (i < text.length && text.charCodeAt(i) >= ZERO && text.charCodeAt(i) <= NINE) {
		i++;
	}
	return i > start ? i : -1;
}

/** The end of the number starting at `i`, or -1. */
function numberEnd(text: string, i: number): number {
	if (text.charCodeAt(i) === MINUS) {
		i++;
	}
	if (text.charCodeAt(i) === ZERO) {
		i++;
	} else if ((i = digitsEnd(text, i)) === -1) {
		return -1;
	}
	if (text.charCodeAt(i) === DOT && (i = digitsEnd(text, i + 1)) === -1) {
		return -1;
	}
	const e = text.charCodeAt(i);
	if (e === 0x65 || e === 0x45) {
		const sign = text.charCodeAt(i + 1);
		i = digitsEnd(text, sign === 0x2b || sign === MINUS ? i + 2 : i + 1);
	}
	return i;
}

/** The end of the scalar (string, number, true, false, null) starting at `i`, or -1. */
function scalarEnd(text: string, i: number): number {
	const c = text.charCodeAt(i);
	if (c === QUOTE) {
		return stringEnd(text, i);
	}
	if (c === MINUS || (c >= ZERO && c <= NINE)) {
		return numberEnd(text, i);
	}
	const word = c === 0x74 ? 'true' : c === 0x66 ? 'false' : c === 0x6e ? 'null' : undefined;
	return word !== undefined && text.startsWith(word, i) ? i + word.length : -1;
}

/** What the scanner expects next. */
const enum Expect {
	/** A value. */
	Value,
	/** A value or `]`: an array was just opened. */
	ValueOrClose,
	/** A key or `}`: an object was just opened. */
	KeyOrClose,
	/** A key: after a comma in an object. */
	Key,
	/** The colon after a key. */
	Colon,
	/** A comma or the closing bracket: a value just ended. */
	After,
}

/** The values cut so far: the text kept before each, and where the text after the last one starts. */
interface Cuts {
	readonly parts: string[];
	kept: number;
}

function cutValue(cuts: Cuts, text: string, from: number, to: number): void {
	cuts.parts.push(text.slice(cuts.kept, from), 'null');
	cuts.kept = to;
}

/**
 * The stack of open brackets, shared by every call (each runs to its end before
 * another can start): a value nested 5 000 deep grows it once, not on every line.
 */
let openBrackets = new Uint8Array(256);

/** `stack`, or a larger copy of it (kept for the next call), with room for `depth` brackets. */
function reserved(stack: Uint8Array<ArrayBuffer>, depth: number): Uint8Array<ArrayBuffer> {
	if (depth <= stack.length) {
		return stack;
	}
	let size = stack.length * 2;
	while (size < depth) {
		size *= 2;
	}
	openBrackets = new Uint8Array(size);
	openBrackets.set(stack);
	return openBrackets;
}

/** Whether the `length` characters of `text` from `a` and from `b` are the same. */
function sameText(text: string, a: number, b: number, length: number): boolean {
	return text.slice(b, b + length) === text.slice(a, a + length);
}

/**
 * Where the copies of `text[from, to)` that follow it from `to` end, at most
 * `limit` of them. Compared in blocks of 1, 2, 4, … copies and back down, each
 * block one comparison of two slices (native and fast, where `startsWith` goes
 * a character at a time): thousands of copies cost a few dozen calls.
 */
function repeatsEnd(text: string, from: number, to: number, limit: number): number {
	const unit = to - from;
	let end = to;
	let copies = 0;
	let block = 1;
	// text[from, end) holds copies + 1 copies, so a block of up to that many can be compared against it.
	while (copies + block <= limit && sameText(text, from, end, block * unit)) {
		end += block * unit;
		copies += block;
		block *= 2;
	}
	for (block = Math.floor(block / 2); block >= 1; block = Math.floor(block / 2)) {
		if (copies + block <= limit && sameText(text, from, end, block * unit)) {
			end += block * unit;
			copies += block;
		}
	}
	return end;
}

/**
 * How many of the closing brackets from `i` on (one at `i`, then the same
 * character repeated) close the innermost brackets of `stack`, down to no
 * shallower than `floor` open: at least 1.
 */
function closingRun(text: string, stack: Uint8Array, i: number, depth: number, floor: number): number {
	if (depth - floor < 2) {
		return 1;
	}
	const run = repeatsEnd(text, i, i + 1, depth - floor - 1) - i;
	const type = stack[depth - 1];
	let closes = 1;
	while (closes < run && stack[depth - 1 - closes] === type) {
		closes++;
	}
	return closes;
}

/** What a step of the scan did: went on past the character, closes a container with it, or found the text is not JSON. */
const enum Step {
	Next,
	Close,
	Fail,
}

/**
 * Checks that `text` is one JSON value and replaces each value that opens past
 * `maxDepth` (an object or array inside `maxDepth` others) by `null`. Returns
 * undefined if `text` is not JSON. One pass, one character at a time, nothing
 * built but the stack of open brackets (1 for an object, 0 for an array),
 * several times faster than `JSON.parse` on deep values. A bracket (with its key)
 * repeated thousands of times, as a deep value nearly always is, and the run of
 * brackets closing them, are checked by comparing the text with itself
 * ({@link repeatsEnd}): a copy of text already checked is valid in the same place.
 */
export function cutDeepValues(text: string, maxDepth: number): CutText | undefined {
	return new DepthScan(text, maxDepth).run();
}

/** One scan of {@link cutDeepValues}: its state in fields of one shape, each step a method. */
class DepthScan {
	private stack = openBrackets;
	private depth = 0;
	private readonly cuts: Cuts = { parts: [], kept: 0 };
	private cutFrom = -1;
	// The last bracket opened, and the depth it made: while none has closed since, text[runFrom, i) opens
	// one bracket and ends where a value is expected, as at runFrom, so a copy of it is valid at i too.
	private runFrom = -1;
	private runDepth = 0;
	private expect = Expect.Value;
	private i = 0;

	constructor(
		private readonly text: string,
		private readonly maxDepth: number,
	) {}

	run(): CutText | undefined {
		const text = this.text;
		const length = text.length;
		while (this.i < length) {
			const c = text.charCodeAt(this.i);
			// White space; any other control character fails below, where it cannot stand.
			if (c <= 0x20 && (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09)) {
				this.i++;
				continue;
			}
			const expect = this.expect;
			const step = expect === Expect.Value || expect === Expect.ValueOrClose ? this.value(c) : expect === Expect.KeyOrClose || expect === Expect.Key ? this.key(c) : expect === Expect.Colon ? this.colon(c) : this.after(c);
			if (step === Step.Fail) {
				return undefined;
			}
			if (step === Step.Close) {
				this.close();
			}
		}
		return this.expect === Expect.After && this.depth === 0 ? withCuts(text, this.cuts) : undefined;
	}

	/** Where a value (or, just after `[`, the `]`) is expected. */
	private value(c: number): Step {
		if (c === OPEN_OBJECT || c === OPEN_ARRAY) {
			this.open(c);
			return Step.Next;
		}
		if (this.expect === Expect.Value || c !== CLOSE_ARRAY) {
			this.i = scalarEnd(this.text, this.i);
			this.expect = Expect.After;
			return this.i === -1 ? Step.Fail : Step.Next;
		}
		return Step.Close;
	}

	/** `c` opens an object or array, and copies of the opener that follow open one more each. */
	private open(c: number): void {
		const { i, depth, maxDepth, runFrom } = this;
		if (depth === maxDepth && this.cutFrom === -1) {
			this.cutFrom = i;
		}
		// (Outside a value being cut, no further than the depth, where the next bracket opens one.)
		const end = runFrom !== -1 && depth === this.runDepth && depth !== maxDepth ? repeatsEnd(this.text, runFrom, i, this.cutFrom === -1 ? maxDepth - depth : this.text.length) : i;
		if (end > i) {
			// Copies of the opener before this one: each opens one more bracket of its kind, and leaves expect as it is.
			const levels = (end - i) / (i - runFrom);
			const stack = (this.stack = reserved(this.stack, depth + levels));
			stack.fill(stack[depth - 1]!, depth, depth + levels);
			this.depth = this.runDepth = depth + levels;
			this.runFrom = end - (i - runFrom);
			this.i = end;
			return;
		}
		this.stack = reserved(this.stack, depth + 1);
		this.runFrom = i;
		this.stack[this.depth++] = c === OPEN_OBJECT ? 1 : 0;
		this.runDepth = this.depth;
		this.i++;
		this.expect = c === OPEN_OBJECT ? Expect.KeyOrClose : Expect.ValueOrClose;
	}

	/** Where a key (or, just after `{`, the `}`) is expected. */
	private key(c: number): Step {
		if (c === QUOTE) {
			this.i = stringEnd(this.text, this.i);
			this.expect = Expect.Colon;
			return this.i === -1 ? Step.Fail : Step.Next;
		}
		return this.expect === Expect.Key || c !== CLOSE_OBJECT ? Step.Fail : Step.Close;
	}

	private colon(c: number): Step {
		if (c !== COLON) {
			return Step.Fail;
		}
		this.i++;
		this.expect = Expect.Value;
		return Step.Next;
	}

	/** After a value: a comma or the bracket that closes the innermost container. */
	private after(c: number): Step {
		if (this.depth === 0) {
			return Step.Fail;
		}
		const inObject = this.stack[this.depth - 1] === 1;
		if (c === COMMA) {
			this.i++;
			this.expect = inObject ? Expect.Key : Expect.Value;
			return Step.Next;
		}
		return c === (inObject ? CLOSE_OBJECT : CLOSE_ARRAY) ? Step.Close : Step.Fail;
	}

	/**
	 * The character at `i` closes the innermost container (and the same character repeated those
	 * around it, but never past the end of a value being cut), and a value being cut may end with it.
	 */
	private close(): void {
		const closes = closingRun(this.text, this.stack, this.i, this.depth, this.cutFrom === -1 ? 0 : this.maxDepth + 1);
		this.depth -= closes;
		this.i += closes;
		this.expect = Expect.After;
		if (this.cutFrom !== -1 && this.depth === this.maxDepth) {
			cutValue(this.cuts, this.text, this.cutFrom, this.i);
			this.cutFrom = -1;
		}
	}
}

function withCuts(text: string, cuts: Cuts): CutText {
	const cut = cuts.parts.length / 2;
	return cut === 0 ? { text, cut } : { text: [...cuts.parts, text.slice(cuts.kept)].join(''), cut };
}
