// The entry VS Code calls inside the extension host (extensionTestsPath): runs the mocha files of one
// suite folder, chosen by AGENT_LINK_TEST_SUITE (default "main"). Works the same under code-server and
// @vscode/test-electron.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import Mocha from 'mocha';
import { focusReport, focusTrails, frameReport, hasBrowser, screenshot, webviewQuery } from './browser';
import { api } from './util';

/**
 * Where the keyboard was and what the workbench showed the moment a test failed, taken then
 * (mocha's 'fail' event), before the suite's own after-each hooks close its editors and chats.
 */
let atFailure: Promise<{ focus: string; shot: string }> | undefined;

/** What failed, in short, for the driver's digest under the summary (the full report scrolls by above, and a CI log may keep only the digest). */
const failed: { title: string; error: string }[] = [];

/** The log's lines that tell a lost key press from a slow page: warnings, errors and the chat page's loads. */
const TELLING = /^\[(warn|error)\]|[Cc]hat page/;

function captureAtFailure(title: string): Promise<{ focus: string; shot: string }> {
	const dir = process.env.AGENT_LINK_FAILURE_SHOTS ?? os.tmpdir();
	const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${title.replace(/[^\w-]+/g, '-').slice(0, 80)}.png`);
	const focus = focusReport().then((frames) => frames.join('; ') || 'no frame has the focus');
	fs.mkdirSync(dir, { recursive: true });
	const shot = screenshot(file).then(() => file);
	return Promise.all([focus, shot]).then(([f, s]) => ({ focus: f, shot: s }));
}

/**
 * After a failed test: the end of Agent Link's log; in the browser also where the keyboard was
 * (printed with the report, so a CI log tells a lost key press from a slow page), what the chat
 * pages hold, and a screenshot of the workbench (in AGENT_LINK_FAILURE_SHOTS, set by the runner),
 * its path printed.
 */
async function reportFailure(this: Mocha.Context): Promise<void> {
	const test = this.currentTest;
	if (test?.state !== 'failed') {
		return;
	}
	const digest = [...failed].reverse().find((f) => f.title === test.fullTitle());
	try {
		const recent = (await api()).recentLog();
		const log = recent.slice(-25);
		console.log(`      Agent Link's log at failure (last ${log.length} lines):\n${log.map((l) => `        ${l}`).join('\n')}`);
		const telling = recent.slice(-80).filter((l) => TELLING.test(l)).slice(-4);
		if (digest && telling.length > 0) {
			digest.error += `\nlog: ${telling.map((l) => l.slice(0, 200)).join('\n     ')}`;
		}
	} catch (error) {
		console.log(`      (no log: ${error instanceof Error ? error.message : String(error)})`);
	}
	if (!hasBrowser()) {
		return;
	}
	try {
		const then = await atFailure?.catch((error: unknown) => ({ focus: `not known (${error instanceof Error ? error.message : String(error)})`, shot: '' }));
		atFailure = undefined;
		if (then) {
			console.log(`      keyboard when it failed: ${then.focus}${then.shot ? `; screenshot then: ${then.shot}` : ''}`);
			if (digest) {
				digest.error += `\nkeyboard when it failed: ${then.focus.slice(0, 300)}`;
			}
		}
		console.log(`      keyboard at failure: ${(await focusReport()).join('; ') || 'no frame has the focus'}`);
		const pages = await webviewQuery('#app');
		if (pages.count === 0 && (await api()).chatController.visible) {
			// The chat is on screen but no page of it is drawn: what the webview's frames hold.
			const frames = await frameReport();
			console.log(`      webview frames at failure (no chat page drawn):\n${frames.map((f) => `        ${f}`).join('\n')}`);
			if (digest) {
				digest.error += `\nwebview frames: ${frames.join(' | ').slice(0, 600)}`;
			}
		}
		if (pages.count > 0) {
			const input = (await webviewQuery('textarea.prompt-input')).texts;
			const users = (await webviewQuery('.entry-user .plain-text')).texts;
			console.log(`      chat pages at failure: ${pages.count}; inputs ${JSON.stringify(input)}; prompts ${JSON.stringify(users.slice(-3))}`);
			const trail = (await focusTrails()).at(-1) ?? [];
			console.log(`      the chat page's last keys and focus moves:\n${trail.map((t) => `        ${t}`).join('\n')}`);
			if (digest && trail.length > 0) {
				digest.error += `\nchat page's keys and focus: ${trail.slice(-12).join(' | ').slice(0, 900)}`;
			}
		}
		const dir = process.env.AGENT_LINK_FAILURE_SHOTS ?? os.tmpdir();
		fs.mkdirSync(dir, { recursive: true });
		const file = path.join(dir, `${new Date().toISOString().replace(/[:.]/g, '-')}-${test.title.replace(/[^\w-]+/g, '-').slice(0, 80)}.png`);
		await screenshot(file);
		console.log(`      screenshot after the suite's clean-up: ${file}`);
	} catch (error) {
		console.log(`      (no failure report: ${error instanceof Error ? error.message : String(error)})`);
	}
}

export function run(): Promise<void> {
	// Several suites may share one window (a suite's `guests` in test/vscode/suites.mjs): each one's files in turn.
	const suites = (process.env.AGENT_LINK_TEST_SUITE || 'main').split(',');
	const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec', rootHooks: { afterEach: reportFailure } });
	if (process.env.AGENT_LINK_TEST_GREP) {
		mocha.grep(process.env.AGENT_LINK_TEST_GREP);
	}
	for (const suite of suites) {
		const dir = path.join(__dirname, suite);
		for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) {
			mocha.addFile(path.join(dir, file));
		}
	}
	return new Promise((resolve, reject) => {
		const runner = mocha.run((failures) => {
			// The test driver counts tests from this file (the extension host shares the machine).
			const resultsFile = process.env.AGENT_LINK_TEST_RESULTS;
			if (resultsFile) {
				const { passes, failures: failedCount, pending, tests } = runner.stats ?? { passes: 0, failures, pending: 0, tests: 0 };
				fs.writeFileSync(resultsFile, JSON.stringify({ suite: suites.join(','), passes, failures: failedCount, pending, tests, failed }));
			}
			if (failures > 0) {
				reject(new Error(`${failures} test(s) failed.`));
			} else {
				resolve();
			}
		});
		runner.on('fail', (test: Mocha.Runnable, error: unknown) => {
			if (hasBrowser()) {
				atFailure = captureAtFailure(test.title);
			}
			const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
			failed.push({ title: test.fullTitle(), error: message.split('\n').slice(0, 12).join('\n') });
		});
	});
}
