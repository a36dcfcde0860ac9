import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RequestSequencer, SuggestionLedger, type NesRejectReason } from '../../src/common/nes/lifecycle';

function recordingSink() {
	const events: string[] = [];
	return {
		events,
		sink: {
			accept: (id: string) => events.push(`accept ${id}`),
			reject: (id: string, reason: NesRejectReason) => events.push(`reject ${id} ${reason}`),
		},
	};
}

describe('SuggestionLedger', () => {
	it('reports the first outcome of a suggestion and ignores every later one', () => {
		const { events, sink } = recordingSink();
		const ledger = new SuggestionLedger(sink);
		assert.equal(ledger.register('a'), true);
		assert.equal(ledger.accept('a'), true);
		assert.equal(ledger.reject('a', 'ignored'), false);
		assert.equal(ledger.accept('a'), false);
		assert.deepEqual(events, ['accept a']);
	});

	it('reports nothing for ids it never registered', () => {
		const { events, sink } = recordingSink();
		const ledger = new SuggestionLedger(sink);
		assert.equal(ledger.reject('ghost', 'rejected'), false);
		assert.deepEqual(events, []);
	});

	it('refuses an id that is open or was settled, so a reused id never gets a second outcome', () => {
		const { events, sink } = recordingSink();
		const ledger = new SuggestionLedger(sink);
		ledger.register('a');
		assert.equal(ledger.register('a'), false);
		ledger.reject('a', 'replaced');
		assert.equal(ledger.register('a'), false);
		assert.deepEqual(events, ['reject a replaced']);
	});

	it('rejectAll settles every open suggestion with the reason, once', () => {
		const { events, sink } = recordingSink();
		const ledger = new SuggestionLedger(sink);
		for (const id of ['a', 'b', 'c']) {
			ledger.register(id);
		}
		ledger.accept('b');
		assert.equal(ledger.rejectAll('cancelled'), 2);
		assert.equal(ledger.rejectAll('ignored'), 0);
		assert.deepEqual(events, ['accept b', 'reject a cancelled', 'reject c cancelled']);
		assert.deepEqual(ledger.pending, []);
	});

	it('every registered id gets exactly one outcome whatever the order of settle calls (property)', () => {
		const reasons: NesRejectReason[] = ['rejected', 'ignored', 'replaced', 'cancelled'];
		fc.assert(
			fc.property(
				fc.array(fc.tuple(fc.integer({ min: 0, max: 5 }), fc.integer({ min: 0, max: 5 })), { maxLength: 60 }),
				(ops) => {
					const { events, sink } = recordingSink();
					const ledger = new SuggestionLedger(sink);
					const registered = new Set<string>();
					for (const [which, op] of ops) {
						const id = `s${which}`;
						if (op === 0) {
							if (ledger.register(id)) {
								registered.add(id);
							}
						} else if (op === 1) {
							ledger.accept(id);
						} else {
							ledger.reject(id, reasons[op % 4]!);
						}
					}
					ledger.rejectAll('cancelled');
					for (const id of registered) {
						assert.equal(events.filter((e) => e.split(' ')[1] === id).length, 1, `${id}: ${events.join(', ')}`);
					}
					assert.equal(events.length, registered.size);
				},
			),
		);
	});

	it('forgets the oldest settled ids after a thousand, so memory stays bounded', () => {
		const { sink } = recordingSink();
		const ledger = new SuggestionLedger(sink);
		for (let i = 0; i < 1001; i++) {
			ledger.register(`id${i}`);
			ledger.accept(`id${i}`);
		}
		assert.equal(ledger.register('id0'), true);
		assert.equal(ledger.register('id1000'), false);
	});
});

describe('RequestSequencer', () => {
	it('hands out the request it superseded so it can be cancelled', () => {
		const seq = new RequestSequencer();
		const first = seq.begin();
		assert.equal(first.superseded, undefined);
		const second = seq.begin();
		assert.equal(second.superseded, first.ticket);
		assert.equal(seq.isCurrent(first.ticket), false);
		assert.equal(seq.isCurrent(second.ticket), true);
	});

	it('a finished request supersedes nothing and is not current any more', () => {
		const seq = new RequestSequencer();
		const { ticket } = seq.begin();
		seq.finish(ticket);
		assert.equal(seq.busy, false);
		assert.equal(seq.isCurrent(ticket), false);
		assert.equal(seq.begin().superseded, undefined);
	});

	it('finishing a stale ticket leaves the current one in flight', () => {
		const seq = new RequestSequencer();
		const old = seq.begin().ticket;
		const current = seq.begin().ticket;
		seq.finish(old);
		assert.equal(seq.isCurrent(current), true);
	});

	it('reset makes everything stale and returns what was in flight', () => {
		const seq = new RequestSequencer();
		const { ticket } = seq.begin();
		assert.equal(seq.reset(), ticket);
		assert.equal(seq.isCurrent(ticket), false);
		assert.equal(seq.reset(), undefined);
	});
});
