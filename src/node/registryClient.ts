/**
 * The ACP Agent Registry on this machine: the catalogue, fetched at most once an
 * hour and cached on disk, and the agents it lists installed into their own
 * folders (`<agents>/<id>/<version>/`), downloaded over HTTPS, verified against
 * the registry's checksum and unpacked safely. Plain HTTP is accepted only from a
 * loopback address.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { errorMessage } from '../common/log';
import type * as archiveModule from './archive';
import { REGISTRY_MAX_AGE_MS, archiveKind, commandInFolder, parseRegistry, type BinaryTarget, type ParsedRegistry, type RegistryAgent } from '../common/registry';

type ArchiveModule = typeof archiveModule;

/** A URL Agent Link will not fetch: not HTTPS, and not plain HTTP on this machine. */
export class InsecureUrlError extends Error {
	constructor(url: string) {
		super(`Agent Link only downloads over HTTPS (plain HTTP only from this machine): ${url}`);
		this.name = 'InsecureUrlError';
	}
}

/** The download does not have the checksum the registry gives. */
export class ChecksumMismatchError extends Error {
	constructor(url: string, expected: string, actual: string) {
		super(`The download of ${url} was refused and removed: its sha256 is ${actual}, but the registry says ${expected.toLowerCase()}.`);
		this.name = 'ChecksumMismatchError';
	}
}

/** The download was cancelled; nothing was kept. */
export class DownloadCancelledError extends Error {
	constructor() {
		super('The download was cancelled.');
		this.name = 'DownloadCancelledError';
	}
}

export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '');
	return host === 'localhost' || host === '::1' || /^127(\.\d{1,3}){3}$/.test(host);
}

/** Throws {@link InsecureUrlError} unless `url` is HTTPS, or HTTP to a loopback address. */
export function checkUrl(url: string): URL {
	let parsed: URL;
	try {
		parsed = new URL(url);
	} catch {
		throw new InsecureUrlError(url);
	}
	if (parsed.protocol === 'https:' || (parsed.protocol === 'http:' && isLoopbackHost(parsed.hostname))) {
		return parsed;
	}
	throw new InsecureUrlError(url);
}

async function get(url: string, signal?: AbortSignal): Promise<Response> {
	checkUrl(url);
	const response = await fetch(url, { signal, redirect: 'follow' });
	// A redirect may not lead somewhere this rule would refuse.
	checkUrl(response.url || url);
	if (!response.ok) {
		throw new Error(`${url} answered ${response.status} ${response.statusText}`.trim());
	}
	return response;
}

export interface Catalogue extends ParsedRegistry {
	readonly url: string;
	/** When this copy was fetched (ms since the epoch). */
	readonly fetchedAt: number;
	/** Set when the registry could not be fetched and this is the last cached copy: why. */
	readonly offline?: string;
}

interface CacheFile {
	readonly url: string;
	readonly fetchedAt: number;
	readonly document: unknown;
}

export interface CatalogueOptions {
	readonly url: string;
	/** Where the cached copy lives (a folder of global storage). */
	readonly cacheDir: string;
	readonly now?: () => number;
	readonly maxAgeMs?: number;
	/** Fetch even if the cached copy is fresh. */
	readonly refresh?: boolean;
	readonly timeoutMs?: number;
}

/**
 * The registry: the cached copy while it is under an hour old, otherwise fetched
 * anew and cached. When fetching fails, the last cached copy is used, with
 * `offline` saying why; with no cached copy either, the error is thrown.
 */
export async function loadCatalogue(options: CatalogueOptions): Promise<Catalogue> {
	const now = options.now ?? Date.now;
	const cacheFile = path.join(options.cacheDir, 'registry.json');
	const cached = await readCache(cacheFile, options.url);
	if (cached && !options.refresh && now() - cached.fetchedAt < (options.maxAgeMs ?? REGISTRY_MAX_AGE_MS)) {
		return { ...cached.registry, url: options.url, fetchedAt: cached.fetchedAt };
	}
	let document: unknown;
	try {
		const response = await get(options.url, AbortSignal.timeout(options.timeoutMs ?? 15_000));
		const text = await response.text();
		try {
			document = JSON.parse(text);
		} catch {
			throw new Error(`${options.url} is not JSON`);
		}
		// Checked before it is cached, so a broken document never replaces a good copy.
		const parsed = parseRegistry(document);
		const fetchedAt = now();
		await fs.promises.mkdir(options.cacheDir, { recursive: true });
		const temp = `${cacheFile}.${randomBytes(4).toString('hex')}`;
		await fs.promises.writeFile(temp, JSON.stringify({ url: options.url, fetchedAt, document } satisfies CacheFile));
		await fs.promises.rename(temp, cacheFile);
		return { ...parsed, url: options.url, fetchedAt };
	} catch (error) {
		if (cached) {
			return { ...cached.registry, url: options.url, fetchedAt: cached.fetchedAt, offline: errorMessage(error) };
		}
		throw new Error(`The agent registry could not be loaded from ${options.url}, and there is no saved copy: ${errorMessage(error)}`);
	}
}

/** The saved copy for `url`, checked once as it is read. */
async function readCache(file: string, url: string): Promise<{ readonly fetchedAt: number; readonly registry: ParsedRegistry } | undefined> {
	try {
		const cache = JSON.parse(await fs.promises.readFile(file, 'utf8')) as Partial<CacheFile>;
		if (cache.url === url && typeof cache.fetchedAt === 'number' && cache.document !== undefined) {
			return { fetchedAt: cache.fetchedAt, registry: parseRegistry(cache.document) };
		}
	} catch {
		// No cache, or one that is unreadable: as if there were none.
	}
	return undefined;
}

export interface InstallProgress {
	/** Bytes received so far, and the total when the server said. */
	(received: number, total: number | undefined): void;
}

export interface InstalledAgent {
	readonly id: string;
	readonly version: string;
	readonly folder: string;
	/** The absolute path of the command to run. */
	readonly command: string;
	readonly args: readonly string[];
	readonly env: Readonly<Record<string, string>>;
}

const MARKER = '.agent-link-install.json';

/**
 * Installs the binary distribution `target` of `agent` into `<agentsDir>/<id>/<version>/`,
 * or reuses it when that version is there already. The download goes to a scratch
 * folder beside it, is checked against `target.sha256` (a mismatch is refused and
 * removed), unpacked with every entry checked, and only then moved into place.
 */
export async function installBinary(agentsDir: string, agent: RegistryAgent, target: BinaryTarget, options: { signal?: AbortSignal; onProgress?: InstallProgress } = {}): Promise<InstalledAgent> {
	const cmd = commandInFolder(target.cmd);
	if (!cmd) {
		throw new Error(`${agent.name}: the registry's command ${JSON.stringify(target.cmd)} is not inside the agent's folder; refused.`);
	}
	const kind = archiveKind(target.archive);
	if (!kind) {
		throw new Error(`${agent.name}: ${target.archive} is in an archive format Agent Link cannot unpack (it unpacks .tar.gz, .tgz, .zip and plain executables).`);
	}
	const home = path.join(agentsDir, agent.id);
	const folder = path.join(home, agent.version);
	const installed = (): InstalledAgent => ({ id: agent.id, version: agent.version, folder, command: path.join(folder, ...cmd.split('/')), args: target.args ?? [], env: target.env ?? {} });
	if (await isInstalled(folder, target)) {
		return installed();
	}
	await fs.promises.mkdir(home, { recursive: true });
	const scratch = await fs.promises.mkdtemp(path.join(home, '.download-'));
	try {
		const file = path.join(scratch, kind === 'raw' ? path.basename(cmd) : 'archive');
		const sha256 = await download(target.archive, file, options);
		if (target.sha256 && sha256 !== target.sha256.toLowerCase()) {
			throw new ChecksumMismatchError(target.archive, target.sha256, sha256);
		}
		const unpacked = path.join(scratch, 'unpacked');
		if (kind === 'raw') {
			await fs.promises.mkdir(path.dirname(path.join(unpacked, cmd)), { recursive: true });
			await fs.promises.rename(file, path.join(unpacked, cmd));
		} else {
			// Loaded here, on first use: the build keeps tar and yauzl in a bundle of their own (dist/archive.js).
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { extractArchive } = require('./archive') as ArchiveModule;
			await extractArchive(file, kind, unpacked);
		}
		const command = path.join(unpacked, ...cmd.split('/'));
		const stat = await fs.promises.lstat(command).catch(() => undefined);
		if (!stat?.isFile()) {
			throw new Error(`${agent.name}: the archive has no file ${cmd} to run.`);
		}
		if (process.platform !== 'win32') {
			await fs.promises.chmod(command, stat.mode | 0o755);
		}
		await fs.promises.writeFile(path.join(unpacked, MARKER), JSON.stringify({ archive: target.archive, sha256, installedAt: new Date().toISOString() }));
		await fs.promises.rm(folder, { recursive: true, force: true });
		await fs.promises.rename(unpacked, folder);
		return installed();
	} finally {
		await fs.promises.rm(scratch, { recursive: true, force: true });
	}
}

async function isInstalled(folder: string, target: BinaryTarget): Promise<boolean> {
	try {
		const marker = JSON.parse(await fs.promises.readFile(path.join(folder, MARKER), 'utf8')) as { archive?: string; sha256?: string };
		return marker.archive === target.archive && (!target.sha256 || marker.sha256 === target.sha256.toLowerCase());
	} catch {
		return false;
	}
}

/** Streams `url` into `file`, hashing as it goes; returns the sha256 in hex. */
async function download(url: string, file: string, options: { signal?: AbortSignal; onProgress?: InstallProgress }): Promise<string> {
	const hash = createHash('sha256');
	try {
		const response = await get(url, options.signal);
		const length = Number(response.headers.get('content-length'));
		const total = Number.isFinite(length) && length > 0 ? length : undefined;
		let received = 0;
		const out = fs.createWriteStream(file, { flags: 'wx' });
		try {
			for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
				hash.update(chunk);
				received += chunk.length;
				if (!out.write(chunk)) {
					await new Promise<void>((resolve) => out.once('drain', () => resolve()));
				}
				options.onProgress?.(received, total);
			}
		} finally {
			await new Promise<void>((resolve, reject) => out.end((error?: Error | null) => (error ? reject(error) : resolve())));
		}
		if (total !== undefined && received !== total) {
			throw new Error(`The download of ${url} ended after ${received} of ${total} bytes.`);
		}
		return hash.digest('hex');
	} catch (error) {
		if (options.signal?.aborted) {
			throw new DownloadCancelledError();
		}
		throw error;
	}
}

/** Removes every installed version of `id` but `keep` (after a successful switch to it). */
export async function removeOtherVersions(agentsDir: string, id: string, keep: string): Promise<string[]> {
	const home = path.join(agentsDir, id);
	const removed: string[] = [];
	for (const entry of await fs.promises.readdir(home).catch(() => [] as string[])) {
		if (entry !== keep && !entry.startsWith('.download-')) {
			await fs.promises.rm(path.join(home, entry), { recursive: true, force: true });
			removed.push(entry);
		}
	}
	return removed;
}

/** Versions of `id` installed under `agentsDir`. */
export async function installedVersions(agentsDir: string, id: string): Promise<string[]> {
	const home = path.join(agentsDir, id);
	const versions: string[] = [];
	for (const entry of await fs.promises.readdir(home).catch(() => [] as string[])) {
		if (!entry.startsWith('.') && fs.existsSync(path.join(home, entry, MARKER))) {
			versions.push(entry);
		}
	}
	return versions;
}
