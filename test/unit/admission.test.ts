import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { RequestAdmission } from '../../src/common/admission';

function gate(limit: number) {
	const delivered: string[] = [];
	const cancelled: (string | number)[] = [];
	const admission = new RequestAdmission<string>({ deliver: (m) => delivered.push(m), cancelled: (id) => cancelled.push(id) }, limit);
	return { admission, delivered, cancelled };
}

describe('RequestAdmission', () => {
	it('hands requests on until the limit, then holds the rest until answers are written', () => {
		const { admission, delivered } = gate(2);
		admission.request(1, 'r1');
		admission.request(2, 'r2');
		admission.request(3, 'r3');
		assert.deepEqual(delivered, ['r1', 'r2']);
		assert.equal(admission.queued, 1);
		admission.answered(2);
		assert.deepEqual(delivered, ['r1', 'r2', 'r3']);
		assert.equal(admission.handling, 2);
	});

	it('keeps notifications in order behind waiting requests, and passes them at once otherwise', () => {
		const { admission, delivered } = gate(1);
		admission.notification('n0');
		admission.request('a', 'ra');
		admission.request('b', 'rb');
		admission.notification('n1');
		assert.deepEqual(delivered, ['n0', 'ra']);
		admission.answered('a');
		assert.deepEqual(delivered, ['n0', 'ra', 'rb', 'n1']);
	});

	it('answers a waiting request as cancelled and never hands it on', () => {
		const { admission, delivered, cancelled } = gate(1);
		admission.request(1, 'r1');
		admission.request(2, 'r2');
		admission.request(3, 'r3');
		assert.equal(admission.cancel(2), true);
		assert.equal(admission.cancel(1), false, 'a request being handled is the dispatcher’s to cancel');
		assert.deepEqual(cancelled, [2]);
		admission.answered(1);
		assert.deepEqual(delivered, ['r1', 'r3']);
	});

	it('lets notifications through that only waited behind a request that was then cancelled', () => {
		const { admission, delivered } = gate(1);
		admission.request(0, 'r0');
		admission.request(1, 'r1');
		admission.notification('n2');
		assert.equal(admission.cancel(1), true);
		assert.deepEqual(delivered, ['r0', 'n2']);
	});

	it('counts the bytes of the lines waiting, until they are handed on, cancelled or dropped', () => {
		const { admission } = gate(1);
		admission.request(1, 'r1', 100);
		assert.equal(admission.queuedBytes, 0, 'handed on at once: not waiting');
		admission.request(2, 'r2', 200);
		admission.notification('n', 30);
		admission.request(3, 'r3', 400);
		assert.equal(admission.queuedBytes, 630);
		admission.cancel(3);
		assert.equal(admission.queuedBytes, 230);
		admission.answered(1);
		assert.equal(admission.queuedBytes, 0, 'r2 handed on, and the notification after it');
		admission.request(4, 'r4', 50);
		admission.clear();
		assert.equal(admission.queuedBytes, 0);
	});

	it('frees nothing for answers to requests it never handed on, and counts reused ids', () => {
		const { admission, delivered } = gate(2);
		admission.request(7, 'first 7');
		admission.request(7, 'second 7');
		admission.request(8, 'r8');
		admission.answered(99);
		assert.deepEqual(delivered, ['first 7', 'second 7']);
		admission.answered(7);
		admission.answered(7);
		assert.deepEqual(delivered, ['first 7', 'second 7', 'r8']);
		assert.equal(admission.handling, 1);
	});

	it('delivers every message exactly once, in order, never more than the limit at once (property)', () => {
		type Op = { kind: 'request' } | { kind: 'notification' } | { kind: 'answer'; pick: number } | { kind: 'cancel'; pick: number };
		const op: fc.Arbitrary<Op> = fc.oneof(
			fc.constant({ kind: 'request' as const }),
			fc.constant({ kind: 'notification' as const }),
			fc.nat().map((pick) => ({ kind: 'answer' as const, pick })),
			fc.nat().map((pick) => ({ kind: 'cancel' as const, pick })),
		);
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 5 }), fc.array(op, { maxLength: 200 }), (limit, ops) => {
				const { admission, delivered, cancelled } = gate(limit);
				const active: number[] = [];
				const sent: string[] = [];
				let next = 0;
				for (const o of ops) {
					if (o.kind === 'request') {
						const id = next++;
						sent.push(`r${id}`);
						const before = delivered.length;
						admission.request(id, `r${id}`);
						if (delivered.length > before) {
							active.push(id);
						}
					} else if (o.kind === 'notification') {
						const n = `n${next++}`;
						sent.push(n);
						admission.notification(n);
					} else if (o.kind === 'answer' && active.length > 0) {
						const [id] = active.splice(o.pick % active.length, 1);
						const before = delivered.length;
						admission.answered(id!);
						for (const m of delivered.slice(before)) {
							if (m.startsWith('r')) {
								active.push(Number(m.slice(1)));
							}
						}
					} else if (o.kind === 'cancel' && next > 0) {
						admission.cancel(o.pick % next);
					}
					assert.ok(admission.handling <= limit);
					assert.equal(admission.handling, active.length);
				}
				// In order, each once; cancelled requests never delivered.
				const expected = sent.filter((m) => !cancelled.includes(Number(m.slice(1))) || m.startsWith('n'));
				const notYet = expected.slice(delivered.length);
				assert.deepEqual(delivered, expected.slice(0, delivered.length));
				assert.equal(notYet.length, admission.queued);
				// Nothing waits that could go: what waits is a request, and every place is taken.
				assert.ok(notYet.length === 0 || (admission.handling === limit && notYet[0]!.startsWith('r')), `waiting: ${notYet.join()}`);
			}),
			{ numRuns: 2000 },
		);
	});
});
