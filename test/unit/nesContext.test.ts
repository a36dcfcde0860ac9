// Suggestion context: only declared keys, maxCount and size bounds, ordering, shapes per revision.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
	DEFAULT_CONTEXT_LIMITS,
	assembleSuggestContext,
	capText,
	clipExcerpt,
	contextMaxCount,
	identifiersNear,
	orderDiagnostics,
	severityName,
	type ContextInputs,
	type DiagnosticInput,
} from '../../src/common/nes/context';
import { EditHistory } from '../../src/common/nes/editHistory';
import { NES_CONTEXT_KEYS, type NesContextKey, type NesProfile } from '../../src/common/nes/protocol';
import { UserActionRecorder } from '../../src/common/nes/userActions';

const A = 'file:///w/a.ts';
const B = 'file:///w/b.ts';
const range = (l1: number, c1: number, l2: number, c2: number) => ({ start: { line: l1, character: c1 }, end: { line: l2, character: c2 } });

function profile(context: NesProfile['context'], revision: NesProfile['revision'] = 'merged'): Pick<NesProfile, 'context' | 'revision'> {
	return { context, revision };
}

/** Inputs for every key, each with `n` items. */
function fullInputs(n: number): ContextInputs {
	const history = new EditHistory({ burstGapMs: 0 });
	history.track(A, 'x\n');
	const actions = new UserActionRecorder('utf-16');
	for (let i = 0; i < n; i++) {
		history.apply(A, [{ startLine: 0, startCharacter: 0, endLine: 0, endCharacter: 1, text: String(i % 10) }], i * 10);
		actions.recordEdit(A, i, undefined, [{ text: 'a', rangeLength: 0 }], { line: i, character: 0, lineText: () => '' }, i);
	}
	const items = Array.from({ length: n }, (_, i) => i);
	return {
		recentFiles: items.map((i) => ({ uri: `file:///w/r${i}.ts`, languageId: 'typescript', text: `// ${i}\n` })),
		relatedSnippets: items.map((i) => ({ uri: `file:///w/s${i}.ts`, excerpts: [{ startLine: i, endLine: i, text: `type T${i} = ${i};` }] })),
		editHistory: history,
		userActions: actions,
		openFiles: items.map((i) => ({ uri: `file:///w/o${i}.ts`, languageId: 'typescript', visibleRange: null, lastFocusedMs: i })),
		diagnostics: { items: items.map((i) => ({ uri: A, range: range(i, 0, i, 1), severity: 'error' as const, message: `e${i}` })), cursor: { uri: A, line: 0 } },
	};
}

describe('suggestion context', () => {
	it('has exactly the declared keys, each list no longer than its maxCount', () => {
		const declaration = fc.dictionary(fc.constantFrom(...NES_CONTEXT_KEYS), fc.option(fc.integer({ min: 1, max: 30 }), { nil: undefined }), { maxKeys: 6 });
		fc.assert(
			fc.property(declaration, fc.constantFrom('seed' as const, 'merged' as const), fc.nat({ max: 40 }), (declared, revision, n) => {
				const context: Partial<Record<NesContextKey, { maxCount?: number }>> = {};
				for (const [key, maxCount] of Object.entries(declared) as [NesContextKey, number | undefined][]) {
					context[key] = maxCount === undefined ? {} : { maxCount };
				}
				const p = profile(context, revision);
				const result = assembleSuggestContext(p, fullInputs(n));
				assert.deepEqual(Object.keys(result).sort(), Object.keys(context).sort());
				for (const [key, value] of Object.entries(result)) {
					assert.ok(Array.isArray(value));
					const max = contextMaxCount(p, key as NesContextKey)!;
					assert.ok(value.length <= max, `${key}: ${value.length} > ${max}`);
					assert.ok(max <= (declared[key as NesContextKey] ?? Infinity));
				}
			}),
		);
	});

	it('sends an empty list for a declared key with nothing to say, and nothing for the rest', () => {
		assert.deepEqual(assembleSuggestContext(profile({ editHistory: { maxCount: 3 }, diagnostics: {} }), {}), { editHistory: [], diagnostics: [] });
		assert.deepEqual(assembleSuggestContext(profile({}), fullInputs(3)), {});
	});

	it("takes the agent's maxCount when valid, else a default, never above the ceiling", () => {
		const p = profile({ userActions: { maxCount: 1000 }, openFiles: { maxCount: 'seven' as unknown as number }, editHistory: { maxCount: 2.5 }, recentFiles: { maxCount: 2 } });
		assert.equal(contextMaxCount(p, 'userActions'), DEFAULT_CONTEXT_LIMITS.ceiling.userActions);
		assert.equal(contextMaxCount(p, 'openFiles'), DEFAULT_CONTEXT_LIMITS.defaultMaxCount.openFiles);
		assert.equal(contextMaxCount(p, 'editHistory'), DEFAULT_CONTEXT_LIMITS.defaultMaxCount.editHistory);
		assert.equal(contextMaxCount(p, 'recentFiles'), 2);
		assert.equal(contextMaxCount(p, 'diagnostics'), undefined);
	});

	it('shapes user actions for the revision and keeps the most recent, oldest first', () => {
		const inputs = fullInputs(10);
		const seed = assembleSuggestContext(profile({ userActions: { maxCount: 2 } }, 'seed'), inputs).userActions as unknown[];
		const merged = assembleSuggestContext(profile({ userActions: { maxCount: 2 } }, 'merged'), inputs).userActions as unknown[];
		assert.deepEqual(seed, [
			{ action: 'insertChar', uri: A, line: 8, offset: 0, timestampMs: 8 },
			{ action: 'insertChar', uri: A, line: 9, offset: 0, timestampMs: 9 },
		]);
		assert.deepEqual(merged, [
			{ action: 'insertChar', uri: A, position: { line: 8, character: 0 }, timestampMs: 8 },
			{ action: 'insertChar', uri: A, position: { line: 9, character: 0 }, timestampMs: 9 },
		]);
	});

	it('caps recent files by size at a line break, in all and per file', () => {
		const limits = { ...DEFAULT_CONTEXT_LIMITS, recentFileChars: 10, recentFilesTotalChars: 15 };
		const files = ['aaaa\nbbbb\ncccc\n', 'dd\nee\n', 'ff\n'].map((text, i) => ({ uri: `file:///w/${i}`, languageId: 'plaintext', text }));
		const result = assembleSuggestContext(profile({ recentFiles: {} }), { recentFiles: files }, limits).recentFiles as { text: string }[];
		assert.deepEqual(
			result.map((f) => f.text),
			['aaaa\nbbbb\n', 'dd\n'],
		);
		assert.equal(capText('abcdefgh', 4), 'abcd');
		assert.equal(capText('a😀b', 2), 'a', 'never splits a surrogate pair');
		assert.equal(capText('short', 10), 'short');
	});

	it('clips excerpts by lines and size and adjusts their last line', () => {
		const text = Array.from({ length: 50 }, (_, i) => `line ${i}`).join('\n');
		assert.deepEqual(clipExcerpt({ startLine: 10, endLine: 59, text }, 3, 1000), { startLine: 10, endLine: 12, text: 'line 0\nline 1\nline 2' });
		assert.deepEqual(clipExcerpt({ startLine: 10, endLine: 59, text }, 40, 15), { startLine: 10, endLine: 11, text: 'line 0\nline 1' });
		assert.equal(clipExcerpt({ startLine: 0, endLine: 0, text: 'x' }, 40, 0), undefined);
		const many = { uri: B, excerpts: Array.from({ length: 9 }, (_, i) => ({ startLine: i * 100, endLine: i * 100 + 49, text })) };
		const bounded = assembleSuggestContext(profile({ relatedSnippets: { maxCount: 1 } }), { relatedSnippets: [many, many] }).relatedSnippets as { excerpts: { text: string }[] }[];
		assert.equal(bounded.length, 1);
		assert.equal(bounded[0]!.excerpts.length, DEFAULT_CONTEXT_LIMITS.excerptsPerSnippet);
		const total = bounded[0]!.excerpts.reduce((n, e) => n + e.text.length, 0);
		assert.ok(total <= DEFAULT_CONTEXT_LIMITS.snippetsTotalChars);
		assert.ok(bounded[0]!.excerpts.every((e) => e.text.split('\n').length <= DEFAULT_CONTEXT_LIMITS.excerptLines));
	});

	it('orders open files by last focus, never-focused last', () => {
		const files = [
			{ uri: 'file:///1', languageId: 'x', visibleRange: null, lastFocusedMs: null },
			{ uri: 'file:///2', languageId: 'x', visibleRange: range(0, 0, 9, 0), lastFocusedMs: 50 },
			{ uri: 'file:///3', languageId: 'x', visibleRange: null, lastFocusedMs: 70 },
		];
		const result = assembleSuggestContext(profile({ openFiles: { maxCount: 2 } }), { openFiles: files }).openFiles as { uri: string }[];
		assert.deepEqual(
			result.map((f) => f.uri),
			['file:///3', 'file:///2'],
		);
	});

	it("puts the current file's diagnostics nearest the cursor first, then other files' errors and warnings", () => {
		const d = (uri: string, line: number, severity: DiagnosticInput['severity'], message = `${severity}@${line}`): DiagnosticInput => ({ uri, range: range(line, 0, line, 3), severity, message });
		const items = [d(B, 1, 'warning'), d(A, 40, 'error'), d(B, 2, 'hint'), d(A, 11, 'warning'), d(B, 5, 'error'), d(A, 9, 'information'), d(A, 10, 'hint'), d(A, 10, 'error')];
		assert.deepEqual(
			orderDiagnostics(items, { uri: A, line: 10 }).map((x) => `${x.uri.slice(-4)} ${x.message}`),
			['a.ts error@10', 'a.ts hint@10', 'a.ts warning@11', 'a.ts information@9', 'a.ts error@40', 'b.ts error@5', 'b.ts warning@1'],
		);
		const long = orderDiagnostics([d(A, 0, 'error', 'x'.repeat(2000))], { uri: A, line: 0 })[0]!.message;
		assert.equal(long.length, DEFAULT_CONTEXT_LIMITS.diagnosticMessageChars);
		assert.deepEqual([0, 1, 2, 3].map(severityName), ['error', 'warning', 'information', 'hint']);
	});

	it('finds identifiers near the cursor, nearest first, without keywords', () => {
		const lines = ['import { Config } from "./config";', 'const value = makeConfig(options);', 'return value.name;'];
		assert.deepEqual(
			identifiersNear(lines, 4, { line: 5, character: 16 }, 4).map((i) => `${i.name}@${i.line}:${i.character}`),
			['makeConfig@5:19', 'value@5:8', 'options@5:28', 'name@6:15'],
		);
		assert.deepEqual(identifiersNear(['a b if x'], 0, { line: 0, character: 0 }, 5), []);
	});
});
