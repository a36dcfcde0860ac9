/**
 * The editor tools' MCP server (src/common/editorTools.ts), on the official MCP SDK, in two
 * transports, each opened on first use and each guarded by a random token of its own:
 *
 * - Streamable HTTP on 127.0.0.1, an ephemeral port, path `/mcp`: every request needs
 *   `Authorization: Bearer <token>`; without it, or with another, the answer is 401 and nothing else
 *   runs. Requests from a web page (an `Origin` header) are refused too. The server is stateless (one
 *   MCP server object per request, JSON answers), so any number of agents share it.
 * - A local socket (a unix socket in a private temporary folder, a named pipe on Windows) for the
 *   stdio bridge (src/node/mcpBridge.ts) an agent starts: the first line a connection sends must be
 *   the token, else it is closed without an answer; after that it carries MCP's stdio framing.
 *
 * The build bundles this file, with the SDK, as dist/editor-tools.js, loaded when the first chat
 * session starts: the extension's start-up bundle does not carry the SDK.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { CallToolRequestSchema, ListToolsRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { EDITOR_TOOLS_SERVER_NAME, callEditorTool, editorToolList, type EditorToolCallRecord, type EditorToolName, type EditorToolsBackend } from '../../common/editorTools';

export interface EditorToolsServerOptions {
	readonly backend: EditorToolsBackend;
	/** The tools turned on now: read at every `tools/list` and `tools/call`. */
	readonly enabled: () => ReadonlySet<EditorToolName>;
	/** Every call, for the log. */
	readonly record: (call: EditorToolCallRecord) => void;
	readonly version: string;
	/** Problems no request can be told about (a socket error), for the log. */
	readonly onError?: (message: string) => void;
}

export interface HttpEndpoint {
	readonly url: string;
	readonly token: string;
}

export interface SocketEndpoint {
	readonly path: string;
	readonly token: string;
}

/** Requests larger than this are refused (413): tool arguments are small. */
const MAX_BODY_BYTES = 4 * 1024 * 1024;
/** A bridge connection must present its token within this time. */
const HANDSHAKE_MS = 10_000;

const newToken = () => randomBytes(32).toString('hex');

/** Compares in constant time, so the answer's timing says nothing about the token. */
function tokenMatches(given: string | undefined, token: string): boolean {
	if (given === undefined) {
		return false;
	}
	const a = Buffer.from(given);
	const b = Buffer.from(token);
	return a.length === b.length && timingSafeEqual(a, b);
}

export class EditorToolsServer {
	private httpServer?: Promise<{ readonly server: http.Server; readonly endpoint: HttpEndpoint }>;
	private socketServer?: Promise<{ readonly server: net.Server; readonly endpoint: SocketEndpoint; readonly dir?: string }>;
	private readonly connections = new Set<net.Socket>();
	private disposed = false;

	constructor(private readonly options: EditorToolsServerOptions) {}

	/** A new MCP server object answering `tools/list` and `tools/call`. */
	private mcpServer(): Server {
		const server = new Server({ name: EDITOR_TOOLS_SERVER_NAME, title: 'Agent Link editor tools', version: this.options.version }, { capabilities: { tools: { listChanged: false } } });
		server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: editorToolList(this.options.enabled()) }));
		server.setRequestHandler(CallToolRequestSchema, (request) => callEditorTool(this.options.backend, this.options.enabled(), request.params.name, request.params.arguments, this.options.record));
		return server;
	}

	/** The HTTP endpoint, listening from the first call on. */
	http(): Promise<HttpEndpoint> {
		this.httpServer ??= this.listenHttp();
		return this.httpServer.then((s) => s.endpoint);
	}

	/** The bridge's socket, listening from the first call on. */
	socket(): Promise<SocketEndpoint> {
		this.socketServer ??= this.listenSocket();
		return this.socketServer.then((s) => s.endpoint);
	}

	private async listenHttp(): Promise<{ server: http.Server; endpoint: HttpEndpoint }> {
		const token = newToken();
		const server = http.createServer((req, res) => void this.handleHttp(req, res, token));
		server.on('connection', (socket) => {
			this.connections.add(socket);
			socket.once('close', () => this.connections.delete(socket));
		});
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(0, '127.0.0.1', () => {
				server.off('error', reject);
				resolve();
			});
		});
		const { port } = server.address() as AddressInfo;
		return { server, endpoint: { url: `http://127.0.0.1:${port}/mcp`, token } };
	}

	private async handleHttp(req: http.IncomingMessage, res: http.ServerResponse, token: string): Promise<void> {
		const plain = (status: number, text: string, headers: http.OutgoingHttpHeaders = {}) => {
			res.writeHead(status, { 'content-type': 'text/plain; charset=utf-8', ...headers }).end(text);
		};
		const auth = /^Bearer (\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
		if (!tokenMatches(auth, token)) {
			// Nothing else is looked at, not even the path.
			plain(401, 'Unauthorized', { 'www-authenticate': 'Bearer' });
			return;
		}
		if (req.headers.origin !== undefined) {
			plain(403, 'Requests from web pages are not accepted.');
			return;
		}
		if ((req.url ?? '').split('?')[0] !== '/mcp') {
			plain(404, 'Not found: the MCP endpoint is /mcp.');
			return;
		}
		if (req.method !== 'POST') {
			// Stateless: no server-initiated stream (GET) and no session to end (DELETE).
			plain(405, 'Method not allowed.', { allow: 'POST' });
			return;
		}
		let body: unknown;
		try {
			body = JSON.parse(await readBody(req));
		} catch (error) {
			const tooLarge = error instanceof BodyTooLargeError;
			res.writeHead(tooLarge ? 413 : 400, { 'content-type': 'application/json' }).end(
				JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: tooLarge ? 'Request too large.' : 'Parse error: the body is not JSON.' } }),
			);
			return;
		}
		const server = this.mcpServer();
		const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
		res.once('close', () => {
			void transport.close();
			void server.close();
		});
		try {
			await server.connect(transport);
			await transport.handleRequest(req, res, body);
		} catch (error) {
			this.options.onError?.(`Editor tools: an HTTP request failed: ${error instanceof Error ? error.message : String(error)}`);
			if (!res.headersSent) {
				plain(500, 'Internal error.');
			}
		}
	}

	private async listenSocket(): Promise<{ server: net.Server; endpoint: SocketEndpoint; dir?: string }> {
		const token = newToken();
		let dir: string | undefined;
		let socketPath: string;
		if (process.platform === 'win32') {
			socketPath = `\\\\.\\pipe\\agent-link-mcp-${randomBytes(12).toString('hex')}`;
		} else {
			// A folder only this user can enter: the socket inside cannot be reached by others at all.
			dir = await fs.promises.mkdtemp(path.join(os.tmpdir(), 'agent-link-mcp-'));
			await fs.promises.chmod(dir, 0o700);
			socketPath = path.join(dir, 'tools.sock');
		}
		const server = net.createServer((socket) => this.acceptBridge(socket, token));
		await new Promise<void>((resolve, reject) => {
			server.once('error', reject);
			server.listen(socketPath, () => {
				server.off('error', reject);
				resolve();
			});
		});
		return { server, endpoint: { path: socketPath, token }, dir };
	}

	/** A bridge connection: its first line must be the token; then MCP over stdio framing. */
	private acceptBridge(socket: net.Socket, token: string): void {
		this.connections.add(socket);
		socket.once('close', () => this.connections.delete(socket));
		socket.on('error', () => socket.destroy());
		let received = Buffer.alloc(0);
		const timer = setTimeout(() => socket.destroy(), HANDSHAKE_MS);
		const onData = (chunk: Buffer) => {
			received = Buffer.concat([received, chunk]);
			const nl = received.indexOf(0x0a);
			if (nl === -1) {
				if (received.length > 256) {
					clearTimeout(timer);
					socket.destroy();
				}
				return;
			}
			clearTimeout(timer);
			socket.off('data', onData);
			// Held until the transport listens: what arrives meanwhile is kept, not dropped.
			socket.pause();
			if (!tokenMatches(received.subarray(0, nl).toString('utf8').trim(), token)) {
				socket.destroy();
				return;
			}
			const rest = received.subarray(nl + 1);
			if (rest.length > 0) {
				socket.unshift(rest);
			}
			const server = this.mcpServer();
			socket.once('close', () => void server.close());
			server.connect(new StdioServerTransport(socket, socket)).then(() => socket.resume(), (error: unknown) => {
				this.options.onError?.(`Editor tools: a bridge connection failed: ${error instanceof Error ? error.message : String(error)}`);
				socket.destroy();
			});
		};
		socket.on('data', onData);
	}

	/** Stops listening and ends every connection; the socket's folder is removed. */
	async dispose(): Promise<void> {
		if (this.disposed) {
			return;
		}
		this.disposed = true;
		for (const socket of this.connections) {
			socket.destroy();
		}
		const closing: Promise<unknown>[] = [];
		const close = (server: net.Server) => new Promise<void>((resolve) => server.close(() => resolve()));
		if (this.httpServer) {
			closing.push(this.httpServer.then((s) => close(s.server)).catch(() => {}));
		}
		if (this.socketServer) {
			closing.push(
				this.socketServer
					.then(async (s) => {
						await close(s.server);
						if (s.dir) {
							await fs.promises.rm(s.dir, { recursive: true, force: true });
						}
					})
					.catch(() => {}),
			);
		}
		await Promise.all(closing);
	}
}

class BodyTooLargeError extends Error {}

function readBody(req: http.IncomingMessage): Promise<string> {
	return new Promise((resolve, reject) => {
		const chunks: Buffer[] = [];
		let size = 0;
		req.on('data', (chunk: Buffer) => {
			size += chunk.length;
			if (size > MAX_BODY_BYTES) {
				reject(new BodyTooLargeError());
				req.destroy();
				return;
			}
			chunks.push(chunk);
		});
		req.once('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
		req.once('error', reject);
	});
}

/** What dist/editor-tools.js exports (the extension requires it lazily). */
export function createEditorToolsServer(options: EditorToolsServerOptions): EditorToolsServer {
	return new EditorToolsServer(options);
}
