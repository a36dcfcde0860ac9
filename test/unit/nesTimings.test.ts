// The benchmarks' timings of the last answered request (src/common/nes/timings.ts): each answer
// starts afresh with the last change's time; a late "presented" for an older answer, a second
// offer, or any mark before the first answer changes nothing.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TimingsRecorder } from '../../src/common/nes/timings';

describe('TimingsRecorder', () => {
	it('nothing is recorded before an answer', () => {
		const t = new TimingsRecorder();
		t.changed(1);
		t.shown(2);
		t.offered(3);
		t.presented(4, 5);
		assert.equal(t.last, undefined);
	});
	it('an answer with the last change, then presented, shown and the first offer', () => {
		const t = new TimingsRecorder();
		t.changed(10);
		t.answered('automatic', 20, 3, 50);
		t.shown(55);
		t.presented(50, 60);
		t.offered(70);
		t.offered(90);
		assert.deepEqual(t.last, { kind: 'automatic', changedAt: 10, startedAt: 20, buildMs: 3, answeredAt: 50, presentMs: 10, shownAt: 55, offeredAt: 70 });
	});
	it('a newer answer replaces the record; the older one being presented does not touch it', () => {
		const t = new TimingsRecorder();
		t.answered('manual', 0, 1, 10);
		t.changed(15);
		t.answered('diagnostic', 20, 2, 30);
		t.presented(10, 40);
		assert.deepEqual(t.last, { kind: 'diagnostic', changedAt: 15, startedAt: 20, buildMs: 2, answeredAt: 30 });
	});
});
