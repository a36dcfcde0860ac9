// Extension-host cost of NES document events per keystroke, and bytes on the wire per edit, against
// vscode-languageclient's incremental textDocument/didChange for the same edits in the same run.
//
// Measured in plain Node, with the code that runs in the extension host:
// - Agent Link: the onDidChangeTextDocument listener's work (copyContentChanges, then
//   DocumentSyncCore.didChange: size bound, shadow copy and position conversion in utf-8/utf-32),
//   NesSession.notify's wrapping (sessionId, merged revision), and the real AgentConnection
//   (vscode-jsonrpc + the NDJSON writer) writing to a byte-counting sink.
// - vscode-languageclient 11: its own DidChangeTextDocumentFeature.callback (registered for
//   incremental sync) and BaseLanguageClient.sendNotification, run on a stand-in client object that
//   has just the fields those two methods read; its codeConverter; a vscode-jsonrpc
//   StreamMessageConnection (Content-Length framing) writing to the same kind of sink. The `vscode`
//   module both need is a stub (EventEmitter, languages.match → 1, onDidChangeTextDocument).
// Both get the same event objects, shaped like VS Code's (Position/Range class instances).
// Per keystroke: wall time from handing the event to the listener until the message is written
// (the write callback ran), with nothing else running. Keystrokes: bursts of typing at random
// places, with Enter and Backspace among them, in documents of 1 000 and 20 000 lines (about
// 40 characters a line, some lines with é, CJK and emoji). Rounds alternate between the clients.
//
//   node out/bench/documentSync.bench.js [--keystrokes 5000] [--rounds 3]
import { random } from '../test/shared/random';
import Module from 'node:module';
import { dirname, join } from 'node:path';
import { PassThrough, Writable } from 'node:stream';
import { parseArgs } from 'node:util';
import type * as LanguageClientNode from 'vscode-languageclient/node';
import { nullLogger } from '../src/common/log';
import { DocumentSyncCore, copyContentChanges, type ContentChange } from '../src/common/nes/documentSyncCore';
import { eventMethod, type NesProfile } from '../src/common/nes/protocol';
import type { PositionEncoding } from '../src/common/positionEncoding';
import { AgentConnection } from '../src/node/connection';

const { values } = parseArgs({ options: { keystrokes: { type: 'string', default: '5000' }, rounds: { type: 'string', default: '3' } } });
const keystrokes = Number(values.keystrokes);
const rounds = Number(values.rounds);

// ---------------------------------------------------------------- VS Code-shaped events

class Position {
	constructor(
		readonly line: number,
		readonly character: number,
	) {}
}
class Range {
	constructor(
		readonly start: Position,
		readonly end: Position,
	) {}
}
interface ChangeEvent {
	readonly document: FakeDocument;
	readonly contentChanges: readonly (ContentChange & { rangeOffset: number })[];
	readonly reason: undefined;
}

/** Just enough of a TextDocument: vscode.Uri caches its string form, so does this. */
class FakeDocument {
	readonly uri = { scheme: 'file', fsPath: '', toString: () => FakeDocument.uriString };
	static readonly uriString = 'file:///home/alice/projects/my-app/src/components/editor/documentModel.ts';
	readonly languageId = 'typescript';
	version = 1;
	constructor(readonly lines: string[]) {}
	getText(): string {
		return this.lines.join('\n');
	}
	get lineCount(): number {
		return this.lines.length;
	}
}

const WORDS = ['const', 'value', 'return', 'await', 'this.state', 'items', 'map', '=>', 'if', 'else', '{', '}', 'é', '中文', '😀'];

function makeLines(count: number, random: () => number): string[] {
	const lines: string[] = [];
	for (let i = 0; i < count; i++) {
		let line = '\t'.repeat(Math.floor(random() * 4));
		while (line.length < 20 + random() * 40) {
			line += `${WORDS[Math.floor(random() * (random() < 0.9 ? 12 : WORDS.length))]} `;
		}
		lines.push(line);
	}
	return lines;
}


/**
 * A typing session: the editor side (not measured). Applies each keystroke to `document` and
 * returns its change event; `single` marks single-character insertions.
 */
function* typing(document: FakeDocument, count: number, seed: number): Generator<{ event: ChangeEvent; single: boolean }> {
	const next = random(seed);
	let line = 0;
	let character = 0;
	const typed = 'abcdefghijklmnopqrstuvwxyz _(),.;'.split('');
	for (let i = 0; i < count; i++) {
		if (i % 12 === 0) {
			// Jump somewhere else; never inside a surrogate pair.
			line = Math.floor(next() * document.lines.length);
			const text = document.lines[line]!;
			character = Math.floor(next() * (text.length + 1));
			const code = text.charCodeAt(character - 1);
			if (code >= 0xd800 && code <= 0xdbff) {
				character--;
			}
		}
		const roll = next();
		const text = document.lines[line]!;
		let change: ContentChange & { rangeOffset: number };
		let single = false;
		if (roll < 0.06) {
			// Enter, keeping the indentation.
			const indent = /^\t*/.exec(text)![0];
			change = { range: new Range(new Position(line, character), new Position(line, character)), rangeOffset: 0, rangeLength: 0, text: `\n${indent}` };
			document.lines.splice(line, 1, text.slice(0, character), indent + text.slice(character));
			line++;
			character = indent.length;
		} else if (roll < 0.14 && character > 0) {
			// Backspace over one UTF-16 unit or a surrogate pair.
			const code = text.charCodeAt(character - 1);
			const width = code >= 0xdc00 && code <= 0xdfff && character > 1 ? 2 : 1;
			change = { range: new Range(new Position(line, character - width), new Position(line, character)), rangeOffset: 0, rangeLength: width, text: '' };
			document.lines[line] = text.slice(0, character - width) + text.slice(character);
			character -= width;
		} else {
			const ch = typed[Math.floor(next() * typed.length)]!;
			change = { range: new Range(new Position(line, character), new Position(line, character)), rangeOffset: 0, rangeLength: 0, text: ch };
			document.lines[line] = text.slice(0, character) + ch + text.slice(character);
			character++;
			single = true;
		}
		document.version++;
		yield { event: { document, contentChanges: [change], reason: undefined }, single };
	}
}

// ---------------------------------------------------------------- sinks

class CountingSink extends Writable {
	bytes = 0;
	override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
		this.bytes += chunk.length;
		callback();
	}
}

// ---------------------------------------------------------------- Agent Link

interface Client {
	readonly name: string;
	readonly sink: CountingSink;
	/** Handles one event as the extension host would; resolves when the message has been written. */
	onChange(event: ChangeEvent): Promise<void>;
	open(document: FakeDocument): void;
}

function agentLink(encoding: PositionEncoding): Client {
	const sink = new CountingSink();
	const connection = new AgentConnection({ input: new PassThrough(), output: sink, maxLineBytes: 64 * 1024 * 1024, log: nullLogger });
	connection.listen();
	const sessionId = '0f8e7a34-5b1c-4d2e-9a6f-3c8b1d0e2f47';
	const profile: NesProfile = {
		revision: 'merged',
		encoding,
		events: { didOpen: true, didChange: 'incremental', didClose: true, didSave: true, didFocus: true },
		context: {},
	};
	let written: Promise<void> = Promise.resolve();
	const core = new DocumentSyncCore({
		events: profile.events,
		encoding,
		maxFileBytes: 2 * 1024 * 1024,
		byteLength: (text) => Buffer.byteLength(text, 'utf8'),
		// As NesSession.notify: the declared check, sessionId for the merged revision, errors swallowed.
		send: (event, params) => {
			const declared = event === 'didChange' ? profile.events.didChange !== undefined : profile.events[event];
			if (!declared || connection.isClosed) {
				return;
			}
			const body = profile.revision === 'merged' ? { sessionId, ...params } : params;
			written = connection.sendNotification(eventMethod(profile.revision, event), body).catch(() => {});
		},
		log: () => {},
	});
	return {
		name: `Agent Link (${encoding})`,
		sink,
		open: (document) => core.didOpen(document.uri.toString(), document.languageId, document.version, () => document.getText()),
		onChange: (event) => {
			// As DocumentSync's onDidChangeTextDocument listener.
			const { document, contentChanges } = event;
			if (contentChanges.length > 0 && document.uri.scheme === 'file') {
				core.didChange(document.uri.toString(), document.version, copyContentChanges(contentChanges), () => document.getText());
			}
			return written;
		},
	};
}

// ---------------------------------------------------------------- vscode-languageclient

type Listener = (event: ChangeEvent) => Promise<void>;
let capturedListener: Listener | undefined;

/** The `vscode` module as far as the code on the didChange path touches it. */
function vscodeStub(): Record<string, unknown> {
	class EventEmitter {
		private listeners: ((e: unknown) => void)[] = [];
		event = (listener: (e: unknown) => void) => {
			this.listeners.push(listener);
			return { dispose: () => {} };
		};
		fire(e: unknown): void {
			for (const l of this.listeners) {
				l(e);
			}
		}
		dispose(): void {}
	}
	class Disposable {
		constructor(private readonly fn?: () => void) {}
		static from(): Disposable {
			return new Disposable();
		}
		dispose(): void {
			this.fn?.();
		}
	}
	const known: Record<string, unknown> = {
		EventEmitter,
		Disposable,
		Position,
		Range,
		languages: { match: () => 1 },
		workspace: {
			onDidChangeTextDocument: (listener: Listener, thisArg: unknown) => {
				capturedListener = listener.bind(thisArg);
				return new Disposable();
			},
		},
	};
	// Anything else the modules read while loading: an inert class.
	return new Proxy(known, { get: (target, key: string) => target[key] ?? class {} });
}

function languageClient(): Client {
	const moduleWithLoad = Module as unknown as { _load: (request: string, parent: unknown, isMain: boolean) => unknown };
	const load = moduleWithLoad._load;
	const stub = vscodeStub();
	moduleWithLoad._load = (request, parent, isMain) => (request === 'vscode' ? stub : load(request, parent, isMain));
	// The internals are not in the package's exports: load them by path, next to its node entry.
	const common = join(dirname(require.resolve('vscode-languageclient/node')), '..', 'common');
	/* eslint-disable @typescript-eslint/no-require-imports */
	const { BaseLanguageClient } = require(join(common, 'client.js')) as { BaseLanguageClient: { prototype: object } };
	const { DidChangeTextDocumentFeature } = require(join(common, 'textSynchronization.js')) as {
		DidChangeTextDocumentFeature: new (client: unknown, pending: Map<string, unknown>) => { register(data: unknown): void };
	};
	const c2p = require(join(common, 'codeConverter.js')) as { createConverter(): unknown };
	const p2c = require(join(common, 'protocolConverter.js')) as { createConverter(a: undefined, b: boolean, c: boolean, d: boolean): unknown };
	const jsonrpc = require('vscode-languageclient/node') as typeof LanguageClientNode;
	/* eslint-enable @typescript-eslint/no-require-imports */
	moduleWithLoad._load = load;

	const sink = new CountingSink();
	const connection = jsonrpc.createMessageConnection(new jsonrpc.StreamMessageReader(new PassThrough()), new jsonrpc.StreamMessageWriter(sink));
	connection.listen();
	// A running client with only the fields DidChangeTextDocumentFeature.callback and
	// BaseLanguageClient.sendNotification read; their code is the library's own.
	const client = Object.create(BaseLanguageClient.prototype) as Record<string, unknown>;
	const feature = new DidChangeTextDocumentFeature(client, new Map());
	Object.assign(client, {
		$state: 3, // ClientState.Running
		_c2p: c2p.createConverter(),
		_p2c: p2c.createConverter(undefined, false, false, false),
		_clientOptions: { middleware: {} },
		_dynamicFeatures: new Map(),
		_inFlightOpenNotifications: new Set(),
		_didChangeTextDocumentFeature: feature,
		_didOpenTextDocumentFeature: { sendPendingOpenNotifications: async () => {}, dropPendingOpenNotification: () => false },
		$start: async () => connection,
	});
	feature.register({ id: 'bench', registerOptions: { documentSelector: [{ scheme: 'file' }], syncKind: 2 } });
	const listener = capturedListener!;
	return { name: 'vscode-languageclient', sink, open: () => {}, onChange: (event) => listener(event) };
}

// ---------------------------------------------------------------- run

interface Result {
	times: number[];
	singleBytes: number[];
}

async function measure(client: Client, lineCount: number, seed: number): Promise<Result> {
	const document = new FakeDocument(makeLines(lineCount, random(seed)));
	client.open(document);
	const times: number[] = [];
	const singleBytes: number[] = [];
	let i = 0;
	for (const { event, single } of typing(document, keystrokes + 1000, seed + 1)) {
		const before = client.sink.bytes;
		const start = performance.now();
		await client.onChange(event);
		const elapsed = performance.now() - start;
		if (i++ >= 1000) {
			// the first 1000 warm the JIT up
			times.push(elapsed);
			if (single) {
				singleBytes.push(client.sink.bytes - before);
			}
		}
	}
	return { times, singleBytes };
}

function percentile(sorted: number[], p: number): number {
	return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

async function main(): Promise<void> {
	const clients = [agentLink('utf-16'), agentLink('utf-8'), agentLink('utf-32'), languageClient()];
	console.log(`Per keystroke, ${keystrokes} keystrokes × ${rounds} rounds per client and size (Node ${process.version}).`);
	for (const lineCount of [1000, 20_000]) {
		const all = new Map<string, Result>(clients.map((c) => [c.name, { times: [], singleBytes: [] }]));
		for (let round = 0; round < rounds; round++) {
			for (const client of round % 2 === 0 ? clients : [...clients].reverse()) {
				const result = await measure(client, lineCount, 1000 * round + lineCount);
				all.get(client.name)!.times.push(...result.times);
				all.get(client.name)!.singleBytes.push(...result.singleBytes);
			}
		}
		const medianOf = (name: string) => percentile([...all.get(name)!.times].sort((x, y) => x - y), 50);
		const reference = medianOf('vscode-languageclient');
		console.log(`\n${lineCount.toLocaleString('en')} lines`);
		console.log('  client                      median ms   p99 ms   mean ms   bytes/char edit   median vs languageclient');
		for (const [name, result] of all) {
			const sorted = [...result.times].sort((x, y) => x - y);
			const mean = sorted.reduce((s, t) => s + t, 0) / sorted.length;
			const bytes = result.singleBytes.reduce((s, b) => s + b, 0) / result.singleBytes.length;
			const maxBytes = Math.max(...result.singleBytes);
			console.log(
				`  ${name.padEnd(26)} ${percentile(sorted, 50).toFixed(4).padStart(9)} ${percentile(sorted, 99).toFixed(4).padStart(8)} ${mean.toFixed(4).padStart(9)}   ${bytes.toFixed(0).padStart(5)} (max ${maxBytes})   ${(percentile(sorted, 50) / reference).toFixed(2)}×`,
			);
		}
	}
	console.log(`\nURI ${FakeDocument.uriString.length} characters; merged revision (sessionId of 36 characters on every event).`);
	process.exit(0);
}

void main();
