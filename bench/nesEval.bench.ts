// Agent Link NES (built in) on real code: the NES eval's two dev sets, when they are present beside
// the repository (`../shared/nes-eval/`, or the folder `AGENT_LINK_NES_EVAL` names; their cases are
// never copied here): `cases.jsonl.gz` (JavaScript, TypeScript, Python) and `cases-multi.jsonl.gz`
// (Go, Rust, Java, Ruby, PHP, C#). Its runner replays each case against `node dist/nes-agent.js`
// over stdio (the file opened, its first change typed, `nes/suggest` at the end of it) and scores
// what comes back against the commit's real text, in both scorings:
//   - strict: every line a suggestion changes becomes exactly the developer's line;
//   - partial (`--partial`): also right when the line lies on a shortest edit path toward it.
// Reported per set and scoring: precision (suggestions right / made), recall (repeat cases with a
// right suggestion), wrong on mixed cases (cases with no repeated change where anything was
// suggested wrong), and the latency per `nes/suggest` as the runner sees it (stdio round trip
// included); then the same per language, from the runner's dump of every verdict.
// Goal, partial: precision at least 90%, recall at least 35%, wrong on at most 5% of mixed cases.
//
//   node out/bench/nesEval.bench.js [--cases <file.jsonl[.gz]>] [--dump <dir>]
// (`--cases`: that set alone, a held-out one say; `--dump`: keep every verdict there)
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cases: { type: 'string' }, dump: { type: 'string' } } });
const root = join(__dirname, '..', '..');
const evalDir = resolve(root, process.env.AGENT_LINK_NES_EVAL ?? join('..', 'shared', 'nes-eval'));
const runner = join(evalDir, 'run.mjs');
const agent = join(root, 'dist', 'nes-agent.js');
const DEV_SETS = ['cases.jsonl.gz', 'cases-multi.jsonl.gz'];

const LANGUAGE_OF_FILE: readonly (readonly [RegExp, string])[] = [
	[/\.(?:[cm]?[jt]sx?)$/i, 'JavaScript/TypeScript'],
	[/\.pyi?$/i, 'Python'],
	[/\.go$/i, 'Go'],
	[/\.rs$/i, 'Rust'],
	[/\.java$/i, 'Java'],
	[/\.kts?$/i, 'Kotlin'],
	[/\.(?:rb|rake|gemspec)$/i, 'Ruby'],
	[/\.php$/i, 'PHP'],
	[/\.cs$/i, 'C#'],
];

interface Dumped {
	readonly kind: 'repeat' | 'mixed';
	readonly path: string;
	readonly verdicts: readonly { readonly kind: string; readonly verdict?: string }[];
}

/** Precision, recall and wrong on mixed cases per language, from the runner's dump. */
function perLanguage(dumpFile: string): string[] {
	const rows = readFileSync(dumpFile, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Dumped);
	const byLanguage = new Map<string, Dumped[]>();
	for (const row of rows) {
		const language = LANGUAGE_OF_FILE.find(([pattern]) => pattern.test(row.path))?.[1] ?? 'other';
		byLanguage.set(language, [...(byLanguage.get(language) ?? []), row]);
	}
	const pct = (a: number, b: number) => (b === 0 ? '–' : `${((100 * a) / b).toFixed(1)}%`);
	return [...byLanguage]
		.sort(([a], [b]) => a.localeCompare(b))
		.map(([language, own]) => {
			let right = 0;
			let made = 0;
			let hits = 0;
			let wrongMixed = 0;
			for (const row of own) {
				const scored = row.verdicts.filter((v) => v.kind !== 'jump' && v.verdict !== 'noop');
				const good = scored.filter((v) => v.verdict === 'full' || v.verdict === 'correct').length;
				right += good;
				made += scored.length;
				hits += row.kind === 'repeat' && good > 0 ? 1 : 0;
				wrongMixed += row.kind === 'mixed' && good < scored.length ? 1 : 0;
			}
			const repeats = own.filter((r) => r.kind === 'repeat').length;
			return `${language}: precision ${pct(right, made)} (${right}/${made}), recall ${pct(hits, repeats)} (repeat cases), wrong on ${pct(wrongMixed, own.length - repeats)} of mixed (${own.length} cases)`;
		});
}

function runSet(cases: string, dumpDir: string): boolean {
	for (const scoring of ['strict', 'partial'] as const) {
		const dumpFile = join(dumpDir, `nes-eval-${basename(cases).replace(/\.jsonl(?:\.gz)?$/, '')}-${scoring}.jsonl`);
		const args = [runner, '--agent', `${process.execPath} ${agent}`, '--cases', cases, '--dump', dumpFile];
		if (scoring === 'partial') {
			args.push('--partial');
		}
		const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
		if (result.status !== 0) {
			console.log(`NES eval (${basename(cases)}, ${scoring}) failed: ${(result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ')}`);
			return false;
		}
		console.log(`\nNES eval, ${basename(cases)}, ${scoring} scoring:`);
		for (const line of result.stdout.trim().split('\n')) {
			console.log(`  ${line}`);
		}
		for (const line of perLanguage(dumpFile)) {
			console.log(`    ${line}`);
		}
	}
	return true;
}

function main(): number {
	if (!existsSync(runner)) {
		console.log(`NES eval: no dev set at ${evalDir} (set AGENT_LINK_NES_EVAL to its folder); skipped.`);
		return 0;
	}
	if (!existsSync(agent)) {
		console.log('NES eval: dist/nes-agent.js is not built (node scripts/build.mjs); skipped.');
		return 0;
	}
	const sets = values.cases ? [resolve(values.cases)] : DEV_SETS.map((name) => join(evalDir, name)).filter((file) => existsSync(file));
	const dumpDir = values.dump ? resolve(values.dump) : mkdtempSync(join(tmpdir(), 'nes-eval-'));
	try {
		for (const cases of sets) {
			if (!runSet(cases, dumpDir)) {
				return 1;
			}
		}
	} finally {
		if (!values.dump) {
			rmSync(dumpDir, { recursive: true, force: true });
		}
	}
	return 0;
}

process.exitCode = main();
