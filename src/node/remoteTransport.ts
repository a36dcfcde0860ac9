/**
 * A remote agent's link: ACP's Streamable HTTP or WebSocket transport (the SDK's clients), seen
 * as the NDJSON byte streams a local agent's stdio gives, so {@link AgentConnection} and
 * everything above it works the same over either.
 *
 * - Messages the SDK stream reads become lines on `input`; lines written to `output` become
 *   messages on the SDK stream (in order, with its back-pressure).
 * - Connecting never waits for ever: the WebSocket handshake and each HTTP request's answer
 *   (its headers; an SSE body then streams) must come within `connectTimeoutMs`.
 * - Why the link ended is kept ({@link RemoteLink.closeError}): HTTP 401/403 is a
 *   {@link RemoteAuthError}, so the owner asks for the credential again instead of retrying.
 *
 * Bundled on its own (dist/remote.js, with the SDK's transports and `ws`), loaded by agentHandle.ts
 * when the first remote agent connects.
 */
import { PassThrough, Writable, type Readable } from 'node:stream';
import { createHttpStream } from '@agentclientprotocol/sdk/experimental/http-client';
import { createWebSocketStream, type WebSocketConstructor, type WebSocketLike } from '@agentclientprotocol/sdk/experimental/ws-client';
import WebSocket from 'ws';
import { describeUrl, remoteProfile, type RemoteProfile } from '../common/remoteAgent';
import { RemoteAuthError, RemoteLinkError } from './remoteErrors';

export { RemoteAuthError, RemoteLinkError } from './remoteErrors';

export interface RemoteLinkOptions {
	readonly url: string;
	/** Sent with every request (the entry's headers and the secret's). */
	readonly headers: Readonly<Record<string, string>>;
	/** How long connecting (the WebSocket handshake, an HTTP request's answer) may take. */
	readonly connectTimeoutMs: number;
	/** Cap on one message, in bytes. */
	readonly maxMessageBytes: number;
}

type AnyMessage = Parameters<WritableStreamDefaultWriter['write']>[0];
interface SdkStream {
	readonly readable: ReadableStream;
	readonly writable: WritableStream;
}

export class RemoteLink {
	readonly input: Readable;
	readonly output: Writable;
	readonly profile: RemoteProfile;
	readonly url: string;
	private cause: Error | undefined;
	private closing = false;
	private readonly writer: WritableStreamDefaultWriter;
	private readonly reader: ReadableStreamDefaultReader;
	private readonly ended: Promise<void>;

	private constructor(
		private readonly options: RemoteLinkOptions,
		stream: SdkStream,
	) {
		this.profile = remoteProfile(options.url);
		this.url = options.url;
		const input = new PassThrough();
		this.input = input;
		this.reader = stream.readable.getReader();
		this.writer = stream.writable.getWriter();
		this.writer.closed.catch(() => undefined);
		this.ended = this.pump(input);
		this.output = this.lineSink();
	}

	/** Opens the transport. Nothing is sent until the first message (`initialize`) is written. */
	static open(options: RemoteLinkOptions): RemoteLink {
		const profile = remoteProfile(options.url);
		const headers = { ...options.headers };
		const stream: SdkStream =
			profile === 'websocket'
				? createWebSocketStream(options.url, { headers, WebSocket: timedWebSocket(options) })
				: createHttpStream(options.url, { headers, fetch: timedFetch(options.connectTimeoutMs), maxMessageBytes: options.maxMessageBytes });
		return new RemoteLink(options, stream);
	}

	/** Why the link ended (after `input` has ended). */
	closeError(): Error {
		return this.cause ?? new RemoteLinkError(`The connection to ${describeUrl(this.options.url)} closed.`);
	}

	/** Resolves once `input` has ended. */
	get closed(): Promise<void> {
		return this.ended;
	}

	/** Ends the link (HTTP: the server is told the connection is gone). */
	async close(): Promise<void> {
		if (this.closing) {
			return this.ended;
		}
		this.closing = true;
		this.cause ??= new RemoteLinkError('The agent was stopped.');
		await Promise.race([this.writer.close().catch(() => undefined), delay(1000)]);
		await this.reader.cancel().catch(() => undefined);
		await Promise.race([this.ended, delay(1000)]);
	}

	/** Messages from the SDK stream as NDJSON lines on `input`, until it ends. */
	private async pump(input: PassThrough): Promise<void> {
		try {
			for (;;) {
				const { done, value } = (await this.reader.read()) as { done: boolean; value?: unknown };
				if (done) {
					break;
				}
				if (!input.write(`${JSON.stringify(value)}\n`)) {
					await new Promise<void>((resolve) => input.once('drain', resolve));
				}
			}
		} catch (error) {
			this.cause ??= this.classify(error);
		} finally {
			input.end();
		}
	}

	/** A writable of NDJSON text: each whole line goes to the SDK stream as one message. */
	private lineSink(): Writable {
		let partial = '';
		return new Writable({
			decodeStrings: false,
			write: (chunk: Buffer | string, _encoding, callback) => {
				const lines = (partial + chunk.toString()).split('\n');
				partial = lines.pop() ?? '';
				void this.send(lines).then(() => callback(), () => callback());
			},
		});
	}

	private async send(lines: readonly string[]): Promise<void> {
		for (const line of lines) {
			if (line.trim() === '' || this.cause) {
				continue;
			}
			let message: AnyMessage;
			try {
				message = JSON.parse(line) as AnyMessage;
			} catch {
				continue; // our own writer writes JSON lines only
			}
			await this.writer.ready;
			// A failed write is said by the SDK: a request gets an error answer, a lost connection ends the readable.
			this.writer.write(message).catch(() => undefined);
		}
	}

	private classify(error: unknown): Error {
		const status = statusOf(error);
		if (status === 401 || status === 403) {
			return new RemoteAuthError(status, this.options.url);
		}
		const message = error instanceof Error ? error.message : String(error);
		return new RemoteLinkError(`The connection to ${describeUrl(this.options.url)} failed: ${message}`, status);
	}
}

/** The HTTP status in an SDK transport error: its `status` (HTTP profile), or the `ws` handshake's message. */
function statusOf(error: unknown): number | undefined {
	if (typeof error === 'object' && error !== null && typeof (error as { status?: unknown }).status === 'number') {
		return (error as { status: number }).status;
	}
	const match = /Unexpected server response: (\d{3})/.exec(error instanceof Error ? error.message : '');
	return match ? Number(match[1]) : undefined;
}

/** `ws`'s WebSocket (the editor's Node may have none of its own) with a handshake deadline and a message cap. */
function timedWebSocket(options: RemoteLinkOptions): WebSocketConstructor {
	return class extends WebSocket {
		constructor(url: string, protocols?: string | string[], init?: { headers?: Record<string, string> }) {
			super(url, protocols ?? [], { headers: init?.headers, handshakeTimeout: options.connectTimeoutMs, maxPayload: options.maxMessageBytes, followRedirects: false });
		}
	} as unknown as WebSocketConstructor & (new (...args: never[]) => WebSocketLike);
}

/** `fetch` whose answer (its status and headers) must come within `timeoutMs`; the body may then stream for as long as it lasts. */
function timedFetch(timeoutMs: number): typeof fetch {
	return async (input, init) => {
		const deadline = new AbortController();
		const timer = setTimeout(() => deadline.abort(new RemoteLinkError(`No answer within ${timeoutMs / 1000} s.`)), timeoutMs);
		const signal = init?.signal ? AbortSignal.any([init.signal, deadline.signal]) : deadline.signal;
		try {
			return await fetch(input, { ...init, signal, redirect: 'error' });
		} catch (error) {
			throw deadline.signal.aborted ? (deadline.signal.reason as Error) : error;
		} finally {
			clearTimeout(timer);
		}
	};
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
