#!/usr/bin/env node
// Runs every benchmark and prints its figures: `node bench/run.mjs` (after `npm ci`).
//   - bundle size of dist/extension.js (production build)
//   - each plain-Node benchmark bench/*.bench.ts (built to out/bench/*.bench.js)
//   - each benchmark suite inside VS Code (suites with `bench: true` in test/vscode/suites.mjs)
// Flags: --only=<substring> runs the benchmarks whose name contains it.
import { spawnSync } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const only = process.argv.find((a) => a.startsWith('--only='))?.slice('--only='.length);
const run = (args) => spawnSync(process.execPath, args, { cwd: root, stdio: 'inherit' }).status ?? 1;

let failed = 0;
failed += run(['scripts/build.mjs']);
const bytes = statSync(join(root, 'dist', 'extension.js')).size;
console.log(`bundle: dist/extension.js ${(bytes / 1024).toFixed(1)} KiB minified (target: under 400 KB)`);
// The chat page: its entry (what every page loads) and the highlighter chunk loaded on first use.
for (const file of readdirSync(join(root, 'dist', 'webview')).filter((f) => f.endsWith('.js'))) {
	const size = statSync(join(root, 'dist', 'webview', file)).size;
	console.log(`bundle: dist/webview/${file} ${(size / 1024).toFixed(1)} KiB minified${file === 'chat.js' ? ' (target: the page under 400 KB)' : ''}`);
}

const benches = readdirSync(join(root, 'out', 'bench')).filter((f) => f.endsWith('.bench.js') && (!only || f.includes(only)));
for (const file of benches) {
	console.log(`\n== ${file}`);
	failed += run([join('out', 'bench', file)]);
}

const { suites } = await import('../test/vscode/suites.mjs');
const inEditor = suites.filter((s) => s.bench && (!only || s.name.includes(only))).map((s) => s.name);
if (inEditor.length > 0) {
	console.log(`\n== in VS Code: ${inEditor.join(', ')}`);
	failed += run(['scripts/test.mjs', '--tier=vscode', `--suite=${inEditor.join(',')}`]);
}
process.exit(failed > 0 ? 1 : 0);
