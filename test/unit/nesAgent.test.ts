// The NES agent's parts around the engine: its copy of each document, suggestion shapes by
// client capabilities, the memory of rejections, and the handler class driven directly.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import type * as nes from '@agentclientprotocol/sdk/experimental/nes';
import { NesAgent, agentCapabilities } from '../../src/nes-agent/agent';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { editByExampleEngine } from '../../src/nes-agent/engines/editByExample';
import type { RenameProposal } from '../../src/nes-agent/engines/types';
import { NO_FEATURES, SuggestionMemory, toSuggestions } from '../../src/nes-agent/suggestions';
import { detectNesProfile } from '../../src/common/nes/protocol';

const uri = 'file:///project/a.ts';

describe('TrackedDocument', () => {
	it('applies incremental changes in order and keeps the burst the user is typing', () => {
		const d = new TrackedDocument(uri, 'ts', 1, 'alpha\nbeta\ngamma\n');
		d.applyChanges(
			[
				{ range: { start: { line: 1, character: 4 }, end: { line: 1, character: 4 } }, text: 'X' },
				{ range: { start: { line: 1, character: 5 }, end: { line: 1, character: 5 } }, text: '\nnew' },
			],
			2,
		);
		assert.equal(d.getText(), 'alpha\nbetaX\nnew\ngamma\n');
		assert.equal(d.version, 2);
		assert.deepEqual(d.lastEdit, { startLine: 1, oldLines: ['beta'], newLines: ['betaX', 'new'] });
		// A change elsewhere ends the burst; it moves to the history.
		d.applyChanges([{ range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, text: 'A' }], 3);
		assert.deepEqual(d.lastEdit, { startLine: 0, oldLines: ['alpha'], newLines: ['Alpha'] });
		assert.deepEqual(d.earlierEdits, [{ startLine: 1, oldLines: ['beta'], newLines: ['betaX', 'new'] }]);
	});

	it('a full-text change finds the lines that changed', () => {
		const d = new TrackedDocument(uri, 'ts', 1, 'a\nb\nc\n');
		d.applyChanges([{ text: 'a\nB\nc\n' }], 2);
		assert.deepEqual(d.lastEdit, { startLine: 1, oldLines: ['b'], newLines: ['B'] });
		d.applyChanges([{ text: 'a\nB\nc\n' }], 3);
		assert.deepEqual(d.lastEdit, { startLine: 1, oldLines: ['b'], newLines: ['B'] }, 'no change, no new burst');
	});

	// Property: typing, deleting and pasting reported incrementally leaves the same text as the edits applied
	// to a string, and the burst's new lines are the current text at its place.
	it('matches a plain string model over generated edits', () => {
		const edit = fc.record({ line: fc.nat(6), character: fc.nat(8), endLine: fc.nat(2), endCharacter: fc.nat(8), text: fc.constantFrom('', 'x', 'ab', '\n', 'q\nr', ' ') });
		fc.assert(
			fc.property(fc.array(edit, { maxLength: 25 }), (list) => {
				let model = 'one\ntwo three\n\nfour\n';
				const d = new TrackedDocument(uri, 'ts', 0, model);
				list.forEach((e, i) => {
					const lines = model.split('\n');
					const line = Math.min(e.line, lines.length - 1);
					const character = Math.min(e.character, lines[line]!.length);
					const endLine = Math.min(line + e.endLine, lines.length - 1);
					const endCharacter = endLine === line ? Math.max(character, Math.min(e.endCharacter, lines[endLine]!.length)) : Math.min(e.endCharacter, lines[endLine]!.length);
					const offset = (l: number, c: number) => lines.slice(0, l).reduce((n, s) => n + s.length + 1, 0) + c;
					model = model.slice(0, offset(line, character)) + e.text + model.slice(offset(endLine, endCharacter));
					d.applyChanges([{ range: { start: { line, character }, end: { line: endLine, character: endCharacter } }, text: e.text }], i + 1);
					assert.equal(d.getText(), model);
					const last = d.lastEdit;
					if (last) {
						assert.deepEqual(last.newLines, model.split('\n').slice(last.startLine, last.startLine + last.newLines.length));
					}
				});
			}),
			{ numRuns: 300 },
		);
	});
});

describe('suggestion shapes by what the client shows', () => {
	const proposal: RenameProposal = {
		kind: 'rename',
		oldName: 'sum',
		newName: 'total',
		edited: { start: { line: 5, character: 9 }, end: { line: 5, character: 14 } },
		editedDeclaration: false,
		declaration: { line: 1, character: 6 },
		complete: true,
		occurrences: [
			{ start: { line: 3, character: 4 }, end: { line: 3, character: 7 } },
			{ start: { line: 1, character: 6 }, end: { line: 1, character: 9 } },
		],
	};
	let n = 0;
	const shape = (features: typeof NO_FEATURES, p = proposal, isRejected = (_: string) => false) => toSuggestions(p, uri, { features, newId: () => `id${n++}`, isRejected });

	it('a rename at the declaration when the client shows renames and the user changed a use', () => {
		const [s, ...rest] = shape({ jump: true, rename: true, searchAndReplace: true });
		assert.deepEqual(rest, []);
		assert.ok(s?.kind === 'rename');
		assert.deepEqual([s.position, s.newName], [{ line: 1, character: 6 }, 'total']);
	});

	it('a whole-word, case-sensitive search and replace when the declaration itself was changed', () => {
		const [s] = shape({ jump: true, rename: true, searchAndReplace: true }, { ...proposal, editedDeclaration: true, declaration: undefined });
		assert.ok(s?.kind === 'searchAndReplace');
		assert.equal(s.isRegex, true);
		const re = new RegExp(s.search, 'g');
		assert.equal('sum summary Sum sum_x sum'.replace(re, s.replace), 'total summary Sum sum_x total');
	});

	it('without rename or search and replace: an edit at the nearest place, then jumps only if the client shows them', () => {
		const withJumps = shape({ jump: true, rename: false, searchAndReplace: false });
		assert.deepEqual(
			withJumps.map((s) => s.kind),
			['edit', 'jump'],
		);
		const [edit, jump] = withJumps;
		assert.ok(edit?.kind === 'edit' && jump?.kind === 'jump');
		assert.deepEqual(edit.edits, [{ range: proposal.occurrences[0], newText: 'total' }]);
		assert.deepEqual(edit.cursorPosition, { line: 3, character: 9 });
		assert.deepEqual(jump.position, { line: 1, character: 6 });
		assert.deepEqual(
			shape(NO_FEATURES).map((s) => s.kind),
			['edit'],
		);
	});

	it('a short name is renamed place by place, never in one go', () => {
		const short: RenameProposal = { ...proposal, oldName: 'i', newName: 'index' };
		assert.deepEqual(
			shape({ jump: true, rename: true, searchAndReplace: true }, short).map((s) => s.kind),
			['edit', 'jump'],
		);
	});

	it('a place rejected a moment ago is skipped; the next one is offered', () => {
		const [edit] = shape(NO_FEATURES, proposal, (place) => place === `at ${uri} 3:4`);
		assert.ok(edit?.kind === 'edit');
		assert.deepEqual(edit.edits[0]?.range.start, { line: 1, character: 6 });
	});
});

describe('SuggestionMemory', () => {
	it('remembers rejected places for its window only, and only for a real rejection', () => {
		let now = 1000;
		const memory = new SuggestionMemory(60_000, () => now);
		const at = (id: string, line: number): nes.NesSuggestion => ({ kind: 'jump', id, uri, position: { line, character: 0 } });
		memory.offer(at('a', 1));
		memory.offer(at('b', 2));
		memory.offer(at('c', 3));
		assert.equal(memory.reject('a', 'rejected'), true);
		assert.equal(memory.reject('b', 'ignored'), true);
		assert.equal(memory.reject('zzz', 'rejected'), false, 'never offered');
		assert.equal(memory.accept('c'), true);
		assert.equal(memory.isRejected(`at ${uri} 1:0`), true);
		assert.equal(memory.isRejected(`at ${uri} 2:0`), false);
		now += 60_000;
		assert.equal(memory.isRejected(`at ${uri} 1:0`), false);
		assert.deepEqual([memory.accepted, memory.rejected], [1, 1]);
	});
});

describe('NesAgent handlers', () => {
	const logs: string[] = [];
	const make = (caps: Record<string, unknown> = {}) => {
		const agent = new NesAgent({ engine: editByExampleEngine, version: '1.2.3', log: (m) => logs.push(m) });
		const init = agent.initialize({ protocolVersion: 1, clientCapabilities: { nes: caps } } as nes.InitializeRequest);
		const { sessionId } = agent.start({});
		return { agent, init, sessionId };
	};
	const never = new AbortController().signal;
	const suggest = (agent: NesAgent, sessionId: string, version: number, signal = never) =>
		agent.suggest({ sessionId, uri, version, position: { line: 1, character: 9 }, triggerKind: 'automatic' }, signal);
	const typeRename = (agent: NesAgent, sessionId: string) => {
		agent.didOpen({ sessionId, uri, languageId: 'typescript', version: 1, text: 'const sum = 1;\nreturn sum + sum;\n' });
		agent.didChange({ sessionId, uri, version: 2, contentChanges: [{ range: { start: { line: 1, character: 7 }, end: { line: 1, character: 10 } }, text: 'acc' }] });
	};

	it('declares what Agent Link’s client reads: merged revision, incremental didChange, UTF-16', () => {
		const { init } = make();
		assert.equal(init.protocolVersion, 1);
		const profile = detectNesProfile(init.agentCapabilities as Record<string, unknown>);
		assert.ok(profile?.ok);
		assert.equal(profile.profile.revision, 'merged');
		assert.equal(profile.profile.encoding, 'utf-16');
		assert.deepEqual(profile.profile.events, { didOpen: true, didChange: 'incremental', didClose: true, didSave: false, didFocus: false });
		assert.deepEqual(profile.profile.context, {});
		assert.deepEqual(init.agentCapabilities, agentCapabilities(false));
		assert.deepEqual(agentCapabilities(true).nes?.context, { relatedSnippets: {} });
	});

	it('suggests after a typed rename, in the kinds the client advertised', async () => {
		const plain = make();
		typeRename(plain.agent, plain.sessionId);
		const a = await suggest(plain.agent, plain.sessionId, 2);
		assert.deepEqual(
			a.suggestions.map((s) => s.kind),
			['edit'],
		);
		const rich = make({ jump: {}, rename: {}, searchAndReplace: {} });
		typeRename(rich.agent, rich.sessionId);
		const b = await suggest(rich.agent, rich.sessionId, 2);
		assert.deepEqual(
			b.suggestions.map((s) => s.kind),
			['rename'],
		);
	});

	it('never suggests for a document it was not told about, a closed one, or a stale version', async () => {
		const { agent, sessionId } = make();
		assert.deepEqual(await suggest(agent, sessionId, 1), { suggestions: [] });
		typeRename(agent, sessionId);
		assert.deepEqual(await suggest(agent, sessionId, 1), { suggestions: [] });
		agent.didClose({ sessionId, uri });
		assert.deepEqual(await suggest(agent, sessionId, 2), { suggestions: [] });
	});

	it('refuses an unknown session with -32602', async () => {
		const { agent } = make();
		await assert.rejects(suggest(agent, 'nope', 1), (e: unknown) => (e as { code?: number }).code === -32602);
		assert.throws(() => agent.close({ sessionId: 'nope' }), (e: unknown) => (e as { code?: number }).code === -32602);
	});

	it('waits for the version a request names, and is cancelled while it waits', async () => {
		const { agent, sessionId } = make();
		typeRename(agent, sessionId);
		const waiting = suggest(agent, sessionId, 3);
		agent.didChange({ sessionId, uri, version: 3, contentChanges: [{ range: { start: { line: 1, character: 10 }, end: { line: 1, character: 10 } }, text: 'u' }] });
		const answer = await waiting;
		assert.ok(answer.suggestions[0]?.kind === 'edit');
		assert.equal(answer.suggestions[0].edits[0]?.newText, 'accu');

		const controller = new AbortController();
		const cancelled = suggest(agent, sessionId, 9, controller.signal);
		controller.abort(Object.assign(new Error('Request cancelled'), { code: -32800 }));
		await assert.rejects(cancelled, (e: unknown) => (e as { code?: number }).code === -32800);
	});

	it('a rejected suggestion is not offered again for the same place; an accepted one is forgotten', async () => {
		const { agent, sessionId } = make();
		typeRename(agent, sessionId);
		const first = await suggest(agent, sessionId, 2);
		const id = first.suggestions[0]!.id;
		agent.reject({ sessionId, id, reason: 'rejected' });
		const second = await suggest(agent, sessionId, 2);
		assert.ok(second.suggestions[0]?.kind === 'edit' && first.suggestions[0]?.kind === 'edit');
		assert.notDeepEqual(second.suggestions[0].edits[0]?.range, first.suggestions[0].edits[0]?.range);
		agent.reject({ sessionId, id: second.suggestions[0].id });
		assert.deepEqual(await suggest(agent, sessionId, 2), { suggestions: [] }, 'both places rejected');
	});
});

describe('NesAgent under arbitrary events', () => {
	// Property: whatever changes arrive (ranges past the end, line breaks of every kind, pastes), the
	// agent never throws, and every edit it suggests lies inside its copy of the document and changes it.
	it('never throws and never suggests a no-op or a place outside the document', async () => {
		const piece = fc.constantFrom('', 'a', 'foo', 'var ', 'const ', 'x1', ' ', '\n', '\r\n', '(', ')', ', y', ';', 'é', '😀');
		const change = fc.record({
			startLine: fc.nat(12),
			startCharacter: fc.nat(30),
			lines: fc.nat(2),
			endCharacter: fc.nat(30),
			text: fc.array(piece, { maxLength: 4 }).map((p) => p.join('')),
		});
		await fc.assert(
			fc.asyncProperty(fc.array(change, { minLength: 1, maxLength: 20 }), fc.nat(12), fc.nat(30), async (changes, line, character) => {
				const agent = new NesAgent({ engine: editByExampleEngine, version: '0', log: () => {} });
				agent.initialize({ protocolVersion: 1, clientCapabilities: { nes: { jump: {} } } } as nes.InitializeRequest);
				const { sessionId } = agent.start({});
				agent.didOpen({ sessionId, uri, languageId: 'typescript', version: 1, text: 'var a = foo(x1);\nvar b = foo(x1);\nfoo + foo;\n' });
				let version = 1;
				for (const c of changes) {
					const start = { line: c.startLine, character: c.startCharacter };
					const end = { line: c.startLine + c.lines, character: c.endCharacter };
					agent.didChange({ sessionId, uri, version: ++version, contentChanges: [{ range: { start, end }, text: c.text }] });
				}
				const { suggestions } = await agent.suggest({ sessionId, uri, version, position: { line, character }, triggerKind: 'automatic' }, new AbortController().signal);
				const copy = new TrackedDocument(uri, 'ts', 0, 'var a = foo(x1);\nvar b = foo(x1);\nfoo + foo;\n');
				changes.forEach((c, i) => copy.applyChanges([{ range: { start: { line: c.startLine, character: c.startCharacter }, end: { line: c.startLine + c.lines, character: c.endCharacter } }, text: c.text }], i + 2));
				for (const s of suggestions) {
					if (s.kind !== 'edit') {
						continue;
					}
					for (const e of s.edits) {
						assert.ok(e.range.start.line < copy.lineCount && e.range.end.line < copy.lineCount);
						assert.ok(e.range.end.character <= copy.lineText(e.range.end.line).length);
						if (e.range.start.line === e.range.end.line) {
							assert.notEqual(copy.lineText(e.range.start.line).slice(e.range.start.character, e.range.end.character), e.newText);
						}
					}
				}
			}),
			{ numRuns: 300 },
		);
	});
});
