// A local OpenAI-compatible server for tests of the NES agent's model engine: listens on 127.0.0.1,
// records every request (path, Authorization header, JSON body) and answers each with the next
// queued behavior: a reply (as `/completions` or `/chat/completions` shapes it), a hang, a 500,
// garbage, or JSON of the wrong shape.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Seen {
	readonly path: string;
	readonly authorization: string | undefined;
	readonly body: Record<string, unknown>;
	/** Resolves when the client went away before an answer. */
	readonly closedEarly: Promise<void>;
}

export type Behavior = { reply: string } | 'hang' | 'status500' | 'garbage' | 'wrongShape';

/** An OpenAI-compatible server that records each request and answers by the next behavior queued. */
export class OpenAiTestServer {
	readonly seen: Seen[] = [];
	readonly behaviors: Behavior[] = [];
	private readonly open = new Set<ServerResponse>();
	private server!: Server;
	url = '';

	reset(): void {
		this.seen.length = 0;
		this.behaviors.length = 0;
	}

	async start(): Promise<void> {
		this.server = createServer((req, res) => void this.handle(req, res));
		await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
		this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/v1`;
	}

	async stop(): Promise<void> {
		for (const res of this.open) {
			res.destroy();
		}
		this.server.closeAllConnections();
		await new Promise<void>((resolve) => this.server.close(() => resolve()));
	}

	private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
		let raw = '';
		for await (const chunk of req) {
			raw += String(chunk);
		}
		const closedEarly = new Promise<void>((resolve) => res.on('close', () => !res.writableFinished && resolve()));
		this.seen.push({ path: req.url ?? '', authorization: req.headers.authorization, body: JSON.parse(raw) as Record<string, unknown>, closedEarly });
		const behavior = this.behaviors.shift() ?? { reply: '' };
		if (behavior === 'hang') {
			this.open.add(res);
			return;
		}
		if (behavior === 'status500') {
			res.writeHead(500, { 'content-type': 'text/plain' }).end('model crashed');
			return;
		}
		if (behavior === 'garbage') {
			res.writeHead(200, { 'content-type': 'text/html' }).end('<html>not an API</html>');
			return;
		}
		if (behavior === 'wrongShape') {
			res.writeHead(200, { 'content-type': 'application/json' }).end('{"result": 42}');
			return;
		}
		const chat = req.url?.endsWith('/chat/completions');
		const body = chat ? { choices: [{ message: { role: 'assistant', content: behavior.reply } }] } : { choices: [{ text: behavior.reply }] };
		res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
	}
}
