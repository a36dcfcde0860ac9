// Benchmark, not a test: prints activation figures measured in the extension host.
// Run with `node scripts/test.mjs --tier=vscode --suite=bench-activation`.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { api, EXTENSION_ID } from '../util';

describe('benchmark: activation', () => {
	it('reports activate() time and bundle evaluation time', async () => {
		const a = await api();
		const ext = vscode.extensions.getExtension(EXTENSION_ID)!;
		const bundle = path.join(ext.extensionPath, 'dist', 'extension.js');
		// Evaluate a fresh copy of the bundle the way VS Code loads it (without activating it).
		const samples: number[] = [];
		for (let i = 0; i < 10; i++) {
			const key = require.resolve(bundle);
			const cached = require.cache[key];
			delete require.cache[key];
			const start = performance.now();
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			require(bundle);
			samples.push(performance.now() - start);
			require.cache[key] = cached;
		}
		samples.sort((x, y) => x - y);
		const evalMedian = samples[Math.floor(samples.length / 2)]!;
		console.log(`BENCH activation: activate() ${a.activationMs.toFixed(2)} ms; bundle evaluation median ${evalMedian.toFixed(2)} ms (min ${samples[0]!.toFixed(2)}, max ${samples.at(-1)!.toFixed(2)}) over ${samples.length} loads; VS Code ${vscode.version}`);
		assert.ok(Number.isFinite(a.activationMs));
	});
});
