// The same suites under @vscode/test-electron, the ecosystem's standard runner, for a desktop with
// internet access (it downloads VS Code; these offline CI machines use code-server instead):
//
//   node scripts/test.mjs --tier=vscode --runner=electron [--target=min,latest]
//
// Same signature as run.mjs's runTests, so scripts/test.mjs can use either.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { DEFAULT_USER_SETTINGS } from './run.mjs';

/** `min` is the oldest VS Code in package.json's engines; `latest` the newest stable. */
const VERSIONS = { min: '1.100.3', latest: 'stable' };

/**
 * @param {import('./run.mjs').RunOptions} options
 * @returns {Promise<number>} the tests' exit code
 */
export async function runTests(options) {
	const { runTests: electronRunTests } = await import('@vscode/test-electron');
	const scratch = mkdtempSync(join(tmpdir(), 'agent-link-electron-'));
	const profile = options.profileDir ?? scratch;
	const userDataDir = join(profile, 'user-data');
	mkdirSync(join(userDataDir, 'User'), { recursive: true });
	writeFileSync(
		join(userDataDir, 'User', 'settings.json'),
		JSON.stringify({ ...DEFAULT_USER_SETTINGS, 'security.workspace.trust.enabled': Boolean(options.workspaceTrust), 'security.workspace.trust.startupPrompt': 'never', ...options.userSettings }, null, 2),
	);
	try {
		await electronRunTests({
			version: VERSIONS[options.target ?? 'min'],
			extensionDevelopmentPath: options.extensionDevelopmentPath,
			extensionTestsPath: options.extensionTestsPath,
			extensionTestsEnv: options.env,
			launchArgs: [
				...(options.workspace ? [options.workspace] : []),
				'--user-data-dir', userDataDir,
				'--extensions-dir', join(profile, 'extensions'),
				'--disable-extensions',
				...(options.workspaceTrust ? [] : ['--disable-workspace-trust']),
			],
		});
		return 0;
	} catch (error) {
		console.error(error instanceof Error ? error.message : String(error));
		return 1;
	} finally {
		if (!options.profileDir) {
			rmSync(scratch, { recursive: true, force: true });
		}
	}
}
