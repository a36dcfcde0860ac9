// OpenCtx providers written for the tests with OpenCtx's own authoring types (@openctx/provider),
// and an HTTP server that serves them as OpenCtx documents it: POST {method, params, settings}
// answered {result} or {error}.
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Annotation, AnnotationsParams, ItemsParams, MetaResult, Provider } from '@openctx/provider';

/** Annotates `TODO(#N)` comments: a link to the ticket, or with `see <path>#Lx-Ly` to that code in the workspace (settings.root). */
export const todoLinks: Provider<{ root?: string }> = {
	meta(): MetaResult {
		return { name: 'TODO links', annotations: { selectors: [{ path: '**/*.ts', contentContains: 'TODO' }] } };
	},
	annotations(params: AnnotationsParams, settings): Annotation[] {
		const annotations: Annotation[] = [];
		params.content.split('\n').forEach((line, i) => {
			const todo = /TODO\(#(\d+)\):\s*(.*)$/.exec(line);
			if (!todo) {
				return;
			}
			const see = /see (\S+#L\d+(?:-L\d+)?)/.exec(todo[2]!);
			const url = see && settings.root ? `file://${settings.root}/${see[1]}` : `https://tracker.example.invalid/issues/${todo[1]}`;
			const start = line.indexOf('TODO');
			annotations.push({
				uri: params.uri,
				range: { start: { line: i, character: start }, end: { line: i, character: line.length } },
				item: {
					title: `Ticket #${todo[1]}: ${todo[2]}`,
					url,
					ui: { hover: { markdown: `**Ticket #${todo[1]}** is open: _${todo[2]}_. <img src=x onerror="alert(1)">` } },
				},
			});
		});
		return annotations;
	},
};

/** Team documents to @-mention; items for a mention, and for messages about deploying. */
const DOCS = [
	{ id: 'deploy', title: 'Deploy guide', content: 'Deploy with ./ship.sh from the main branch; never on Fridays.' },
	{ id: 'style', title: 'Style guide', content: 'Tabs, single quotes, and full sentences in commit messages.' },
	{ id: 'oncall', title: 'On-call handbook', content: 'Page the on-call engineer through the alerts channel.' },
];

export const teamDocs: Provider = {
	meta(): MetaResult {
		return { name: 'Team docs', mentions: { label: 'Search team docs' }, items: { messageSelectors: [{ pattern: '\\bdeploy' }] } };
	},
	mentions(params) {
		const query = (params.query ?? '').toLowerCase();
		return DOCS.filter((d) => d.title.toLowerCase().includes(query)).map((d) => ({ title: d.title, uri: `https://docs.example.invalid/${d.id}`, description: `docs/${d.id}.md` }));
	},
	items(params: ItemsParams) {
		const doc = params.mention ? DOCS.find((d) => `https://docs.example.invalid/${d.id}` === params.mention!.uri) : /\bdeploy/.test(params.message ?? '') ? DOCS[0] : undefined;
		return doc ? [{ title: doc.title, url: `https://docs.example.invalid/${doc.id}`, ai: { content: doc.content } }] : [];
	},
};

/** Answers meta, then fails every other call. */
export const failing: Provider = {
	meta: () => ({ name: 'Failing provider', annotations: {} }),
	annotations: () => {
		throw new Error('the backend is down');
	},
};

/** Answers meta at once and annotations after `delayMs`. */
export function slow(delayMs: number): Provider {
	return {
		meta: () => ({ name: 'Slow provider' }),
		annotations: async (params) => {
			await new Promise((r) => setTimeout(r, delayMs));
			return [{ uri: params.uri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 1 } }, item: { title: 'Too late' } }];
		},
	};
}

/** Serves providers at `/<name>` on 127.0.0.1; `onCall` sees every call. */
export async function serveProviders(providers: Record<string, Provider>, onCall?: (name: string, method: string) => void): Promise<{ url: (name: string) => string; close: () => Promise<void> }> {
	const server = http.createServer((req, res) => {
		const name = (req.url ?? '/').slice(1);
		const chunks: Buffer[] = [];
		req.on('data', (c: Buffer) => chunks.push(c));
		req.on('end', () => {
			const provider = providers[name];
			const reply = (status: number, body: unknown) => {
				res.writeHead(status, { 'content-type': 'application/json' });
				res.end(JSON.stringify(body));
			};
			if (!provider || req.method !== 'POST') {
				return reply(404, { error: { code: 404, message: `no provider at ${req.url}` } });
			}
			let message: { method: string; params?: unknown; settings?: Record<string, unknown> };
			try {
				message = JSON.parse(Buffer.concat(chunks).toString('utf8'));
			} catch {
				return reply(400, { error: { code: -32700, message: 'not JSON' } });
			}
			onCall?.(name, message.method);
			const fn = (provider as unknown as Record<string, ((p: unknown, s: unknown) => unknown) | undefined>)[message.method];
			if (typeof fn !== 'function') {
				return reply(200, { result: null });
			}
			Promise.resolve()
				.then(() => fn.call(provider, message.params ?? {}, message.settings ?? {}))
				.then(
					(result) => reply(200, { result }),
					(error: unknown) => reply(200, { error: { code: -32000, message: error instanceof Error ? error.message : String(error) } }),
				);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
	const { port } = server.address() as AddressInfo;
	return {
		url: (name) => `http://127.0.0.1:${port}/${name}`,
		close: () =>
			new Promise<void>((resolve) => {
				server.closeAllConnections();
				server.close(() => resolve());
			}),
	};
}
