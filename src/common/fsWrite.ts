/**
 * The agent writing files through the client: ACP v1 `fs/write_text_file` (`WriteTextFileRequest`,
 * answered `{}`), advertised with `clientCapabilities.fs.writeTextFile`. Pure parts: the params
 * schema, the three-way merge that keeps what the user typed since the agent read the file, the
 * smallest edit between two texts, and the line hunks between two texts (for review).
 */
import type * as acp from '@agentclientprotocol/sdk';
import { diffLines } from 'diff';
import { diff3Merge } from 'node-diff3';
import * as z from 'zod/mini';

/** Params of `fs/write_text_file`. */
export const writeTextFileParamsSchema = z.looseObject({
	sessionId: z.string({ error: 'expected a session id (string)' }).check(z.minLength(1, { error: 'expected a session id (non-empty string)' })),
	path: z.string({ error: 'path: expected an absolute path (string)' }).check(z.minLength(1, { error: 'path: expected an absolute path (non-empty string)' })),
	content: z.string({ error: 'content: expected the text to write (string)' }),
	_meta: z.nullish(z.record(z.string(), z.unknown())),
});
export type WriteTextFileParams = z.infer<typeof writeTextFileParamsSchema>;

/** Compiles only if every request the SDK's type allows is one the schema's type allows too. */
type Accepts<T, U extends T> = U;
export type WriteTextFileParamsAcceptSdk = Accepts<WriteTextFileParams, acp.WriteTextFileRequest>;

/** `text` cut into lines, each with its own line ending (the last may have none). */
export function splitLines(text: string): string[] {
	const lines: string[] = [];
	let start = 0;
	for (;;) {
		const end = text.indexOf('\n', start);
		if (end < 0) {
			break;
		}
		lines.push(text.slice(start, end + 1));
		start = end + 1;
	}
	if (start < text.length) {
		lines.push(text.slice(start));
	}
	return lines;
}

export type MergeOutcome = { readonly ok: true; readonly text: string } | { readonly ok: false; readonly conflicts: number; readonly firstConflictLine: number };

/**
 * What to write when the agent wrote `written` from `base` (the text it read) while the buffer has
 * become `current` (the user typed meanwhile): both changes, merged line by line, when they touch
 * different lines; otherwise the conflicts (never one side over the other). `firstConflictLine`
 * is 1-based, in `current`.
 */
export function mergeWrite(base: string, current: string, written: string): MergeOutcome {
	if (current === base) {
		return { ok: true, text: written };
	}
	if (written === base || written === current) {
		return { ok: true, text: current };
	}
	const regions = diff3Merge(splitLines(current), splitLines(base), splitLines(written), { excludeFalseConflicts: true });
	let text = '';
	let conflicts = 0;
	let firstConflictLine = 0;
	for (const region of regions) {
		if (region.ok) {
			text += region.ok.join('');
		} else if (region.conflict) {
			conflicts++;
			firstConflictLine ||= region.conflict.aIndex + 1;
		}
	}
	return conflicts > 0 ? { ok: false, conflicts, firstConflictLine } : { ok: true, text };
}

/** The smallest single replacement turning `before` into `after`: offsets in `before`, and the new text. */
export function smallestEdit(before: string, after: string): { readonly start: number; readonly end: number; readonly text: string } | undefined {
	if (before === after) {
		return undefined;
	}
	const max = Math.min(before.length, after.length);
	let prefix = 0;
	while (prefix < max && before.charCodeAt(prefix) === after.charCodeAt(prefix)) {
		prefix++;
	}
	let suffix = 0;
	while (suffix < max - prefix && before.charCodeAt(before.length - 1 - suffix) === after.charCodeAt(after.length - 1 - suffix)) {
		suffix++;
	}
	// Never split a surrogate pair.
	if (prefix > 0 && isHighSurrogate(before.charCodeAt(prefix - 1))) {
		prefix--;
	}
	if (suffix > 0 && isLowSurrogate(before.charCodeAt(before.length - suffix))) {
		suffix--;
	}
	return { start: prefix, end: before.length - suffix, text: after.slice(prefix, after.length - suffix) };
}

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/**
 * A changed block of lines between two texts: `before` lines from `beforeStart` replaced by
 * `after` lines from `afterStart` (0-based line numbers; an insertion has no `before` lines, a
 * deletion no `after` lines).
 */
export interface Hunk {
	readonly beforeStart: number;
	readonly before: readonly string[];
	readonly afterStart: number;
	readonly after: readonly string[];
}

/** The changed blocks between `before` and `after`, in order. */
export function lineHunks(before: string, after: string): Hunk[] {
	if (before === after) {
		return [];
	}
	const hunks: Hunk[] = [];
	let beforeLine = 0;
	let afterLine = 0;
	let open: { beforeStart: number; before: string[]; afterStart: number; after: string[] } | undefined;
	for (const part of diffLines(before, after)) {
		const lines = splitLines(part.value);
		if (part.added || part.removed) {
			open ??= { beforeStart: beforeLine, before: [], afterStart: afterLine, after: [] };
			if (part.removed) {
				open.before.push(...lines);
				beforeLine += lines.length;
			} else {
				open.after.push(...lines);
				afterLine += lines.length;
			}
		} else {
			if (open) {
				hunks.push(open);
				open = undefined;
			}
			beforeLine += lines.length;
			afterLine += lines.length;
		}
	}
	if (open) {
		hunks.push(open);
	}
	return hunks;
}

/** Lines added and removed between two texts. */
export function lineStats(before: string, after: string): { readonly added: number; readonly removed: number } {
	let added = 0;
	let removed = 0;
	for (const hunk of lineHunks(before, after)) {
		added += hunk.after.length;
		removed += hunk.before.length;
	}
	return { added, removed };
}

/** `text` with hunk `hunk` (of `lineHunks(text, other)`) taken from the other side: the block's `after` lines put in place of its `before` lines. */
export function applyHunk(text: string, hunk: Hunk): string {
	const lines = splitLines(text);
	lines.splice(hunk.beforeStart, hunk.before.length, ...hunk.after);
	return lines.join('');
}
