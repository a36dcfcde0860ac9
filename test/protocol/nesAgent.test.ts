// Agent Link's own NES agent (the built dist/nes-agent.js, run with `node`) against Agent Link's
// real client: AgentHandle and AgentConnection for the wire, DocumentSyncCore for the document
// events, and the NES protocol module for capabilities and reply validation.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, beforeEach, describe, it } from 'node:test';
import { CancellationTokenSource } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { DocumentSyncCore, type ContentChange } from '../../src/common/nes/documentSyncCore';
import {
	NesMethods,
	clientNesCapabilities,
	detectNesProfile,
	eventMethod,
	startNesResponseSchema,
	suggestNesResponseSchema,
	type ClientNesFeatures,
	type NesProfile,
	type NesSuggestion,
	type SuggestNesResponse,
} from '../../src/common/nes/protocol';
import { ErrorCodes } from '../../src/common/protocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { AgentError } from '../../src/node/connection';
import { OpenAiTestServer } from '../shared/openAiServer';
import { MemoryLog, clientInfo, launch, repoRoot, waitFor } from './helpers';

const agentScript = join(repoRoot, 'dist', 'nes-agent.js');
const uri = 'file:///project/src/total.ts';
const source = ['function total(items) {', '  let sum = 0;', '  for (const item of items) {', '    sum += item.price;', '  }', '  return sum;', '}', ''].join('\n');

const handles: AgentHandle[] = [];
after(async () => {
	await Promise.all(handles.map((h) => h.dispose()));
});

const none: ClientNesFeatures = { jump: false, rename: false, searchAndReplace: false };

/** The client side of one NES session, as Agent Link's NES feature drives it. */
class Client {
	private version = 1;
	private lines = source.split('\n');
	readonly sync: DocumentSyncCore;

	constructor(
		readonly h: AgentHandle,
		readonly profile: NesProfile,
		readonly sessionId: string,
	) {
		this.sync = new DocumentSyncCore({
			events: profile.events,
			encoding: profile.encoding,
			maxFileBytes: 1024 * 1024,
			byteLength: (t) => Buffer.byteLength(t),
			send: (event, params) => void h.connection.sendNotification(eventMethod(profile.revision, event), { sessionId, ...params }),
			log: () => {},
		});
	}

	open(): void {
		this.sync.didOpen(uri, 'typescript', this.version, () => this.lines.join('\n'));
	}

	/** Replaces [character, character + length) of `line` with `text`, as one editor change. */
	change(line: number, character: number, length: number, text: string): number {
		const old = this.lines[line]!;
		this.lines[line] = old.slice(0, character) + text + old.slice(character + length);
		const change: ContentChange = { range: { start: { line, character }, end: { line, character: character + length } }, rangeLength: length, text };
		this.sync.didChange(uri, ++this.version, [change], () => this.lines.join('\n'));
		return this.version;
	}

	/** Types over the whole word `word` on `line`: a backspace per character, then one change per typed character. */
	retype(line: number, word: string, replacement: string): void {
		const start = new RegExp(`\\b${word}\\b`).exec(this.lines[line]!)!.index;
		for (let i = word.length; i > 0; i--) {
			this.change(line, start + i - 1, 1, '');
		}
		[...replacement].forEach((ch, i) => this.change(line, start + i, 0, ch));
	}

	get currentVersion(): number {
		return this.version;
	}

	text(): string {
		return this.lines.join('\n');
	}

	suggest(version = this.version, token?: CancellationTokenSource, context?: Record<string, unknown>): Promise<SuggestNesResponse> {
		return this.h.connection.sendRequest(
			NesMethods.suggest,
			{ sessionId: this.sessionId, uri, version, position: { line: 5, character: 13 }, triggerKind: 'automatic', ...(context ? { context } : {}) },
			suggestNesResponseSchema,
			token?.token,
		);
	}
}

async function start(features: ClientNesFeatures = none, log = new MemoryLog(), env: Record<string, string> = {}): Promise<Client> {
	const h = await launch({ command: process.execPath, args: [agentScript], env }, log);
	handles.push(h);
	const init = await h.initialize(clientInfo, { fs: { readTextFile: false, writeTextFile: false }, ...clientNesCapabilities(features) });
	const detected = detectNesProfile(init.agentCapabilities);
	assert.ok(detected?.ok, 'the client reads the agent’s NES capabilities');
	const { sessionId } = await h.connection.sendRequest(NesMethods.start, { workspaceUri: 'file:///project', workspaceFolders: [{ uri: 'file:///project', name: 'project' }] }, startNesResponseSchema);
	return new Client(h, detected.profile, sessionId);
}

describe('Agent Link NES agent over stdio', () => {
	it('completes the handshake the way Agent Link’s client opens an NES session', async () => {
		const c = await start();
		assert.equal(c.h.initialized?.agentInfo?.name, 'agent-link-nes');
		assert.equal(c.profile.revision, 'merged');
		assert.equal(c.profile.encoding, 'utf-16');
		assert.deepEqual(c.profile.events, { didOpen: true, didChange: 'incremental', didClose: true, didSave: false, didFocus: false });
		assert.match(c.sessionId, /\S/);
	});

	it('suggests the rest of a rename typed keystroke by keystroke, as plain edits when the client shows nothing else', async () => {
		const c = await start();
		c.open();
		c.retype(5, 'sum', 'subtotal');
		const { suggestions } = await c.suggest();
		const [edit, ...rest] = suggestions;
		assert.deepEqual(rest, []);
		assert.ok(edit?.kind === 'edit');
		assert.deepEqual(edit.edits, [{ range: { start: { line: 3, character: 4 }, end: { line: 3, character: 7 } }, newText: 'subtotal' }]);
		assert.equal(edit.uri, uri);
	});

	it('offers a rename, or jumps, when the client advertises them', async () => {
		const rename = await start({ jump: true, rename: true, searchAndReplace: true });
		rename.open();
		rename.retype(5, 'sum', 'subtotal');
		const r = await rename.suggest();
		assert.deepEqual(r.suggestions.map((s) => s.kind), ['rename']);
		assert.ok(r.suggestions[0]?.kind === 'rename');
		assert.deepEqual([r.suggestions[0].position, r.suggestions[0].newName], [{ line: 1, character: 6 }, 'subtotal']);

		const jumps = await start({ jump: true, rename: false, searchAndReplace: false });
		jumps.open();
		jumps.retype(1, 'sum', 'acc'); // the declaration: a language rename could not resolve the old name
		const j = await jumps.suggest();
		assert.deepEqual(j.suggestions.map((s) => s.kind), ['edit', 'jump']);
	});

	it('after a reject, offers the next place; accepting and applying walks the rename to its end', async () => {
		const c = await start();
		c.open();
		c.retype(5, 'sum', 'total2');
		const first = (await c.suggest()).suggestions[0];
		assert.ok(first?.kind === 'edit');
		await c.h.connection.sendNotification(NesMethods.reject, { sessionId: c.sessionId, id: first.id, reason: 'rejected' });
		const second = (await c.suggest()).suggestions[0];
		assert.ok(second?.kind === 'edit');
		assert.notDeepEqual(second.edits[0]?.range, first.edits[0]?.range, 'the rejected place is not offered again');
		// Accept it: the client applies the edit and says so.
		let next: NesSuggestion | undefined = second;
		for (let guard = 0; next?.kind === 'edit' && guard < 5; guard++) {
			const e = next.edits[0]!;
			await c.h.connection.sendNotification(NesMethods.accept, { sessionId: c.sessionId, id: next.id });
			c.change(e.range.start.line, e.range.start.character, e.range.end.character - e.range.start.character, e.newText);
			next = (await c.suggest()).suggestions[0];
		}
		assert.equal(next, undefined, 'nothing left to suggest');
		// Everything but the rejected place is renamed.
		const r = first.edits[0]!.range.start;
		assert.equal(c.text().split('\n')[r.line]!.slice(r.character, r.character + 3), 'sum');
		assert.equal((c.text().match(/\bsum\b/g) ?? []).length, 1);
	});

	it('answers a cancelled nes/suggest with -32800 and keeps serving', async () => {
		const c = await start();
		c.open();
		c.retype(5, 'sum', 'acc');
		// A request for a version the agent has not been told about yet waits for it: cancel it meanwhile.
		const source = new CancellationTokenSource();
		const pending = c.suggest(c.currentVersion + 1, source);
		source.cancel();
		await assert.rejects(pending, (e: unknown) => e instanceof AgentError && e.code === ErrorCodes.RequestCancelled);
		// The version arrives; the same request now gets its answer, made for that version.
		const later = c.suggest(c.currentVersion + 1);
		c.change(5, 12, 0, 'u');
		const { suggestions } = await later;
		assert.ok(suggestions[0]?.kind === 'edit');
		assert.equal(suggestions[0].edits[0]?.newText, 'accu');
	});

	it('validates what it is sent: -32602 naming the field, an unknown session refused, unknown documents answered empty', async () => {
		const c = await start();
		await assert.rejects(
			c.h.connection.sendRequest(NesMethods.suggest, { sessionId: c.sessionId, uri, version: 'one' }, z.unknown()),
			(e: unknown) => e instanceof AgentError && e.code === ErrorCodes.InvalidParams && /version/.test(JSON.stringify(e.data)),
		);
		await assert.rejects(
			c.h.connection.sendRequest(NesMethods.suggest, { sessionId: 'nope', uri, version: 1, position: { line: 0, character: 0 }, triggerKind: 'manual' }, z.unknown()),
			(e: unknown) => e instanceof AgentError && e.code === ErrorCodes.InvalidParams && /Unknown NES session/.test(e.message),
		);
		assert.deepEqual(await c.suggest(1), { suggestions: [] }, 'never opened');
		c.open();
		c.retype(5, 'sum', 'acc');
		c.sync.didClose(uri);
		assert.deepEqual(await c.suggest(), { suggestions: [] }, 'closed');
		await c.h.connection.sendRequest(NesMethods.close, { sessionId: c.sessionId }, z.unknown());
		await assert.rejects(c.suggest(), (e: unknown) => e instanceof AgentError && e.code === ErrorCodes.InvalidParams);
	});

	it('survives a line that is not JSON and a method it does not have', async () => {
		const c = await start();
		c.h.process!.child.stdin.write('this is not JSON\n');
		await assert.rejects(
			c.h.connection.sendRequest('session/new', { cwd: '/project', mcpServers: [] }, z.unknown()),
			(e: unknown) => e instanceof AgentError && e.code === ErrorCodes.MethodNotFound,
		);
		c.open();
		c.retype(5, 'sum', 'subtotal');
		assert.ok((await c.suggest()).suggestions[0]?.kind === 'edit');
		assert.equal(c.h.process!.hasExited, false);
	});

	it('ends when the client closes its input', async () => {
		const c = await start();
		c.h.process!.child.stdin.end();
		const exit = await c.h.process!.onExit;
		assert.equal(exit.code, 0);
	});
});

describe('Agent Link NES agent over stdio, with a model (engine 2)', () => {
	const server = new OpenAiTestServer();
	const KEY = 'sk-protocol-test-key';
	before(() => server.start());
	after(() => server.stop());
	beforeEach(() => server.reset());
	const modelEnv = (extra: Record<string, string> = {}) => ({
		AGENT_LINK_NES_MODEL_ENDPOINT: server.url,
		AGENT_LINK_NES_MODEL: 'next-edit-test',
		AGENT_LINK_NES_MODEL_API_KEY: KEY,
		AGENT_LINK_NES_MODEL_TIMEOUT_MS: '5000',
		...extra,
	});
	const snippet = { uri: 'file:///project/src/item.ts', excerpts: [{ startLine: 0, endLine: 0, text: 'export interface Item { price: number }' }] };

	it('asks for related snippets, puts them and the document in the prompt, and turns the model’s rewrite into an edit', async () => {
		const c = await start(none, new MemoryLog(), modelEnv());
		assert.deepEqual(c.profile.context, { relatedSnippets: {} });
		c.open();
		c.retype(5, 'sum', 'subtotal');
		const rewritten = source.replace(/\bsum\b/g, 'subtotal').replace(/\n$/, '');
		server.behaviors.push({ reply: `${rewritten}\n<|file_sep|>` });
		const { suggestions } = await c.suggest(undefined, undefined, { relatedSnippets: [snippet] });
		const [seen] = server.seen;
		assert.equal(seen?.authorization, `Bearer ${KEY}`);
		const prompt = String(seen.body.prompt);
		assert.ok(prompt.startsWith('<|file_sep|>src/item.ts\nexport interface Item { price: number }\n'), prompt);
		assert.ok(prompt.includes('<|file_sep|>src/total.ts.diff\noriginal:\n  return sum;\nupdated:\n  return subtotal;\n'), prompt);
		assert.ok(prompt.endsWith('<|file_sep|>updated/src/total.ts\n'), prompt);
		// The group nearest the cursor (line 5) first; the others would be jumps.
		assert.ok(suggestions[0]?.kind === 'edit');
		assert.deepEqual(suggestions[0].edits, [{ range: { start: { line: 3, character: 4 }, end: { line: 3, character: 7 } }, newText: 'subtotal' }]);
	});

	it('a failing model: engine 1 answers, and the log line never holds the key', async () => {
		const c = await start(none, new MemoryLog(), modelEnv());
		c.open();
		c.retype(5, 'sum', 'subtotal');
		server.behaviors.push('status500');
		const { suggestions } = await c.suggest();
		assert.ok(suggestions[0]?.kind === 'edit');
		assert.equal(suggestions[0].edits[0]?.newText, 'subtotal');
		await waitFor(() => c.h.process!.stderrTail.some((l) => /answered 500/.test(l)));
		assert.ok(!c.h.process!.stderrTail.join('\n').includes(KEY));
	});

	it('invalid model settings: the agent says so and serves with engine 1', async () => {
		const c = await start(none, new MemoryLog(), modelEnv({ AGENT_LINK_NES_MODEL_FORMAT: 'gpt' }));
		assert.deepEqual(c.profile.context, {});
		c.open();
		c.retype(5, 'sum', 'subtotal');
		assert.ok((await c.suggest()).suggestions[0]?.kind === 'edit');
		assert.equal(server.seen.length, 0);
		await waitFor(() => c.h.process!.stderrTail.some((l) => /AGENT_LINK_NES_MODEL_FORMAT/.test(l)));
	});
});
