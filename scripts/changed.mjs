// Which test tiers and VS Code suites a change touches, for `node scripts/test.mjs --changed[=<base>]`:
// the files changed since the merge base of HEAD and <base> (default main), plus the ones changed
// and not yet committed (untracked included), each mapped by the first rule below that matches it.
// A file no narrower rule names runs every tier and every suite, so the map can only err towards
// running more. Suites are named by prefix: `chat-` is every chat suite, a new one included.
import { execFileSync } from 'node:child_process';

const ALL_TIERS = ['static', 'unit', 'protocol', 'vscode', 'start'];
const EVERY_SUITE = [''];
/** The suites of each feature area of src/ (prefixes of suite names). */
const CHAT = ['chat-', 'one-process', 'openctx'];
const NES = ['nes-', 'one-process', 'openctx', 'editor-state'];

/** [path pattern, tiers, suite prefixes (or a function of the match)]: the first rule that matches a file wins. */
const RULES = [
	// Prose: nothing to run. (The README is also the packaged extension's page; no test reads it.)
	[/^(docs\/|.*\.md$|LICENSE$)/, [], []],
	[/^test\/vscode\/suite\/([^/]+)\//, ['static', 'vscode'], (m) => [m[1]]],
	[/^test\/vscode\/suite\/[^/]+$/, ['static', 'vscode'], EVERY_SUITE],
	[/^test\/vscode\/runner\//, ['static', 'unit', 'vscode', 'start'], EVERY_SUITE],
	[/^test\/unit\//, ['static', 'unit'], []],
	[/^test\/protocol\//, ['static', 'protocol'], []],
	[/^test\/fixtures\//, ['static', 'protocol', 'vscode'], EVERY_SUITE],
	[/^test\/start\/|^samples\/|^scripts\/(start|linkExtension)\.mjs$/, ['static', 'start'], []],
	[/^bench\//, ['static'], []],
	[/^(src\/webview\/|media\/chat)/, ['static', 'unit', 'vscode', 'start'], CHAT],
	[/^src\/common\/chat\//, ['static', 'unit', 'protocol', 'vscode', 'start'], CHAT],
	[/^src\/vscode\/chat\//, ['static', 'unit', 'vscode', 'start'], CHAT],
	[/^src\/node\/terminalProcess/, ['static', 'protocol', 'vscode'], ['chat-terminals', 'chat-sessions']],
	[/^src\/common\/nes\//, ['static', 'unit', 'protocol', 'vscode'], NES],
	[/^src\/vscode\/nes\//, ['static', 'unit', 'vscode'], NES],
	[/^src\/nes-agent\//, ['static', 'unit', 'protocol', 'vscode', 'start'], ['nes-builtin', 'chat-panel', 'one-process']],
	[/^src\/(common|vscode)\/openctx\//, ['static', 'unit', 'vscode'], ['openctx']],
	[/^src\/(common|node|vscode)\/editorTools?\b/, ['static', 'unit', 'protocol', 'vscode'], ['editor-tools']],
	[/^src\/(common|vscode)\/editorState/, ['static', 'unit', 'protocol', 'vscode'], ['editor-state', 'nes-']],
	[/^src\/(common\/registry|node\/(registryClient|archive)|vscode\/registry)/, ['static', 'unit', 'protocol', 'vscode'], ['registry']],
]; // anything else (src/ outside these areas, package.json, build and lint set-up, the test driver): everything

/**
 * @param {string} root the repository
 * @param {string} base a branch or commit to compare with
 * @returns {string[]} the changed files, relative to the repository, sorted
 */
export function changedFiles(root, base) {
	const git = (...args) => execFileSync('git', args, { cwd: root, encoding: 'utf8' }).split('\n').filter(Boolean);
	const since = git('merge-base', 'HEAD', base)[0];
	return [...new Set([...git('diff', '--name-only', since), ...git('ls-files', '--others', '--exclude-standard')])].sort();
}

/**
 * What to run for these changed files.
 * @param {string[]} files
 * @returns {{ tiers: string[], suites: string[], why: string[] }} suites: prefixes of suite names ('' = every suite)
 */
export function selectTests(files) {
	const tiers = new Set();
	const suites = new Set();
	const why = [];
	for (const file of files) {
		const rule = RULES.find(([pattern]) => pattern.test(file));
		const match = rule?.[0].exec(file);
		const [fileTiers, fileSuites] = rule ? [rule[1], typeof rule[2] === 'function' ? rule[2](match) : rule[2]] : [ALL_TIERS, EVERY_SUITE];
		for (const t of fileTiers) tiers.add(t);
		for (const s of fileTiers.includes('vscode') ? fileSuites : []) suites.add(s);
		why.push(`${file}: ${fileTiers.join(', ') || 'nothing'}${fileTiers.includes('vscode') ? ` (suites ${fileSuites.map((s) => (s === '' ? 'all' : s.endsWith('-') ? `${s}*` : s)).join(', ')})` : ''}`);
	}
	return { tiers: ALL_TIERS.filter((t) => tiers.has(t)), suites: [...suites], why };
}

/** Whether suite `name` is one of the selected prefixes. */
export function suiteSelected(name, prefixes) {
	return prefixes.some((p) => p === '' || name === p || (p.endsWith('-') && name.startsWith(p)) || name.startsWith(`${p}-`));
}
