import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mcpServersFor, parseMcpServer, type McpServerConfig } from '../../src/common/mcp';

function server(name: string, value: unknown): McpServerConfig {
	const parsed = parseMcpServer(name, value);
	assert.ok('server' in parsed, JSON.stringify(parsed));
	return parsed.server;
}

const stdio = server('files', { command: 'mcp-files' });
const http = server('web', { type: 'http', url: 'https://mcp.example.com/mcp' });
const sse = server('events', { type: 'sse', url: 'https://mcp.example.com/sse', headers: { 'X-Key': 'k' } });
const all = [stdio, http, sse];

describe('MCP servers for an agent', () => {
	it('gives every agent the stdio servers, and HTTP and SSE ones only as its mcpCapabilities say', () => {
		const names = (caps: Parameters<typeof mcpServersFor>[1]) => mcpServersFor(all, caps).servers.map((s) => s.name);
		assert.deepEqual(names(undefined), ['files']);
		assert.deepEqual(names({}), ['files']);
		assert.deepEqual(names({ http: true }), ['files', 'web']);
		assert.deepEqual(names({ sse: true }), ['files', 'events']);
		assert.deepEqual(names({ http: true, sse: true }), ['files', 'web', 'events']);
		// Only `true` counts: a truthy value of the wrong type is not a capability.
		assert.deepEqual(names({ http: 'yes', sse: 1 }), ['files']);
	});

	it('names the servers it left out, for the log', () => {
		const { skipped } = mcpServersFor(all, { http: true });
		assert.deepEqual(
			skipped.map((s) => [s.name, s.transport]),
			[['events', 'sse']],
		);
	});

	it('sends ACP shapes: stdio without a type and env as a list, remote servers with their type and headers as a list', () => {
		const { servers } = mcpServersFor(all, { http: true, sse: true });
		assert.deepEqual(servers, [
			{ name: 'files', command: 'mcp-files', args: [], env: [] },
			{ type: 'http', name: 'web', url: 'https://mcp.example.com/mcp', headers: [] },
			{ type: 'sse', name: 'events', url: 'https://mcp.example.com/sse', headers: [{ name: 'X-Key', value: 'k' }] },
		]);
	});

	it('refuses entries that are not servers', () => {
		for (const [name, value] of [
			['', { command: 'x' }],
			['x', { command: '  ' }],
			['x', { type: 'http', url: 'ftp://example.com' }],
			['x', { type: 'websocket', url: 'https://example.com' }],
			['x', { type: 'stdio', url: 'https://example.com' }],
			['x', 'mcp-files'],
			['x', { command: 'x', args: 'not a list' }],
		] as const) {
			assert.ok('error' in parseMcpServer(name, value), JSON.stringify([name, value]));
		}
	});
});
