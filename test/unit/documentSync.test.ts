// The shadow document against a naive full-text reference, and the document-sync core against
// an independent mirror that applies what it sends (every encoding, both sync kinds), plus the
// open/close pairing, declared-events-only and size-limit rules.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { DocumentSyncCore, copyContentChanges, type ContentChange, type DocumentSyncOptions } from '../../src/common/nes/documentSyncCore';
import type { NesEventName, NesProfile, SyncKind } from '../../src/common/nes/protocol';
import { ShadowDocument } from '../../src/common/nes/shadowDocument';
import type { PositionEncoding, Range } from '../../src/common/positionEncoding';

const ENCODINGS: readonly PositionEncoding[] = ['utf-16', 'utf-8', 'utf-32'];

const piece = fc.oneof(
	{ weight: 6, arbitrary: fc.constantFrom('a', 'b', 'x', ' ', '\t', '(', ')') },
	{ weight: 2, arbitrary: fc.constantFrom('\n', '\r\n', '\r') },
	{ weight: 2, arbitrary: fc.constantFrom('é', '中', '😀', '👍🏽', 'e\u0301', '\u0308', '𝄞') },
);
const text = fc.string({ unit: piece, maxLength: 40 });

/** Offsets where a line starts, and each line's end before its break (`\r\n`, `\r`, `\n`). */
function lines(t: string): { start: number; end: number }[] {
	const result: { start: number; end: number }[] = [];
	const re = /\r\n|\r|\n/g;
	let from = 0;
	for (let m = re.exec(t); m; m = re.exec(t)) {
		result.push({ start: from, end: m.index });
		from = m.index + m[0].length;
	}
	result.push({ start: from, end: t.length });
	return result;
}

function positionAt(t: string, offset: number): { line: number; character: number } {
	const ls = lines(t);
	for (let i = ls.length - 1; i >= 0; i--) {
		if (ls[i]!.start <= offset) {
			return { line: i, character: Math.min(offset, ls[i]!.end) - ls[i]!.start };
		}
	}
	return { line: 0, character: 0 };
}

const isHigh = (c: number) => c >= 0xd800 && c <= 0xdbff;

/** A random change on `t` as VS Code makes them: a range between character boundaries (never inside `\r\n` or a surrogate pair). */
function randomChange(t: string, seed: readonly number[], insert: string): ContentChange & { start: number; end: number } {
	const valid: number[] = [];
	for (let i = 0; i <= t.length; i++) {
		const splitsPair = i > 0 && isHigh(t.charCodeAt(i - 1));
		const splitsCrlf = i > 0 && t[i - 1] === '\r' && t[i] === '\n';
		if (!splitsPair && !splitsCrlf) {
			valid.push(i);
		}
	}
	const a = valid[seed[0]! % valid.length]!;
	const b = valid[seed[1]! % valid.length]!;
	const [start, end] = a <= b ? [a, b] : [b, a];
	return { range: { start: positionAt(t, start), end: positionAt(t, end) }, rangeLength: end - start, text: insert, start, end };
}

describe('ShadowDocument', () => {
	it('applies changes exactly as the full-text reference does, line breaks of every kind', () => {
		fc.assert(
			fc.property(text, fc.array(fc.tuple(fc.tuple(fc.nat(), fc.nat()), text), { maxLength: 12 }), (initial, edits) => {
				const shadow = new ShadowDocument(initial);
				let reference = initial;
				for (const [seed, insert] of edits) {
					const change = randomChange(reference, seed, insert);
					shadow.apply(change.range, change.text);
					reference = reference.slice(0, change.start) + insert + reference.slice(change.end);
					assert.equal(shadow.getText(), reference);
					const ls = lines(reference);
					assert.equal(shadow.lineCount, ls.length);
					ls.forEach((l, i) => assert.equal(shadow.lineText(i), reference.slice(l.start, l.end)));
				}
			}),
			{ numRuns: 3000 },
		);
	});

	it('joins a lone \\r and an inserted or uncovered \\n into one line break', () => {
		const shadow = new ShadowDocument('a\rX\nb');
		shadow.apply({ start: { line: 1, character: 0 }, end: { line: 1, character: 1 } }, '');
		assert.equal(shadow.getText(), 'a\r\nb');
		assert.equal(shadow.lineCount, 2);
		const other = new ShadowDocument('a\rb');
		other.apply({ start: { line: 1, character: 0 }, end: { line: 1, character: 0 } }, '\nc');
		assert.deepEqual([other.lineCount, other.lineText(0), other.lineText(1)], [2, 'a', 'cb']);
	});

	it('takes a paste of 100 000 lines', () => {
		const shadow = new ShadowDocument('start\nend');
		shadow.apply({ start: { line: 0, character: 5 }, end: { line: 0, character: 5 } }, '\nline'.repeat(100_000));
		assert.equal(shadow.lineCount, 100_002);
		assert.equal(shadow.lineText(100_001), 'end');
	});
});

/** UTF-16 offset of an agent position, by Node's encoders (independent of src/common/positionEncoding). */
function agentOffset(t: string, position: { line: number; character: number }, encoding: PositionEncoding): number {
	const l = lines(t)[position.line];
	assert.ok(l, `line ${position.line} exists`);
	const lineText = t.slice(l.start, l.end);
	for (let i = 0; i <= lineText.length; i++) {
		const prefix = lineText.slice(0, i);
		const size = encoding === 'utf-16' ? i : encoding === 'utf-8' ? Buffer.byteLength(prefix) : [...prefix].length;
		if (size === position.character && !(i > 0 && isHigh(lineText.charCodeAt(i - 1)))) {
			return l.start + i;
		}
	}
	assert.fail(`character ${position.character} is not on a boundary of ${JSON.stringify(lineText)}`);
}

interface Sent {
	readonly event: NesEventName;
	readonly params: Record<string, unknown>;
}

function core(overrides: Partial<Omit<DocumentSyncOptions, 'events'>> & { events?: Partial<NesProfile['events']> } = {}): { core: DocumentSyncCore; sent: Sent[]; logs: string[] } {
	const sent: Sent[] = [];
	const logs: string[] = [];
	const events = { didOpen: true, didChange: 'incremental' as SyncKind | undefined, didClose: true, didSave: true, didFocus: true, ...overrides.events };
	const c = new DocumentSyncCore({
		encoding: 'utf-16',
		maxFileBytes: 1024 * 1024,
		byteLength: (s) => Buffer.byteLength(s),
		send: (event, params) => sent.push({ event, params: JSON.parse(JSON.stringify(params)) as Record<string, unknown> }),
		log: (m) => logs.push(m),
		...overrides,
		events,
	});
	return { core: c, sent, logs };
}

describe('DocumentSyncCore', () => {
	for (const encoding of ENCODINGS) {
		for (const kind of ['incremental', 'full'] as const) {
			it(`a mirror applying what it is sent stays equal to the document (${kind}, ${encoding})`, () => {
				fc.assert(
					fc.property(text, fc.array(fc.array(fc.tuple(fc.tuple(fc.nat(), fc.nat()), text), { minLength: 1, maxLength: 4 }), { maxLength: 10 }), (initial, events) => {
						const { core: c, sent } = core({ encoding, events: { didChange: kind } });
						let doc = initial;
						let version = 1;
						c.didOpen('file:///a', 'plaintext', version, () => doc);
						let mirror = (sent[0]!.params as { text: string }).text;
						for (const event of events) {
							// Each change of an event applies to the text the previous one left.
							const changes: ContentChange[] = [];
							for (const [seed, insert] of event) {
								const change = randomChange(doc, seed, insert);
								changes.push({ range: change.range, rangeLength: change.rangeLength, text: change.text });
								doc = doc.slice(0, change.start) + insert + doc.slice(change.end);
							}
							c.didChange('file:///a', ++version, changes, () => doc);
							const message = sent.at(-1)!;
							assert.equal(message.event, 'didChange');
							assert.equal(message.params.version, version);
							for (const change of message.params.contentChanges as { range?: Range; text: string }[]) {
								if (kind === 'full') {
									assert.equal(change.range, undefined);
									mirror = change.text;
								} else {
									const start = agentOffset(mirror, change.range!.start, encoding);
									const end = agentOffset(mirror, change.range!.end, encoding);
									mirror = mirror.slice(0, start) + change.text + mirror.slice(end);
								}
							}
							assert.equal(mirror, doc);
						}
						assert.equal(c.hasShadow('file:///a'), kind === 'incremental' && encoding !== 'utf-16');
					}),
					{ numRuns: 300 },
				);
			});
		}
	}

	it('copies editor changes into plain objects that serialize as ranges', () => {
		// VS Code's Range serializes to [start, end]; the copy must not.
		class VsPosition {
			constructor(
				readonly line: number,
				readonly character: number,
			) {}
		}
		class VsRange {
			constructor(
				readonly start: VsPosition,
				readonly end: VsPosition,
			) {}
			toJSON() {
				return [this.start, this.end];
			}
		}
		const changes = [{ range: new VsRange(new VsPosition(1, 2), new VsPosition(3, 4)), rangeOffset: 9, rangeLength: 5, text: 'x' }];
		const copy = copyContentChanges(changes);
		changes.length = 0;
		assert.equal(JSON.stringify(copy), '[{"range":{"start":{"line":1,"character":2},"end":{"line":3,"character":4}},"rangeLength":5,"text":"x"}]');
	});

	it('sends nothing for a document it was not told about, or after its close', () => {
		const { core: c, sent } = core();
		const change: ContentChange = { range: { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, rangeLength: 0, text: 'x' };
		c.didChange('file:///never', 2, [change], () => 'x');
		c.didSave('file:///never');
		c.didFocus('file:///never', 2, { line: 0, character: 0 }, { start: { line: 0, character: 0 }, end: { line: 0, character: 0 } }, { lineCount: 1, lineText: () => 'x' });
		c.didClose('file:///never');
		assert.equal(sent.length, 0);
		c.didOpen('file:///a', 'plaintext', 1, () => '');
		c.didClose('file:///a');
		c.didChange('file:///a', 2, [change], () => 'x');
		c.didSave('file:///a');
		assert.deepEqual(
			sent.map((s) => s.event),
			['didOpen', 'didClose'],
		);
	});

	it('builds and sends only the events the agent declared', () => {
		const { core: c, sent } = core({ encoding: 'utf-8', events: { didOpen: true, didChange: undefined, didClose: false, didSave: false, didFocus: false } });
		c.didOpen('file:///a', 'plaintext', 1, () => 'é');
		c.didChange('file:///a', 2, [{ range: { start: { line: 0, character: 1 }, end: { line: 0, character: 1 } }, rangeLength: 0, text: 'x' }], () => 'éx');
		c.didSave('file:///a');
		c.didFocus('file:///a', 2, { line: 0, character: 2 }, { start: { line: 0, character: 0 }, end: { line: 0, character: 2 } }, { lineCount: 1, lineText: () => 'éx' });
		c.didClose('file:///a');
		assert.deepEqual(
			sent.map((s) => s.event),
			['didOpen'],
		);
		assert.equal(c.hasShadow('file:///a'), false, 'no shadow copy without incremental didChange');
	});

	it('converts didFocus positions to the agent encoding', () => {
		const { core: c, sent } = core({ encoding: 'utf-8' });
		c.didOpen('file:///a', 'plaintext', 3, () => 'a😀b\nc');
		c.didFocus('file:///a', 3, { line: 0, character: 3 }, { start: { line: 0, character: 0 }, end: { line: 1, character: 1 } }, { lineCount: 2, lineText: (l) => ['a😀b', 'c'][l]! });
		assert.deepEqual(sent.at(-1), {
			event: 'didFocus',
			params: { uri: 'file:///a', version: 3, position: { line: 0, character: 5 }, visibleRange: { start: { line: 0, character: 0 }, end: { line: 1, character: 1 } } },
		});
	});

	it('leaves out documents over the size limit, closes one that grows past it, and says so once', () => {
		const { core: c, sent, logs } = core({ maxFileBytes: 10 });
		c.didOpen('file:///big', 'plaintext', 1, () => 'x'.repeat(11));
		c.didOpen('file:///big', 'plaintext', 1, () => 'x'.repeat(11));
		assert.equal(logs.length, 1);
		assert.match(logs[0]!, /file:\/\/\/big is 0\.00 MiB, over agentLink\.nes\.maxFileSize/);
		let doc = 'é'.repeat(4); // 8 bytes, 4 UTF-16 units
		c.didOpen('file:///grows', 'plaintext', 1, () => doc);
		// Deleting 2 units of 2-byte characters: the estimate says ≤ 10, so no measuring.
		const at = (character: number) => ({ line: 0, character });
		doc = 'éé';
		c.didChange('file:///grows', 2, [{ range: { start: at(0), end: at(2) }, rangeLength: 2, text: '' }], () => assert.fail('no need to measure'));
		doc = 'ééxxxxxx'; // 10 bytes: the estimate (12) passes the limit, the exact size does not
		c.didChange('file:///grows', 3, [{ range: { start: at(2), end: at(2) }, rangeLength: 0, text: 'xxxxxx' }], () => doc);
		doc = 'ééxxxxxxx'; // 11 bytes
		c.didChange('file:///grows', 4, [{ range: { start: at(8), end: at(8) }, rangeLength: 0, text: 'x' }], () => doc);
		c.didChange('file:///grows', 5, [{ range: { start: at(0), end: at(9) }, rangeLength: 9, text: '' }], () => '');
		c.didOpen('file:///grows', 'plaintext', 5, () => '');
		assert.deepEqual(
			sent.map((s) => `${s.event} ${String(s.params.version ?? '')}`),
			['didOpen 1', 'didChange 2', 'didChange 3', 'didClose '],
		);
		assert.equal(logs.length, 2);
		assert.match(logs[1]!, /file:\/\/\/grows grew to 0\.00 MiB, over agentLink\.nes\.maxFileSize .*closed for the NES agent until the editor reopens it/);
		// Reopened by the editor (now small): back in, and not logged again if it grows once more.
		c.didClose('file:///grows');
		c.didOpen('file:///grows', 'plaintext', 6, () => '');
		c.didChange('file:///grows', 7, [{ range: { start: at(0), end: at(0) }, rangeLength: 0, text: 'x'.repeat(20) }], () => 'x'.repeat(20));
		assert.deepEqual(
			sent.slice(4).map((s) => s.event),
			['didOpen', 'didClose'],
		);
		assert.equal(logs.length, 2);
	});
});
