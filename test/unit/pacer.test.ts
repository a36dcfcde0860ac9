import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Pacer } from '../../src/common/pacer';

/** A pacer on a fake clock: each item handled takes `costMs`; slices run when the test says. */
function paced(options: { sliceMs?: number; highWaterBytes?: number; maxHeldBytes?: number; costMs?: number; onHandle?: (item: string) => void } = {}) {
	let now = 0;
	const slices: (() => void)[] = [];
	const handled: string[] = [];
	const flow: string[] = [];
	const pacer = new Pacer<string>(
		{
			handle: (item) => {
				handled.push(item);
				now += options.costMs ?? 1;
				options.onHandle?.(item);
			},
			pause: () => flow.push('pause'),
			resume: () => flow.push('resume'),
		},
		{ sliceMs: options.sliceMs ?? 10, highWaterBytes: options.highWaterBytes ?? 1000, maxHeldBytes: options.maxHeldBytes, now: () => now, schedule: (slice) => void slices.push(slice) },
	);
	/** Runs the next scheduled slice; returns the items it handled. */
	const runSlice = () => {
		const before = handled.length;
		slices.shift()!();
		return handled.slice(before);
	};
	return { pacer, handled, flow, slices, runSlice };
}

describe('Pacer', () => {
	it('handles queued items in slices of the given time, one macrotask each, in order', () => {
		const { pacer, slices, runSlice } = paced({ sliceMs: 10, costMs: 3 });
		for (let i = 0; i < 10; i++) {
			pacer.push(`line ${i}`, 10);
		}
		assert.equal(slices.length, 1, 'one slice scheduled, not one per item');
		assert.deepEqual(runSlice(), ['line 0', 'line 1', 'line 2', 'line 3'], 'items until the slice has used its time');
		assert.equal(slices.length, 1, 'the next slice scheduled');
		assert.deepEqual(runSlice(), ['line 4', 'line 5', 'line 6', 'line 7']);
		assert.deepEqual(runSlice(), ['line 8', 'line 9']);
		assert.equal(slices.length, 0, 'nothing left: no slice scheduled');
		assert.equal(pacer.length, 0);
	});

	it('pauses the source when the bytes queued reach the high water mark, and resumes it at a quarter', () => {
		const { pacer, flow, runSlice } = paced({ sliceMs: 10, costMs: 1, highWaterBytes: 1000 });
		for (let i = 0; i < 20; i++) {
			pacer.push(`line ${i}`, 100);
		}
		assert.deepEqual(flow, ['pause'], 'paused once, at 1 000 bytes');
		assert.equal(pacer.isPaused, true);
		runSlice();
		assert.equal(pacer.bytes, 1000, 'ten handled, ten left: still above a quarter');
		assert.deepEqual(flow, ['pause']);
		runSlice();
		assert.equal(pacer.bytes, 0);
		assert.deepEqual(flow, ['pause', 'resume']);
		assert.equal(pacer.isPaused, false);
	});

	it('does deferred work first in the next slice, and ends a slice early when asked to yield', () => {
		const { pacer, handled, runSlice } = paced({ sliceMs: 100, onHandle: (item) => item === 'yield' && pacer.yieldSlice() });
		pacer.push('a', 1);
		pacer.push('yield', 1);
		pacer.push('b', 1);
		pacer.defer(() => handled.push('deferred'));
		assert.deepEqual(runSlice(), ['deferred', 'a', 'yield']);
		assert.equal(pacer.inSlice, false);
		assert.deepEqual(runSlice(), ['b']);
	});

	it('handles no more items while more than maxHeldBytes of those handled wait elsewhere, deferred work still', () => {
		const { pacer, handled, slices, runSlice } = paced({ sliceMs: 100, maxHeldBytes: 500, onHandle: (item) => item === 'a' && pacer.hold(600) });
		pacer.push('a', 1);
		pacer.push('b', 1);
		assert.deepEqual(runSlice(), ['a'], 'b waits: 600 bytes held');
		assert.equal(slices.length, 0, 'no slice scheduled while held');
		pacer.defer(() => handled.push('deferred'));
		assert.deepEqual(runSlice(), ['deferred']);
		pacer.hold(100);
		assert.deepEqual(runSlice(), ['b'], 'woken once under the bound');
	});

	it('drops everything and handles nothing more once stopped', () => {
		const { pacer, handled, slices } = paced();
		pacer.push('a', 1);
		pacer.stop();
		pacer.push('b', 1);
		slices.shift()?.();
		assert.deepEqual(handled, []);
		assert.equal(pacer.length, 0);
	});
});
