// Engine 1 of Agent Link's NES agent (edit-by-example), in plain Node: no process, no wire.
//
//   1. Replay of real edit histories: this repository's own git history, read at bench time
//      (`git log -p -U0`). A case is a file in a commit with at least two single-line changes;
//      its first change (in line order) is "typed" into the file as it was before the commit, and
//      the engine is asked. A suggested line is correct when applying the suggestion to it gives
//      exactly that line as the commit left it. Reported: precision over every suggested line and
//      over the first suggestion (the one shown), recall over the later changes that repeat the
//      typed one (same change with common prefix and suffix trimmed), and over all later changes.
//      Goal: precision at least 0.9.
//   2. Suggestion time in a 20 000-line file: a rename typed at a use, a `var` to `const`, an added
//      argument, a word changed in a comment, and an edit that suggests nothing; then the same
//      rename through the agent's handlers (didChange and nes/suggest in process). Goal:
//      median under 5 ms, p99 under 50 ms.
//
//   node out/bench/nesAgent.bench.js [--runs 300] [--max-commits 2000] [--verbose]
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { NesAgent } from '../src/nes-agent/agent';
import { TrackedDocument } from '../src/nes-agent/documents';
import { editByExampleEngine } from '../src/nes-agent/engines/editByExample';
import { editByExample } from '../src/nes-agent/engines/editByExample';
import { singleLineChange, widenToTokens } from '../src/nes-agent/engines/lineChange';
import type { Proposal, TextEdit } from '../src/nes-agent/engines/types';

const { values } = parseArgs({ options: { runs: { type: 'string', default: '300' }, 'max-commits': { type: 'string', default: '2000' }, verbose: { type: 'boolean', default: false } } });
const RUNS = Number(values.runs);
const root = join(__dirname, '..', '..');

function git(args: string[]): string | undefined {
	const result = spawnSync('git', args, { cwd: root, encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 });
	return result.status === 0 ? result.stdout : undefined;
}

/** One line the commit changed in place: `old` at 0-based line `line` of the parent became `text`. */
interface Pair {
	readonly line: number;
	readonly old: string;
	readonly text: string;
}

interface FileChange {
	readonly commit: string;
	readonly path: string;
	readonly pairs: Pair[];
	/** 0-based parent lines the commit changed or removed in any way. */
	readonly touched: Set<number>;
}

/** Parses `git log -p -U0` into the in-place line changes of each file of each commit. */
function parseLog(log: string): FileChange[] {
	const out: FileChange[] = [];
	let commit = '';
	let file: FileChange | undefined;
	let hunk: { oldStart: number; oldCount: number; newCount: number; minus: string[]; plus: string[] } | undefined;
	const flush = () => {
		if (file && hunk) {
			for (let i = 0; i < hunk.oldCount; i++) {
				file.touched.add(hunk.oldStart - 1 + i);
			}
			if (hunk.oldCount === hunk.newCount && hunk.minus.length === hunk.oldCount && hunk.plus.length === hunk.newCount) {
				hunk.minus.forEach((old, i) => file!.pairs.push({ line: hunk!.oldStart - 1 + i, old, text: hunk!.plus[i]! }));
			}
		}
		hunk = undefined;
	};
	for (const line of log.split('\n')) {
		if (line.startsWith('@@@commit ')) {
			flush();
			commit = line.slice('@@@commit '.length);
			file = undefined;
		} else if (line.startsWith('diff --git ')) {
			flush();
			const m = /^diff --git a\/(.+) b\/(.+)$/.exec(line);
			file = m && m[1] === m[2] ? { commit, path: m[1]!, pairs: [], touched: new Set() } : undefined;
			if (file) {
				out.push(file);
			}
		} else if (line.startsWith('@@ ')) {
			flush();
			const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
			if (m) {
				hunk = { oldStart: Number(m[1]), oldCount: m[2] === undefined ? 1 : Number(m[2]), newCount: m[4] === undefined ? 1 : Number(m[4]), minus: [], plus: [] };
			}
		} else if (hunk && line.startsWith('-') && !line.startsWith('--- ')) {
			hunk.minus.push(line.slice(1));
		} else if (hunk && line.startsWith('+') && !line.startsWith('+++ ')) {
			hunk.plus.push(line.slice(1));
		} else if (line.startsWith('--- /dev/null') || line.startsWith('+++ /dev/null')) {
			file = undefined; // a new or deleted file has no "before" to type into
		}
	}
	flush();
	return out;
}

function key(pair: Pair): string | undefined {
	const change = singleLineChange({ startLine: pair.line, oldLines: [pair.old], newLines: [pair.text] });
	if (!change) {
		return undefined;
	}
	const w = widenToTokens(change);
	return `${w.oldLine.slice(w.start, w.oldEnd)}\u0000${w.newLine.slice(w.start, w.newEnd)}`;
}

function editsOf(proposal: Proposal | undefined): TextEdit[] {
	if (!proposal) {
		return [];
	}
	return proposal.kind === 'edits' ? [...proposal.edits] : proposal.occurrences.map((range) => ({ range, newText: proposal.newName }));
}

function applyToLine(line: string, edits: readonly TextEdit[]): string {
	let out = line;
	for (const e of [...edits].sort((a, b) => b.range.start.character - a.range.start.character)) {
		out = out.slice(0, e.range.start.character) + e.newText + out.slice(e.range.end.character);
	}
	return out;
}

function replay(): void {
	const log = git(['log', '--no-merges', '-p', '-U0', '--no-color', '--no-ext-diff', '--no-renames', `--max-count=${values['max-commits']}`, '--format=@@@commit %H']);
	if (log === undefined) {
		console.log('replay: skipped (no git history here)');
		return;
	}
	const files = parseLog(log).filter((f) => f.pairs.length >= 2);
	let cases = 0;
	let casesWithRepeat = 0;
	let suggestedLines = 0;
	let correctLines = 0;
	let firstShown = 0;
	let firstCorrect = 0;
	let repeats = 0;
	let repeatsFound = 0;
	let laterChanges = 0;
	let casesSuggesting = 0;
	let silentOnRepeat = 0;
	const wrong: string[] = [];
	for (const file of files) {
		const parent = git(['show', `${file.commit}^:${file.path}`]);
		if (parent === undefined || parent.includes('\0') || parent.length > 4 * 1024 * 1024) {
			continue;
		}
		const pairs = [...file.pairs].sort((a, b) => a.line - b.line);
		const typed = pairs[0]!;
		const parentLines = parent.split('\n');
		if (parentLines[typed.line] !== typed.old) {
			continue; // the diff and the file disagree (line endings): not a fair case
		}
		const typedKey = key(typed);
		const later = new Map(pairs.slice(1).map((p) => [p.line, p]));
		const repeating = pairs.slice(1).filter((p) => key(p) === typedKey);
		cases++;
		laterChanges += later.size;
		repeats += repeating.length;
		if (repeating.length > 0) {
			casesWithRepeat++;
		}
		const change = singleLineChange({ startLine: typed.line, oldLines: [typed.old], newLines: [typed.text] })!;
		const doc = new TrackedDocument(`file:///project/${file.path}`, 'plaintext', 1, parent);
		doc.applyChanges(
			[{ range: { start: { line: typed.line, character: change.start }, end: { line: typed.line, character: change.oldEnd } }, text: typed.text.slice(change.start, change.newEnd) }],
			2,
		);
		const cursor = { line: typed.line, character: change.newEnd };
		const edits = editsOf(editByExample({ uri: doc.uri, document: doc, cursor, lastEdit: doc.lastEdit, earlierEdits: doc.earlierEdits }));
		if (edits.length === 0) {
			if (repeating.length > 0) {
				silentOnRepeat++;
				if (wrong.length < 40) {
					wrong.push(`${file.commit.slice(0, 8)} ${file.path}:${typed.line + 1} silent, ${repeating.length} repeat(s)\n      typed: ${JSON.stringify(typed.old)} -> ${JSON.stringify(typed.text)}`);
				}
			}
			continue;
		}
		casesSuggesting++;
		const byLine = new Map<number, TextEdit[]>();
		for (const e of edits) {
			byLine.set(e.range.start.line, [...(byLine.get(e.range.start.line) ?? []), e]);
		}
		for (const [line, lineEdits] of byLine) {
			suggestedLines++;
			const result = applyToLine(doc.lineText(line), lineEdits);
			const ok = later.get(line)?.text === result;
			if (ok) {
				correctLines++;
				if (repeating.some((p) => p.line === line)) {
					repeatsFound++;
				}
			} else if (wrong.length < 40) {
				wrong.push(`${file.commit.slice(0, 8)} ${file.path}:${line + 1}\n      typed: ${JSON.stringify(typed.old)} -> ${JSON.stringify(typed.text)}\n      got:   ${JSON.stringify(result)}\n      want:  ${JSON.stringify(later.get(line)?.text ?? '(unchanged)')}`);
			}
		}
		firstShown++;
		const first = edits[0]!.range.start.line;
		if (later.get(first)?.text === applyToLine(doc.lineText(first), byLine.get(first)!)) {
			firstCorrect++;
		}
	}
	const ratio = (a: number, b: number) => (b === 0 ? 'n/a' : (a / b).toFixed(3));
	console.log(`replay of this repository's history: ${cases} cases (file in a commit with 2+ single-line changes), ${casesWithRepeat} with a repeat of the typed change`);
	console.log(`  suggested in ${casesSuggesting} cases; silent in ${silentOnRepeat} cases that had a repeat`);
	console.log(`  precision (every suggested line): ${ratio(correctLines, suggestedLines)} (${correctLines}/${suggestedLines})`);
	console.log(`  precision (first suggestion):     ${ratio(firstCorrect, firstShown)} (${firstCorrect}/${firstShown})`);
	console.log(`  recall (repeats of the typed change): ${ratio(repeatsFound, repeats)} (${repeatsFound}/${repeats})`);
	console.log(`  recall (all later changes):           ${ratio(correctLines, laterChanges)} (${correctLines}/${laterChanges})`);
	if (values.verbose && wrong.length > 0) {
		console.log(`  wrong or missed (first ${wrong.length}):\n    ${wrong.join('\n    ')}`);
	}
}

function percentile(sorted: readonly number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(samples: number[], cpu?: number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(0)} µs` : `${ms.toFixed(2)} ms`);
	const wall = `median ${f(percentile(sorted, 50))}, p99 ${f(percentile(sorted, 99))}, max ${f(sorted.at(-1)!)} (n=${sorted.length})`;
	if (!cpu) {
		return wall;
	}
	// CPU time of this process over the same calls: what the engine costs, whatever else the shared machine runs.
	const c = [...cpu].sort((a, b) => a - b);
	return `${wall}; CPU median ${f(percentile(c, 50))}, p99 ${f(percentile(c, 99))}`;
}

function cpuMs(since: NodeJS.CpuUsage): number {
	const used = process.cpuUsage(since);
	return (used.user + used.system) / 1000;
}

/** A 20 000-line TypeScript-like file: declarations, calls, uses, comments. */
function bigFile(): string[] {
	const lines: string[] = [];
	for (let i = 0; lines.length < 20_000; i++) {
		lines.push(
			`var item${i} = makeConfig('item ${i}', retries);`,
			`function handle${i}(request, response) {`,
			`  const total = compute(item${i}.price, request.count) + ${i};`,
			`  logger.info(request, total);`,
			`  return response.send(total); // reply ${i}`,
			'}',
		);
	}
	lines.length = 20_000;
	return lines;
}

function timing(): void {
	const lines = bigFile();
	const text = lines.join('\n');
	const at = 10_000 - (10_000 % 6); // a `var` line in the middle
	const scenarios: { name: string; line: number; start: number; end: number; insert: string; expect: boolean }[] = [
		{ name: 'rename typed at a use (retries -> maxRetries)', line: at, start: lines[at]!.indexOf('retries'), end: lines[at]!.indexOf('retries') + 'retries'.length, insert: 'maxRetries', expect: true },
		{ name: 'var -> const', line: at, start: 0, end: 3, insert: 'const', expect: true },
		{ name: 'an added argument (logger.info(request, total, ctx))', line: at + 3, start: lines[at + 3]!.indexOf(')'), end: lines[at + 3]!.indexOf(')'), insert: ', ctx', expect: true },
		// Prose, not a symbol: every other comment differs in its number, so nothing is like the place edited.
		{ name: 'a word in a comment changed (reply -> answer, a comment in every sixth line: silent)', line: at + 4, start: lines[at + 4]!.indexOf('reply'), end: lines[at + 4]!.indexOf('reply') + 5, insert: 'answer', expect: false },
		{ name: 'nothing to suggest (a function used nowhere else renamed: two full scans)', line: at + 1, start: 9, end: 9 + `handle${at / 6}`.length, insert: 'handleOne', expect: false },
	];
	// One document for all runs: each run types the change and takes it back (the burst stays that
	// one change), so the timings measure the engine, not building a 20 000-line copy each time.
	const doc = new TrackedDocument('file:///project/big.ts', 'typescript', 1, text);
	let version = 1;
	for (const s of scenarios) {
		const samples: number[] = [];
		const cpu: number[] = [];
		let suggested = 0;
		const original = lines[s.line]!.slice(s.start, s.end);
		for (let run = 0; run < RUNS; run++) {
			doc.applyChanges([{ range: { start: { line: s.line, character: s.start }, end: { line: s.line, character: s.end } }, text: s.insert }], ++version);
			const input = { uri: doc.uri, languageId: doc.languageId, document: doc, cursor: { line: s.line, character: s.start + s.insert.length }, lastEdit: doc.lastEdit, earlierEdits: doc.earlierEdits };
			const c0 = process.cpuUsage();
			const t0 = performance.now();
			const proposal = editByExample(input);
			samples.push(performance.now() - t0);
			cpu.push(cpuMs(c0));
			suggested += editsOf(proposal).length;
			doc.applyChanges([{ range: { start: { line: s.line, character: s.start }, end: { line: s.line, character: s.start + s.insert.length } }, text: original }], ++version);
		}
		const per = suggested / RUNS;
		console.log(`  ${s.name}: ${summary(samples, cpu)}; ${per} places${(per > 0) !== s.expect ? '  (UNEXPECTED)' : ''}`);
	}
}

/** The same through the agent's handlers (document events in, suggestions out, shaping and memory included), in process. */
async function handlerTiming(): Promise<void> {
	const lines = bigFile();
	const agent = new NesAgent({ engine: editByExampleEngine, version: '0', log: () => {} });
	agent.initialize({ protocolVersion: 1, clientCapabilities: { nes: { jump: {} } } });
	const { sessionId } = agent.start({});
	const uri = 'file:///project/big.ts';
	agent.didOpen({ sessionId, uri, languageId: 'typescript', version: 1, text: lines.join('\n') });
	const at = 10_000 - (10_000 % 6);
	const column = lines[at]!.indexOf('retries');
	const samples: number[] = [];
	let version = 1;
	for (let run = 0; run < RUNS; run++) {
		const t0 = performance.now();
		agent.didChange({ sessionId, uri, version: ++version, contentChanges: [{ range: { start: { line: at, character: column }, end: { line: at, character: column + 7 } }, text: 'maxRetries' }] });
		const { suggestions } = await agent.suggest({ sessionId, uri, version, position: { line: at, character: column + 10 }, triggerKind: 'automatic' }, new AbortController().signal);
		samples.push(performance.now() - t0);
		if (suggestions.length === 0) {
			console.log('  (UNEXPECTED: no suggestion)');
		}
		agent.didChange({ sessionId, uri, version: ++version, contentChanges: [{ range: { start: { line: at, character: column }, end: { line: at, character: column + 10 } }, text: 'retries' }] });
	}
	console.log(`  through the agent's handlers (didChange + nes/suggest, rename typed at a use): ${summary(samples)}`);
}

replay();
console.log('\nsuggestion time, engine 1, 20 000-line file (target: median under 5 ms, p99 under 50 ms):');
timing();
void handlerTiming();
