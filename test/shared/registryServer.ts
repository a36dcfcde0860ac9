// A registry and download server on 127.0.0.1 for tests: serves a fixture registry document and
// archives of a tiny fixture agent, counts requests, and can hang, fail or trickle on demand.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as path from 'node:path';
import { tarGz, zip, type FixtureEntry } from './archives';

export interface Route {
	readonly body: Buffer | string;
	readonly status?: number;
	/** Send the body in pieces this far apart (ms), to test progress and cancellation. */
	readonly trickleMs?: number;
	/** Never answer. */
	readonly hang?: boolean;
}

export class RegistryServer {
	private readonly routes = new Map<string, Route>();
	readonly hits = new Map<string, number>();
	private server: http.Server | undefined;
	private port = 0;

	get base(): string {
		return `http://127.0.0.1:${this.port}`;
	}

	url(route: string): string {
		return `${this.base}${route}`;
	}

	set(route: string, value: Route | Buffer | string | object): void {
		this.routes.set(route, Buffer.isBuffer(value) || typeof value === 'string' ? { body: value } : 'body' in (value as Route) ? (value as Route) : { body: JSON.stringify(value) });
	}

	async start(): Promise<void> {
		this.server = http.createServer((request, response) => {
			const route = (request.url ?? '/').split('?')[0]!;
			this.hits.set(route, (this.hits.get(route) ?? 0) + 1);
			const found = this.routes.get(route);
			if (!found) {
				response.writeHead(404).end('not found');
				return;
			}
			if (found.hang) {
				return;
			}
			const body = Buffer.from(found.body);
			response.writeHead(found.status ?? 200, { 'content-length': body.length });
			if (!found.trickleMs) {
				response.end(body);
				return;
			}
			let sent = 0;
			const piece = Math.max(1, Math.ceil(body.length / 50));
			const timer = setInterval(() => {
				if (response.destroyed) {
					clearInterval(timer);
					return;
				}
				response.write(body.subarray(sent, sent + piece));
				sent += piece;
				if (sent >= body.length) {
					clearInterval(timer);
					response.end();
				}
			}, found.trickleMs);
		});
		await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
		this.port = (this.server!.address() as AddressInfo).port;
	}

	async stop(): Promise<void> {
		this.server?.closeAllConnections();
		await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
	}
}

export const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * The files of a tiny fixture agent: `bin/agent` (a shell script running the scripted agent of
 * test/fixtures/agents with this Node) and the agent's modules. `version` shows in agentInfo.
 */
export function fixtureAgentFiles(repoRoot: string, version: string): FixtureEntry[] {
	const lib = fs.readFileSync(path.join(repoRoot, 'test', 'fixtures', 'agents', 'lib.mjs'), 'utf8');
	const main = `import { runAgent } from './lib.mjs';\nrunAgent({ agentVersion: ${JSON.stringify(version)} });\n`;
	const script = `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} "$(dirname "$0")/../lib/main.mjs" "$@"\n`;
	return [
		{ name: 'bin/', type: 'directory' },
		{ name: 'bin/agent', content: script, mode: 0o755 },
		{ name: 'lib/', type: 'directory' },
		{ name: 'lib/lib.mjs', content: lib },
		{ name: 'lib/main.mjs', content: main },
	];
}

export function fixtureArchives(repoRoot: string, version: string): { tarGz: Buffer; zip: Buffer } {
	const files = fixtureAgentFiles(repoRoot, version);
	return { tarGz: tarGz(files), zip: zip(files) };
}
