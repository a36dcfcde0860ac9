import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BudgetQueue } from '../../src/webview/chat/budgetQueue';
import { entryDistances, HeightEstimate, outward, ScrollPace } from '../../src/webview/chat/nearness';

/** A clock the work moves on: each item of work takes `cost(key)` milliseconds. */
function clocked<K>(cost: (key: K) => number): { queue: BudgetQueue<K>; work: (key: K) => void; ran: K[] } {
	let now = 0;
	const ran: K[] = [];
	return {
		queue: new BudgetQueue<K>(() => now),
		ran,
		work: (key) => {
			ran.push(key);
			now += cost(key);
		},
	};
}

describe('drawing a long transcript a slice at a time (src/webview/chat/budgetQueue.ts)', () => {
	it('runs the lowest priority first, the earlier added on a tie, until the budget is spent', () => {
		const { queue, work, ran } = clocked<string>(() => 2);
		queue.set('far', 900);
		queue.set('near', 10);
		queue.set('on screen', 0);
		queue.set('also near', 10);
		assert.equal(queue.run(5, work), 3);
		assert.deepEqual(ran, ['on screen', 'near', 'also near']);
		assert.equal(queue.size, 1);
		assert.equal(queue.run(5, work), 1);
		assert.deepEqual(ran.at(-1), 'far');
		assert.equal(queue.size, 0);
	});

	it('always runs one, however long it takes, so the queue moves', () => {
		const { queue, work, ran } = clocked<number>(() => 50);
		queue.set(1, 1);
		queue.set(2, 2);
		assert.equal(queue.run(5, work), 1);
		assert.deepEqual(ran, [1]);
		assert.equal(queue.run(5, work), 1);
		assert.deepEqual(ran, [1, 2]);
	});

	it('takes the latest priority, and skips what the work dropped or queued again meanwhile', () => {
		const { queue, ran } = clocked<string>(() => 0);
		queue.set('a', 5);
		queue.set('b', 1);
		queue.set('a', 0); // came nearer
		queue.set('c', 2);
		queue.set('d', 3);
		queue.run(100, (key) => {
			ran.push(key);
			if (key === 'b') {
				queue.delete('c'); // drawn by the work on b
				queue.set('b', -1); // not finished: again, first, in the next slice
			}
		});
		assert.deepEqual(ran, ['a', 'b', 'd']);
		assert.equal(queue.size, 1);
		queue.run(100, (key) => ran.push(key));
		assert.deepEqual(ran.at(-1), 'b');
	});

	it('never runs past its budget by more than one item, and runs each key once', () => {
		fc.assert(
			fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 30 }), fc.integer({ min: 0, max: 10 })), { maxLength: 40 }), fc.integer({ min: 1, max: 20 }), (items, budget) => {
				const costs = new Map(items.map(([priority, cost], i) => [i, { priority, cost }]));
				const { queue, work, ran } = clocked<number>((key) => costs.get(key)!.cost);
				costs.forEach(({ priority }, key) => queue.set(key, priority));
				let slices = 0;
				while (queue.size > 0) {
					const before = ran.length;
					queue.run(budget, work);
					const spent = ran.slice(before).map((k) => costs.get(k)!.cost);
					assert.ok(spent.length >= 1);
					assert.ok(spent.slice(0, -1).reduce((a, b) => a + b, 0) < budget, 'only the last item may cross the budget');
					slices++;
				}
				assert.deepEqual([...ran].sort((a, b) => a - b), [...costs.keys()]);
				// Lowest priority first across the slices too.
				const priorities = ran.map((k) => costs.get(k)!.priority);
				assert.deepEqual(priorities, [...priorities].sort((a, b) => a - b));
				assert.ok(slices <= costs.size);
			}),
		);
	});
});

describe('how near the screen entries are (src/webview/chat/nearness.ts)', () => {
	it('spreads a group\'s entries over its box and measures each from the screen', () => {
		// A group of 4 entries from 0 to 400 px; the screen from 150 to 250 px.
		assert.deepEqual(entryDistances(0, 400, 4, 150, 250), [50, 0, 0, 50]);
		// Below the screen: the first entry is the nearest.
		assert.deepEqual(entryDistances(1000, 1300, 3, 0, 800), [200, 300, 400]);
		// Above it: the last.
		assert.deepEqual(entryDistances(-1300, -1000, 3, 0, 800), [1200, 1100, 1000]);
		assert.deepEqual(entryDistances(0, 100, 0, 0, 800), []);
	});

	it('orders groups from one outwards, the one after it before the one before', () => {
		assert.deepEqual(outward(5, 2), [2, 3, 1, 4, 0]);
		assert.deepEqual(outward(5, 4), [4, 3, 2, 1, 0]);
		assert.deepEqual(outward(3, 0), [0, 1, 2]);
		assert.deepEqual(outward(4, 99), [3, 2, 1, 0]);
		assert.deepEqual(outward(0, 0), []);
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 60 }), fc.integer({ min: -5, max: 70 }), (length, center) => {
				const order = outward(length, center);
				assert.deepEqual([...order].sort((a, b) => a - b), Array.from({ length }, (_, i) => i));
				const start = order[0]!;
				const steps = order.map((i) => Math.abs(i - start));
				assert.deepEqual(steps, [...steps].sort((a, b) => a - b), 'never farther before nearer');
			}),
		);
	});

	it('estimates the height of entries not drawn from those measured, a group measured again replacing itself', () => {
		const heights = new HeightEstimate(60, 10);
		assert.equal(heights.estimate(1), 60, 'the placeholder height before any is measured');
		assert.equal(heights.estimate(20), 20 * 70 - 10);
		assert.equal(heights.estimate(0), 0);
		// 20 entries of 110 px with 10 px between them.
		heights.measure(7, 20, 20 * 110 + 19 * 10);
		assert.equal(heights.estimate(20), 20 * 110 + 19 * 10);
		assert.equal(heights.estimate(3), 3 * 110 + 2 * 10);
		// A second group of 10 entries of 50 px: the mean pitch is (20 * 120 + 10 * 60) / 30 = 100.
		heights.measure(8, 10, 10 * 50 + 9 * 10);
		assert.equal(heights.estimate(30), 30 * 100 - 10);
		// The first group measured again, taller: it replaces its own figure.
		heights.measure(7, 20, 20 * 170 + 19 * 10);
		assert.equal(heights.estimate(30), (20 * 180 + 10 * 60) - 10);
		heights.forget(7);
		heights.forget(8);
		assert.equal(heights.estimate(1), 60);
		heights.measure(9, 0, 0);
		assert.equal(heights.estimate(1), 60, 'an empty measure changes nothing');
	});
});

describe('holding the drawing back while the user flings through a chat (src/webview/chat/nearness.ts: ScrollPace)', () => {
	const FRAME = 1000 / 60;

	it('draws at once at a reading pace, and while a fling lasts waits until 100 ms after its last scroll', () => {
		const pace = new ScrollPace();
		pace.scrolled(0, 600, 0);
		assert.equal(pace.waitMs(1), 0, 'one scroll says nothing of a pace');
		pace.scrolled(40, 600, FRAME);
		assert.equal(pace.waitMs(FRAME + 1), 0, 'a wheel at 40 px a frame');
		pace.scrolled(340, 600, 2 * FRAME);
		assert.equal(Math.round(pace.waitMs(2 * FRAME)), 100, 'half a screen a frame is a fling');
		pace.scrolled(940, 600, 3 * FRAME);
		assert.equal(Math.round(pace.waitMs(3 * FRAME + 30)), 70);
		assert.equal(pace.waitMs(3 * FRAME + 100), 0, 'over once no scroll came for 100 ms');
		pace.scrolled(980, 600, 3 * FRAME + 150);
		assert.equal(pace.waitMs(3 * FRAME + 151), 0, 'the first scroll after a pause starts a new pace');
	});

	it('takes scroll events of one frame together, and a slow drag of a long way as slow', () => {
		const pace = new ScrollPace();
		pace.scrolled(0, 600, 0);
		pace.scrolled(200, 600, 1);
		assert.equal(pace.waitMs(1), 0, '200 px within a frame is 200 px a frame');
		pace.scrolled(500, 600, 2);
		assert.ok(pace.waitMs(2) > 0, '300 px within a frame');
		pace.scrolled(800, 600, 82);
		assert.equal(pace.waitMs(82), 0, '300 px in 80 ms is about 63 px a frame');
	});

	it('does not take the page following the end of a chat for a fling', () => {
		const pace = new ScrollPace();
		pace.scrolled(0, 600, 0);
		pace.scrolled(50_000, 600, FRAME, false);
		assert.equal(pace.waitMs(FRAME), 0);
		pace.scrolled(50_010, 600, 2 * FRAME);
		assert.equal(pace.waitMs(2 * FRAME), 0);
	});

	it('holds nothing back for a pace of any size below half a screen a frame (property)', () => {
		fc.assert(
			fc.property(fc.integer({ min: 100, max: 2000 }), fc.array(fc.double({ min: 0, max: 0.49, noNaN: true }), { maxLength: 30 }), (view, steps) => {
				const pace = new ScrollPace();
				let top = 0;
				let now = 0;
				pace.scrolled(top, view, now);
				for (const step of steps) {
					now += FRAME;
					top += step * view;
					pace.scrolled(top, view, now);
					assert.equal(pace.waitMs(now), 0);
				}
			}),
		);
	});
});
