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
//        --changed[=<base>] (only the tiers and suites the changes since <base>, default main, touch:
//        scripts/changed.mjs maps files to them; --dry-run only says which),
//        --jobs=N (things at once, default 3: a suite waits on the page and its agents about a third of
//        its time, so three keep two cores busy), --beside (static, unit and protocol beside the VS
//        Code suites instead of in the same queue, and with --jobs=3 the third suite once they are done),
//        --runner=electron (desktop VS Code via @vscode/test-electron; needs internet),
//        --serial (one thing at a time: the VS Code versions one after the other, after the other tiers).
// The build comes first; then one queue, three at a time, the longest first: the VS Code suites of both
// versions (each suite in a child process), static, unit, protocol and start. Each line of the
// summary says how long it took.
// Installs what it needs (Debian packages, code-server) on first use.
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createWriteStream, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { ensureDependencies } from './bootstrap.mjs';
import { changedFiles, selectTests, suiteSelected } from './changed.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));
await ensureDependencies();
const arg = (name, fallback) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1]?.split(',') ?? fallback;
let tiers = arg('tier', ['static', 'unit', 'protocol', 'vscode', 'start']);
const targets = arg('target', ['min', 'latest']);
const serial = process.argv.includes('--serial');
/** Suites named with --suite, or the prefixes --changed picked (undefined: every suite but the benchmarks). */
let only = arg('suite', undefined);
let onlyPrefixes;
const changedBase = process.argv.includes('--changed') ? 'main' : arg('changed', [])[0];
if (changedBase) {
	const picked = selectTests(changedFiles(root, changedBase));
	console.log(`Changed since ${changedBase}:\n${picked.why.map((w) => `  ${w}`).join('\n') || '  nothing'}`);
	tiers = tiers.filter((t) => picked.tiers.includes(t));
	onlyPrefixes = picked.suites;
	const { suites } = await import('../test/vscode/suites.mjs');
	const names = tiers.includes('vscode') ? suites.filter((s) => !s.bench && suiteSelected(s.name, onlyPrefixes)).map((s) => s.name) : [];
	console.log(`Tiers: ${tiers.join(', ') || 'none'}${names.length > 0 ? `; suites: ${names.join(', ')}` : ''}`);
	if (tiers.length === 0 || process.argv.includes('--dry-run')) {
		process.exit(0);
	}
}
/** The summary's rows, by tier in a fixed order whatever order they finish in. */
const slots = { static: [], unit: [], protocol: [], vscode: [], start: [] };
const results = [];
/** The unpacked .vsix, once a suite has asked for it (see unpackVsix). */
let packaged;
const startedAt = Date.now();
const since = (t) => Math.round((Date.now() - t) / 1000);
/** The real agents' install (test/fixtures/real-agents/install.mjs), once started. */
let realAgentsInstall;
/** code-server's install for each version, once started (test/vscode/runner/install.mjs), and whether it has ended. */
const vscodeInstalls = {};

/** Starts installing code-server for `target` (once into the test cache; fast after), unless it has been. */
function installVSCode(target) {
	if (!vscodeInstalls[target]) {
		const install = { done: false, promise: import('../test/vscode/runner/install.mjs').then(({ ensureVSCode }) => ensureVSCode(target)) };
		install.promise.then(() => (install.done = true), () => (install.done = true)); // a failure is said where it is awaited
		vscodeInstalls[target] = install;
	}
	return vscodeInstalls[target];
}

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
		// capture: stdout kept (and shown as it comes); buffer: stdout and stderr kept, shown by the caller.
		const stdio = options.buffer ? ['ignore', 'pipe', 'pipe'] : options.capture ? ['ignore', 'pipe', 'inherit'] : 'inherit';
		const child = spawn(command, args, { cwd: root, stdio, env: { ...process.env, ...options.env } });
		let out = '';
		child.stdout?.on('data', (d) => {
			out += d;
			if (!options.buffer) {
				process.stdout.write(d);
			}
		});
		child.stderr?.on('data', (d) => (out += d));
		child.on('exit', (code) => resolve({ code: code ?? 1, out }));
	});
}

function nodeTestCounts(out) {
	const num = (key) => Number(out.match(new RegExp(`^# ${key} (\\d+)`, 'm'))?.[1] ?? 0);
	return { passed: num('pass'), failed: num('fail') + num('cancelled'), skipped: num('skipped') + num('todo') };
}

function record(slot, tier, counts, code, failures = [], seconds = undefined) {
	const failed = counts.failed + (code !== 0 && counts.failed === 0 ? 1 : 0);
	const digest = code !== 0 && counts.failed === 0 && failures.length === 0 ? [{ title: '(no test failed: the run itself did)', error: `exit code ${code}` }] : failures;
	slots[slot].push({ tier, ...counts, failed, ...(digest.length > 0 ? { failures: digest } : {}), ...(seconds !== undefined ? { seconds } : {}) });
}

const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';
const electron = arg('runner', ['code-server'])[0] === 'electron';
// The VS Code suites in child processes (one per version, output printed whole when each ends)
// whenever something else runs beside them: the other version, or the other tiers.
const vscodeInChildren = tiers.includes('vscode') && !electron && !serial && (targets.length > 1 || tiers.some((t) => t !== 'vscode'));

/**
 * The tiers outside VS Code. Each returns its output when `buffer` is set (then shown by the caller
 * whole, as the VS Code suites' is); otherwise it shows it as it comes.
 */
async function staticTier(buffer = false) {
	const t = Date.now();
	const lint = await run(npx, ['eslint', '--max-warnings', '0', '.'], { buffer });
	// Two TypeScript projects: the extension, the NES agent and the tests (no DOM types), and the
	// chat page (src/webview, with DOM types and without Node's), checked by TypeScript 7's native
	// compiler (package typescript-native; 6 s of processor time from nothing where TypeScript 6 took
	// 30; eslint's typed rule still runs on TypeScript 6's API, package typescript). Each keeps what it
	// found in the test cache, per checkout (tsc's own incremental check: a file is checked again when
	// it or what it depends on changed).
	const { cacheRoot } = await import('../test/vscode/runner/common.mjs');
	const checkout = createHash('sha256').update(root).digest('hex').slice(0, 12);
	const buildInfo = (project) => ['--incremental', '--tsBuildInfoFile', join(cacheRoot(), 'tsc', `${checkout}-${project}-7.tsbuildinfo`)];
	const tsc = join(root, 'node_modules', 'typescript-native', 'bin', 'tsc');
	const types = await run(process.execPath, [tsc, '--noEmit', '-p', '.', ...buildInfo('main')], { buffer });
	const pageTypes = await run(process.execPath, [tsc, '--noEmit', '-p', 'src/webview', ...buildInfo('webview')], { buffer });
	record('static', 'static (eslint, tsc)', { passed: (lint.code === 0) + (types.code === 0 && pageTypes.code === 0), failed: 0, skipped: 0 }, lint.code || types.code || pageTypes.code, [], since(t));
	return lint.out + types.out + pageTypes.out;
}

async function nodeTier(tier, buffer = false) {
	if (tier === 'protocol') {
		// Real agents from npm (protocol/realAgents.test.ts), installed once into the test cache.
		await (realAgentsInstall ??= installRealAgents());
	}
	const t = Date.now();
	const dir = join('out', 'test', tier);
	const { code, out } = await run(process.execPath, ['--test', '--test-reporter=tap', dir], { capture: true, buffer });
	// TAP: the failing tests' titles (`not ok N - title`), nested ones indented.
	const failing = [...out.matchAll(/^\s*not ok \d+ - (.*)$/gm)].map((m) => ({ title: m[1], error: '' }));
	record(tier, tier, nodeTestCounts(out), code, failing, since(t));
	return out;
}

async function startTier(buffer = false) {
	const t = Date.now();
	// Each check the script makes prints `ok   …` or `FAIL …` on stderr; its exit code says whether all passed.
	const { code, out, shown } = await new Promise((resolve) => {
		const child = spawn(process.execPath, [join(root, 'test', 'start', 'twice.mjs'), `--target=${targets.includes('latest') ? 'latest' : 'min'}`], { cwd: root, stdio: ['ignore', buffer ? 'pipe' : 'inherit', 'pipe'] });
		let err = '';
		let shown = '';
		child.stdout?.on('data', (d) => (shown += d));
		child.stderr.on('data', (d) => {
			err += d;
			shown += d;
			if (!buffer) {
				process.stderr.write(d);
			}
		});
		child.on('exit', (c) => resolve({ code: c ?? 1, out: err, shown }));
	});
	const count = (word) => (out.match(new RegExp(`\\] ${word} `, 'g')) ?? []).length;
	const failing = [...out.matchAll(/\] FAIL (.*)$/gm)].map((m) => ({ title: m[1], error: '' }));
	record('start', 'start (npm start, three times)', { passed: count('ok  '), failed: count('FAIL'), skipped: 0 }, code, failing, since(t));
	return shown;
}

/** The other tiers asked for, as jobs of the VS Code suites' queue (see vscodeChildren). */
function tierJobs() {
	const jobs = [];
	if (tiers.includes('static')) {
		jobs.push({ key: 'tier static', label: 'static', run: () => staticTier(true) });
	}
	for (const tier of ['unit', 'protocol']) {
		if (tiers.includes(tier)) {
			jobs.push({ key: `tier ${tier}`, label: tier, run: () => nodeTier(tier, true) });
		}
	}
	if (tiers.includes('start') && !electron) {
		jobs.push({ key: 'tier start', label: 'start', run: () => startTier(true) });
	}
	return jobs;
}

/**
 * The VS Code suites of both versions side by side: a queue of (version, suite) runs, each a child
 * process running this script for that one suite, taken by `--jobs` workers (default 3). A suite
 * keeps one to two thirds of a core busy (chat-panel alone on 1.139: about 80 s of processor time in
 * 130 s; nes-sync nearly a whole core), so three at once keep two cores busy (a full run that way:
 * 4 % idle, 1 747 s of processor time, against two at once 65 s longer). With --beside the first two
 * workers start at once and the third once `besideDone` settles (the other tiers, run beside them).
 * Without --beside the other tiers are `extra` jobs of the same queue, each taking a worker's place
 * beside the suites, so no worker waits alone for them before the suites start or for `start` after
 * them. The longest runs go first, by the times the last runs took (kept beside the VS Code
 * installs), so the workers end together. Each run's output is printed whole when it ends.
 * @param {Promise<unknown>} besideDone
 * @param {{ key: string, label: string, run: () => Promise<string> }[]} extra
 */
async function vscodeChildren(besideDone, extra = []) {
	const { cacheRoot } = await import('../test/vscode/runner/common.mjs');
	const { suites } = await import('../test/vscode/suites.mjs');
	const windowsChosen = windows(suites.filter(chosen));
	const names = windowsChosen.map((w) => w.suite.name);
	const suitesOf = new Map(windowsChosen.map((w) => [w.suite.name, w.members.map((m) => m.name)]));
	const needsRealAgents = new Set(suites.filter((s) => s.realAgents).map((s) => s.name));
	if (names.length === 0 && extra.length === 0) {
		return;
	}
	// The .vsix is packed once, for both versions, while the first runs start (a window's guests load what its host loads).
	const vsixWindows = new Set(windowsChosen.filter((w) => w.suite.vsix).map((w) => w.suite.name));
	const vsixReady = vsixWindows.size > 0
		? unpackVsix().then(
				(dir) => (packaged = dir),
				(error) => console.error(`Packing the .vsix failed: ${error instanceof Error ? error.message : String(error)}`),
			)
		: undefined;
	const timesFile = join(cacheRoot(), 'suite-seconds.json');
	// The times this machine's last runs took, else those of a clean-clone run kept in the repository.
	const knownTimes = JSON.parse(readFileSync(join(root, 'test', 'vscode', 'suite-seconds.json'), 'utf8'));
	const lastTimes = { ...knownTimes, ...(existsSync(timesFile) ? JSON.parse(readFileSync(timesFile, 'utf8')) : {}) };
	// Unknown runs count as long: they go first. Ties keep the suites' order, the versions alternating.
	const suiteJobs = names.flatMap((name) => targets.map((target) => ({ key: `${target} ${name}`, target, name })));
	const queue = [...suiteJobs, ...extra].map((job, order) => ({ ...job, order }));
	queue.sort((x, y) => (lastTimes[y.key] ?? Infinity) - (lastTimes[x.key] ?? Infinity) || x.order - y.order);
	// The versions' installs began with the run (installVSCode); until both are done only the other
	// tiers that need no VS Code run (on a new machine: static, unit and protocol while code-server's
	// native modules compile), never a suite beside an install.
	const installs = targets.map(installVSCode);
	const installed = Promise.all(installs.map((install) => install.promise));
	const needsNoVSCode = (job) => job.run && job.key !== 'tier start';
	const next = async () => {
		if (installs.some((install) => !install.done)) {
			const index = queue.findIndex(needsNoVSCode);
			if (index >= 0) {
				return queue.splice(index, 1)[0];
			}
			await installed;
		}
		return queue.shift();
	};
	const jobs = Math.max(1, Number(arg('jobs', ['3'])[0]) || 3);
	const times = {};
	const worker = async () => {
		for (let job = await next(); job; job = await next()) {
			if (job.run) {
				const t = Date.now();
				const out = await job.run();
				// Only a whole run says how long the job takes (one that failed or was stopped may have ended early).
				if (slots[job.key.replace(/^tier /, '')].every((row) => row.failed === 0)) {
					times[job.key] = since(t);
				}
				process.stdout.write(`\n===== ${job.label} (${since(t)} s) =====\n${out}`);
				continue;
			}
			if (needsRealAgents.has(job.name)) {
				await (realAgentsInstall ??= installRealAgents());
			}
			let vsix = [];
			if (vsixReady && vsixWindows.has(job.name)) {
				const unpacked = await vsixReady;
				if (!unpacked) {
					slots.vscode.push({ tier: `vscode ${job.target} (${job.name}: runner)`, passed: 0, failed: 1, skipped: 0, failures: [{ title: '(the .vsix could not be packed)', error: '' }] });
					continue;
				}
				vsix = [`--vsix=${unpacked}`];
			}
			const t = Date.now();
			const { code, counts, out } = await vscodeChild(job.target, suitesOf.get(job.name), vsix, lastTimes[job.key]);
			// A run of some of its tests (AGENT_LINK_TEST_GREP), or one that failed or was stopped (it may
			// have ended early), says nothing of how long the suite takes.
			if (!process.env.AGENT_LINK_TEST_GREP && code === 0 && !counts.some((c) => c.failed > 0)) {
				times[job.key] = since(t);
			}
			process.stdout.write(`\n===== VS Code ${job.target}: ${job.name} (${since(t)} s) =====\n${out}`);
			slots.vscode.push(...counts);
			if (code !== 0 && !counts.some((c) => c.failed > 0)) {
				slots.vscode.push({ tier: `vscode ${job.target} (${job.name}: runner)`, passed: 0, failed: 1, skipped: 0 });
			}
		}
	};
	await Promise.all(Array.from({ length: jobs }, (_, i) => (i < Math.min(2, jobs) ? worker() : besideDone.then(worker, worker))));
	// Fixed order in the summary: by version, then as suites.mjs lists them.
	const rank = (r) => targets.findIndex((t) => r.tier.startsWith(`vscode ${t} `)) * 1000 + names.indexOf(r.tier.match(/\((.+?)(?: \+ .+?)?(?: phase \d+)?(?:: runner)?\)$/)?.[1]);
	slots.vscode.sort((x, y) => rank(x) - rank(y));
	try {
		writeFileSync(timesFile, `${JSON.stringify({ ...lastTimes, ...times }, null, '\t')}\n`);
	} catch {
		// no cache folder to keep them in: the next run goes in the suites' order
	}
}

/**
 * Runs one window's suites on one version in a child process; resolves with its exit code, rows and
 * output. `seconds`: how long the window took last time (its time limit grows with it).
 */
function vscodeChild(target, members, vsix, seconds) {
	const name = members.join(' + ');
	const resultsFile = join(mkdtempSync(join(tmpdir(), 'agent-link-results-')), 'results.json');
	const known = Number.isFinite(seconds) ? [`--window-seconds=${Math.round(seconds)}`] : [];
	const args = ['scripts/test.mjs', '--tier=vscode', `--target=${target}`, '--no-build', `--results=${resultsFile}`, `--suite=${members.join(',')}`, ...known, ...vsix];
	return new Promise((resolve) => {
		const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
		let out = '';
		child.stdout.on('data', (d) => (out += d));
		child.stderr.on('data', (d) => (out += d));
		child.on('exit', (code) => {
			const counts = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : [{ tier: `vscode ${target} (${name})`, passed: 0, failed: 1, skipped: 0 }];
			rmSync(dirname(resultsFile), { recursive: true, force: true });
			resolve({ code, counts, out });
		});
	});
}

/** Whether a suite runs: named with --suite, picked by --changed, else every suite but the benchmarks. */
function chosen(suite) {
	if (only) {
		return only.includes(suite.name);
	}
	return !suite.bench && (!onlyPrefixes || suiteSelected(suite.name, onlyPrefixes));
}

/**
 * The VS Code windows the chosen suites need: each suite in its own, but a suite's `guests` (when
 * chosen too) run in its window after its own tests, sharing its start of VS Code.
 */
function windows(chosenSuites) {
	const byName = new Map(chosenSuites.map((s) => [s.name, s]));
	const guests = new Set(chosenSuites.flatMap((s) => (s.guests ?? []).filter((g) => byName.has(g))));
	return chosenSuites
		.filter((s) => !guests.has(s.name))
		.map((suite) => {
			const members = [suite, ...(suite.guests ?? []).filter((g) => byName.has(g)).map((g) => byName.get(g))];
			for (const guest of members.slice(1)) {
				for (const key of ['trust', 'vsix', 'folders', 'phases', 'realAgents', 'guests']) {
					if (guest[key] !== undefined && JSON.stringify(guest[key]) !== JSON.stringify(suite[key])) {
						throw new Error(`suite ${guest.name} cannot run in ${suite.name}'s window: their ${key} differ`);
					}
				}
			}
			return { suite, members };
		});
}

/** The user settings of a window's suites together; two suites that set one differently cannot share it. */
function windowSettings(members, ctx) {
	const merged = {};
	const agents = {};
	for (const member of members) {
		const { 'agentLink.agents': own = {}, ...rest } = member.settings?.(ctx) ?? {};
		for (const [key, value] of Object.entries(rest)) {
			// The window's default agent is its first suite's: a guest's is only for when it runs alone.
			if (key === 'agentLink.defaultAgent' && key in merged) {
				continue;
			}
			if (key in merged && JSON.stringify(merged[key]) !== JSON.stringify(value)) {
				throw new Error(`suite ${member.name} cannot share ${members[0].name}'s window: they set ${key} differently`);
			}
			merged[key] = value;
		}
		for (const [name, agent] of Object.entries(own)) {
			if (name in agents && JSON.stringify(agents[name]) !== JSON.stringify(agent)) {
				throw new Error(`suite ${member.name} cannot share ${members[0].name}'s window: they define the agent ${name} differently`);
			}
			agents[name] = agent;
		}
	}
	return Object.keys(agents).length > 0 ? { ...merged, 'agentLink.agents': agents } : merged;
}

/** The suites of each target, one after the other, in this process. */
async function vscodeHere() {
	const { ensureVSCode } = await import('../test/vscode/runner/install.mjs');
	const { runTests } = await import(electron ? '../test/vscode/runner/electron.mjs' : '../test/vscode/runner/run.mjs');
	const { suites, sharedAgents } = await import('../test/vscode/suites.mjs');
	const node = process.execPath;
	const fixtures = join(root, 'test', 'fixtures');
	const ctx = {
		root,
		node,
		fixtures,
		fixtureAgent: (script, options = {}) => ({ command: node, args: [join(fixtures, 'agents', script)], env: { AGENT_LINK_FIXTURE: JSON.stringify(options) } }),
	};
	// Suites marked `vsix` run against the packaged extension: the .vsix is built and unpacked, and
	// VS Code loads what a user installs, not this repository (--vsix: unpacked already, by the parent).
	const given = arg('vsix', undefined)?.[0];
	const fromVsix = async () => given ?? (packaged ??= await unpackVsix());
	// A window's time limit (each test has its own; this one catches a window that never ends): ten
	// minutes, or four times what the window took last time. On a machine busy with another full run
	// (load 24 on two cores) the largest window, chat-panel's with chat-turns, took 2.6 times its
	// usual four minutes and was stopped at ten.
	const windowSeconds = Number(arg('window-seconds', ['0'])[0]) || 0;
	const windowTimeoutMs = Math.max(10 * 60_000, 4 * windowSeconds * 1000);
	for (const target of targets) {
		if (!electron) {
			await ensureVSCode(target);
		}
		for (const { suite, members } of windows(suites.filter(chosen))) {
			if (suite.realAgents) {
				await (realAgentsInstall ??= installRealAgents());
			}
			const suiteStarted = Date.now();
			const scratch = mkdtempSync(join(tmpdir(), 'agent-link-it-'));
			// Spaces in the path on purpose: every path the extension handles must survive them.
			const workspace = join(scratch, 'workspace with space');
			mkdirSync(workspace, { recursive: true });
			// A suite with `folders` opens a multi-root workspace: those folders in `workspace`, listed in a .code-workspace file beside them.
			const opened = suite.folders ? multiRootWorkspace(workspace, suite.folders) : workspace;
			for (const member of members) {
				member.prepare?.(workspace, ctx);
			}
			const extra = windowSettings(members, { ...ctx, workspace });
			// No suite reaches the real ACP Registry (these machines have no internet): off unless a suite points it somewhere.
			// Next edit suggestions come from the chat agent unless a suite chooses an NES agent of its own.
			const userSettings = { 'agentLink.registry.url': '', 'agentLink.nes.agent': '', ...extra, 'agentLink.agents': { ...sharedAgents(ctx), ...(extra['agentLink.agents'] ?? {}) } };
			const phases = suite.phases ?? 1;
			for (let phase = 1; phase <= phases; phase++) {
				const phaseStarted = Date.now();
				const resultsFile = join(scratch, `results-${phase}.json`);
				// A phased suite's guests (which have no phases of their own) run in its last phase, after its tests.
				const running = phase === phases ? members : members.filter((m) => m.phases !== undefined);
				const label = `vscode ${target} (${running.map((m) => m.name).join(' + ')}${phases > 1 ? ` phase ${phase}` : ''})`;
				let code;
				let runError;
				try {
					code = await runTests({
						target,
						extensionDevelopmentPath: suite.vsix ? await fromVsix() : root,
						extensionTestsPath: join(root, 'out', 'test', 'vscode', 'suite', 'index.js'),
						workspace: opened,
						workspaceTrust: suite.trust ?? false,
						asShipped: suite.bench === true,
						profileDir: phases > 1 ? join(scratch, 'profile') : undefined,
						userSettings,
						env: { AGENT_LINK_TEST_SUITE: running.map((m) => m.name).join(','), AGENT_LINK_TEST_RESULTS: resultsFile, AGENT_LINK_TEST_PHASE: String(phase) },
						timeoutMs: windowTimeoutMs,
					});
				} catch (error) {
					console.error(error);
					code = 2;
					runError = error instanceof Error ? error.message : String(error);
				}
				const counts = existsSync(resultsFile) ? JSON.parse(readFileSync(resultsFile, 'utf8')) : { passes: 0, failures: 0, pending: 0 };
				const failures = counts.failed ?? (runError ? [{ title: '(the runner failed)', error: runError.split('\n').slice(0, 12).join('\n') }] : []);
				record('vscode', label, { passed: counts.passes, failed: counts.failures, skipped: counts.pending }, code, failures, since(phase === 1 ? suiteStarted : phaseStarted));
			}
			try {
				// The window's processes may still be ending (run.mjs does not wait for them) and writing here.
				rmSync(scratch, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
			} catch (error) {
				console.error(`could not remove ${scratch}: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
	}
}

// The real agents install (the first time: a minute or two) while the static checks and the build run.
if (tiers.includes('protocol') || (tiers.includes('vscode') && (await import('../test/vscode/suites.mjs')).suites.some((s) => s.realAgents && chosen(s)))) {
	realAgentsInstall = installRealAgents();
}
// And code-server for each version (the first time: two minutes, most of it compiling native modules),
// while the build, static, unit and protocol run (vscodeChildren).
if (vscodeInChildren) {
	for (const target of targets) {
		installVSCode(target);
	}
}

if (!process.argv.includes('--no-build') && tiers.some((t) => t !== 'static')) {
	const t = Date.now();
	const build = await run(process.execPath, ['scripts/build.mjs']);
	if (build.code !== 0) {
		console.error('Build failed.');
		process.exit(1);
	}
	console.log(`Built in ${since(t)} s.`);
}

/** static, unit and protocol, one after the other, then start if `withStart`. */
async function otherTiers(withStart) {
	if (tiers.includes('static')) {
		await staticTier();
	}
	for (const tier of ['unit', 'protocol']) {
		if (tiers.includes(tier)) {
			await nodeTier(tier);
		}
	}
	if (withStart && tiers.includes('start') && !electron) {
		await startTier();
	}
}

if (vscodeInChildren && process.argv.includes('--beside')) {
	const beside = otherTiers(true);
	await Promise.all([vscodeChildren(beside), beside]);
} else if (vscodeInChildren) {
	// The other tiers in the suites' queue: one of them beside one suite at a time (a third thing
	// beside two suites, as with --beside and eslint and tsc, fails the chat suites' waits).
	await vscodeChildren(Promise.resolve(), tierJobs());
} else {
	await otherTiers(false);
	if (tiers.includes('vscode')) {
		await vscodeHere();
	}
	if (tiers.includes('start') && !electron) {
		await startTier();
	}
}
results.push(...slots.static, ...slots.unit, ...slots.protocol, ...slots.vscode, ...slots.start);

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
	const took = r.seconds !== undefined ? `${String(r.seconds).padStart(5)} s  ` : ' '.repeat(9);
	console.log(`  ${r.tier.padEnd(46)} ${took}${String(r.passed).padStart(4)} passed, ${r.failed} failed${r.skipped ? `, ${r.skipped} skipped` : ''}`);
}
const passed = results.reduce((n, r) => n + r.passed, 0);
const failed = results.reduce((n, r) => n + r.failed, 0);
const skipped = results.reduce((n, r) => n + r.skipped, 0);
console.log(`${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''} in ${since(startedAt)} s`);
process.exit(failed > 0 || results.length === 0 ? 1 : 0);
