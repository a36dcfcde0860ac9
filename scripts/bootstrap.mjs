// Makes a fresh clone runnable: installs the npm dependencies (npm ci) when node_modules is
// missing or older than package-lock.json. Uses only Node built-ins, so it runs before anything
// is installed.
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

export function ensureDependencies() {
	const lock = join(root, 'package-lock.json');
	const installed = join(root, 'node_modules', '.package-lock.json');
	if (existsSync(installed) && statSync(installed).mtimeMs >= statSync(lock).mtimeMs) {
		return;
	}
	console.log('Installing npm dependencies (npm ci)…');
	const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
	const result = spawnSync(npm, ['ci', '--no-audit', '--no-fund'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
	if (result.status !== 0) {
		throw new Error(`npm ci failed with exit code ${String(result.status)}`);
	}
}
