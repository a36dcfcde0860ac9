// NES suggestion context, in plain Node over the pure core (src/common/nes): no VS Code, synthetic
// change and selection events shaped as VS Code delivers them, over a 20 000-line document.
//
//   1. Per keystroke: what the extension host does for one key (EditHistory.apply on the change,
//      UserActionRecorder.recordEdit, and recordSelection for the cursor move the key causes).
//      Typing sessions at random places: words, Enter, Backspace, a paste now and then, pauses
//      that end bursts. Targets: median under 0.2 ms, p99 under 1 ms.
//   2. A full nes/suggest request with every context key declared: assembleSuggestContext over
//      what was recorded plus recent files (the 20 000-line file first), related snippets, open
//      files and diagnostics as the vscode layer hands them over, then JSON.stringify of the
//      params. Target: median under 5 ms. The in-editor part (reading tabs, diagnostics, the
//      definition provider) is measured by the bench-nes-context suite inside VS Code.
//
//   node out/bench/nesContext.bench.js [--keys 20000] [--builds 200]
import { parseArgs } from 'node:util';
import { assembleSuggestContext, type ContextInputs, type DiagnosticInput } from '../src/common/nes/context';
import { EditHistory } from '../src/common/nes/editHistory';
import type { NesProfile, PositionEncoding } from '../src/common/nes/protocol';
import { UserActionRecorder } from '../src/common/nes/userActions';

const { values } = parseArgs({ options: { keys: { type: 'string', default: '20000' }, builds: { type: 'string', default: '200' } } });
const KEYS = Number(values.keys);
const BUILDS = Number(values.builds);
const URI = 'file:///project/src/big.ts';

/** A seeded generator, so every run types the same thing. */
function random(seed: number): () => number {
	let s = seed >>> 0;
	return () => {
		s = (s + 0x6d2b79f5) >>> 0;
		let t = s;
		t = Math.imul(t ^ (t >>> 15), t | 1);
		t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
		return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
	};
}

function percentile(sorted: readonly number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

function summary(samples: number[]): string {
	const sorted = [...samples].sort((a, b) => a - b);
	const f = (ms: number) => (ms < 1 ? `${(ms * 1000).toFixed(1)} µs` : `${ms.toFixed(2)} ms`);
	return `median ${f(percentile(sorted, 50))}, p99 ${f(percentile(sorted, 99))}, max ${f(sorted.at(-1)!)} (n=${sorted.length})`;
}

/** A document as VS Code would hold it, edited by the simulated keystrokes. */
class Document {
	readonly lines: string[];
	version = 1;
	constructor(lineCount: number) {
		this.lines = Array.from({ length: lineCount }, (_, i) => `export const value${i} = makeConfig('item ${i}').retries + ${i}; // line ${i}`);
		this.lines.push('');
	}
	get text(): string {
		return this.lines.join('\n');
	}
	/** Applies a replacement within one line or inserting line breaks; returns the new cursor. */
	replace(line: number, start: number, end: number, text: string): { line: number; character: number } {
		const current = this.lines[line]!;
		const parts = (current.slice(0, start) + text + current.slice(end)).split('\n');
		this.lines.splice(line, 1, ...parts);
		this.version++;
		const inserted = text.split('\n');
		return inserted.length === 1 ? { line, character: start + text.length } : { line: line + inserted.length - 1, character: inserted.at(-1)!.length };
	}
}

function recordKeystrokes(encoding: PositionEncoding): { perKey: number[]; history: EditHistory; actions: UserActionRecorder; doc: Document; clock: number } {
	const doc = new Document(20_000);
	const history = new EditHistory();
	const actions = new UserActionRecorder(encoding);
	history.track(URI, doc.text);
	const rand = random(42);
	const perKey: number[] = [];
	let clock = 1_700_000_000_000;
	let cursor = { line: 10_000, character: 20 };
	const words = ['const ', 'total', ' = ', 'makeConfig(', "'x'", ');', 'return ', 'value', '.', 'retries'];
	for (let k = 0; k < KEYS + 2000; k++) {
		// Mostly typing at the cursor; sometimes Enter, Backspace, a paste, a jump (with a pause).
		const roll = rand();
		clock += roll < 0.02 ? 2000 + rand() * 3000 : 40 + rand() * 120;
		if (roll < 0.02) {
			cursor = { line: Math.floor(rand() * 19_990), character: 10 };
		}
		const line = doc.lines[cursor.line]!;
		const character = Math.min(cursor.character, line.length);
		let text: string;
		let start = character;
		if (roll < 0.08) {
			text = '\n\t';
		} else if (roll < 0.15 && character > 0) {
			text = '';
			start = character - 1;
		} else if (roll < 0.16) {
			text = words.join('');
		} else {
			const word = words[Math.floor(rand() * words.length)]!;
			text = word[Math.floor(rand() * word.length)]!;
		}
		const change = { range: { start: { line: cursor.line, character: start }, end: { line: cursor.line, character } }, rangeLength: character - start, text };
		const lineNo = cursor.line;
		const next = doc.replace(cursor.line, start, character, text);
		const version = doc.version;
		const lineText = () => doc.lines[lineNo]!;

		const t0 = performance.now();
		// As the vscode layer does: copy the changes, map them, record; then the cursor move.
		const changes = [change];
		history.apply(
			URI,
			changes.map((c) => ({ startLine: c.range.start.line, startCharacter: c.range.start.character, endLine: c.range.end.line, endCharacter: c.range.end.character, text: c.text })),
			clock,
		);
		actions.recordEdit(URI, version, undefined, changes, { line: lineNo, character: start, lineText }, clock);
		actions.recordSelection(URI, version, true, { line: next.line, character: next.character, lineText: () => doc.lines[next.line]! }, clock + 1);
		const t1 = performance.now();
		if (k >= 2000) {
			perKey.push(t1 - t0);
		}
		cursor = next;
	}
	return { perKey, history, actions, doc, clock };
}

const all = { recentFiles: { maxCount: 10 }, relatedSnippets: { maxCount: 20 }, editHistory: { maxCount: 50 }, userActions: { maxCount: 64 }, openFiles: { maxCount: 50 }, diagnostics: { maxCount: 100 } };
const profile: Pick<NesProfile, 'context' | 'revision'> = { revision: 'merged', context: all };

for (const encoding of ['utf-16', 'utf-8'] as const) {
	const { perKey } = recordKeystrokes(encoding);
	console.log(`per keystroke (${encoding}), edit history + user actions, 20 000-line document: ${summary(perKey)}`);
}

const { history, actions, doc } = recordKeystrokes('utf-16');
const small = (i: number) => `import { x${i} } from './x';\n`.repeat(40);
const range = (line: number) => ({ start: { line, character: 4 }, end: { line, character: 12 } });
const diagnostics: DiagnosticInput[] = [];
for (let i = 0; i < 500; i++) {
	diagnostics.push({ uri: i < 100 ? URI : `file:///project/src/f${i % 40}.ts`, range: range((i * 37) % 20_000), severity: (['error', 'warning', 'information', 'hint'] as const)[i % 4]!, message: `Problem number ${i} in this file.` });
}
const excerpt = Array.from({ length: 30 }, (_, i) => `\tfield${i}: string;`).join('\n');
const builds: number[] = [];
let bytes = 0;
for (let b = 0; b < BUILDS + 20; b++) {
	const t0 = performance.now();
	// What the vscode layer hands over: the current file's head (as its getText(range) would), other files, tabs, diagnostics.
	const bigText = doc.lines.slice(0, 800).join('\n');
	const inputs: ContextInputs = {
		recentFiles: [{ uri: URI, languageId: 'typescript', text: bigText }, ...Array.from({ length: 9 }, (_, i) => ({ uri: `file:///project/src/r${i}.ts`, languageId: 'typescript', text: small(i) }))],
		relatedSnippets: Array.from({ length: 8 }, (_, i) => ({ uri: `file:///project/src/s${i}.ts`, excerpts: [0, 1, 2, 3].map((j) => ({ startLine: j * 40, endLine: j * 40 + 29, text: excerpt })) })),
		editHistory: history,
		userActions: actions,
		openFiles: Array.from({ length: 40 }, (_, i) => ({ uri: `file:///project/src/o${i}.ts`, languageId: 'typescript', visibleRange: i === 0 ? range(9_990) : null, lastFocusedMs: i % 3 === 0 ? null : 1_700_000_000_000 + i })),
		diagnostics: { items: diagnostics, cursor: { uri: URI, line: 10_000 } },
		pathOf: (uri) => uri.slice('file:///project/'.length),
	};
	const params = { sessionId: 'nes-1', uri: URI, version: doc.version, position: { line: 10_000, character: 20 }, triggerKind: 'manual', context: assembleSuggestContext(profile, inputs) };
	const json = JSON.stringify(params);
	const t1 = performance.now();
	if (b >= 20) {
		builds.push(t1 - t0);
		bytes = json.length;
	}
}
console.log(`full nes/suggest params, every context key declared (assembly + JSON.stringify, ${(bytes / 1024).toFixed(1)} KiB): ${summary(builds)}`);
