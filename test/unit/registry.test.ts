import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	RegistryFormatError,
	age,
	chooseLaunch,
	commandInFolder,
	compareVersions,
	consentFacts,
	offerText,
	packageSpec,
	parseRegistry,
	registryPlatform,
	type RegistryAgent,
} from '../../src/common/registry';

const npxAgent = { id: 'alpha', name: 'Alpha', version: '1.2.3', description: 'An agent', authors: ['A'], license: 'MIT', distribution: { npx: { package: '@example/alpha', args: ['--acp'], env: { MODE: 'x' } } } };
const binaryAgent = {
	id: 'zeta',
	name: 'Zeta',
	version: '0.9.0',
	distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/zeta.tar.gz', cmd: './zeta', args: ['serve'], sha256: 'A'.repeat(64) } } },
};

describe('parseRegistry', () => {
	it('keeps valid entries and fills defaults', () => {
		const { agents, problems } = parseRegistry({ version: '1.0.0', agents: [npxAgent, binaryAgent] });
		assert.deepEqual(problems, []);
		assert.equal(agents.length, 2);
		assert.equal(agents[1]!.description, '');
		assert.deepEqual(agents[1]!.authors, []);
	});

	it('skips a malformed entry, naming it and the field, and keeps the rest', () => {
		const { agents, problems } = parseRegistry({
			agents: [
				npxAgent,
				{ ...npxAgent, id: '../evil' },
				{ ...npxAgent, id: 'v', version: '..' },
				{ ...npxAgent, id: 'nodist', distribution: {} },
				{ ...binaryAgent, id: 'ftp', distribution: { binary: { 'linux-x86_64': { archive: 'ftp://x/y.zip', cmd: 'a' } } } },
				{ ...binaryAgent, id: 'badsum', distribution: { binary: { 'linux-x86_64': { archive: 'https://x/y.zip', cmd: 'a', sha256: 'xyz' } } } },
				{ ...npxAgent },
				'not an object',
				null,
			],
		});
		assert.deepEqual(agents.map((a) => a.id), ['alpha']);
		assert.equal(problems.length, 8);
		assert.match(problems[0]!, /entry 2 \("\.\.\/evil"\) was skipped: id: /);
		assert.match(problems[1]!, /entry 3 \("v"\) was skipped: version: /);
		assert.match(problems[2]!, /distribution names no npx, uvx or binary/);
		assert.match(problems[3]!, /archive must be an http\(s\) URL/);
		assert.match(problems[4]!, /sha256 must be 64 hex digits/);
		assert.match(problems[5]!, /entry 7 \("alpha"\) was skipped: another entry already has this id/);
		assert.match(problems[6]!, /^entry 8 was skipped/);
	});

	it('refuses a document that is not a registry at all', () => {
		assert.throws(() => parseRegistry([]), RegistryFormatError);
		assert.throws(() => parseRegistry({ agents: 'x' }), /no "agents" list/);
		assert.throws(() => parseRegistry(null), RegistryFormatError);
	});
});

describe('how a registry agent runs', () => {
	const [alpha, zeta] = parseRegistry({ agents: [npxAgent, binaryAgent] }).agents as [RegistryAgent, RegistryAgent];

	it('maps Node platforms to registry platforms', () => {
		assert.equal(registryPlatform('linux', 'x64'), 'linux-x86_64');
		assert.equal(registryPlatform('darwin', 'arm64'), 'darwin-aarch64');
		assert.equal(registryPlatform('win32', 'x64'), 'windows-x86_64');
		assert.equal(registryPlatform('freebsd', 'x64'), undefined);
		assert.equal(registryPlatform('linux', 'ia32'), undefined);
	});

	it('runs npx with the exact version, unless the spec pins one already', () => {
		assert.deepEqual(chooseLaunch(alpha, 'linux-x86_64', { npx: true, uvx: false }), { kind: 'npx', command: 'npx', args: ['-y', '@example/alpha@1.2.3', '--acp'], env: { MODE: 'x' }, spec: '@example/alpha@1.2.3' });
		assert.equal(packageSpec('npx', alpha, { package: '@agentclientprotocol/claude-agent-acp@0.85.1' }), '@agentclientprotocol/claude-agent-acp@0.85.1');
		assert.equal(packageSpec('npx', alpha, { package: 'plain' }), 'plain@1.2.3');
		assert.equal(packageSpec('npx', alpha, { package: '/tmp/agent-1.0.0.tgz' }), '/tmp/agent-1.0.0.tgz');
		assert.equal(packageSpec('uvx', alpha, { package: 'beta-agent' }), 'beta-agent==1.2.3');
		assert.equal(packageSpec('uvx', alpha, { package: 'hermes-agent[acp]==0.4' }), 'hermes-agent[acp]==0.4');
	});

	it('runs a named command of a package with --package / --from', () => {
		const agent = { ...alpha, distribution: { npx: { package: 'pkg', cmd: 'pkg-acp' }, uvx: { package: 'py', cmd: 'py-acp', args: ['serve'] } } } as RegistryAgent;
		assert.deepEqual(chooseLaunch(agent, undefined, { npx: true, uvx: true }).kind === 'npx' && chooseLaunch(agent, undefined, { npx: true, uvx: true }), {
			kind: 'npx',
			command: 'npx',
			args: ['-y', '--package', 'pkg@1.2.3', 'pkg-acp'],
			env: {},
			spec: 'pkg@1.2.3',
		});
		const uvx = chooseLaunch(agent, undefined, { npx: false, uvx: true });
		assert.ok(uvx.kind === 'uvx');
		assert.deepEqual(uvx.args, ['--from', 'py==1.2.3', 'py-acp', 'serve']);
	});

	it('prefers this platform’s download, and says what to install when nothing runs', () => {
		assert.equal(chooseLaunch(zeta, 'linux-x86_64', { npx: true, uvx: true }).kind, 'binary');
		const none = chooseLaunch(zeta, 'darwin-aarch64', { npx: true, uvx: true });
		assert.ok(none.kind === 'unavailable' && /downloads for linux-x86_64/.test(none.reason) && /darwin-aarch64/.test(none.reason));
		const uvOnly = { ...alpha, distribution: { uvx: { package: 'py' } } } as RegistryAgent;
		const missing = chooseLaunch(uvOnly, 'linux-x86_64', { npx: true, uvx: false });
		assert.ok(missing.kind === 'unavailable' && /install uv/.test(missing.reason));
	});

	it('says exactly what will run and where it comes from, for consent', () => {
		const binary = chooseLaunch(zeta, 'linux-x86_64', { npx: false, uvx: false });
		assert.ok(binary.kind === 'binary');
		assert.deepEqual(consentFacts(zeta, binary), [
			{ kind: 'download', text: 'https://example.com/zeta.tar.gz', note: 'the download' },
			{ kind: 'checksum', text: 'a'.repeat(64), note: 'its sha256, checked before anything runs' },
			{ kind: 'command', text: './zeta serve', note: 'runs from the download' },
		]);
		const npx = chooseLaunch(alpha, undefined, { npx: true, uvx: false });
		assert.ok(npx.kind === 'npx');
		assert.deepEqual(consentFacts(alpha, npx), [
			{ kind: 'package', text: '@example/alpha@1.2.3', note: 'npm package' },
			{ kind: 'command', text: 'npx -y @example/alpha@1.2.3 --acp', note: 'runs' },
			{ kind: 'publisher', text: 'A · license MIT', note: 'publisher' },
		]);
		const unsigned = { ...zeta, repository: 'https://example.com/zeta', distribution: { binary: { 'linux-x86_64': { archive: 'https://example.com/z.zip', cmd: 'z' } } } } as RegistryAgent;
		const facts = consentFacts(unsigned, chooseLaunch(unsigned, 'linux-x86_64', { npx: false, uvx: false }) as Extract<ReturnType<typeof chooseLaunch>, { kind: 'binary' }>);
		assert.equal(facts[1]!.text, 'no checksum');
		assert.deepEqual(facts.at(-1), { kind: 'source', text: 'https://example.com/zeta', note: 'source (pick to open)' });
	});
});

describe('compareVersions', () => {
	it('orders numerically, pre-releases before their release', () => {
		const sorted = ['1.10.0', '1.2.0', '1.2.0-preview.10', '1.2.0-preview.9', '0.9', 'v2.0.0', '1.2'].sort(compareVersions);
		assert.deepEqual(sorted, ['0.9', '1.2.0-preview.9', '1.2.0-preview.10', '1.2.0', '1.2', '1.10.0', 'v2.0.0'].sort(compareVersions));
		assert.equal(compareVersions('1.2.0', '1.2'), 0);
		assert.equal(compareVersions('0.85.2', '0.85.10'), -1);
		assert.equal(compareVersions('1.0.0', '1.0.0-rc.1'), 1);
	});
});

describe('commandInFolder', () => {
	it('keeps a command inside its folder', () => {
		assert.equal(commandInFolder('./zeta'), 'zeta');
		assert.equal(commandInFolder('bin/agent.exe'), 'bin/agent.exe');
		assert.equal(commandInFolder('bin\\agent.exe'), 'bin/agent.exe');
		for (const bad of ['../x', '/usr/bin/x', 'C:\\x.exe', 'a/../../b', '.', '']) {
			assert.equal(commandInFolder(bad), undefined, bad);
		}
	});
});

describe('what the picker says', () => {
	it('says how old a saved list is', () => {
		const now = Date.UTC(2026, 10, 22, 12);
		assert.equal(age(now - 30_000, now), '1 minute ago');
		assert.equal(age(now - 5 * 60_000, now), '5 minutes ago');
		assert.equal(age(now - 3 * 3600_000, now), '3 hours ago');
		assert.equal(age(now - 5 * 86400_000, now), '5 days ago');
		assert.equal(age(now + 60_000, now), '0 minutes ago');
	});

	it('describes an offer: version, license, how it runs, and whether it is installed or has an update', () => {
		const [agent] = parseRegistry({ agents: [binaryAgent] }).agents as [RegistryAgent];
		const launch = chooseLaunch(agent, 'linux-x86_64', { npx: false, uvx: false });
		assert.deepEqual(offerText({ agent, launch, installed: false }), { description: 'v0.9.0 · download', detail: '' });
		assert.match(offerText({ agent, launch, installed: false, updateFrom: '0.8.0' }).detail, /^\$\(arrow-circle-up\) Update from 0\.8\.0/);
		assert.match(offerText({ agent, launch, installed: true }).detail, /^\$\(check\) Installed/);
		const away = chooseLaunch(agent, 'darwin-aarch64', { npx: false, uvx: false });
		assert.match(offerText({ agent, launch: away, installed: false }).detail, /^\$\(warning\) Zeta offers downloads for linux-x86_64/);
	});
});
