// The copy of the workspace a chat turn takes when it starts (src/vscode/chat/fileSnapshots.ts,
// plain Node): bounded in count, size per file and size in all, each bound said when it is met;
// .git and node_modules skipped; a file that is not UTF-8 text noted without its text; an
// unchanged file's copy reused.
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, describe, it } from 'node:test';
import { FileSnapshots } from '../../src/vscode/chat/fileSnapshots';

describe('turn files: the copy of the workspace when a turn starts', () => {
	const root = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-link-snapshots-'));
	after(() => fs.rmSync(root, { recursive: true, force: true }));
	const write = (relative: string, content: string | Uint8Array) => {
		const file = path.join(root, relative);
		fs.mkdirSync(path.dirname(file), { recursive: true });
		fs.writeFileSync(file, content);
		return file;
	};

	it('copies every file within the bounds, skipping .git and node_modules, and says nothing was cut', async () => {
		const folder = path.join(root, 'small');
		const a = write('small/a.txt', 'a\n');
		const b = write('small/src/b.ts', 'export const b = 1;\n');
		write('small/.git/HEAD', 'ref: refs/heads/main\n');
		write('small/node_modules/x/index.js', 'module.exports = 1;\n');
		const capture = await new FileSnapshots().capture([folder]);
		assert.deepEqual([...capture.files.keys()].sort(), [a, b].sort());
		assert.equal(capture.files.get(b)?.text, 'export const b = 1;\n');
		assert.equal(capture.complete, true);
		assert.equal(capture.cut, undefined);
	});

	it('keeps a file over the size bound without its text, and says so', async () => {
		const folder = path.join(root, 'large');
		const small = write('large/small.txt', 'small\n');
		const big = write('large/big.txt', 'x'.repeat(200));
		const capture = await new FileSnapshots({ maxFiles: 100, maxFileBytes: 100, maxTotalBytes: 10_000 }).capture([folder]);
		assert.equal(capture.files.get(small)?.text, 'small\n');
		assert.equal(capture.files.get(big)?.text, undefined);
		assert.equal(capture.files.get(big)?.size, 200, 'its size and time are kept: a change to it is still found');
		assert.match(capture.files.get(big)?.skipped ?? '', /larger than/);
		assert.match(capture.cut ?? '', /files over .* are not copied/);
		assert.equal(capture.complete, true, 'every file is listed');
	});

	it('stops copying text at the total bound, and says so', async () => {
		const folder = path.join(root, 'total');
		const files = ['one', 'two', 'three'].map((name) => write(`total/${name}.txt`, name.padEnd(40, '.')));
		const capture = await new FileSnapshots({ maxFiles: 100, maxFileBytes: 100, maxTotalBytes: 100 }).capture([folder]);
		assert.equal(files.filter((f) => capture.files.get(f)?.text !== undefined).length, 2, 'two of 40 bytes fit in 100');
		assert.match(capture.cut ?? '', /are copied in all/);
		assert.equal(capture.files.size, 3, 'the third is listed without its text');
	});

	it('lists at most so many files, breadth first, says so, and the copy is not complete (a file not in it may have existed)', async () => {
		const folder = path.join(root, 'count');
		const top = ['a', 'b'].map((name) => write(`count/${name}.txt`, name));
		write('count/deep/c.txt', 'c');
		write('count/deep/d.txt', 'd');
		const capture = await new FileSnapshots({ maxFiles: 3, maxFileBytes: 100, maxTotalBytes: 10_000 }).capture([folder]);
		assert.equal(capture.files.size, 3);
		assert.ok(top.every((f) => capture.files.has(f)), 'the top folder first');
		assert.match(capture.cut ?? '', /only the first 3 files are copied/);
		assert.equal(capture.complete, false);
	});

	it('notes a file that is not UTF-8 text without its text, and reuses the copy of a file that did not change', async () => {
		const folder = path.join(root, 'kinds');
		const binary = write('kinds/image.bin', new Uint8Array([0xff, 0xfe, 0x00, 0x80]));
		const textFile = write('kinds/notes.md', '# Notes\n');
		const snapshots = new FileSnapshots();
		const first = await snapshots.capture([folder]);
		assert.equal(first.files.get(binary)?.text, undefined);
		assert.equal(first.files.get(binary)?.skipped, 'not UTF-8 text');
		const second = await snapshots.capture([folder]);
		assert.equal(second.files.get(textFile), first.files.get(textFile), 'the same copy, not read again');
		fs.writeFileSync(textFile, '# Notes, longer now\n');
		const third = await snapshots.capture([folder]);
		assert.equal(third.files.get(textFile)?.text, '# Notes, longer now\n');
		assert.equal((await snapshots.one(textFile))?.text, '# Notes, longer now\n');
		assert.equal(await snapshots.one(path.join(folder, 'missing.txt')), undefined);
	});
});
