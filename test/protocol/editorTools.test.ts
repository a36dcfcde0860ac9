// The editor tools' MCP server (src/node/editorTools/server.ts) met by the MCP SDK's own client, over
// Streamable HTTP and over the stdio bridge (dist/mcp-bridge.js, as an agent starts it), with a fake
// editor behind it: every tool, arguments that do not fit, a refusal, tools turned off, and the
// tokens (none, wrong: nothing answers).
import assert from 'node:assert/strict';
import * as net from 'node:net';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { EDITOR_TOOL_NAMES, EDITOR_TOOLS_SERVER_NAME, EditorToolError, type EditorToolCallRecord, type EditorToolName, type EditorToolsBackend } from '../../src/common/editorTools';
import { EditorToolsServer } from '../../src/node/editorTools/server';
import { repoRoot } from './helpers';

const ROOT = '/ws';
const inside = (p: string) => {
	const absolute = p.startsWith('/') ? p : `${ROOT}/${p}`;
	if (!absolute.startsWith(`${ROOT}/`)) {
		throw new EditorToolError(`${p} is outside the workspace folders (${ROOT}); editor tools answer only inside them.`);
	}
	return absolute;
};
const range = { start: { line: 2, character: 5 }, end: { line: 2, character: 9 } };

/** A fake editor: each tool answers with what it was given, so the test sees the validated arguments arrive. */
const backend: EditorToolsBackend = {
	stat: async ({ path }) => ({ path: inside(path), exists: true, isDirectory: false, size: 12 }),
	glob_search: async ({ pattern, maxResults }) => ({ files: [{ path: 'src/a.ts', absolute: `${ROOT}/src/a.ts` }], pattern, maxResults: maxResults ?? null, truncated: false }),
	read_binary_file: async ({ path, byteOffset, byteLimit }) => ({ path: inside(path), byteOffset: byteOffset ?? 0, byteLimit: byteLimit ?? null, base64: Buffer.from([0, 1, 2, 255]).toString('base64') }),
	get_diagnostics: async ({ path }) => ({ diagnostics: [{ path: path ? inside(path) : `${ROOT}/src/a.ts`, severity: 'error', message: 'Type "string" is not assignable to type "number".', range }] }),
	find_symbols: async ({ query }) => ({ symbols: [{ name: query, kind: 'Function', path: `${ROOT}/src/a.ts`, range }] }),
	document_symbols: async ({ path }) => ({ path: inside(path), symbols: [{ name: 'total', kind: 'Function', range }] }),
	go_to_definition: async ({ path, line, character }) => ({ locations: [{ path: inside(path), range: { start: { line, character }, end: { line, character } } }] }),
	find_references: async ({ path, includeDeclaration }) => ({ locations: [{ path: inside(path), range }], includeDeclaration: includeDeclaration ?? null }),
	hover: async () => ({ contents: ['```ts\nfunction total(): number\n```'] }),
	get_selection: async () => ({ editor: { path: `${ROOT}/src/a.ts`, languageId: 'typescript', selections: [{ range, text: 'total' }] } }),
	get_open_editors: async () => ({ editors: [{ path: `${ROOT}/src/a.ts`, isActive: true, isVisible: true, isDirty: false }] }),
};

/** A call of every tool, and what the fake answers. */
const everyTool: Record<EditorToolName, [Record<string, unknown>, unknown]> = {
	stat: [{ path: 'src/a.ts' }, { path: '/ws/src/a.ts', exists: true, isDirectory: false, size: 12 }],
	glob_search: [{ pattern: 'src/**/*.ts', maxResults: 10 }, { files: [{ path: 'src/a.ts', absolute: '/ws/src/a.ts' }], pattern: 'src/**/*.ts', maxResults: 10, truncated: false }],
	read_binary_file: [{ path: '/ws/img.png', byteOffset: 4, byteLimit: 4 }, { path: '/ws/img.png', byteOffset: 4, byteLimit: 4, base64: 'AAEC/w==' }],
	get_diagnostics: [{}, { diagnostics: [{ path: '/ws/src/a.ts', severity: 'error', message: 'Type "string" is not assignable to type "number".', range }] }],
	find_symbols: [{ query: 'total' }, { symbols: [{ name: 'total', kind: 'Function', path: '/ws/src/a.ts', range }] }],
	document_symbols: [{ path: 'src/a.ts' }, { path: '/ws/src/a.ts', symbols: [{ name: 'total', kind: 'Function', range }] }],
	go_to_definition: [{ path: 'src/a.ts', line: 3, character: 7 }, { locations: [{ path: '/ws/src/a.ts', range: { start: { line: 3, character: 7 }, end: { line: 3, character: 7 } } }] }],
	find_references: [{ path: 'src/a.ts', line: 3, character: 7, includeDeclaration: false }, { locations: [{ path: '/ws/src/a.ts', range }], includeDeclaration: false }],
	hover: [{ path: 'src/a.ts', line: 1, character: 1 }, { contents: ['```ts\nfunction total(): number\n```'] }],
	get_selection: [{}, { editor: { path: '/ws/src/a.ts', languageId: 'typescript', selections: [{ range, text: 'total' }] } }],
	get_open_editors: [{}, { editors: [{ path: '/ws/src/a.ts', isActive: true, isVisible: true, isDirty: false }] }],
};

type CallResult = { content: { type: string; text?: string }[]; isError?: boolean };
const textOf = (result: unknown) => (result as CallResult).content.map((c) => c.text ?? '').join('');

let enabled = new Set<EditorToolName>(EDITOR_TOOL_NAMES);
const records: EditorToolCallRecord[] = [];
const server = new EditorToolsServer({ backend, enabled: () => enabled, record: (r) => records.push(r), version: '0.0.0-test' });
const clients: Client[] = [];
after(async () => {
	await Promise.all(clients.map((c) => c.close()));
	await server.dispose();
});

async function httpClient(): Promise<Client> {
	const { url, token } = await server.http();
	const client = new Client({ name: 'test-agent', version: '1.0.0' });
	await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }));
	clients.push(client);
	return client;
}

async function bridgeClient(token?: string): Promise<Client> {
	const socket = await server.socket();
	const client = new Client({ name: 'test-agent', version: '1.0.0' });
	const transport = new StdioClientTransport({
		command: process.execPath,
		args: [join(repoRoot, 'dist', 'mcp-bridge.js')],
		env: { AGENT_LINK_MCP_SOCKET: socket.path, AGENT_LINK_MCP_TOKEN: token ?? socket.token },
		stderr: 'pipe',
	});
	clients.push(client);
	await client.connect(transport);
	return client;
}

for (const transport of ['HTTP', 'the stdio bridge'] as const) {
	describe(`editor tools over ${transport}`, () => {
		let client: Client;
		before(async () => {
			enabled = new Set(EDITOR_TOOL_NAMES);
			client = transport === 'HTTP' ? await httpClient() : await bridgeClient();
		});

		it('introduces itself and lists every tool with an object schema', async () => {
			assert.equal(client.getServerVersion()?.name, EDITOR_TOOLS_SERVER_NAME);
			const { tools } = await client.listTools();
			assert.deepEqual(
				tools.map((t) => t.name),
				EDITOR_TOOL_NAMES,
			);
			for (const tool of tools) {
				assert.equal(tool.inputSchema.type, 'object');
				assert.ok(tool.description && tool.description.length > 20, `${tool.name} has a description`);
			}
			const stat = tools.find((t) => t.name === 'stat')!;
			assert.deepEqual(stat.inputSchema.required, ['path']);
		});

		it('answers every tool with the editor’s answer as JSON text, and logs each call', async () => {
			for (const [name, [args, expected]] of Object.entries(everyTool)) {
				records.length = 0;
				const result = await client.callTool({ name, arguments: args });
				assert.ok(!(result as CallResult).isError, `${name}: ${textOf(result)}`);
				assert.deepEqual(JSON.parse(textOf(result)), expected, name);
				assert.equal(records.length, 1);
				assert.equal(records[0]!.tool, name);
				assert.equal(records[0]!.outcome, 'ok');
				assert.ok(records[0]!.ms >= 0);
			}
		});

		it('answers arguments that do not fit with isError and what is wrong', async () => {
			const cases: [string, Record<string, unknown>, RegExp][] = [
				['stat', {}, /Invalid arguments for stat: path/],
				['stat', { path: '' }, /path must not be empty/],
				['stat', { path: 'a', extra: 1 }, /Invalid arguments for stat/],
				['go_to_definition', { path: 'src/a.ts', line: 0, character: 1 }, /line/],
				['hover', { path: 'src/a.ts', line: 1.5, character: 1 }, /line/],
				['read_binary_file', { path: 'a', byteLimit: 10 * 1024 * 1024 }, /byteLimit/],
				['glob_search', { pattern: 42 }, /pattern/],
				['no_such_tool', {}, /There is no tool no_such_tool/],
			];
			for (const [name, args, message] of cases) {
				const result = await client.callTool({ name, arguments: args });
				assert.equal((result as CallResult).isError, true, `${name} ${JSON.stringify(args)}`);
				assert.match(textOf(result), message);
			}
		});

		it('passes the editor’s refusal of a path outside the workspace on as isError', async () => {
			records.length = 0;
			const result = await client.callTool({ name: 'read_binary_file', arguments: { path: '/etc/passwd' } });
			assert.equal((result as CallResult).isError, true);
			assert.match(textOf(result), /\/etc\/passwd is outside the workspace folders/);
			assert.equal(records[0]?.outcome, 'refused');
		});

		it('lists and runs only the tools left on', async () => {
			enabled = new Set(EDITOR_TOOL_NAMES.filter((n) => n !== 'hover' && n !== 'read_binary_file'));
			try {
				const { tools } = await client.listTools();
				assert.ok(!tools.some((t) => t.name === 'hover' || t.name === 'read_binary_file'));
				assert.equal(tools.length, EDITOR_TOOL_NAMES.length - 2);
				const result = await client.callTool({ name: 'hover', arguments: { path: 'src/a.ts', line: 1, character: 1 } });
				assert.equal((result as CallResult).isError, true);
				assert.match(textOf(result), /turned off/);
			} finally {
				enabled = new Set(EDITOR_TOOL_NAMES);
			}
		});
	});
}

describe('editor tools: nothing answers without the token', () => {
	const initialize = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'x', version: '1' } } };
	const post = async (headers: Record<string, string>, path = '/mcp') => {
		const { url } = await server.http();
		const response = await fetch(new URL(path, url), { method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers }, body: JSON.stringify(initialize) });
		return { status: response.status, text: await response.text() };
	};

	it('HTTP: no token and a wrong token get 401 and no MCP answer, on any path', async () => {
		const { token } = await server.http();
		for (const headers of [{}, { authorization: 'Bearer wrong' }, { authorization: `Bearer ${token}x` }, { authorization: `Basic ${token}` }, { authorization: token }] as Record<string, string>[]) {
			for (const path of ['/mcp', '/', '/other']) {
				const answer = await post(headers, path);
				assert.equal(answer.status, 401, `${JSON.stringify(headers)} ${path}`);
				assert.equal(answer.text, 'Unauthorized');
			}
		}
		const sdkClient = new Client({ name: 'intruder', version: '1' });
		await assert.rejects(sdkClient.connect(new StreamableHTTPClientTransport(new URL((await server.http()).url))));
	});

	it('HTTP: with the token, only POST /mcp, and no requests from web pages', async () => {
		const { token, url } = await server.http();
		const auth = { authorization: `Bearer ${token}` };
		assert.equal((await post(auth, '/other')).status, 404);
		assert.equal((await post({ ...auth, origin: 'http://evil.example' })).status, 403);
		assert.equal((await fetch(url, { headers: auth })).status, 405);
		const ok = await post(auth);
		assert.equal(ok.status, 200);
		assert.equal(JSON.parse(ok.text).result.serverInfo.name, EDITOR_TOOLS_SERVER_NAME);
		assert.ok(url.startsWith('http://127.0.0.1:'), 'loopback only');
	});

	it('socket: a wrong token is disconnected without a byte of answer', async () => {
		const { path } = await server.socket();
		for (const first of ['wrong\n', '\n', `${'x'.repeat(300)}`]) {
			const socket = net.connect(path);
			let received = '';
			socket.on('data', (d) => (received += d.toString()));
			await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
			socket.write(`${first}${JSON.stringify(initialize)}\n`);
			await new Promise<void>((resolve) => socket.once('close', () => resolve()));
			assert.equal(received, '', JSON.stringify(first.slice(0, 10)));
		}
	});

	it('socket: the bridge with a wrong token cannot initialize', async () => {
		await assert.rejects(bridgeClient('not-the-token'));
	});
});
