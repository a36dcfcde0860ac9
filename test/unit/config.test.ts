import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { parseConfig, settingSchemas } from '../../src/common/config';
import { AGENT_PRESETS, agentChoices, describeCommand } from '../../src/common/presets';

const root = join(__dirname, '..', '..', '..');
const manifest = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'));
const properties: Record<string, { default?: unknown; scope?: string }> = manifest.contributes.configuration.properties;

describe('settings', () => {
	it('declares exactly the keys the parser reads, with the same defaults', () => {
		const declared = Object.keys(properties);
		const parsed = Object.keys(settingSchemas).map((k) => `agentLink.${k}`);
		assert.deepEqual(declared.sort(), parsed.sort());
		for (const [key, schema] of Object.entries(settingSchemas)) {
			assert.deepEqual(schema.parse(undefined), properties[`agentLink.${key}`]?.default, `default of agentLink.${key}`);
		}
	});

	it('keeps settings that run programs out of workspace settings', () => {
		assert.equal(properties['agentLink.agents']?.scope, 'application');
		assert.equal(properties['agentLink.maxMessageSize']?.scope, 'application');
		assert.equal(properties['agentLink.mcpServers']?.scope, 'application');
	});

	it('parses MCP servers in the shape of mcp.json, leaving out the invalid ones with a problem naming them', () => {
		const { config, problems } = parseConfig({
			mcpServers: {
				files: { command: 'mcp-files', args: ['--root', '.'], env: { DEBUG: 1, UNSET: null } },
				web: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer x' } },
				events: { type: 'sse', url: 'http://localhost:3001/sse' },
				bare: { url: 'https://mcp.example.com/other' },
				broken: { type: 'http' },
				nothing: {},
			},
		});
		assert.deepEqual(
			config.mcpServers.map((m) => [m.name, m.transport]),
			[
				['files', 'stdio'],
				['web', 'http'],
				['events', 'sse'],
				['bare', 'http'],
			],
		);
		assert.deepEqual(config.mcpServers[0]?.server, { name: 'files', command: 'mcp-files', args: ['--root', '.'], env: [{ name: 'DEBUG', value: '1' }] });
		assert.deepEqual(config.mcpServers[1]?.server, { type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [{ name: 'Authorization', value: 'Bearer x' }] });
		assert.deepEqual(
			problems.map((p) => p.key),
			['agentLink.mcpServers["broken"]', 'agentLink.mcpServers["nothing"]'],
		);
	});

	it('reads the history bound in megabytes', () => {
		assert.equal(parseConfig({}).config.history.maxBytes, 64 * 1024 * 1024);
		assert.equal(parseConfig({ 'history.maxSize': 0.5 }).config.history.maxBytes, 512 * 1024);
		assert.equal(parseConfig({ 'history.maxSize': -1 }).problems[0]?.key, 'agentLink.history.maxSize');
	});

	it('never collides with other ACP extensions’ ids', () => {
		const ids = [...Object.keys(properties), ...manifest.contributes.commands.map((c: { command: string }) => c.command)];
		for (const id of ids) {
			assert.match(id, /^agentLink\./);
		}
		for (const c of manifest.contributes.commands) {
			assert.equal(c.category, 'Agent Link');
		}
	});

	it('parses valid agents and drops invalid ones with a problem naming them', () => {
		const { config, problems } = parseConfig({
			agents: {
				Good: { command: 'my-agent', args: ['--acp'], env: { A: '1' } },
				Empty: { command: '  ' },
				NoCommand: { args: [] },
				BadArgs: { command: 'x', args: 'not an array' },
			},
		});
		assert.deepEqual(Object.keys(config.agents), ['Good']);
		assert.deepEqual(config.agents.Good, { command: 'my-agent', args: ['--acp'], env: { A: '1' } });
		assert.equal(problems.length, 3);
		assert.ok(problems.some((p) => p.key.includes('"Empty"') && /empty/.test(p.message)));
		assert.ok(problems.some((p) => p.key.includes('"BadArgs"')));
		assert.ok(Object.isFrozen(config) && Object.isFrozen(config.agents));
	});

	it('falls back to defaults for invalid values', () => {
		const { config, problems } = parseConfig({ trace: 'loud', maxMessageSize: -3, agents: 'nope', defaultAgent: 7 });
		assert.equal(config.trace, 'off');
		assert.equal(config.maxMessageBytes, 64 * 1024 * 1024);
		assert.deepEqual(config.agents, {});
		assert.equal(config.defaultAgent, '');
		assert.equal(problems.length, 4);
	});
});

describe('presets', () => {
	it('offers the well-known agents with their commands', () => {
		const commands = Object.fromEntries(AGENT_PRESETS.map((p) => [p.name, describeCommand(p.definition)]));
		assert.deepEqual(commands, {
			'Claude Code': 'claude-agent-acp',
			'Gemini CLI': 'gemini --acp',
			Codex: 'codex-acp',
			OpenCode: 'opencode acp',
			'Qwen Code': 'qwen --acp',
			'GitHub Copilot CLI': 'copilot --acp',
			Auggie: 'auggie --acp',
		});
		for (const p of AGENT_PRESETS) {
			assert.match(p.install, /^npm install -g /);
		}
	});

	it('lists user agents first and lets them replace a preset of the same name', () => {
		const choices = agentChoices({ Mine: { command: 'a', args: [], env: {} }, Codex: { command: 'my-codex', args: [], env: {} } });
		assert.equal(choices[0]?.name, 'Mine');
		assert.equal(choices[1]?.name, 'Codex');
		assert.deepEqual(choices[1]?.definition, { command: 'my-codex', args: [], env: {} });
		assert.equal(choices.filter((c) => c.name === 'Codex').length, 1);
		assert.equal(choices.length, 2 + AGENT_PRESETS.length - 1);
	});

	it('quotes arguments that need it', () => {
		assert.equal(describeCommand({ command: 'node', args: ['my agent.js', ''], env: {} }), 'node "my agent.js" ""');
	});
});
