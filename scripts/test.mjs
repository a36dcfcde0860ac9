#!/usr/bin/env node
// Runs every test tier and prints how many tests ran in each:
//   static       eslint (zero warnings) and tsc --noEmit
//   unit         plain Node over src/common (node:test)
//   protocol     the real client against scripted agent processes (node:test)
//   vscode       the suites inside a real VS Code (code-server + headless Chromium), on the minimum
//                supported VS Code and the newest available
// Flags: --tier=unit,protocol,vscode (default: all), --target=min,latest (default: both).
// Installs what it needs (Debian packages, code-server) on first use.
import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]?.split(',') ?? fallback;
const tiers = arg('tier', ['static', 'unit', 'protocol', 'vscode']);
const targets = arg('target', ['min', 'latest']);
const results = [];

function run(command, args, options = {}) {
	return new Promise((resolve) => {
		const child = spawn(command, args, { cwd: root, stdio: options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit', env: { ...process.env, ...options.env } });
		let out = '';
		child.stdout?.on('data', (d) => {
			out += d;
			process.stdout.write(d);
		});
		child.on('exit', (code) => resolve({ code: code ?? 1, out }));
	});
}

function nodeTestCounts(out) {
	const num = (key) => Number(out.match(new RegExp(`^# ${key} (\\d+)`, 'm'))?.[1] ?? 0);
	return { passed: num('pass'), failed: num('fail') + num('cancelled'), skipped: num('skipped') + num('todo') };
}

function record(tier, counts, code) {
	const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
	results.push({ tier, ...counts, failed });
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

if (tiers.includes('static')) {
	const lint = await run(npx, ['eslint', '--max-warnings', '0', '.']);
	const types = await run(npx, ['tsc', '--noEmit', '-p', '.']);
	record('static (eslint, tsc)', { passed: (lint.code === 0) + (types.code === 0), failed: 0, skipped: 0 }, lint.code || types.code);
}

const build = await run(process.execPath, ['scripts/build.mjs']);
if (build.code !== 0) {
	console.error('Build failed.');
	process.exit(1);
}

for (const tier of ['unit', 'protocol']) {
	if (!tiers.includes(tier)) {
		continue;
	}
	const dir = join('out', 'test', tier);
	const { code, out } = await run(process.execPath, ['--test', '--test-reporter=tap', dir], { capture: true });
	record(tier, nodeTestCounts(out), code);
}

if (tiers.includes('vscode')) {
	const { ensureVSCode } = await import('../test/vscode/runner/install.mjs');
	const { runTests } = await import('../test/vscode/runner/run.mjs');
	const fixtures = join(root, 'test', 'fixtures');
	const node = process.execPath;
	const agents = {
		'SDK Example Agent': { command: node, args: [join(root, 'node_modules', 'acp-sdk-1-9', 'dist', 'examples', 'agent.js')] },
		'Fixture Agent': { command: node, args: [join(fixtures, 'agents', 'well-behaved.mjs')], env: { AGENT_LINK_FIXTURE: JSON.stringify({ spawnChild: true }) } },
		'Crash Agent': { command: node, args: [join(fixtures, 'agents', 'crash-agent.mjs')] },
		'Garbage Agent': { command: node, args: [join(fixtures, 'agents', 'garbage-agent.mjs')] },
		'Exits At Once': { command: node, args: ['-e', "process.stderr.write('cannot start\\n'); process.exit(4)"] },
		'Missing Agent': { command: 'agent-link-missing-command' },
	};
	const suites = [
		{ suite: 'main', trust: false, settings: { 'agentLink.trace': 'messages' } },
		{ suite: 'untrusted', trust: true, settings: { 'agentLink.defaultAgent': 'Fixture Agent' } },
	];
	for (const target of targets) {
		await ensureVSCode(target);
		for (const { suite, trust, settings } of suites) {
			const scratch = mkdtempSync(join(tmpdir(), 'agent-link-it-'));
			const workspace = join(scratch, 'workspace with space');
			mkdirSync(join(workspace, '.vscode'), { recursive: true });
			// A cloned repository trying to make the editor run its own program.
			const marker = join(workspace, 'pwned.txt');
			const evil = { command: node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] };
			writeFileSync(
				join(workspace, '.vscode', 'settings.json'),
				JSON.stringify({ 'agentLink.agents': { 'Workspace Agent': evil, 'Fixture Agent': evil }, 'agentLink.defaultAgent': suite === 'main' ? 'Workspace Agent' : undefined, 'agentLink.maxMessageSize': 1 }, null, 2),
			);
			writeFileSync(join(workspace, 'hello.ts'), 'export const hello = 1;\n');
			const resultsFile = join(scratch, 'results.json');
			let code;
			try {
				code = await runTests({
					target,
					extensionDevelopmentPath: root,
					extensionTestsPath: join(root, 'out', 'test', 'vscode', 'suite', 'index.js'),
					workspace,
					workspaceTrust: trust,
					userSettings: { 'agentLink.agents': agents, ...settings },
					env: { AGENT_LINK_TEST_SUITE: suite, AGENT_LINK_TEST_RESULTS: resultsFile },
				});
			} catch (error) {
				console.error(error);
				code = 2;
			}
			const counts = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { passes: 0, failures: 0, pending: 0 };
			record(`vscode ${target} (${suite})`, { passed: counts.passes, failed: counts.failures, skipped: counts.pending }, code);
			rmSync(scratch, { recursive: true, force: true });
		}
	}
}

console.log('\nTests by tier:');
for (const r of results) {
	console.log(`  ${r.tier.padEnd(28)} ${String(r.passed).padStart(4)} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
