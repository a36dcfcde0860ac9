/**
 * Copies of the workspace's files, taken when a chat turn starts (and again when it ends), so a
 * change an agent makes on disk, with its own tools or a shell command, can be shown and undone.
 * Bounded ({@link SNAPSHOT_LIMITS}): so many files, so large each, so many bytes in all; `.git`
 * and `node_modules` are skipped, symbolic links not followed, and a file that is not UTF-8 text
 * is noted without its text. A copy is taken again only for files whose size or modification time
 * changed, so a turn's start costs a walk of the folders.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { SKIPPED_FOLDERS, SNAPSHOT_LIMITS, type SnapshotLimits } from '../../common/chat/turnFiles';

/** A file as copied: its size and time, and its text (or why it was not kept). */
export interface Snap {
	readonly size: number;
	readonly mtimeMs: number;
	readonly text?: string;
	/** Why the text was not kept: too large, over the total, not UTF-8 text. */
	readonly skipped?: string;
}

/** The files of some folders at a moment. */
export interface Capture {
	readonly files: ReadonlyMap<string, Snap>;
	/** Set when the bounds left files out or without their text: says which bound. */
	readonly cut?: string;
	/** Every file of the folders is listed (the count bound was not met): a file not listed did not exist. */
	readonly complete: boolean;
}

/** How many files are looked at together. */
const BATCH = 64;

export class FileSnapshots {
	/** The last copy of each file, to reuse while its size and time are the same. */
	private cache = new Map<string, Snap>();

	constructor(readonly limits: SnapshotLimits = SNAPSHOT_LIMITS) {}

	/** The files under `roots` now, within the bounds. */
	async capture(roots: readonly string[]): Promise<Capture> {
		const { files: paths, cut: listCut } = await this.list(roots);
		const files = new Map<string, Snap>();
		let budget = this.limits.maxTotalBytes;
		let cut = listCut;
		for (let i = 0; i < paths.length; i += BATCH) {
			const batch = paths.slice(i, i + BATCH);
			const stats = await Promise.all(batch.map((p) => fs.stat(p).catch(() => undefined)));
			const reads = batch.map(async (file, j) => {
				const stat = stats[j];
				if (!stat?.isFile()) {
					return;
				}
				const cached = this.cache.get(file);
				const fits = stat.size <= this.limits.maxFileBytes && stat.size <= budget;
				if (fits) {
					budget -= stat.size;
				} else {
					cut ??= stat.size > this.limits.maxFileBytes ? `files over ${mb(this.limits.maxFileBytes)} are not copied` : `only ${mb(this.limits.maxTotalBytes)} are copied in all`;
				}
				const snap = cached && cached.size === stat.size && cached.mtimeMs === stat.mtimeMs && (cached.text !== undefined) === fits ? cached : await this.read(file, stat, fits);
				files.set(file, snap);
			});
			await Promise.all(reads);
		}
		this.cache = new Map(files);
		return { files, complete: listCut === undefined, ...(cut !== undefined ? { cut } : {}) };
	}

	/** One file now (a file a tool call names), within the size bound; undefined when there is none. */
	async one(file: string): Promise<Snap | undefined> {
		const stat = await fs.stat(file).catch(() => undefined);
		if (!stat?.isFile()) {
			return undefined;
		}
		return this.read(file, stat, stat.size <= this.limits.maxFileBytes);
	}

	private async read(file: string, stat: { size: number; mtimeMs: number }, keep: boolean): Promise<Snap> {
		const base = { size: stat.size, mtimeMs: stat.mtimeMs };
		if (!keep) {
			return { ...base, skipped: stat.size > this.limits.maxFileBytes ? `larger than ${mb(this.limits.maxFileBytes)}` : `over the ${mb(this.limits.maxTotalBytes)} copied when the turn started` };
		}
		const bytes = await fs.readFile(file).catch(() => undefined);
		if (!bytes) {
			return { ...base, skipped: 'could not be read' };
		}
		try {
			return { ...base, text: new TextDecoder('utf-8', { fatal: true }).decode(bytes) };
		} catch {
			return { ...base, skipped: 'not UTF-8 text' };
		}
	}

	/** The files under `roots`, breadth first, at most `maxFiles`; skipped folders and symbolic links left out. */
	private async list(roots: readonly string[]): Promise<{ files: string[]; cut?: string }> {
		const files: string[] = [];
		const queue = [...roots];
		while (queue.length > 0) {
			const dir = queue.shift()!;
			const entries = await fs.readdir(dir, { withFileTypes: true }).catch(() => []);
			for (const entry of entries) {
				const full = path.join(dir, entry.name);
				if (entry.isDirectory()) {
					if (!SKIPPED_FOLDERS.has(entry.name)) {
						queue.push(full);
					}
				} else if (entry.isFile()) {
					if (files.length >= this.limits.maxFiles) {
						return { files, cut: `only the first ${this.limits.maxFiles} files are copied` };
					}
					files.push(full);
				}
			}
		}
		return { files };
	}
}

function mb(bytes: number): string {
	return bytes >= 1024 * 1024 ? `${Math.round(bytes / (1024 * 1024))} MB` : `${Math.round(bytes / 1024)} KB`;
}
