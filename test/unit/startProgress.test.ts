import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { InstallProgress, folderBytes, lineSplitter, stampLines } from '../vscode/runner/progress.mjs';

// What `npm start` prints while it sets up: each line with its own time, and the first install of
// VS Code with what npm downloads and compiles.

describe('start-up log lines', () => {
	it('stamps every line of a message, to the millisecond', () => {
		const at = new Date(Date.UTC(2026, 0, 2, 3, 4, 5, 678));
		assert.equal(stampLines('one\ntwo\n', at), '[vscode-test 03:04:05.678] one\n[vscode-test 03:04:05.678] two\n');
		assert.equal(stampLines('', at), '[vscode-test 03:04:05.678] \n');
	});

	it('gives each line when it is complete, so it is stamped when it came', () => {
		const seen: string[] = [];
		const feed = lineSplitter((line) => seen.push(line));
		feed('first li');
		assert.deepEqual(seen, []);
		feed('ne\r\nsecond\nthi');
		assert.deepEqual(seen, ['first line', 'second']);
		// a character cut between two chunks
		const euro = Buffer.from('€\n');
		feed(euro.subarray(0, 1));
		feed(euro.subarray(1));
		assert.deepEqual(seen, ['first line', 'second', 'thi€']);
		feed('last, without an end');
		feed.flush();
		assert.deepEqual(seen.at(-1), 'last, without an end');
	});
});

describe('install progress from npm output', () => {
	const registry = 'https://registry.example';
	it('counts packages downloaded, from the cache and looked up, and says the step', () => {
		const progress = new InstallProgress();
		assert.equal(progress.feed(`npm http fetch GET 200 ${registry}/code-server 120ms (cache miss)`), undefined);
		assert.equal(progress.summary(3, 0), '3 s, 0.0 MB on disk; 0 packages downloaded, 1 looked up; now looking up the packages');
		progress.feed(`npm http fetch GET 200 ${registry}/code-server/-/code-server-4.139.1.tgz 5210ms (cache miss)`);
		progress.feed(`npm http fetch GET 200 ${registry}/@coder/logger/-/logger-3.0.1.tgz 40ms (cache revalidated)`);
		progress.feed(`npm http cache argon2@${registry}/argon2/-/argon2-0.44.0.tgz 0ms (cache hit)`);
		assert.equal(progress.step, 'unpacking the packages');
		progress.feed(`npm http fetch GET 200 ${registry}/express/-/express-5.1.0.tgz 300ms (cache miss)`);
		assert.deepEqual([progress.lookedUp, progress.downloaded, progress.fromCache], [1, 3, 1]);
		assert.equal(progress.step, 'downloading (last: express-5.1.0)');
		assert.equal(progress.summary(12.4, 123_456_789), "12 s, 123 MB on disk; 3 packages downloaded, 1 from npm's cache; now downloading (last: express-5.1.0)");
	});

	it('says at once when a native module starts compiling, and which file it compiles', () => {
		const progress = new InstallProgress();
		assert.equal(progress.feed('> code-server@4.139.1 postinstall'), undefined);
		assert.equal(progress.step, "running code-server's postinstall script");
		assert.equal(progress.feed('Installing Code dependencies...'), 'installing the dependencies of the VS Code it bundles');
		progress.feed('> @vscode/sqlite3@5.1.12-vscode install');
		progress.feed('> node-gyp rebuild');
		assert.equal(progress.step, "running @vscode/sqlite3's install script", 'the command line is not a script of its own');
		assert.equal(progress.feed('  CC(target) Release/obj.target/sqlite3/gen/sqlite-autoconf-3390400/sqlite3.o'), 'compiling @vscode/sqlite3, a native module, from source');
		assert.equal(progress.feed('  CXX(target) Release/obj.target/vscode-sqlite3/src/database.o'), undefined, 'said once per module');
		assert.equal(progress.step, 'compiling @vscode/sqlite3 (database.o)');
		progress.feed('added 142 packages in 4m');
		progress.feed('added 1 package in 722ms');
		assert.equal(progress.added, 143);
		assert.equal(progress.summary(200, undefined), '200 s; 0 packages downloaded, 2 native files compiled; now compiling @vscode/sqlite3 (database.o)');
	});

	it('ignores lines it does not know', () => {
		const progress = new InstallProgress();
		for (const line of ['gyp info ok ', 'npm warn Unknown env config "unsafe-perm".', '', '> sh ./postinstall.sh']) {
			assert.equal(progress.feed(line), undefined);
		}
		assert.equal(progress.step, 'looking up the packages');
	});

	it('measures the install folder as it is', async () => {
		const dir = mkdtempSync(join(tmpdir(), 'agent-link-progress-'));
		try {
			mkdirSync(join(dir, 'a', 'b'), { recursive: true });
			writeFileSync(join(dir, 'one'), Buffer.alloc(1000));
			writeFileSync(join(dir, 'a', 'b', 'two'), Buffer.alloc(2345));
			assert.equal(await folderBytes(dir), 3345);
			assert.equal(await folderBytes(join(dir, 'missing')), 0);
		} finally {
			rmSync(dir, { recursive: true, force: true });
		}
	});
});
