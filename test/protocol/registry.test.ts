// Agents from the ACP Registry, against a local registry and download server on 127.0.0.1: the
// catalogue (cache, offline, malformed entries), installing binary agents from tar.gz and zip and
// running them, updates, checksums, hostile archives, cancellation, and an npx agent from a local
// package tarball.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { chooseLaunch, parseRegistry, type RegistryAgent } from '../../src/common/registry';
import { UnsafeArchiveError } from '../../src/node/archive';
import { ChecksumMismatchError, DownloadCancelledError, InsecureUrlError, installBinary, installedVersions, loadCatalogue, removeOtherVersions } from '../../src/node/registryClient';
import { tarGz, zip, type FixtureEntry } from '../shared/archives';
import { RegistryServer, fixtureArchives, fixtureAgentFiles, sha256 } from '../shared/registryServer';
import { MemoryLog, clientInfo, launch, repoRoot } from './helpers';

const server = new RegistryServer();
let scratch: string;
let agentsDir: string;
let cacheDir: string;

function binaryEntry(id: string, version: string, archive: string, sum?: string, cmd = 'bin/agent'): RegistryAgent {
	const [agent] = parseRegistry({ agents: [{ id, name: `Fixture ${id}`, version, description: 'A fixture agent', license: 'MIT', distribution: { binary: { 'linux-x86_64': { archive: server.url(archive), cmd, sha256: sum } } } }] }).agents;
	assert.ok(agent);
	return agent;
}

function target(agent: RegistryAgent) {
	const t = agent.distribution.binary?.['linux-x86_64'];
	assert.ok(t);
	return t;
}

/** Every file under `dir`, relative. */
function listFiles(dir: string): string[] {
	if (!fs.existsSync(dir)) {
		return [];
	}
	return (fs.readdirSync(dir, { recursive: true }) as string[]).map((p) => p.split(path.sep).join('/')).sort();
}

before(async () => {
	await server.start();
	scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'agent-link-registry-'));
});
after(async () => {
	await server.stop();
	fs.rmSync(scratch, { recursive: true, force: true });
});
beforeEach(() => {
	const run = fs.mkdtempSync(path.join(scratch, 'run-'));
	agentsDir = path.join(run, 'storage', 'agents');
	cacheDir = path.join(run, 'storage', 'registry');
});

describe('the registry catalogue', () => {
	const good = { id: 'good', name: 'Good', version: '1.0.0', distribution: { npx: { package: 'good-agent' } } };

	it('fetches it, keeps it for an hour, and skips a malformed entry with a reason', async () => {
		server.set('/catalogue-1.json', { version: '1.0.0', agents: [good, { id: 'bad', name: 'Bad', version: '1', distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x', cmd: 'a' } } } }] });
		let now = 1_000_000;
		const load = () => loadCatalogue({ url: server.url('/catalogue-1.json'), cacheDir, now: () => now });
		const first = await load();
		assert.deepEqual(first.agents.map((a) => a.id), ['good']);
		assert.match(first.problems[0] ?? '', /entry 2 \("bad"\) was skipped: distribution\.binary\.linux-x86_64\.archive/);
		assert.equal(first.offline, undefined);
		now += 59 * 60 * 1000;
		await load();
		assert.equal(server.hits.get('/catalogue-1.json'), 1, 'the cached copy is used within the hour');
		now += 2 * 60 * 1000;
		const third = await load();
		assert.equal(server.hits.get('/catalogue-1.json'), 2, 'fetched again after an hour');
		assert.equal(third.fetchedAt, now);
	});

	it('uses the last cached copy when offline, and says how old it is', async () => {
		server.set('/catalogue-2.json', { agents: [good] });
		let now = 5_000_000;
		await loadCatalogue({ url: server.url('/catalogue-2.json'), cacheDir, now: () => now });
		server.set('/catalogue-2.json', { body: 'gateway down', status: 502 });
		now += 3 * 60 * 60 * 1000;
		const offline = await loadCatalogue({ url: server.url('/catalogue-2.json'), cacheDir, now: () => now });
		assert.deepEqual(offline.agents.map((a) => a.id), ['good']);
		assert.equal(offline.fetchedAt, 5_000_000);
		assert.match(offline.offline ?? '', /502/);
	});

	it('says clearly when it is offline with no saved copy, or the registry is not a registry', async () => {
		server.set('/down.json', { body: '', hang: true });
		await assert.rejects(loadCatalogue({ url: server.url('/down.json'), cacheDir, timeoutMs: 300 }), /could not be loaded from .*down\.json, and there is no saved copy/);
		server.set('/not-registry.json', { hello: 'world' });
		await assert.rejects(loadCatalogue({ url: server.url('/not-registry.json'), cacheDir }), /no "agents" list/);
		server.set('/not-json.json', '<html>');
		await assert.rejects(loadCatalogue({ url: server.url('/not-json.json'), cacheDir }), /is not JSON/);
	});

	it('a broken document never replaces a good cached copy', async () => {
		server.set('/catalogue-3.json', { agents: [good] });
		let now = 0;
		await loadCatalogue({ url: server.url('/catalogue-3.json'), cacheDir, now: () => now });
		server.set('/catalogue-3.json', '{"agents": "broken"}');
		now += 2 * 60 * 60 * 1000;
		const kept = await loadCatalogue({ url: server.url('/catalogue-3.json'), cacheDir, now: () => now });
		assert.deepEqual(kept.agents.map((a) => a.id), ['good']);
		assert.match(kept.offline ?? '', /no "agents" list/);
	});

	it('refuses plain HTTP except from this machine', async () => {
		await assert.rejects(loadCatalogue({ url: 'http://registry.example.com/registry.json', cacheDir }), (e: unknown) => e instanceof Error && /only downloads over HTTPS/.test(e.message));
		await assert.rejects(installBinary(agentsDir, binaryEntry('remote', '1.0.0', '/x.tar.gz'), { archive: 'http://downloads.example.com/agent.tar.gz', cmd: 'bin/agent' }), InsecureUrlError);
	});
});

describe('installing a binary agent', () => {
	const archives = () => fixtureArchives(repoRoot, '1.0.0');

	for (const kind of ['tar.gz', 'zip'] as const) {
		it(`downloads, verifies, unpacks and runs a ${kind} agent`, async () => {
			const data = archives()[kind === 'tar.gz' ? 'tarGz' : 'zip'];
			server.set(`/agent-1.0.0.${kind}`, data);
			const agent = binaryEntry(`fixture-${kind.replace('.', '')}`, '1.0.0', `/agent-1.0.0.${kind}`, sha256(data).toUpperCase());
			const progress: number[] = [];
			const installed = await installBinary(agentsDir, agent, target(agent), { onProgress: (received) => progress.push(received) });
			assert.equal(installed.folder, path.join(agentsDir, agent.id, '1.0.0'));
			assert.equal(progress.at(-1), data.length);
			assert.deepEqual(listFiles(path.join(agentsDir, agent.id)), ['1.0.0', '1.0.0/.agent-link-install.json', '1.0.0/bin', '1.0.0/bin/agent', '1.0.0/lib', '1.0.0/lib/lib.mjs', '1.0.0/lib/main.mjs']);
			const h = await launch({ command: installed.command, args: [...installed.args], env: { ...installed.env } }, new MemoryLog());
			try {
				const result = await h.initialize(clientInfo, {});
				assert.equal(result.agentInfo?.version, '1.0.0');
			} finally {
				await h.dispose();
			}
			// A second install of the same version reuses it.
			await installBinary(agentsDir, agent, target(agent));
			assert.equal(server.hits.get(`/agent-1.0.0.${kind}`), 1);
		});
	}

	it('updates to a newer version and removes the old one after the switch', async () => {
		const v1 = fixtureArchives(repoRoot, '1.0.0').tarGz;
		const v2 = fixtureArchives(repoRoot, '2.0.0').tarGz;
		server.set('/update-1.tar.gz', v1);
		server.set('/update-2.tar.gz', v2);
		const old = binaryEntry('updating', '1.0.0', '/update-1.tar.gz', sha256(v1));
		const next = binaryEntry('updating', '2.0.0', '/update-2.tar.gz', sha256(v2));
		await installBinary(agentsDir, old, target(old));
		const installed = await installBinary(agentsDir, next, target(next));
		assert.deepEqual((await installedVersions(agentsDir, 'updating')).sort(), ['1.0.0', '2.0.0']);
		const h = await launch({ command: installed.command, args: [], env: {} });
		try {
			assert.equal((await h.initialize(clientInfo, {})).agentInfo?.version, '2.0.0');
		} finally {
			await h.dispose();
		}
		assert.deepEqual(await removeOtherVersions(agentsDir, 'updating', '2.0.0'), ['1.0.0']);
		assert.deepEqual(await installedVersions(agentsDir, 'updating'), ['2.0.0']);
	});

	it('refuses a download whose checksum does not match, and keeps nothing of it', async () => {
		const data = archives().tarGz;
		server.set('/tampered.tar.gz', data);
		const agent = binaryEntry('tampered', '1.0.0', '/tampered.tar.gz', sha256(Buffer.from('something else')));
		await assert.rejects(installBinary(agentsDir, agent, target(agent)), (e: unknown) => e instanceof ChecksumMismatchError && /refused and removed/.test(e.message));
		assert.deepEqual(listFiles(path.join(agentsDir, 'tampered')), []);
	});

	it('refuses an archive without the command to run, and a command outside the folder', async () => {
		const data = tarGz([{ name: 'README', content: 'no agent here' }]);
		server.set('/empty.tar.gz', data);
		const agent = binaryEntry('empty', '1.0.0', '/empty.tar.gz', sha256(data));
		await assert.rejects(installBinary(agentsDir, agent, target(agent)), /has no file bin\/agent to run/);
		assert.deepEqual(listFiles(path.join(agentsDir, 'empty')), []);
		const outside = binaryEntry('outside', '1.0.0', '/empty.tar.gz', sha256(data), '../../bin/sh');
		await assert.rejects(installBinary(agentsDir, outside, target(outside)), /not inside the agent's folder/);
	});

	const hostile: [string, FixtureEntry[]][] = [
		['a path climbing out with ..', [{ name: 'bin/agent', content: 'x' }, { name: '../../escaped.txt', content: 'pwned' }]],
		['a path climbing out in the middle', [{ name: 'bin/../../../escaped.txt', content: 'pwned' }]],
		['an absolute path', [{ name: '/tmp/agent-link-escaped.txt', content: 'pwned' }]],
		['a symbolic link pointing out', [{ name: 'bin/agent', type: 'symlink', target: '../../../escaped.txt' }]],
		['a symbolic link to an absolute path', [{ name: 'lib', type: 'symlink', target: '/etc' }, { name: 'lib/passwd', content: 'pwned' }]],
		['a device entry', [{ name: 'bin/agent', type: 'chardev' }]],
	];
	for (const kind of ['tar.gz', 'zip'] as const) {
		for (const [label, entries] of hostile) {
			it(`refuses a ${kind} with ${label}, writing nothing anywhere`, async () => {
				const data = kind === 'tar.gz' ? tarGz(entries) : zip(entries);
				const route = `/hostile-${label.replace(/\W+/g, '-')}.${kind}`;
				server.set(route, data);
				const agent = binaryEntry('hostile', '1.0.0', route, sha256(data));
				const storage = path.dirname(agentsDir);
				const before = listFiles(path.dirname(storage));
				await assert.rejects(installBinary(agentsDir, agent, target(agent)), (e: unknown) => e instanceof UnsafeArchiveError && /Nothing was unpacked/.test(e.message));
				assert.deepEqual(listFiles(path.join(agentsDir, 'hostile')), [], 'nothing kept in the agent’s folder');
				const written = listFiles(path.dirname(storage)).filter((f) => !before.includes(f) && f !== 'storage' && f !== 'storage/agents' && !f.startsWith('storage/agents/hostile'));
				assert.deepEqual(written, [], 'nothing written beside it');
				assert.equal(fs.existsSync('/tmp/agent-link-escaped.txt'), false);
			});
		}
	}

	it('a hard link in a tar pointing out is refused too', async () => {
		const data = tarGz([{ name: 'bin/agent', type: 'hardlink', target: '../../../../etc/passwd' }]);
		server.set('/hardlink.tar.gz', data);
		const agent = binaryEntry('hardlink', '1.0.0', '/hardlink.tar.gz', sha256(data));
		await assert.rejects(installBinary(agentsDir, agent, target(agent)), UnsafeArchiveError);
	});

	it('can be cancelled mid-download, and keeps nothing', async () => {
		const data = Buffer.concat([archives().tarGz, Buffer.alloc(512 * 1024)]);
		server.set('/slow.tar.gz', { body: data, trickleMs: 40 });
		const agent = binaryEntry('slow', '1.0.0', '/slow.tar.gz', sha256(data));
		const controller = new AbortController();
		const install = installBinary(agentsDir, agent, target(agent), {
			signal: controller.signal,
			onProgress: (received) => {
				if (received > data.length / 5) {
					controller.abort();
				}
			},
		});
		await assert.rejects(install, DownloadCancelledError);
		assert.deepEqual(listFiles(path.join(agentsDir, 'slow')), []);
	});
});

describe('an npx agent from the registry', () => {
	it('runs with npx from a package tarball, at the registry’s exact spec', async () => {
		const pkg = path.join(scratch, 'npx-package');
		fs.mkdirSync(pkg, { recursive: true });
		for (const file of fixtureAgentFiles(repoRoot, '3.1.4')) {
			if (file.type === 'directory' || file.name === 'bin/agent') {
				continue;
			}
			fs.mkdirSync(path.join(pkg, path.dirname(file.name)), { recursive: true });
			fs.writeFileSync(path.join(pkg, file.name), `${file.name === 'lib/main.mjs' ? '#!/usr/bin/env node\n' : ''}${String(file.content)}`);
		}
		fs.writeFileSync(path.join(pkg, 'package.json'), JSON.stringify({ name: 'agent-link-fixture-agent', version: '3.1.4', type: 'module', bin: { 'agent-link-fixture-agent': 'lib/main.mjs' } }));
		const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
		const tarball = path.join(scratch, execFileSync(npm, ['pack', '--silent', '--pack-destination', scratch], { cwd: pkg, encoding: 'utf8' }).trim().split('\n').at(-1)!);
		// `file:` so npx installs the tarball instead of running the path.
		const spec = `file:${tarball}`;
		const [agent] = parseRegistry({ agents: [{ id: 'npx-fixture', name: 'Npx Fixture', version: '3.1.4', distribution: { npx: { package: spec } } }] }).agents;
		const launchSpec = chooseLaunch(agent!, 'linux-x86_64', { npx: true, uvx: false });
		assert.ok(launchSpec.kind === 'npx');
		assert.deepEqual(launchSpec.args, ['-y', spec]);
		const h = await launch({ command: launchSpec.command, args: [...launchSpec.args], env: { ...launchSpec.env, npm_config_cache: path.join(scratch, 'npm-cache'), npm_config_update_notifier: 'false' } }, new MemoryLog());
		try {
			assert.equal((await h.initialize(clientInfo, {})).agentInfo?.version, '3.1.4');
		} finally {
			await h.dispose();
		}
	});
});
