/**
 * Unpacking an agent's downloaded archive into its own folder, and nowhere else.
 * tar.gz with `tar` (node-tar) and zip with `yauzl`, the maintained readers of
 * their formats. Every entry is checked before anything is written: a path that
 * is absolute or climbs out with `..`, a link whose target leaves the folder, or
 * an entry that is not a file, folder or link refuses the whole archive
 * ({@link UnsafeArchiveError}), so a hostile archive writes nothing at all.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import { pipeline } from 'node:stream/promises';
import * as tar from 'tar';
import * as yauzl from 'yauzl';

/** The archive would write outside its folder, or holds something other than files, folders and links. */
export class UnsafeArchiveError extends Error {
	constructor(readonly entry: string, reason: string) {
		super(`The archive was refused: entry ${JSON.stringify(entry.length > 200 ? `${entry.slice(0, 200)}…` : entry)} ${reason}. Nothing was unpacked.`);
		this.name = 'UnsafeArchiveError';
	}
}

import type { ArchiveKind } from '../common/registry';

interface Entry {
	readonly name: string;
	readonly kind: 'file' | 'directory' | 'symlink' | 'hardlink' | 'other';
	/** For links: the target as written in the archive. */
	readonly target?: string;
}

/**
 * Where an entry lands inside `root`, or the reason it may not. Names use `/`
 * (tar and zip both do); a backslash is taken as a separator too, since Windows
 * would treat it as one.
 */
function landing(root: string, name: string): string {
	const normalized = name.replace(/\\/g, '/');
	if (normalized.startsWith('/') || /^[A-Za-z]:/.test(normalized)) {
		throw new UnsafeArchiveError(name, 'has an absolute path');
	}
	if (normalized.split('/').includes('..')) {
		throw new UnsafeArchiveError(name, 'climbs out of the folder with ".."');
	}
	const target = path.resolve(root, normalized);
	if (!isInside(root, target)) {
		throw new UnsafeArchiveError(name, 'lands outside the folder');
	}
	return target;
}

function isInside(root: string, target: string): boolean {
	const relative = path.relative(root, target);
	return relative === '' || (!relative.startsWith('..') && !path.isAbsolute(relative));
}

/** Checks every entry; throws on the first that is unsafe. */
export function checkEntries(root: string, entries: readonly Entry[]): void {
	for (const entry of entries) {
		const at = landing(root, entry.name);
		if (entry.kind === 'other') {
			throw new UnsafeArchiveError(entry.name, 'is not a file, folder or link');
		}
		if (entry.kind === 'symlink' || entry.kind === 'hardlink') {
			const target = (entry.target ?? '').replace(/\\/g, '/');
			if (target === '' || target.startsWith('/') || /^[A-Za-z]:/.test(target)) {
				throw new UnsafeArchiveError(entry.name, `is a link to ${JSON.stringify(entry.target)}, outside the folder`);
			}
			// A symbolic link is relative to its own folder; a tar hard link names a path from the archive's root.
			const resolved = entry.kind === 'symlink' ? path.resolve(path.dirname(at), target) : path.resolve(root, target);
			if (!isInside(root, resolved)) {
				throw new UnsafeArchiveError(entry.name, `is a link to ${JSON.stringify(entry.target)}, outside the folder`);
			}
		}
	}
}

/** Unpacks `file` into the empty folder `root`; refuses the whole archive if any entry is unsafe. */
export async function extractArchive(file: string, kind: Exclude<ArchiveKind, 'raw'>, root: string): Promise<void> {
	await fs.promises.mkdir(root, { recursive: true });
	const resolvedRoot = await fs.promises.realpath(root);
	if (kind === 'tar.gz') {
		await extractTar(file, resolvedRoot);
	} else {
		await extractZip(file, resolvedRoot);
	}
}

const TAR_KINDS: Record<string, Entry['kind']> = {
	File: 'file',
	OldFile: 'file',
	ContiguousFile: 'file',
	Directory: 'directory',
	SymbolicLink: 'symlink',
	Link: 'hardlink',
};

async function extractTar(file: string, root: string): Promise<void> {
	const entries: Entry[] = [];
	await tar.list({
		file,
		strict: true,
		onReadEntry: (entry) => {
			entries.push({ name: entry.path, kind: TAR_KINDS[entry.type] ?? 'other', target: entry.linkpath });
		},
	});
	checkEntries(root, entries);
	await tar.extract({
		file,
		cwd: root,
		strict: true,
		preservePaths: false,
		preserveOwner: false,
		// Checked above already; checked again as each entry is written, in case the two readings differ.
		filter: (name, entry) => {
			const kind = 'type' in entry ? (TAR_KINDS[entry.type] ?? 'other') : 'file';
			checkEntries(root, [{ name, kind, target: 'linkpath' in entry ? entry.linkpath : undefined }]);
			return true;
		},
	});
}

function openZip(file: string): Promise<yauzl.ZipFile> {
	return new Promise((resolve, reject) => {
		// decodeStrings: false, so yauzl hands over names as they are and the checks here decide.
		yauzl.open(file, { lazyEntries: true, decodeStrings: false, validateEntrySizes: true, autoClose: false }, (error, zip) => (error ? reject(error) : resolve(zip)));
	});
}

function zipName(entry: yauzl.Entry): string {
	const raw = entry.fileName as unknown as Buffer;
	// Bit 11: the name is UTF-8; otherwise CP437, which agrees with UTF-8 on the ASCII that paths need.
	return raw.toString(entry.generalPurposeBitFlag & 0x800 ? 'utf8' : 'latin1');
}

function zipMode(entry: yauzl.Entry): number {
	return (entry.externalFileAttributes >>> 16) & 0xffff;
}

function zipKind(entry: yauzl.Entry, name: string): Entry['kind'] {
	const type = zipMode(entry) & 0o170000;
	if (type === 0o120000) {
		return 'symlink';
	}
	if (name.endsWith('/') || type === 0o040000) {
		return 'directory';
	}
	return type === 0 || type === 0o100000 ? 'file' : 'other';
}

function readStream(zip: yauzl.ZipFile, entry: yauzl.Entry): Promise<NodeJS.ReadableStream> {
	return new Promise((resolve, reject) => zip.openReadStream(entry, (error, stream) => (error ? reject(error) : resolve(stream))));
}

async function readAll(stream: NodeJS.ReadableStream, limit: number): Promise<string> {
	const chunks: Buffer[] = [];
	let size = 0;
	for await (const chunk of stream) {
		size += (chunk as Buffer).length;
		if (size > limit) {
			throw new Error('a link target in the archive is too long');
		}
		chunks.push(chunk as Buffer);
	}
	return Buffer.concat(chunks).toString('utf8');
}

/** Calls `each` for every entry of the zip in order. */
async function forEachZipEntry(zip: yauzl.ZipFile, each: (entry: yauzl.Entry) => Promise<void>): Promise<void> {
	await new Promise<void>((resolve, reject) => {
		zip.on('entry', (entry: yauzl.Entry) => {
			each(entry).then(
				() => zip.readEntry(),
				(error: unknown) => reject(error),
			);
		});
		zip.once('end', () => resolve());
		zip.once('error', reject);
		zip.readEntry();
	});
}

async function extractZip(file: string, root: string): Promise<void> {
	// First reading: names, kinds and link targets, all checked before anything is written.
	const entries: Entry[] = [];
	let zip = await openZip(file);
	try {
		await forEachZipEntry(zip, async (entry) => {
			const name = zipName(entry);
			const kind = zipKind(entry, name);
			entries.push({ name, kind, target: kind === 'symlink' ? await readAll(await readStream(zip, entry), 4096) : undefined });
		});
	} finally {
		zip.close();
	}
	checkEntries(root, entries);
	// Second reading: write.
	zip = await openZip(file);
	try {
		await forEachZipEntry(zip, async (entry) => {
			const name = zipName(entry);
			const kind = zipKind(entry, name);
			const at = landing(root, name);
			if (kind === 'directory') {
				await fs.promises.mkdir(at, { recursive: true });
				return;
			}
			await fs.promises.mkdir(path.dirname(at), { recursive: true });
			if (kind === 'symlink') {
				const target = await readAll(await readStream(zip, entry), 4096);
				checkEntries(root, [{ name, kind, target }]);
				await fs.promises.symlink(target, at);
				return;
			}
			// Keep the executable bits the archive gives; never set-id bits.
			const mode = zipMode(entry) & 0o777 || 0o644;
			await pipeline(await readStream(zip, entry), fs.createWriteStream(at, { mode, flags: 'wx' }));
		});
	} finally {
		zip.close();
	}
}
