// Remote agents in `agentLink.agents` (src/common/remoteAgent.ts): the settings entry, the
// plain-text rule, and the headers a request carries.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig } from '../../src/common/config';
import { describeCommand } from '../../src/common/presets';
import { offerToRemoteAgent, remoteNotice } from '../../src/common/remoteMcp';
import { describeUrl, isLoopbackHost, plainTextRemoteHost, remoteAgentDefinitionSchema, remoteProfile, requestHeaders } from '../../src/common/remoteAgent';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));

function parseAgents(agents: Record<string, unknown>) {
	return parseConfig({ agents });
}

describe('remote agent settings', () => {
	it('takes url (ws, wss, http, https) with optional headers instead of command', () => {
		const { config, problems } = parseAgents({
			Team: { url: 'wss://agents.example.com/acp', headers: { 'X-Team': 'editors' } },
			Box: { url: 'http://127.0.0.1:8080/acp' },
		});
		assert.deepEqual(problems, []);
		assert.deepEqual(config.agents.Team, { url: 'wss://agents.example.com/acp', headers: { 'X-Team': 'editors' }, authHeader: 'Authorization' });
		assert.deepEqual(config.agents.Box, { url: 'http://127.0.0.1:8080/acp', headers: {}, authHeader: 'Authorization' });
		assert.equal(describeCommand(config.agents.Team!), 'wss://agents.example.com/acp');
	});

	it('refuses, with a clear reason, entries it cannot use; the others stay', () => {
		const { config, problems } = parseAgents({
			Both: { url: 'wss://a.example/acp', command: 'x' },
			Ftp: { url: 'ftp://a.example/acp' },
			NotUrl: { url: 'agents.example.com' },
			Secret: { url: 'https://a.example/acp', headers: { Authorization: 'Bearer abc' } },
			ApiKey: { url: 'https://a.example/acp', headers: { 'X-Api-Key': 'abc' } },
			UserInfo: { url: 'https://me:pw@a.example/acp' },
			BadName: { url: 'https://a.example/acp', headers: { 'bad name': 'x' } },
			Good: { url: 'https://a.example/acp' },
		});
		assert.deepEqual(Object.keys(config.agents), ['Good']);
		const by = Object.fromEntries(problems.map((p) => [p.key.replace(/^agentLink\.agents\["(\w+)"\].*$/, '$1'), p.message]));
		assert.match(by.Both!, /either command .* or url .*not both/);
		assert.match(by.Ftp!, /ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//);
		assert.match(by.NotUrl!, /ws:\/\/, wss:\/\/, http:\/\/ or https:\/\//);
		assert.match(by.Secret!, /must not hold secrets.*secret storage/);
		assert.match(by.ApiKey!, /must not hold secrets/);
		assert.match(by.UserInfo!, /user name or password/);
		assert.match(by.BadName!, /header name/);
		for (const problem of problems) {
			assert.doesNotMatch(problem.message, /abc|pw/, 'a refused secret is never repeated');
		}
	});

	it('is described in the settings schema of package.json: command or url', () => {
		const entry = manifest.contributes.configuration.properties['agentLink.agents'].additionalProperties;
		assert.deepEqual(entry.oneOf.map((o: { required: string[] }) => o.required), [['command'], ['url']]);
		for (const key of Object.keys(remoteAgentDefinitionSchema.shape)) {
			assert.ok(key in entry.properties, `${key} in the settings schema`);
		}
	});
});

describe('remote agent addresses', () => {
	it('knows this machine', () => {
		for (const host of ['localhost', '127.0.0.1', '127.1.2.3', '[::1]', 'agents.localhost']) {
			assert.ok(isLoopbackHost(host), host);
		}
		for (const host of ['example.com', '10.0.0.1', '192.168.1.2', '[::2]', 'localhost.example.com']) {
			assert.ok(!isLoopbackHost(host), host);
		}
	});

	it('asks about plain text to another machine only', () => {
		assert.equal(plainTextRemoteHost('http://10.0.0.5:8080/acp'), '10.0.0.5:8080');
		assert.equal(plainTextRemoteHost('ws://Devbox:9000/acp'), 'devbox:9000');
		assert.equal(plainTextRemoteHost('http://127.0.0.1:8080/acp'), undefined);
		assert.equal(plainTextRemoteHost('ws://localhost/acp'), undefined);
		assert.equal(plainTextRemoteHost('https://agents.example.com/acp'), undefined);
		assert.equal(plainTextRemoteHost('wss://agents.example.com/acp'), undefined);
	});

	it('picks the profile by scheme, and leaves the query out of what it shows', () => {
		assert.equal(remoteProfile('wss://a/acp'), 'websocket');
		assert.equal(remoteProfile('ws://a/acp'), 'websocket');
		assert.equal(remoteProfile('https://a/acp'), 'http');
		assert.equal(describeUrl('https://a.example/acp?token=abc#x'), 'https://a.example/acp');
	});

	it('sends the secret in its header: Bearer for Authorization, as it is for another header', () => {
		const base = { url: 'https://a/acp', headers: { 'X-Team': 't' }, authHeader: 'Authorization' };
		assert.deepEqual(requestHeaders(base, undefined), { 'X-Team': 't' });
		assert.deepEqual(requestHeaders(base, 'abc'), { 'X-Team': 't', Authorization: 'Bearer abc' });
		assert.deepEqual(requestHeaders(base, 'Basic xyz'), { 'X-Team': 't', Authorization: 'Basic xyz' });
		assert.deepEqual(requestHeaders({ ...base, authHeader: 'X-Api-Key' }, 'abc'), { 'X-Team': 't', 'X-Api-Key': 'abc' });
	});
});

describe('MCP servers for an agent on another machine', () => {
	it('offers only what it can reach: HTTP/SSE servers not on this machine; says what was left out', () => {
		const offer = offerToRemoteAgent([
			{ name: 'agent-link-editor', command: '/usr/bin/node', args: ['bridge.js'], env: [] },
			{ type: 'http', name: 'local-http', url: 'http://127.0.0.1:4000/mcp?token=abc', headers: [] },
			{ type: 'sse', name: 'localhost-sse', url: 'http://localhost:5000/sse', headers: [] },
			{ type: 'http', name: 'team-docs', url: 'https://mcp.example.com/mcp', headers: [] },
		]);
		assert.deepEqual(
			offer.offered.map((s) => s.name),
			['team-docs'],
		);
		assert.deepEqual(
			offer.leftOut.map((s) => s.name),
			['agent-link-editor', 'local-http', 'localhost-sse'],
		);
		assert.doesNotMatch(offer.leftOut[1]!.reason, /abc/);
		const notice = remoteNotice('Team', 'wss://agents.example.com/acp', offer, 'agent-link-editor');
		assert.equal(notice.title, 'Team runs on another machine (wss://agents.example.com/acp)');
		assert.match(notice.description, /same permissions as a local agent/);
		assert.match(notice.description, /MCP servers offered to it: team-docs\./);
		assert.match(notice.description, /Left out: Agent Link's editor tools \(a program on this machine/);
	});

	it('says when nothing is offered', () => {
		const notice = remoteNotice('Box', 'ws://127.0.0.1:9/acp', offerToRemoteAgent([]), 'agent-link-editor');
		assert.match(notice.description, /No MCP servers are offered to it\./);
		assert.doesNotMatch(notice.description, /Left out/);
	});
});
