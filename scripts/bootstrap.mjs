// Makes a fresh clone runnable: installs the npm dependencies (npm ci) when node_modules is
// missing or older than package-lock.json. Uses only Node built-ins (and the runner's helpers,
// which use only those), so it runs before anything is installed.
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { log, runCommand } from '../test/vscode/runner/common.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/** Runs npm ci when needed; its output is printed line by line, each line stamped. */
export async function ensureDependencies() {
	const lock = join(root, 'package-lock.json');
	const installed = join(root, 'node_modules', '.package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) {
		return;
	}
	log('installing the npm dependencies (npm ci)');
	const started = Date.now();
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = await runCommand(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, shell: process.platform === 'win32', echo: true });
	if (result.code !== 0) {
		throw new Error(`npm ci failed with exit code ${String(result.code ?? result.signal)}`);
	}
	log(`npm dependencies installed in ${Math.round((Date.now() - started) / 1000)} s`);
}
