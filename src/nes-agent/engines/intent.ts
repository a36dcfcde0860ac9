/**
 * Evidence of intent: what the file says about whether the author meant the typed change for the
 * other places too, beyond the one example itself. Six facts the gate (`gate.ts`) weighs, each
 * found by grouping the wrong suggestions on the NES eval's training set (the figures: its six
 * languages and Kotlin, proposals before the gate, right with partial progress counted):
 *
 * - `covered`: of the other lines that still hold the removed text, how many the proposal reaches
 *   (`all` of them, `half` or more, `few`; `ins` for a pure insertion). When a token is left on
 *   many lines and only some read enough like the edited one to be proposed, the author's edit
 *   was about that line, not the token: on the training set, a repeated
 *   transformation reaching every holder was right 90.8% of the time (286 of 315),
 *   reaching few 76.3% (87 of 114), and 45.8% where the lines were only somewhat alike.
 * - `seen`: how many other lines already hold the inserted text (`0`, `1-2`, `3+`; `del` for a
 *   deletion). A new name or call nobody uses yet is a migration begun; text the file already
 *   has is often one line made like its neighbours on purpose, the others left as they are:
 *   87.6% right with none (276 of 315), 79.8% with three or more (103 of 129).
 * - `ratio`: how much of the edited line the change replaced (`small` under 15%, `part` under
 *   40%, `half` under 70%, `most`). A line rewritten whole is seldom rewritten the same way
 *   elsewhere: identical copies of it (sameLines) were right 80.8% of the time (42 of 52)
 *   against 95% for a part changed.
 * - `head`: whether the nearest place's line begins with the same word as the edited one
 *   (`same`, `diff`): `assertFalse` beside `assertTrue`, `Remove…` beside `Add…`. 86.9% against
 *   75.3% for the repeated transformation.
 * - `context`: how the nearest place's neighbours (the next non-blank line above and below) read
 *   against the edited line's: both the same lines (`same`), one (`one`), alike on average
 *   (`alike`, tokens shared at least 60%), or not (`unlike`). A line in the same surroundings is
 *   the same code repeated (a copied test, a `case` of a switch); a line alike only in itself is
 *   often a different thing that reads alike. The repeated transformation was right 94.1% of the
 *   time with both neighbours the same (127 of 135), 80.3% with neither (204 of 254); for lines
 *   alike but not the same, 98.2% against 80.3%.
 * - `names`: where the names the change brought in already live. `new` (none of them is in the
 *   file yet: an API migrated, a name introduced), `near` (each one found is also found in the
 *   nearest place's block, within three lines of it or at the top level), `far` (one is used in
 *   the file, but only away from the place: a local or parameter of the edited function that the
 *   other place cannot see, `useFastParser` passed where it is not defined), `none` (the change
 *   brings no name). Repeated transformation 88.5% right with `new` (215 of 243), 78.0% with
 *   `far` (64 of 82); the same lines elsewhere 75.9% with `far` (22 of 29).
 *
 * Limits: each is a count over the text, not an understanding of it; they shift the gate's odds
 * and decide nothing alone. They carried to the dev sets' projects only in part: there identical
 * copies of the edited line are wrong more often than on the training set whatever these say
 * (the author changed one test and left its copies), and only the first place is weighed. The counts over the file are one pass (`textEvidence`) over the lines
 * near the edited one (`REACH`), stopped once they are decided, done only once a rule has
 * proposed something in a language the gate decides for.
 */
import { enclosingBlock, indentOf } from './scope';
import type { TextLines } from './types';

/** Counting stops here: beyond a few dozen holders, more say nothing new. */
const CAP = 64;
/**
 * The lines counted: those within this many of the edited one. Files are seldom longer than
 * twice this (one of the NES eval's 4 302 training cases reads differently with it), and in one of
 * 20 000 lines a pass over them all would cost a suggestion a millisecond more.
 */
const REACH = 1500;

/** The counts over the other lines of the file, from one pass over them (`textEvidence`). */
export interface TextEvidence {
	readonly covered: string;
	readonly seen: string;
	readonly names: string;
}

/** The names `inserted` brings in: those `removed` did not hold, a few at most. */
function namesBroughtIn(removed: string, inserted: string): string[] {
	const had = new Set(removed.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? []);
	return [...new Set(inserted.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [])].filter((name) => !had.has(name) && name.length > 1).slice(0, 4);
}

/**
 * `covered`, `seen` and `names` for a change of `removed` to `inserted` on `line`, whose proposal
 * reaches `places` other lines, the nearest `place` (-1: none): one pass over the other lines,
 * stopped once every count is decided.
 */
export function textEvidence(document: TextLines, line: number, place: number, removed: string, inserted: string, places: number): TextEvidence {
	const gone = removed.trim();
	const added = inserted.trim();
	const coverLimit = Math.min(CAP, 2 * places + 1);
	const names = place === -1 ? [] : namesBroughtIn(removed, inserted);
	const wholes = names.map((name) => new RegExp(`(?<![\\p{L}\\p{N}_$])${name.replace(/\$/g, '\\$')}(?![\\p{L}\\p{N}_$])`, 'u'));
	const used = names.map(() => false);
	const near = names.map(() => false);
	let block: { start: number; end: number } | undefined;
	let held = 0;
	let seen = 0;
	let open = names.length;
	for (let i = Math.max(0, line - REACH), end = Math.min(document.lineCount, line + REACH + 1); i < end; i++) {
		if (i === line) {
			continue;
		}
		const more = (gone !== '' && held < coverLimit) || (added !== '' && seen < 3);
		if (!more && open === 0) {
			break;
		}
		const text = document.lineText(i);
		held += gone !== '' && held < coverLimit && text.includes(gone) ? 1 : 0;
		seen += added !== '' && seen < 3 && text.includes(added) ? 1 : 0;
		for (let k = 0; k < names.length; k++) {
			if (near[k] || !text.includes(names[k]!) || !wholes[k]!.test(text)) {
				continue;
			}
			used[k] = true;
			block ??= enclosingBlock(document, place);
			if ((i >= block.start && i < block.end) || Math.abs(i - place) <= 3 || indentOf(text) === 0) {
				near[k] = true;
				open--;
			}
		}
	}
	const covered = gone === '' ? 'ins' : held <= places ? 'all' : held <= 2 * places ? 'half' : 'few';
	const seenWord = added === '' ? 'del' : seen === 0 ? '0' : seen <= 2 ? '1-2' : '3+';
	const far = names.some((_, k) => used[k] && !near[k]);
	return { covered, seen: seenWord, names: names.length === 0 ? 'none' : far ? 'far' : used.some(Boolean) ? 'near' : 'new' };
}

/** How much of the edited line the change replaced. */
export function rewriteRatio(oldLine: string, removed: string, inserted: string): string {
	const ratio = Math.max(removed.trim().length, inserted.trim().length) / Math.max(1, oldLine.trim().length);
	return ratio < 0.15 ? 'small' : ratio < 0.4 ? 'part' : ratio < 0.7 ? 'half' : 'most';
}

/** How many tokens two lines share, over the tokens of either (1: the same tokens). */
export function alikeness(a: string, b: string): number {
	const ta = new Set(a.match(/[\p{L}\p{N}_$]+|\S/gu) ?? []);
	const tb = new Set(b.match(/[\p{L}\p{N}_$]+|\S/gu) ?? []);
	let shared = 0;
	for (const t of ta) {
		if (tb.has(t)) {
			shared++;
		}
	}
	const all = ta.size + tb.size - shared;
	return all === 0 ? 1 : shared / all;
}

/** The nearest non-blank line from `line` in direction `step` (trimmed; '' past either end). */
function neighbour(document: TextLines, line: number, step: 1 | -1): string {
	for (let i = line + step, n = 0; i >= 0 && i < document.lineCount && n < 20; i += step, n++) {
		const text = document.lineText(i).trim();
		if (text !== '') {
			return text;
		}
	}
	return '';
}

/** How the surroundings of `place` read against those of the edited `line`. */
export function contextOf(document: TextLines, line: number, place: number): string {
	const pairs = [-1, 1].map((step) => [neighbour(document, place, step as 1 | -1), neighbour(document, line, step as 1 | -1)] as const);
	const same = pairs.filter(([a, b]) => a === b).length;
	if (same > 0) {
		return same === 2 ? 'same' : 'one';
	}
	return pairs.reduce((sum, [a, b]) => sum + alikeness(a, b), 0) / 2 >= 0.6 ? 'alike' : 'unlike';
}

/** The first word (or sign) of a line, its indentation aside. */
function headOf(text: string): string {
	return (text.trim().match(/^[\p{L}\p{N}_$@#.]+|^\S/u) ?? [''])[0]!;
}

/** Whether two lines begin with the same word. */
export function sameHead(a: string, b: string): string {
	return headOf(a) === headOf(b) ? 'same' : 'diff';
}
