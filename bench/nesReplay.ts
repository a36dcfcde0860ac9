// In-process replay of NES eval cases (`../shared/nes-eval/*.jsonl.gz`: real edits, each a file
// before a commit and the single-line replacements the commit made) through engine 1, the way the
// eval's runner drives the agent over stdio: the file opened, its first replacement typed (common
// prefix and suffix trimmed), the engine asked at the end of it, the proposal shaped into the
// suggestions a client with jumps and search-and-replace is sent, each non-jump suggestion applied
// and scored against the commit's text, strictly and with partial progress counted (a changed line
// on a shortest edit path towards the developer's line). No stdio and no timing, so a set of
// thousands of cases replays in seconds; the figures to report come from `nesEval.bench.ts`, which
// runs the real agent through the eval's own runner.
//
//   node out/bench/nesReplay.js <cases.jsonl[.gz]> [--ungated] [--json <out.jsonl>]   (figures per language)
import { readFileSync, writeFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { editByExample, proposeUngated } from '../src/nes-agent/engines/editByExample';
import type { GateFeatures } from '../src/nes-agent/engines/gate';
import { languageOf } from '../src/nes-agent/engines/gate';
import type { Proposal } from '../src/nes-agent/engines/types';
import { TrackedDocument } from '../src/nes-agent/documents';
import { toSuggestions } from '../src/nes-agent/suggestions';
import type * as nes from '@agentclientprotocol/sdk/experimental/nes';

export interface EvalCase {
	readonly repo?: string;
	readonly path: string;
	readonly languageId: string;
	readonly kind: 'repeat' | 'mixed';
	readonly before: string;
	readonly hunks: readonly { readonly line: number; readonly old: string; readonly new: string }[];
}

export type Verdict = 'full' | 'correct' | 'wrong' | 'noop';

export interface Replayed {
	readonly c: EvalCase;
	readonly lang: string;
	/** The first rule's proposal and its features, before the gate (undefined: no rule fired). */
	readonly features: GateFeatures | undefined;
	/** Verdicts of the non-jump suggestions made from it, strict and partial (empty: silent). */
	readonly strict: Verdict[];
	readonly partial: Verdict[];
	/** The first suggestion's changed lines: as they were, as suggested, as the developer left them. */
	readonly diff: (readonly [string, string, string])[];
}

export function readCases(file: string): EvalCase[] {
	const raw = readFileSync(file);
	const text = file.endsWith('.gz') ? gunzipSync(raw).toString('utf8') : raw.toString('utf8');
	return text
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as EvalCase);
}

function lev(a: string, b: string): number {
	if (a.length > 600 || b.length > 600) {
		return a === b ? 0 : Infinity;
	}
	let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
	for (let i = 1; i <= a.length; i++) {
		const cur = [i];
		for (let j = 1; j <= b.length; j++) {
			cur[j] = Math.min(prev[j]! + 1, cur[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
		}
		prev = cur;
	}
	return prev[b.length]!;
}

function score(c: readonly string[], r: readonly string[] | undefined, f: readonly string[], partial: boolean): Verdict {
	if (r === undefined || r.length !== c.length) {
		return 'wrong';
	}
	let same = true;
	let final = true;
	for (let i = 0; i < c.length; i++) {
		same &&= r[i] === c[i];
		final &&= r[i] === f[i];
	}
	if (same) {
		return 'noop';
	}
	if (final) {
		return 'full';
	}
	for (let i = 0; i < c.length; i++) {
		const [ci, ri, fi] = [c[i]!, r[i]!, f[i]!];
		if (ri !== ci && ri !== fi && !(partial && fi !== ci && lev(ci, ri) + lev(ri, fi) === lev(ci, fi))) {
			return 'wrong';
		}
	}
	return 'correct';
}

function applyTo(lines: readonly string[], s: nes.NesSuggestion): string[] | undefined {
	const text = lines.join('\n');
	let out: string | undefined;
	if (s.kind === 'edit') {
		const starts = [0];
		for (let i = 0; i < text.length; i++) {
			if (text[i] === '\n') {
				starts.push(i + 1);
			}
		}
		const offset = (p: { line: number; character: number }) => Math.min((starts[p.line] ?? text.length) + p.character, text.length);
		const abs = s.edits.map((e) => ({ a: offset(e.range.start), b: offset(e.range.end), t: e.newText })).sort((x, y) => y.a - x.a);
		out = text;
		for (const e of abs) {
			out = out.slice(0, e.a) + e.t + out.slice(e.b);
		}
	} else if (s.kind === 'searchAndReplace') {
		const re = s.isRegex ? new RegExp(s.search, 'g') : new RegExp(s.search.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'g');
		const replacement = s.replace;
		out = s.isRegex ? text.replace(re, replacement) : text.replace(re, () => replacement);
	}
	return out?.split('\n');
}

/** Replays one case: the proposal before the gate, and the verdicts of what it becomes (gated or not). */
export function replay(c: EvalCase, k: number, gated: boolean): Replayed {
	const uri = `file:///eval/${k}/${c.path}`;
	const [h] = c.hunks;
	const lines = c.before.split('\n');
	const f = lines.map((l, i) => c.hunks.find((x) => x.line === i)?.new ?? l);
	const cur = [...lines];
	cur[h!.line] = h!.new;
	let p = 0;
	while (p < h!.old.length && p < h!.new.length && h!.old[p] === h!.new[p]) {
		p++;
	}
	let s = 0;
	while (s < h!.old.length - p && s < h!.new.length - p && h!.old[h!.old.length - 1 - s] === h!.new[h!.new.length - 1 - s]) {
		s++;
	}
	const newCore = h!.new.slice(p, h!.new.length - s);
	const doc = new TrackedDocument(uri, c.languageId, 1, c.before);
	doc.applyChanges([{ range: { start: { line: h!.line, character: p }, end: { line: h!.line, character: h!.old.length - s } }, text: newCore }], 2);
	const input = { uri, languageId: c.languageId, document: doc, cursor: { line: h!.line, character: p + newCore.length }, lastEdit: doc.lastEdit, earlierEdits: doc.earlierEdits };
	const found = proposeUngated(input);
	const proposal: Proposal | undefined = gated ? editByExample(input) : found?.proposal;
	const strict: Verdict[] = [];
	const partial: Verdict[] = [];
	const diff: (readonly [string, string, string])[] = [];
	if (proposal) {
		let id = 0;
		const suggestions = toSuggestions(proposal, uri, { features: { jump: true, rename: false, searchAndReplace: true }, newId: () => `s${id++}`, isRejected: () => false });
		for (const suggestion of suggestions.filter((x) => x.kind !== 'jump')) {
			const r = applyTo(cur, suggestion);
			const vs = score(cur, r, f, false);
			const vp = score(cur, r, f, true);
			if (vp !== 'noop') {
				if (diff.length === 0 && r) {
					r.forEach((line, i) => line !== cur[i] && diff.length < 3 && diff.push([cur[i]!, line, f[i] ?? '']));
				}
				strict.push(vs);
				partial.push(vp);
			}
		}
	}
	return { c, lang: languageOf(c.languageId, c.path), features: found?.features, strict, partial, diff };
}

export interface Figures {
	readonly cases: number;
	readonly precision: number;
	readonly right: number;
	readonly made: number;
	readonly recall: number;
	readonly wrongMixed: number;
}

/** Precision of suggestions, recall of repeat cases, wrong on mixed cases, from replayed verdicts. */
export function figures(rows: readonly { readonly kind: string; readonly verdicts: readonly Verdict[] }[]): Figures {
	let right = 0;
	let made = 0;
	let repeat = 0;
	let hit = 0;
	let mixed = 0;
	let wrongMixed = 0;
	for (const row of rows) {
		const good = row.verdicts.filter((v) => v === 'full' || v === 'correct').length;
		const bad = row.verdicts.filter((v) => v === 'wrong').length;
		right += good;
		made += good + bad;
		if (row.kind === 'repeat') {
			repeat++;
			hit += good > 0 ? 1 : 0;
		} else {
			mixed++;
			wrongMixed += bad > 0 ? 1 : 0;
		}
	}
	const pct = (a: number, b: number) => (b === 0 ? NaN : (100 * a) / b);
	return { cases: rows.length, precision: pct(right, made), right, made, recall: pct(hit, repeat), wrongMixed: pct(wrongMixed, mixed) };
}

export function formatFigures(f: Figures): string {
	const p = (x: number) => (Number.isNaN(x) ? '–' : `${x.toFixed(1)}%`);
	return `precision ${p(f.precision)} (${f.right}/${f.made}), recall ${p(f.recall)}, wrong on mixed ${p(f.wrongMixed)} (${f.cases} cases)`;
}

/** Figures of replayed cases, all and per language, in both scorings. */
export function report(replayed: readonly Replayed[]): string[] {
	const out: string[] = [];
	const langs = [...new Set(replayed.map((r) => r.lang))].sort();
	for (const scoring of ['partial', 'strict'] as const) {
		out.push(`${scoring}: ${formatFigures(figures(replayed.map((r) => ({ kind: r.c.kind, verdicts: r[scoring] }))))}`);
		for (const lang of langs) {
			out.push(`  ${lang.padEnd(7)} ${formatFigures(figures(replayed.filter((r) => r.lang === lang).map((r) => ({ kind: r.c.kind, verdicts: r[scoring] }))))}`);
		}
	}
	return out;
}

if (/nesReplay\.js$/.test(process.argv[1] ?? '')) {
	const file = process.argv[2];
	if (!file) {
		console.error('usage: node out/bench/nesReplay.js <cases.jsonl[.gz]> [--ungated]');
		process.exit(2);
	}
	const gated = !process.argv.includes('--ungated');
	const replayed = readCases(file).map((c, k) => replay(c, k, gated));
	for (const line of report(replayed)) {
		console.log(line);
	}
	const json = process.argv.indexOf('--json');
	if (json !== -1) {
		// Every case that spoke, or that a rule proposed for before the gate: for reading what goes wrong.
		const rows = replayed.filter((r) => r.features || r.partial.length > 0).map((r) => ({ repo: r.c.repo, path: r.c.path, kind: r.c.kind, features: r.features, strict: r.strict, partial: r.partial, diff: r.diff, first: r.c.hunks[0], rest: r.c.hunks.slice(1, 4) }));
		writeFileSync(process.argv[json + 1]!, rows.map((r) => JSON.stringify(r)).join('\n') + '\n');
	}
}
