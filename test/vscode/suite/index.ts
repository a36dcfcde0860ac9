// The entry VS Code calls inside the extension host (extensionTestsPath): runs the mocha files of one
// suite folder, chosen by AGENT_LINK_TEST_SUITE (default "main"). Works the same under code-server and
// @vscode/test-electron.
import * as fs from 'node:fs';
import * as path from 'node:path';
import Mocha from 'mocha';

export function run(): Promise<void> {
	const suite = process.env.AGENT_LINK_TEST_SUITE || 'main';
	const mocha = new Mocha({ ui: 'bdd', color: false, timeout: 60_000, reporter: 'spec' });
	if (process.env.AGENT_LINK_TEST_GREP) {
		mocha.grep(process.env.AGENT_LINK_TEST_GREP);
	}
	const dir = path.join(__dirname, suite);
	for (const file of fs.readdirSync(dir).filter((f) => f.endsWith('.test.js')).sort()) {
		mocha.addFile(path.join(dir, file));
	}
	return new Promise((resolve, reject) => {
		// What failed, in short, for the driver's digest under the summary (the full report scrolls by above).
		const failed: { title: string; error: string }[] = [];
		const runner = mocha.run((failures) => {
			// The test driver counts tests from this file (the extension host shares the machine).
			const resultsFile = process.env.AGENT_LINK_TEST_RESULTS;
			if (resultsFile) {
				const { passes, failures: failedCount, pending, tests } = runner.stats ?? { passes: 0, failures, pending: 0, tests: 0 };
				fs.writeFileSync(resultsFile, JSON.stringify({ suite, passes, failures: failedCount, pending, tests, failed }));
			}
			if (failures > 0) {
				reject(new Error(`${failures} test(s) failed.`));
			} else {
				resolve();
			}
		});
		runner.on('fail', (test: Mocha.Runnable, error: unknown) => {
			const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
			failed.push({ title: test.fullTitle(), error: message.split('\n').slice(0, 12).join('\n') });
		});
	});
}
