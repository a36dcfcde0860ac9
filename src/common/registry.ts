/**
 * The ACP Agent Registry (the "ACP Agent Registry" RFD; the registry's FORMAT.md):
 * a JSON document `{version, agents: [...]}` listing published agents, each with
 * how it is distributed: `npx` and `uvx` packages, or `binary` archives per
 * platform. Pure: the schema (each entry checked on its own, so one malformed
 * entry is skipped and the rest still shown), the platform key, the command a
 * package distribution runs, version order, and the safety rules for names that
 * become folder names.
 */
import * as z from 'zod/mini';

/** The official registry; `agentLink.registry.url` may point elsewhere, or be empty to turn it off. */
export const DEFAULT_REGISTRY_URL = 'https://cdn.agentclientprotocol.com/registry/v1/latest/registry.json';

/** The registry is fetched at most this often; in between, the cached copy is used. */
export const REGISTRY_MAX_AGE_MS = 60 * 60 * 1000;

export const REGISTRY_PLATFORMS = ['darwin-aarch64', 'darwin-x86_64', 'linux-aarch64', 'linux-x86_64', 'windows-aarch64', 'windows-x86_64'] as const;
export type RegistryPlatform = (typeof REGISTRY_PLATFORMS)[number];

/** The registry's name for a Node `process.platform` and `process.arch`, or undefined when it has none. */
export function registryPlatform(platform: string, arch: string): RegistryPlatform | undefined {
	const os = platform === 'darwin' ? 'darwin' : platform === 'linux' ? 'linux' : platform === 'win32' ? 'windows' : undefined;
	const cpu = arch === 'x64' ? 'x86_64' : arch === 'arm64' ? 'aarch64' : undefined;
	return os && cpu ? (`${os}-${cpu}` as RegistryPlatform) : undefined;
}

// Ids and versions become folder names (`agents/<id>/<version>/`): letters, digits and . _ + -, never `.` or `..`.
const safeName = (what: string) =>
	z.string().check(
		z.regex(/^[A-Za-z0-9][A-Za-z0-9._+-]{0,127}$/, `${what} must be letters, digits and . _ + - (at most 128), starting with a letter or digit`),
		z.refine((s) => !s.includes('..'), `${what} must not contain ".."`),
	);

const env = z.optional(z.record(z.string(), z.string()));
const args = z.optional(z.array(z.string()));

const packageDistribution = z.looseObject({
	package: z.string().check(z.trim(), z.minLength(1, 'package must not be empty')),
	cmd: z.optional(z.string().check(z.minLength(1))),
	args,
	env,
});
export type PackageDistribution = z.infer<typeof packageDistribution>;

const binaryTarget = z.looseObject({
	archive: z.url({ protocol: /^https?$/, error: 'archive must be an http(s) URL' }),
	cmd: z.string().check(z.minLength(1, 'cmd must not be empty')),
	args,
	env,
	sha256: z.optional(z.string().check(z.regex(/^[0-9a-fA-F]{64}$/, 'sha256 must be 64 hex digits'))),
});
export type BinaryTarget = z.infer<typeof binaryTarget>;

const distribution = z
	.looseObject({
		npx: z.optional(packageDistribution),
		uvx: z.optional(packageDistribution),
		binary: z.optional(z.record(z.string(), binaryTarget)),
	})
	.check(z.refine((d) => d.npx !== undefined || d.uvx !== undefined || (d.binary !== undefined && Object.keys(d.binary).length > 0), 'distribution names no npx, uvx or binary'));

const optionalText = z.optional(z.nullable(z.string()));

export const registryAgentSchema = z.looseObject({
	id: safeName('id'),
	name: z.string().check(z.trim(), z.minLength(1, 'name must not be empty'), z.maxLength(200)),
	version: safeName('version'),
	description: z._default(z.string(), ''),
	authors: z._default(z.array(z.string()), []),
	license: z._default(z.string(), ''),
	icon: optionalText,
	repository: optionalText,
	website: optionalText,
	distribution,
});
export type RegistryAgent = z.infer<typeof registryAgentSchema>;

export interface ParsedRegistry {
	readonly agents: readonly RegistryAgent[];
	/** One line per entry left out, for the log. */
	readonly problems: readonly string[];
}

/** The document is not a registry at all (not an object with an `agents` array). */
export class RegistryFormatError extends Error {
	constructor(detail: string) {
		super(`The agent registry is not in the expected format: ${detail}`);
		this.name = 'RegistryFormatError';
	}
}

/**
 * Checks a registry document entry by entry: a malformed entry, or a second
 * entry with an id already seen, is left out with a line in `problems`.
 * Throws {@link RegistryFormatError} only when the document as a whole is not a registry.
 */
export function parseRegistry(document: unknown): ParsedRegistry {
	if (typeof document !== 'object' || document === null || Array.isArray(document)) {
		throw new RegistryFormatError('the document is not a JSON object');
	}
	const entries = (document as { agents?: unknown }).agents;
	if (!Array.isArray(entries)) {
		throw new RegistryFormatError('it has no "agents" list');
	}
	const agents: RegistryAgent[] = [];
	const problems: string[] = [];
	const seen = new Set<string>();
	entries.forEach((entry, index) => {
		const id = typeof (entry as { id?: unknown } | null)?.id === 'string' ? String((entry as { id: string }).id).slice(0, 80) : undefined;
		const where = `entry ${index + 1}${id !== undefined ? ` ("${id}")` : ''}`;
		const parsed = registryAgentSchema.safeParse(entry);
		if (!parsed.success) {
			const issue = parsed.error.issues[0];
			const path = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
			problems.push(`${where} was skipped: ${path}${issue?.message ?? 'invalid'}`);
			return;
		}
		if (seen.has(parsed.data.id)) {
			problems.push(`${where} was skipped: another entry already has this id`);
			return;
		}
		seen.add(parsed.data.id);
		agents.push(parsed.data);
	});
	return { agents, problems };
}

/** How a registry agent runs on this machine, in order of preference: a verified download, then npx, then uvx. */
export type RegistryLaunch =
	| { readonly kind: 'binary'; readonly target: BinaryTarget }
	| { readonly kind: 'npx' | 'uvx'; readonly command: string; readonly args: readonly string[]; readonly env: Readonly<Record<string, string>>; readonly spec: string }
	| { readonly kind: 'unavailable'; readonly reason: string };

/** Whether a package spec already pins something (a version, a path, a URL), so no version is added to it. */
function isPinnedNpm(spec: string): boolean {
	return spec.lastIndexOf('@') > 0 || /^(\.{0,2}\/|file:|https?:|git\+|[A-Za-z]:\\)/.test(spec) || spec.endsWith('.tgz') || spec.endsWith('.tar.gz');
}

function isPinnedPython(spec: string): boolean {
	return /[=<>~!@]|\.whl$|\.tar\.gz$|^(\.{0,2}\/|file:|https?:|git\+)/.test(spec);
}

/** The package spec a distribution installs: the entry's exact version unless the spec already pins one. */
export function packageSpec(kind: 'npx' | 'uvx', agent: Pick<RegistryAgent, 'version'>, distribution: PackageDistribution): string {
	const spec = distribution.package;
	if (kind === 'npx') {
		return isPinnedNpm(spec) ? spec : `${spec}@${agent.version}`;
	}
	return isPinnedPython(spec) ? spec : `${spec}==${agent.version}`;
}

/**
 * Chooses how `agent` runs here. `available` says which package runners are on PATH
 * (`npx`, `uvx`); a distribution whose runner is missing is passed over, and if
 * nothing is left the reason says what to install.
 */
export function chooseLaunch(agent: RegistryAgent, platform: RegistryPlatform | undefined, available: { readonly npx: boolean; readonly uvx: boolean }): RegistryLaunch {
	const target = platform ? agent.distribution.binary?.[platform] : undefined;
	if (target) {
		return { kind: 'binary', target };
	}
	for (const kind of ['npx', 'uvx'] as const) {
		const d = agent.distribution[kind];
		if (d && available[kind]) {
			const spec = packageSpec(kind, agent, d);
			const runner = kind === 'npx' ? (d.cmd ? ['-y', '--package', spec, d.cmd] : ['-y', spec]) : d.cmd ? ['--from', spec, d.cmd] : [spec];
			return { kind, command: kind, args: [...runner, ...(d.args ?? [])], env: d.env ?? {}, spec };
		}
	}
	const offered = [agent.distribution.binary ? `downloads for ${Object.keys(agent.distribution.binary).join(', ')}` : undefined, agent.distribution.npx ? 'npx' : undefined, agent.distribution.uvx ? 'uvx' : undefined].filter(Boolean);
	const hints: string[] = [];
	if (agent.distribution.uvx && !available.uvx) {
		hints.push('install uv (https://docs.astral.sh/uv/) to run it with uvx');
	}
	if (agent.distribution.npx && !available.npx) {
		hints.push('install Node.js with npm to run it with npx');
	}
	const here = platform ?? 'this platform';
	return { kind: 'unavailable', reason: `${agent.name} offers ${offered.join(', ')}, none of which runs on ${here} as it is${hints.length > 0 ? `: ${hints.join('; ')}` : ''}.` };
}

/** Orders versions: numeric dot parts compared as numbers, a pre-release (`-…`) before its release. */
export function compareVersions(a: string, b: string): number {
	const split = (v: string) => {
		const [core = '', pre] = v.replace(/^v/, '').split('+')[0]!.split(/-(.*)/s);
		return { core: core.split('.'), pre };
	};
	const x = split(a);
	const y = split(b);
	for (let i = 0; i < Math.max(x.core.length, y.core.length); i++) {
		const p = x.core[i] ?? '0';
		const q = y.core[i] ?? '0';
		const diff = /^\d+$/.test(p) && /^\d+$/.test(q) ? Number(p) - Number(q) : p.localeCompare(q);
		if (diff !== 0) {
			return Math.sign(diff);
		}
	}
	if (x.pre === undefined || y.pre === undefined) {
		return x.pre === y.pre ? 0 : x.pre === undefined ? 1 : -1;
	}
	return Math.sign(x.pre.localeCompare(y.pre, 'en', { numeric: true }));
}

/**
 * Where `cmd` of a binary distribution lives inside its install folder, as a path
 * relative to it with `/` separators; undefined when it would leave the folder.
 */
export function commandInFolder(cmd: string): string | undefined {
	const parts = cmd.replace(/\\/g, '/').split('/').filter((p) => p !== '' && p !== '.');
	if (parts.length === 0 || parts.includes('..') || /^([A-Za-z]:|\/)/.test(cmd)) {
		return undefined;
	}
	return parts.join('/');
}

/** One fact of the consent prompt: what it is, and its value (shown whole, one a line). */
export interface ConsentFact {
	readonly kind: 'download' | 'checksum' | 'package' | 'command' | 'source' | 'publisher';
	readonly text: string;
	readonly note?: string;
}

/** What the user is shown before a registry agent first runs: what will run, where it comes from, who publishes it. */
export function consentFacts(agent: RegistryAgent, launch: Exclude<RegistryLaunch, { kind: 'unavailable' }>): ConsentFact[] {
	const facts: ConsentFact[] = [];
	if (launch.kind === 'binary') {
		facts.push({ kind: 'download', text: launch.target.archive, note: 'the download' });
		facts.push(
			launch.target.sha256
				? { kind: 'checksum', text: launch.target.sha256.toLowerCase(), note: 'its sha256, checked before anything runs' }
				: { kind: 'checksum', text: 'no checksum', note: 'the registry gives none, so the download cannot be verified' },
		);
		facts.push({ kind: 'command', text: [launch.target.cmd, ...(launch.target.args ?? [])].join(' '), note: 'runs from the download' });
	} else {
		facts.push({ kind: 'package', text: launch.spec, note: launch.kind === 'npx' ? 'npm package' : 'PyPI package' });
		facts.push({ kind: 'command', text: [launch.command, ...launch.args].join(' '), note: 'runs' });
	}
	const from = agent.repository ?? agent.website;
	if (from) {
		facts.push({ kind: 'source', text: from, note: 'source (pick to open)' });
	}
	const by = [agent.authors.length > 0 ? agent.authors.join(', ') : undefined, agent.license ? `license ${agent.license}` : undefined].filter(Boolean).join(' · ');
	if (by) {
		facts.push({ kind: 'publisher', text: by, note: 'publisher' });
	}
	return facts;
}

/** How an agent runs, in a few words for the picker. */
export function describeKind(agent: RegistryAgent, launch: RegistryLaunch): string {
	return launch.kind === 'binary' ? 'download' : launch.kind === 'unavailable' ? Object.keys(agent.distribution).join(', ') : launch.kind;
}

export type ArchiveKind = 'tar.gz' | 'zip' | 'raw';

/**
 * The kind of archive a download URL names, by its file name: tar.gz (or .tgz), zip, or a
 * plain executable; undefined for formats Agent Link cannot unpack (.tar.bz2, installers, …).
 */
export function archiveKind(url: string): ArchiveKind | undefined {
	const name = new URL(url).pathname.toLowerCase();
	if (name.endsWith('.tar.gz') || name.endsWith('.tgz')) {
		return 'tar.gz';
	}
	if (name.endsWith('.zip')) {
		return 'zip';
	}
	if (/\.(tar\.bz2|tbz2?|tar\.xz|txz|tar|7z|rar|dmg|pkg|deb|rpm|msi|appimage)$/.test(name)) {
		return undefined;
	}
	return 'raw';
}

/** A registry agent as the picker shows it. */
export interface RegistryOffer {
	readonly agent: RegistryAgent;
	readonly launch: RegistryLaunch;
	/** The version set up here, when it is older than the registry's. */
	readonly updateFrom?: string;
	readonly installed: boolean;
}

/** "3 minutes ago", "2 hours ago", "4 days ago". */
export function age(at: number, now = Date.now()): string {
	const minutes = Math.max(0, Math.round((now - at) / 60_000));
	if (minutes < 60) {
		return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
	}
	const hours = Math.round(minutes / 60);
	if (hours < 48) {
		return `${hours} hour${hours === 1 ? '' : 's'} ago`;
	}
	const days = Math.round(hours / 24);
	return `${days} days ago`;
}

/** A picker item's words for a registry offer. */
export function offerText(offer: RegistryOffer): { description: string; detail: string } {
	const { agent, launch } = offer;
	const description = [`v${agent.version}`, agent.license, describeKind(agent, launch)].filter(Boolean).join(' · ');
	let detail = agent.description;
	if (launch.kind === 'unavailable') {
		detail = `$(warning) ${launch.reason}`;
	} else if (offer.updateFrom) {
		detail = `$(arrow-circle-up) Update from ${offer.updateFrom}. ${agent.description}`;
	} else if (offer.installed) {
		detail = `$(check) Installed. ${agent.description}`;
	}
	return { description, detail };
}
