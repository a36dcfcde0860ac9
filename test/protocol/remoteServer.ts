// A real remote ACP server for tests: test/fixtures/remote/acp-server.mjs (the SDK's AcpServer on
// loopback in front of a fixture agent) as a child process, with its commands.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { join } from 'node:path';
import { repoRoot } from './helpers';

export interface RemoteServerOptions {
	readonly agent?: string;
	readonly fixture?: Record<string, unknown>;
	readonly token?: string;
	/** A token answered 403 (known, but without access). */
	readonly forbidden?: string;
	readonly stall?: boolean;
}

export class RemoteServer {
	private buffered = '';
	private readonly waiters: ((line: Record<string, unknown>) => boolean)[] = [];

	private constructor(
		private readonly child: ChildProcessWithoutNullStreams,
		readonly urls: { readonly http: string; readonly ws: string },
	) {}

	static async start(options: RemoteServerOptions = {}): Promise<RemoteServer> {
		const child = spawn(process.execPath, [join(repoRoot, 'test', 'fixtures', 'remote', 'acp-server.mjs')], {
			cwd: repoRoot,
			env: { ...process.env, AGENT_LINK_REMOTE: JSON.stringify(options) },
			stdio: ['pipe', 'pipe', 'pipe'],
		});
		child.stderr.setEncoding('utf8');
		child.stderr.on('data', (d: string) => process.stderr.write(`[remote server] ${d}`));
		const server = new RemoteServer(child, { http: '', ws: '' });
		child.stdout.setEncoding('utf8');
		child.stdout.on('data', (chunk: string) => server.onOutput(chunk));
		const first = await server.next((line) => typeof line.http === 'string');
		return Object.assign(server, { urls: { http: first.http as string, ws: first.ws as string } });
	}

	url(profile: 'http' | 'websocket'): string {
		return profile === 'http' ? this.urls.http : this.urls.ws;
	}

	/** Ends every open connection and its agent process at once. */
	async drop(): Promise<void> {
		const done = this.next((line) => line.dropped === true);
		this.child.stdin.write('drop\n');
		await done;
	}

	/** How many ACP connections the server has accepted. */
	async connections(): Promise<number> {
		const done = this.next((line) => typeof line.connections === 'number');
		this.child.stdin.write('count\n');
		return (await done).connections as number;
	}

	async stop(): Promise<void> {
		const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
		this.child.stdin.end();
		await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3000))]);
		this.child.kill('SIGKILL');
	}

	private next(match: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>> {
		return new Promise((resolve) => {
			this.waiters.push((line) => {
				if (!match(line)) {
					return false;
				}
				resolve(line);
				return true;
			});
		});
	}

	private onOutput(chunk: string): void {
		this.buffered += chunk;
		let newline: number;
		while ((newline = this.buffered.indexOf('\n')) >= 0) {
			const text = this.buffered.slice(0, newline);
			this.buffered = this.buffered.slice(newline + 1);
			let line: Record<string, unknown>;
			try {
				line = JSON.parse(text) as Record<string, unknown>;
			} catch {
				continue;
			}
			const index = this.waiters.findIndex((w) => w(line));
			if (index >= 0) {
				this.waiters.splice(index, 1);
			}
		}
	}
}
