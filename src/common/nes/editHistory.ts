/**
 * The user's recent edits as unified diffs: the `editHistory` context of
 * `nes/suggest` (`shared/specs/protocols.md` §2; `NesEditHistoryEntry {uri, diff}`
 * in the merged revision, the same shape in the seed revision).
 *
 * How it works, and why:
 *
 * - A change event says where text was replaced and by what, but not what was
 *   there before. So each tracked document has a copy of its lines, updated per
 *   replacement with one line splice (`lines` below): the removed text is read
 *   from it before the splice.
 * - Replacements merge into a **burst** while they land on or near the burst's
 *   lines ({@link EditHistoryOptions.nearbyLines}) within a short gap
 *   ({@link EditHistoryOptions.burstGapMs}). A burst keeps its lines as they were
 *   before it began; lines outside it are untouched for as long as it lasts, so
 *   its window (the burst's lines plus a few lines of context) is all a diff needs.
 * - A burst becomes one unified-diff hunk when it ends (its text is fixed then)
 *   or, while it is still going, when the history is read. Whole files are never
 *   diffed: a keystroke costs a splice, a burst's end a few short slices.
 *
 * Entries come out per burst, per file, most recent last, bounded by count and
 * by UTF-8 bytes. Pure: no `vscode`, no Node built-ins.
 */

/** One replacement of a change event, in the document as it was just before it (UTF-16, zero-based). */
export interface TextReplacement {
	readonly startLine: number;
	readonly startCharacter: number;
	readonly endLine: number;
	readonly endCharacter: number;
	readonly text: string;
}

export interface EditHistoryOptions {
	/** A replacement this long after the previous one of a burst starts a new burst. */
	readonly burstGapMs: number;
	/** A replacement this many lines or fewer away from a burst joins it. */
	readonly nearbyLines: number;
	/** Unchanged lines shown around each change. */
	readonly contextLines: number;
	/** Finished bursts remembered (the oldest are forgotten first). */
	readonly maxEntries: number;
	/** Bursts whose old plus new text is longer than this (UTF-16 code units) are not turned into diffs. */
	readonly maxBurstChars: number;
	/** Documents copied at most; the one edited or tracked least recently is let go first. */
	readonly maxTrackedFiles: number;
}

export const DEFAULT_EDIT_HISTORY_OPTIONS: EditHistoryOptions = Object.freeze({
	burstGapMs: 1500,
	nearbyLines: 2,
	contextLines: 3,
	maxEntries: 64,
	maxBurstChars: 64 * 1024,
	maxTrackedFiles: 32,
});

/** An `editHistory` entry as sent. */
export interface EditHistoryEntry {
	readonly uri: string;
	readonly diff: string;
}

export interface EditHistoryLimits {
	/** At most this many entries (the most recent ones). */
	readonly maxCount: number;
	/** At most this many UTF-8 bytes of diff text in all. */
	readonly maxBytes: number;
	/** An entry longer than this (UTF-8 bytes) is left out. */
	readonly maxEntryBytes: number;
	/** The path shown in `--- a/…` / `+++ b/…`; by default the last segment of the URI. */
	readonly pathOf?: (uri: string) => string;
}

interface Burst {
	/** First line of the burst; the same before and after it, as the lines above are untouched. */
	start: number;
	/** The burst's lines as they were before it began. */
	old: string[];
	/** How many lines the burst covers now. */
	count: number;
	lastMs: number;
}

interface TrackedFile {
	lines: string[];
	burst: Burst | undefined;
}

/** A finished burst: its hunk, without the file header. */
interface Finished {
	readonly uri: string;
	readonly lastMs: number;
	readonly hunk: string;
}

const LINE_BREAK = /\r\n|\r|\n/;

export class EditHistory {
	private readonly options: EditHistoryOptions;
	private readonly files = new Map<string, TrackedFile>();
	private readonly finished: Finished[] = [];
	/** The file edited last, so a keystroke there skips reordering {@link files}. */
	private lastUri: string | undefined;

	constructor(options: Partial<EditHistoryOptions> = {}) {
		this.options = { ...DEFAULT_EDIT_HISTORY_OPTIONS, ...options };
	}

	/** Whether changes to `uri` are being recorded. */
	isTracked(uri: string): boolean {
		return this.files.has(uri);
	}

	/**
	 * Starts recording `uri` from its current `text`. When it is already tracked
	 * (to resynchronize after a missed change), its burst ends first.
	 */
	track(uri: string, text: string): void {
		this.untrack(uri);
		this.files.set(uri, { lines: text.split(LINE_BREAK), burst: undefined });
		this.lastUri = uri;
		if (this.files.size > this.options.maxTrackedFiles) {
			// Map order is recency order: the first key is the least recent.
			this.untrack(this.files.keys().next().value!);
		}
	}

	/** Stops recording `uri`; its burst ends and stays in the history. */
	untrack(uri: string): void {
		const file = this.files.get(uri);
		if (file) {
			this.finish(uri, file);
			this.files.delete(uri);
		}
	}

	/**
	 * Records the replacements of one change event, applied in order (each
	 * against the text the previous one left). Returns `false`, recording
	 * nothing further, when `uri` is not tracked or a replacement does not fit
	 * the copy (a change was missed): the caller then tracks it again.
	 */
	apply(uri: string, replacements: readonly TextReplacement[], timeMs: number): boolean {
		const file = this.files.get(uri);
		if (!file) {
			return false;
		}
		if (uri !== this.lastUri) {
			this.files.delete(uri);
			this.files.set(uri, file);
			this.lastUri = uri;
		}
		for (const r of replacements) {
			if (!this.applyOne(uri, file, r, timeMs)) {
				return false;
			}
		}
		return true;
	}

	/**
	 * The history as sent: one entry per burst with a net change, most recent
	 * last, the most recent ones that fit `limits`.
	 */
	entries(limits: EditHistoryLimits): EditHistoryEntry[] {
		const all: Finished[] = [...this.finished];
		for (const [uri, file] of this.files) {
			if (file.burst) {
				const hunk = this.hunkOf(file, file.burst);
				if (hunk !== undefined) {
					all.push({ uri, lastMs: file.burst.lastMs, hunk });
				}
			}
		}
		// Stable: bursts finished in the same millisecond keep their order.
		all.sort((a, b) => a.lastMs - b.lastMs);
		const pathOf = limits.pathOf ?? lastSegment;
		const result: EditHistoryEntry[] = [];
		let bytes = 0;
		for (let i = all.length - 1; i >= 0 && result.length < limits.maxCount; i--) {
			const entry = all[i]!;
			const path = pathOf(entry.uri);
			const diff = `--- a/${path}\n+++ b/${path}\n${entry.hunk}`;
			const size = utf8Length(diff);
			if (size > limits.maxEntryBytes) {
				continue;
			}
			if (bytes + size > limits.maxBytes) {
				break;
			}
			bytes += size;
			result.push({ uri: entry.uri, diff });
		}
		return result.reverse();
	}

	private applyOne(uri: string, file: TrackedFile, r: TextReplacement, timeMs: number): boolean {
		const lines = file.lines;
		const s = r.startLine;
		const e = r.endLine;
		if (!(s >= 0 && e >= s && e < lines.length && r.startCharacter >= 0 && r.endCharacter >= 0)) {
			return false;
		}
		const first = lines[s]!;
		const last = lines[e]!;
		if (r.startCharacter > first.length || r.endCharacter > last.length || (s === e && r.endCharacter < r.startCharacter)) {
			return false;
		}
		let burst = file.burst;
		if (burst) {
			const end = burst.start + burst.count - 1;
			const near = s <= end + this.options.nearbyLines && e >= burst.start - this.options.nearbyLines;
			if (!near || timeMs - burst.lastMs > this.options.burstGapMs) {
				this.finish(uri, file);
				burst = undefined;
			}
		}
		if (!burst) {
			burst = { start: s, old: lines.slice(s, e + 1), count: e - s + 1, lastMs: timeMs };
			file.burst = burst;
		} else {
			// Lines between the burst and the replacement are untouched so far: they join as they are.
			if (s < burst.start) {
				burst.old = lines.slice(s, burst.start).concat(burst.old);
				burst.count += burst.start - s;
				burst.start = s;
			}
			const end = burst.start + burst.count - 1;
			if (e > end) {
				pushAll(burst.old, lines.slice(end + 1, e + 1));
				burst.count += e - end;
			}
			burst.lastMs = timeMs;
		}
		const inserted = r.text.split(LINE_BREAK);
		inserted[0] = first.slice(0, r.startCharacter) + inserted[0]!;
		inserted[inserted.length - 1] += last.slice(r.endCharacter);
		file.lines = spliceLines(lines, s, e - s + 1, inserted);
		burst.count += inserted.length - (e - s + 1);
		return true;
	}

	private finish(uri: string, file: TrackedFile): void {
		const burst = file.burst;
		file.burst = undefined;
		if (!burst) {
			return;
		}
		const hunk = this.hunkOf(file, burst);
		if (hunk === undefined) {
			return;
		}
		this.finished.push({ uri, lastMs: burst.lastMs, hunk });
		if (this.finished.length > this.options.maxEntries) {
			this.finished.splice(0, this.finished.length - this.options.maxEntries);
		}
	}

	/** The burst's hunk against the file's current lines, or `undefined` when nothing changed or it is too large. */
	private hunkOf(file: TrackedFile, burst: Burst): string | undefined {
		const lines = file.lines;
		const ctx = this.options.contextLines;
		const end = burst.start + burst.count;
		const current = lines.slice(burst.start, end);
		if (charCount(burst.old) + charCount(current) > this.options.maxBurstChars) {
			return undefined;
		}
		const windowStart = Math.max(0, burst.start - ctx);
		const before = lines.slice(windowStart, burst.start);
		const after = lines.slice(end, Math.min(lines.length, end + ctx));
		const atEof = end + after.length === lines.length;
		return unifiedHunk(windowStart, [...before, ...burst.old, ...after], [...before, ...current, ...after], atEof, ctx);
	}
}

interface DiffLine {
	readonly text: string;
	/** The last line of a file that does not end with a line break. */
	readonly noEol: boolean;
}

function toDiffLines(lines: readonly string[], atEof: boolean): DiffLine[] {
	const result: DiffLine[] = lines.map((text) => ({ text, noEol: false }));
	if (atEof && result.length > 0) {
		// The text after the last line break: nothing when the file ends with one.
		const last = result.pop()!;
		if (last.text !== '') {
			result.push({ text: last.text, noEol: true });
		}
	}
	return result;
}

const sameLine = (a: DiffLine, b: DiffLine) => a.text === b.text && a.noEol === b.noEol;

/**
 * One unified-diff hunk (`@@ -a,b +c,d @@` and its lines, no file header)
 * turning `oldLines` into `newLines`, both starting at zero-based line
 * `firstLine` and identical around one changed block; at most `context`
 * unchanged lines on each side. `atEof`: both end at the end of the file, so
 * the last element is the text after the last line break. `undefined` when
 * they are the same.
 */
export function unifiedHunk(firstLine: number, oldLines: readonly string[], newLines: readonly string[], atEof: boolean, context: number): string | undefined {
	const a = toDiffLines(oldLines, atEof);
	const b = toDiffLines(newLines, atEof);
	let prefix = 0;
	while (prefix < a.length && prefix < b.length && sameLine(a[prefix]!, b[prefix]!)) {
		prefix++;
	}
	if (prefix === a.length && prefix === b.length) {
		return undefined;
	}
	let suffix = 0;
	while (suffix < a.length - prefix && suffix < b.length - prefix && sameLine(a[a.length - 1 - suffix]!, b[b.length - 1 - suffix]!)) {
		suffix++;
	}
	const lead = Math.min(prefix, context);
	const trail = Math.min(suffix, context);
	const start = firstLine + prefix - lead;
	const oldCount = a.length - prefix - suffix + lead + trail;
	const newCount = b.length - prefix - suffix + lead + trail;
	const out = [`@@ -${range(start, oldCount)} +${range(start, newCount)} @@`];
	const emit = (mark: string, line: DiffLine) => {
		out.push(mark + line.text);
		if (line.noEol) {
			out.push('\\ No newline at end of file');
		}
	};
	for (let i = prefix - lead; i < prefix; i++) {
		emit(' ', a[i]!);
	}
	for (let i = prefix; i < a.length - suffix; i++) {
		emit('-', a[i]!);
	}
	for (let i = prefix; i < b.length - suffix; i++) {
		emit('+', b[i]!);
	}
	for (let i = a.length - suffix; i < a.length - suffix + trail; i++) {
		emit(' ', a[i]!);
	}
	return out.join('\n');
}

/** `start,count` of a hunk side; an empty side names the line before it (as GNU diff does). */
function range(start: number, count: number): string {
	return count === 0 ? `${start},0` : `${start + 1},${count}`;
}

function charCount(lines: readonly string[]): number {
	let n = 0;
	for (const l of lines) {
		n += l.length + 1;
	}
	return n;
}

function lastSegment(uri: string): string {
	const path = uri.replace(/[?#].*$/, '');
	const segment = path.slice(path.lastIndexOf('/') + 1);
	try {
		return decodeURIComponent(segment);
	} catch {
		return segment;
	}
}

/** UTF-8 length of a JavaScript string (a lone surrogate counts as the 3 bytes of U+FFFD). */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text.charCodeAt(i);
		if (c < 0x80) {
			bytes += 1;
		} else if (c < 0x800) {
			bytes += 2;
		} else if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) {
			bytes += 4;
			i++;
		} else {
			bytes += 3;
		}
	}
	return bytes;
}

/** `target.push(...items)` without the argument-count limit of a spread. */
function pushAll(target: string[], items: readonly string[]): void {
	for (const item of items) {
		target.push(item);
	}
}

// A spread of a large paste would exceed the engine's argument limit; rebuild instead.
const MAX_SPREAD = 10_000;

function spliceLines(lines: string[], start: number, deleteCount: number, inserted: string[]): string[] {
	if (inserted.length <= MAX_SPREAD) {
		lines.splice(start, deleteCount, ...inserted);
		return lines;
	}
	return lines.slice(0, start).concat(inserted, lines.slice(start + deleteCount));
}
