import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { TraceLevel } from '../../src/common/config';
import { RestartPolicy } from '../../src/common/restartPolicy';
import { WireTracer } from '../../src/common/trace';

describe('WireTracer', () => {
	it('writes nothing when off', () => {
		const lines: string[] = [];
		const t = new WireTracer(() => 'off', (l) => lines.push(l));
		t.record('send', { id: 1, method: 'initialize' }, 10);
		assert.deepEqual(lines, []);
	});

	it('writes direction, method, id, size and elapsed time per message', () => {
		const lines: string[] = [];
		let now = 1000;
		let level: TraceLevel = 'messages';
		const t = new WireTracer(() => level, (l) => lines.push(l), () => now);
		t.record('send', { id: 1, method: 'initialize' }, 120, '{"raw":1}');
		now += 42;
		t.record('recv', { id: 1, result: {} }, 300);
		t.record('recv', { method: 'session/update' }, 50);
		t.record('recv', { id: 'a', method: 'fs/read_text_file' }, 60);
		now += 5;
		t.record('send', { id: 'a', error: { code: -32601 } }, 70);
		assert.deepEqual(lines, [
			'→ request initialize #1 120 B',
			'← response initialize #1 result 300 B in 42 ms',
			'← notification session/update 50 B',
			'← request fs/read_text_file #a 60 B',
			'→ response fs/read_text_file #a error 70 B in 5 ms',
		]);
		level = 'verbose';
		t.record('send', { method: 'x' }, 9, '{"jsonrpc":"2.0","method":"x"}\n');
		assert.equal(lines.at(-1), '→ notification x 9 B\n{"jsonrpc":"2.0","method":"x"}');
	});
});

describe('WireTracer with malformed messages', () => {
	it('traces the first few of each kind and direction, then one summary each with the count', () => {
		const lines: string[] = [];
		const timers: (() => void)[] = [];
		const invalid = { what: 'invalid JSON-RPC messages from the agent (-32600)' };
		const t = new WireTracer(() => 'messages', (l) => lines.push(l), () => 0, { burst: 2, setTimer: (callback) => (timers.push(callback), { dispose() {} }) });
		for (let i = 0; i < 50; i++) {
			t.record('recv', { id: `bad-${i}`, method: 'x' }, 30, undefined, invalid);
			t.record('send', { id: `bad-${i}`, error: { code: -32600 } }, 40, undefined, invalid);
			t.record('recv', { method: 'session/update' }, 50);
		}
		assert.equal(lines.filter((l) => l.includes('session/update')).length, 50, 'valid messages are all traced');
		assert.deepEqual(
			lines.filter((l) => l.includes('bad-')),
			['← request x #bad-0 30 B', '→ response x #bad-0 error 40 B in 0 ms', '← request x #bad-1 30 B', '→ response x #bad-1 error 40 B in 0 ms'],
		);
		assert.equal(timers.length, 2, 'one window per kind and direction');
		for (const fire of timers) {
			fire();
		}
		assert.deepEqual(lines.slice(-2), [
			'← Left out of the trace: 48 more invalid JSON-RPC messages from the agent (-32600) in 0 s (the first 2 of each kind per 10 s are shown)',
			'→ Left out of the trace: 48 more answers to invalid JSON-RPC messages from the agent (-32600) in 0 s (the first 2 of each kind per 10 s are shown)',
		]);
	});

	it('writes nothing for malformed messages when off', () => {
		const lines: string[] = [];
		const t = new WireTracer(() => 'off', (l) => lines.push(l));
		t.record('recv', { id: 1, method: 'x' }, 30, undefined, { what: 'x' });
		t.flush();
		assert.deepEqual(lines, []);
	});
});

describe('RestartPolicy', () => {
	it('restarts with growing back-off, at most 5 times in 3 minutes', () => {
		const p = new RestartPolicy();
		const delays: number[] = [];
		for (let i = 0; i < 5; i++) {
			const d = p.onCrash(1000 + i);
			assert.ok(d.restart);
			delays.push(d.delayMs);
		}
		assert.deepEqual(delays, [500, 1000, 2000, 4000, 8000]);
		const sixth = p.onCrash(2000);
		assert.equal(sixth.restart, false);
		assert.ok(!sixth.restart && /6 times in the last 3 minutes/.test(sixth.reason));
	});

	it('forgets crashes older than the window', () => {
		const p = new RestartPolicy();
		for (let i = 0; i < 5; i++) {
			p.onCrash(0);
		}
		assert.equal(p.onCrash(3 * 60 * 1000 + 1).restart, true);
	});
});
