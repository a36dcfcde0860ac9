#!/usr/bin/env node
// Runs every test tier and prints how many tests ran in each:
//   static       eslint (zero warnings) and tsc --noEmit
//   unit         plain Node over src/common and the NES agent (src/nes-agent) (node:test)
//   protocol     the real client against scripted agent processes and dist/nes-agent.js (node:test)
//   vscode       the suites inside a real VS Code (code-server + headless Chromium), on the minimum
//                supported VS Code and the newest available
//   start        `npm start` as a person meets it, three times in a row (test/start/twice.mjs): the
//                sample workspace as shipped with its README each time, and --keep-sample
// Flags: --tier=static,unit,protocol,vscode (default: all), --target=min,latest (default: both),
//        --suite=main,untrusted,… (default: every suite in test/vscode/suites.mjs),
//        --runner=electron (desktop VS Code via @vscode/test-electron; needs internet),
//        --serial (run the VS Code versions one after the other instead of side by side).
// Installs what it needs (Debian packages, code-server) on first use.
import { spawn } from 'node:child_process';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureDependencies } from './bootstrap.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureDependencies();
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]?.split(',') ?? fallback;
const tiers = arg('tier', ['static', 'unit', 'protocol', 'vscode', 'start']);
const targets = arg('target', ['min', 'latest']);
const results = [];
/** The unpacked .vsix, once a suite has asked for it (see unpackVsix). */
let packaged;
/** The real agents' install (test/fixtures/real-agents/install.mjs), once started. */
let realAgentsInstall;

/**
 * Installs the real agents the protocol tier and the chat-real-agents suite run (once into the test
 * cache; fast after). A failure is printed, not thrown: the tests that need an agent then say so.
 */
async function installRealAgents() {
	try {
		const { ensureRealAgents } = await import('../test/fixtures/real-agents/install.mjs');
		await ensureRealAgents();
	} catch (error) {
		console.error(`Installing the real agents failed: ${error instanceof Error ? error.message : String(error)}`);
	}
}

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

function record(tier, counts, code, failures = []) {
	const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
	const digest = code !== 0 && counts.failed === 0 && failures.length === 0 ? [{ title: '(no test failed: the run itself did)', error: `exit code ${code}` }] : failures;
	results.push({ tier, ...counts, failed, ...(digest.length > 0 ? { failures: digest } : {}) });
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

// The real agents install (the first time: a minute or two) while the static checks and the build run.
if (tiers.includes('protocol') || (tiers.includes('vscode') && (await import('../test/vscode/suites.mjs')).suites.some((s) => s.realAgents && (arg('suite', undefined)?.includes(s.name) ?? !s.bench)))) {
	realAgentsInstall = installRealAgents();
}

if (tiers.includes('static')) {
	const lint = await run(npx, ['eslint', '--max-warnings', '0', '.']);
	// Two TypeScript projects: the extension, the NES agent and the tests (no DOM types), and the
	// chat page (src/webview, with DOM types and without Node's).
	const types = await run(npx, ['tsc', '--noEmit', '-p', '.']);
	const pageTypes = await run(npx, ['tsc', '--noEmit', '-p', 'src/webview']);
	record('static (eslint, tsc)', { passed: (lint.code === 0) + (types.code === 0 && pageTypes.code === 0), failed: 0, skipped: 0 }, lint.code || types.code || pageTypes.code);
}

if (!process.argv.includes('--no-build')) {
	const build = await run(process.execPath, ['scripts/build.mjs']);
	if (build.code !== 0) {
		console.error('Build failed.');
		process.exit(1);
	}
}

for (const tier of ['unit', 'protocol']) {
	if (!tiers.includes(tier)) {
		continue;
	}
	if (tier === 'protocol') {
		// Real agents from npm (protocol/realAgents.test.ts), installed once into the test cache.
		await (realAgentsInstall ??= installRealAgents());
	}
	const dir = join('out', 'test', tier);
	const { code, out } = await run(process.execPath, ['--test', '--test-reporter=tap', dir], { capture: true });
	// TAP: the failing tests' titles (`not ok N - title`), nested ones indented.
	const failing = [...out.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => ({ title: m[1], error: '' }));
	record(tier, nodeTestCounts(out), code, failing);
}

const electron = arg('runner', ['code-server'])[0] === 'electron';
if (tiers.includes('vscode') && targets.length > 1 && !electron && !process.argv.includes('--serial')) {
	// The in-editor runs mostly wait on the editor, so the two VS Code versions run side by side,
	// each in a child process whose output is printed whole when it ends.
	const { ensureVSCode } = await import('../test/vscode/runner/install.mjs');
	const passThrough = process.argv.slice(2).filter((a) => a.startsWith('--suite='));
	const children = [];
	for (const target of targets) {
		await ensureVSCode(target); // installs one at a time; the first target's tests start meanwhile
		const resultsFile = join(mkdtempSync(join(tmpdir(), 'agent-link-results-')), 'results.json');
		const args = ['scripts/test.mjs', '--tier=vscode', `--target=${target}`, '--no-build', `--results=${resultsFile}`, ...passThrough];
		children.push(
			new Promise((resolve) => {
				const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
				let out = '';
				child.stdout.on('data', (d) => (out += d));
				child.stderr.on('data', (d) => (out += d));
				child.on('exit', (code) => {
					process.stdout.write(`\n===== VS Code ${target} =====\n${out}`);
					const counts = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [{ tier: `vscode ${target}`, passed: 0, failed: 1, skipped: 0 }];
					rmSync(dirname(resultsFile), { recursive: true, force: true });
					resolve({ code, counts });
				});
			}),
		);
	}
	for (const { code, counts } of await Promise.all(children)) {
		results.push(...counts);
		if (code !== 0 && !counts.some((c) => c.failed > 0)) {
			results.push({ tier: 'vscode (runner)', passed: 0, failed: 1, skipped: 0 });
		}
	}
} else if (tiers.includes('vscode')) {
	const { ensureVSCode } = await import('../test/vscode/runner/install.mjs');
	const { runTests } = await import(electron ? '../test/vscode/runner/electron.mjs' : '../test/vscode/runner/run.mjs');
	const { suites, sharedAgents } = await import('../test/vscode/suites.mjs');
	const only = arg('suite', undefined);
	const node = process.execPath;
	const fixtures = join(root, 'test', 'fixtures');
	const ctx = {
		root,
		node,
		fixtures,
		fixtureAgent: (script, options = {}) => ({ command: node, args: [join(fixtures, 'agents', script)], env: { AGENT_LINK_FIXTURE: JSON.stringify(options) } }),
	};
	// Suites marked `vsix` run against the packaged extension: the .vsix is built and unpacked, and
	// VS Code loads what a user installs, not this repository.
	const fromVsix = async () => (packaged ??= await unpackVsix());
	for (const target of targets) {
		if (!electron) {
			await ensureVSCode(target);
		}
		for (const suite of suites.filter((s) => (only ? only.includes(s.name) : !s.bench))) {
			if (suite.realAgents) {
				await (realAgentsInstall ??= installRealAgents());
			}
			const scratch = mkdtempSync(join(tmpdir(), 'agent-link-it-'));
			// Spaces in the path on purpose: every path the extension handles must survive them.
			const workspace = join(scratch, 'workspace with space');
			mkdirSync(workspace, { recursive: true });
			// A suite with `folders` opens a multi-root workspace: those folders in `workspace`, listed in a .code-workspace file beside them.
			const opened = suite.folders ? multiRootWorkspace(workspace, suite.folders) : workspace;
			suite.prepare?.(workspace, ctx);
			const extra = suite.settings?.({ ...ctx, workspace }) ?? {};
			// No suite reaches the real ACP Registry (these machines have no internet): off unless a suite points it somewhere.
			// Next edit suggestions come from the chat agent unless a suite chooses an NES agent of its own.
			const userSettings = { 'agentLink.registry.url': '', 'agentLink.nes.agent': '', ...extra, 'agentLink.agents': { ...sharedAgents(ctx), ...(extra['agentLink.agents'] ?? {}) } };
			const phases = suite.phases ?? 1;
			for (let phase = 1; phase <= phases; phase++) {
				const resultsFile = join(scratch, `results-${phase}.json`);
				const label = `vscode ${target} (${suite.name}${phases > 1 ? ` phase ${phase}` : ''})`;
				let code;
				let runError;
				try {
					code = await runTests({
						target,
						extensionDevelopmentPath: suite.vsix ? await fromVsix() : root,
						extensionTestsPath: join(root, 'out', 'test', 'vscode', 'suite', 'index.js'),
						workspace: opened,
						workspaceTrust: suite.trust ?? false,
						profileDir: phases > 1 ? join(scratch, 'profile') : undefined,
						userSettings,
						env: { AGENT_LINK_TEST_SUITE: suite.name, AGENT_LINK_TEST_RESULTS: resultsFile, AGENT_LINK_TEST_PHASE: String(phase) },
					});
				} catch (error) {
					console.error(error);
					code = 2;
					runError = error instanceof Error ? error.message : String(error);
				}
				const counts = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { passes: 0, failures: 0, pending: 0 };
				const failures = counts.failed ?? (runError ? [{ title: '(the runner failed)', error: runError.split('\n').slice(0, 12).join('\n') }] : []);
				record(label, { passed: counts.passes, failed: counts.failures, skipped: counts.pending }, code, failures);
			}
			rmSync(scratch, { recursive: true, force: true });
		}
	}
}

if (tiers.includes('start') && !electron) {
	// Each check the script makes prints `ok   …` or `FAIL …` on stderr; its exit code says whether all passed.
	const { code, out } = await new Promise((resolve) => {
		const child = spawn(process.execPath, [join(root, 'test', 'start', 'twice.mjs'), `--target=${targets.includes('latest') ? 'latest' : 'min'}`], { cwd: root, stdio: ['ignore', 'inherit', 'pipe'] });
		let err = '';
		child.stderr.on('data', (d) => {
			err += d;
			process.stderr.write(d);
		});
		child.on('exit', (c) => resolve({ code: c ?? 1, out: err }));
	});
	const count = (word) => (out.match(new RegExp(`\\] ${word} `, 'g')) ?? []).length;
	const failing = [...out.matchAll(/\] FAIL (.*)$/gm)].map((m) => ({ title: m[1], error: '' }));
	record('start (npm start, three times)', { passed: count('ok  '), failed: count('FAIL'), skipped: 0 }, code, failing);
}

/** Makes `folders` in `dir` and a .code-workspace file there that lists them, in that order; returns the file's path. */
function multiRootWorkspace(dir, folders) {
	for (const folder of folders) {
		mkdirSync(join(dir, folder), { recursive: true });
	}
	const file = join(dir, 'folders.code-workspace');
	writeFileSync(file, `${JSON.stringify({ folders: folders.map((path) => ({ path })) }, null, '\t')}\n`);
	return file;
}

/** Packages the extension as a .vsix (as `npm run package` does) and unpacks its extension/ folder. */
async function unpackVsix() {
	const dir = mkdtempSync(join(tmpdir(), 'agent-link-vsix-'));
	const vsix = join(dir, 'agent-link.vsix');
	const packaged = await run(npx, ['vsce', 'package', '--no-dependencies', '--allow-missing-repository', '--no-rewrite-relative-links', '--out', vsix]);
	if (packaged.code !== 0) {
		throw new Error('vsce package failed');
	}
	const { default: yauzl } = await import('yauzl');
	const unpacked = join(dir, 'unpacked');
	await new Promise((resolve, reject) => {
		yauzl.open(vsix, { lazyEntries: true }, (error, zip) => {
			if (error) return reject(error);
			zip.on('entry', (entry) => {
				if (!entry.fileName.startsWith('extension/') || entry.fileName.endsWith('/')) return zip.readEntry();
				const target = join(unpacked, entry.fileName.slice('extension/'.length));
				mkdirSync(dirname(target), { recursive: true });
				zip.openReadStream(entry, (e, stream) => {
					if (e) return reject(e);
					stream.pipe(createWriteStream(target)).on('finish', () => zip.readEntry()).on('error', reject);
				});
			});
			zip.on('end', resolve);
			zip.on('error', reject);
			zip.readEntry();
		});
	});
	console.log(`Unpacked the .vsix into ${unpacked}`);
	return unpacked;
}

if (packaged) {
	rmSync(dirname(packaged), { recursive: true, force: true });
}

const resultsOut = process.argv.find((a) => a.startsWith('--results='))?.slice('--results='.length);
if (resultsOut) {
	writeFileSync(resultsOut, JSON.stringify(results));
}

// What failed, in short, just above the summary (a log read from its end shows it).
const digest = results.filter((r) => r.failures?.length);
if (digest.length > 0) {
	console.log('\nFailures:');
	for (const r of digest) {
		for (const f of r.failures) {
			console.log(`  ${r.tier}: ${f.title}${f.error ? `\n${f.error.replace(/^/gm, '      ')}` : ''}`);
		}
	}
}

console.log('\nTests by tier:');
for (const r of results) {
	console.log(`  ${r.tier.padEnd(36)} ${String(r.passed).padStart(4)} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
