import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Logger } from '../../src/common/log';
import { LimitedLog, RateLimiter, describeSuppressed, type Suppressed, type TimerHandle } from '../../src/common/rateLimit';
import { RecentLog } from '../../src/common/recentLog';

/** A clock and timers that move only when the test says so. */
class FakeTime {
	now = 0;
	private timers: { at: number; callback: () => void; live: boolean }[] = [];

	readonly setTimer = (callback: () => void, ms: number): TimerHandle => {
		const timer = { at: this.now + ms, callback, live: true };
		this.timers.push(timer);
		return { dispose: () => void (timer.live = false) };
	};

	get pending(): number {
		return this.timers.filter((t) => t.live).length;
	}

	advance(ms: number): void {
		const until = this.now + ms;
		for (;;) {
			const due = this.timers.filter((t) => t.live && t.at <= until).sort((x, y) => x.at - y.at)[0];
			if (!due) {
				break;
			}
			this.now = due.at;
			due.live = false;
			due.callback();
		}
		this.now = until;
	}
}

const notJson = { what: 'lines that are not JSON' };
const badResponse = { what: 'bad responses' };

function limiter(options: { burst?: number; windowMs?: number } = {}) {
	const time = new FakeTime();
	const summaries: Suppressed<typeof notJson>[] = [];
	const limit = new RateLimiter((s) => summaries.push(s), { ...options, now: () => time.now, setTimer: time.setTimer });
	return { time, summaries, limit };
}

describe('RateLimiter', () => {
	it('lets the first few of a kind through, counts the rest, and sums them up when the window ends', () => {
		const { time, summaries, limit } = limiter({ burst: 3, windowMs: 1000 });
		const admitted = Array.from({ length: 10 }, () => limit.admit(notJson));
		assert.deepEqual(admitted, [true, true, true, false, false, false, false, false, false, false]);
		assert.deepEqual(summaries, []);
		time.advance(999);
		assert.deepEqual(summaries, []);
		time.advance(1);
		assert.deepEqual(summaries, [{ kind: notJson, suppressed: 7, spanMs: 1000, burst: 3, windowMs: 1000 }]);
		assert.equal(time.pending, 0);
	});

	it('limits each kind on its own: a flood of one never hides the first lines of another', () => {
		const { time, summaries, limit } = limiter({ burst: 2, windowMs: 1000 });
		for (let i = 0; i < 100; i++) {
			limit.admit(notJson);
		}
		assert.equal(limit.admit(badResponse), true);
		assert.equal(limit.admit(badResponse), true);
		assert.equal(limit.admit(badResponse), false);
		time.advance(1000);
		assert.deepEqual(
			summaries.map((s) => [s.kind.what, s.suppressed]),
			[
				['lines that are not JSON', 98],
				['bad responses', 1],
			],
		);
	});

	it('starts a new window after one ends: a long flood gets a few lines and a summary per window', () => {
		const { time, summaries, limit } = limiter({ burst: 2, windowMs: 1000 });
		let admitted = 0;
		for (let ms = 0; ms < 3000; ms += 10) {
			admitted += limit.admit(notJson) ? 1 : 0;
			time.advance(10);
		}
		assert.equal(admitted, 6);
		assert.deepEqual(
			summaries.map((s) => s.suppressed),
			[98, 98, 98],
		);
		// Every line is either admitted or counted in a summary.
		assert.equal(admitted + summaries.reduce((n, s) => n + s.suppressed, 0), 300);
	});

	it('writes no summary for a window where nothing was left out, and sets no timer for it', () => {
		const { time, summaries, limit } = limiter({ burst: 2, windowMs: 1000 });
		limit.admit(notJson);
		limit.admit(notJson);
		assert.equal(time.pending, 0);
		time.advance(5000);
		assert.equal(limit.admit(notJson), true, 'a new window');
		assert.deepEqual(summaries, []);
	});

	it('flushes the counts still pending at once, and after dispose sets no more timers', () => {
		const { time, summaries, limit } = limiter({ burst: 1, windowMs: 10_000 });
		limit.admit(notJson);
		limit.admit(notJson);
		limit.admit(badResponse);
		limit.admit(badResponse);
		limit.admit(badResponse);
		time.advance(250);
		limit.dispose();
		assert.deepEqual(
			summaries.map((s) => [s.kind.what, s.suppressed, s.spanMs]),
			[
				['lines that are not JSON', 1, 250],
				['bad responses', 2, 250],
			],
		);
		assert.equal(time.pending, 0);
		assert.equal(limit.admit(notJson), true);
		assert.equal(limit.admit(notJson), false);
		assert.equal(time.pending, 0);
	});

	it('describes a summary with the count, the kind and the limits', () => {
		assert.equal(
			describeSuppressed({ kind: notJson, suppressed: 12345, spanMs: 2340, burst: 5, windowMs: 10_000 }),
			'12,345 more lines that are not JSON in 2.3 s (the first 5 of each kind per 10 s are shown)',
		);
	});
});

describe('LimitedLog', () => {
	class Lines implements Logger {
		readonly lines: string[] = [];
		trace = (m: string) => void this.lines.push(`trace ${m}`);
		debug = (m: string) => void this.lines.push(`debug ${m}`);
		info = (m: string) => void this.lines.push(`info ${m}`);
		warn = (m: string) => void this.lines.push(`warn ${m}`);
		error = (m: string) => void this.lines.push(`error ${m}`);
	}

	it('logs the first lines of a kind in full and the rest as one summary at their level, building no string for them', () => {
		const time = new FakeTime();
		const out = new Lines();
		const log = new LimitedLog(out, { burst: 2, windowMs: 1000, now: () => time.now, setTimer: time.setTimer });
		let built = 0;
		for (let i = 0; i < 1000; i++) {
			log.report(notJson, 'warn', () => `line ${++built}`);
			log.report(badResponse, 'trace', () => `quiet ${i}`);
		}
		assert.equal(built, 2);
		log.flush();
		assert.deepEqual(out.lines, [
			'warn line 1',
			'trace quiet 0',
			'warn line 2',
			'trace quiet 1',
			'warn Left out of the log: 998 more lines that are not JSON in 0 s (the first 2 of each kind per 1 s are shown).',
			'trace Left out of the log: 998 more bad responses in 0 s (the first 2 of each kind per 1 s are shown).',
		]);
	});
});

describe('RecentLog', () => {
	it('keeps the last lines, oldest first, however many came', () => {
		const recent = new RecentLog(3);
		assert.deepEqual(recent.snapshot(), []);
		recent.push('a');
		recent.push('b');
		assert.deepEqual(recent.snapshot(), ['a', 'b']);
		for (const line of ['c', 'd', 'e', 'f', 'g']) {
			recent.push(line);
		}
		assert.deepEqual(recent.snapshot(), ['e', 'f', 'g']);
		recent.push('h');
		assert.deepEqual(recent.snapshot(), ['f', 'g', 'h']);
	});
});
