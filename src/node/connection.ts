/**
 * The JSON-RPC connection to one agent: vscode-jsonrpc over NDJSON stdio, with
 * ACP's rules on top.
 *
 * - Every request and notification from the agent is checked with the handler's
 *   zod schema first; a failure is a -32602 reply naming the field.
 * - `$/cancel_request {requestId}` in both directions; a request the agent
 *   cancels is answered with -32800.
 * - When the agent's output closes, every request in flight fails at once with
 *   the cause (vscode-jsonrpc alone would leave them pending until disposal).
 */
import type { Readable, Writable } from 'node:stream';
import {
	CancellationTokenSource,
	Emitter,
	ResponseError,
	createMessageConnection,
	type CancellationId,
	type CancellationToken,
	type Disposable,
	type Event,
	type Message,
	type MessageConnection,
	type RequestMessage,
} from 'vscode-jsonrpc/node';
import type * as z from 'zod/mini';
import { ErrorCodes, Methods, cancelRequestParamsSchema, describeZodError } from '../common/protocol';
import { errorMessage, type Logger } from '../common/log';
import type { WireTracer } from '../common/trace';
import type { RequestId } from '../common/jsonrpc';
import { NdjsonMessageReader, NdjsonMessageWriter, type OutstandingIds } from './ndjsonTransport';

export interface AgentConnectionOptions {
	/** The agent's stdout. */
	readonly input: Readable;
	/** The agent's stdin. */
	readonly output: Writable;
	readonly maxLineBytes: number;
	/** Requests from the agent handled at once; the rest wait until answers are written. Default 64. */
	readonly maxConcurrentRequests?: number;
	readonly log: Logger;
	readonly tracer?: WireTracer;
	/**
	 * Called once when the agent's output ends, to say why (the owner knows the
	 * process: exit code, signal, last stderr lines). Defaults to a plain message.
	 */
	readonly describeClose?: () => Promise<Error>;
}

/** A reply from the agent that does not have the shape the protocol requires. */
export class InvalidResponseError extends Error {
	constructor(method: string, detail: string) {
		super(`The agent's reply to ${method} is invalid: ${detail.replace(/^Invalid params: /, '')}`);
		this.name = 'InvalidResponseError';
	}
}

/** An error reply from the agent, with its JSON-RPC code and data. */
export class AgentError extends Error {
	constructor(
		readonly method: string,
		readonly code: number,
		message: string,
		readonly data?: unknown,
	) {
		super(message);
		this.name = 'AgentError';
	}
}

type Handler<S extends z.ZodMiniType, R> = (params: z.infer<S>, token: CancellationToken) => R | Promise<R>;
type RequestHandler = (params: unknown, token: CancellationToken) => Promise<unknown>;
type NotificationHandler = (params: unknown) => void | Promise<void>;

/** Tracks the token of each request the agent sent us, by id, so `$/cancel_request` can reach it. */
class IncomingCancellation {
	readonly byId = new Map<CancellationId, CancellationTokenSource>();
	readonly idByToken = new WeakMap<CancellationToken, CancellationId>();

	readonly strategy = {
		kind: 'request' as const,
		createCancellationTokenSource: (request: RequestMessage): CancellationTokenSource => {
			const source = new CancellationTokenSource();
			if (request.id !== null) {
				this.byId.set(request.id, source);
				this.idByToken.set(source.token, request.id);
			}
			return source;
		},
	};

	cancel(id: CancellationId): void {
		this.byId.get(id)?.cancel();
	}

	done(token: CancellationToken): void {
		const id = this.idByToken.get(token);
		if (id !== undefined) {
			this.byId.get(id)?.dispose();
			this.byId.delete(id);
		}
	}
}

export class AgentConnection implements Disposable {
	private readonly connection: MessageConnection;
	private readonly reader: NdjsonMessageReader;
	private readonly writer: NdjsonMessageWriter;
	private readonly incoming = new IncomingCancellation();
	private readonly inFlight = new Set<(error: Error) => void>();
	private readonly requestHandlers = new Map<string, RequestHandler>();
	private readonly notificationHandlers = new Map<string, NotificationHandler>();
	private readonly closeEmitter = new Emitter<Error>();
	private failure: Error | undefined;
	private closing = false;

	/** Fires once, with the cause, when the connection can no longer be used. */
	readonly onDidClose: Event<Error> = this.closeEmitter.event;

	constructor(private readonly options: AgentConnectionOptions) {
		const outstanding: OutstandingIds = new Set();
		const sink = { answer: (id: RequestId | null, code: number, message: string) => this.answerInvalid(id, code, message) };
		this.reader = new NdjsonMessageReader(options.input, { maxLineBytes: options.maxLineBytes, log: options.log, tracer: options.tracer, sink, outstanding, maxConcurrentRequests: options.maxConcurrentRequests });
		this.writer = new NdjsonMessageWriter(options.output, { tracer: options.tracer, outstanding, onAnswered: (id) => this.reader.answered(id) });
		this.connection = createMessageConnection(this.reader, this.writer, {
			error: (m) => options.log.error(m),
			warn: (m) => options.log.warn(m),
			info: (m) => options.log.info(m),
			log: (m) => options.log.debug(m),
		}, {
			cancellationStrategy: {
				receiver: this.incoming.strategy,
				sender: {
					sendCancellation: (conn, id) => conn.sendNotification(Methods.cancelRequest, { requestId: id }),
					cleanup: () => {},
				},
			},
		});
		this.reader.onError((error) => {
			if (!this.closing) {
				this.fail(error instanceof Error ? error : new Error(String(error)));
			}
		});
		this.reader.onClose(() => this.inputClosed());
		this.writer.onError(([error]) => options.log.debug(`Writing to the agent failed: ${error.message}`));
		// One dispatcher for every method, registered as vscode-jsonrpc's "star" handlers: those get
		// the params exactly as sent. A handler registered by method name would have vscode-jsonrpc
		// spread array params into arguments and pass the token in place of absent params.
		this.connection.onRequest((method: string, params: unknown, token: CancellationToken) => this.dispatchRequest(method, params, token));
		this.connection.onNotification((method: string, params: unknown) => this.dispatchNotification(method, params));
		this.notificationHandlers.set(Methods.cancelRequest, (params: unknown) => {
			const parsed = cancelRequestParamsSchema.safeParse(params ?? {});
			if (parsed.success && parsed.data.requestId !== null) {
				this.incoming.cancel(parsed.data.requestId);
			} else {
				options.log.warn(`Ignored ${Methods.cancelRequest} with invalid params: ${parsed.success ? 'requestId is null' : describeZodError(parsed.error)}`);
			}
		});
	}

	/** Starts reading. Register handlers first. */
	listen(): void {
		this.connection.listen();
	}

	get isClosed(): boolean {
		return this.failure !== undefined;
	}

	/** Handles a request from the agent; params are validated with `schema` first. */
	onRequest<S extends z.ZodMiniType, R>(method: string, schema: S, handler: Handler<S, R>): Disposable {
		const entry: RequestHandler = async (params, token) => {
			const parsed = schema.safeParse(params ?? {});
			if (!parsed.success) {
				throw new ResponseError(ErrorCodes.InvalidParams, describeZodError(parsed.error));
			}
			return handler(parsed.data, token);
		};
		this.requestHandlers.set(method, entry);
		return { dispose: () => this.requestHandlers.get(method) === entry && this.requestHandlers.delete(method) };
	}

	/** Handles a notification from the agent; invalid params are logged and dropped. */
	onNotification<S extends z.ZodMiniType>(method: string, schema: S, handler: (params: z.infer<S>) => void | Promise<void>): Disposable {
		const entry: NotificationHandler = async (params) => {
			const parsed = schema.safeParse(params ?? {});
			if (!parsed.success) {
				this.options.log.warn(`Ignored ${method} from the agent: ${describeZodError(parsed.error)}`);
				return;
			}
			await handler(parsed.data);
		};
		this.notificationHandlers.set(method, entry);
		return { dispose: () => this.notificationHandlers.get(method) === entry && this.notificationHandlers.delete(method) };
	}

	private async dispatchRequest(method: string, params: unknown, token: CancellationToken): Promise<unknown> {
		try {
			const handler = this.requestHandlers.get(method);
			if (!handler) {
				throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
			}
			return await raceCancellation(Promise.resolve(handler(params, token)), token);
		} catch (error) {
			if (error instanceof ResponseError) {
				throw error;
			}
			this.options.log.error(`Handling ${method} failed: ${errorMessage(error)}`);
			throw new ResponseError(ErrorCodes.InternalError, `${method} failed: ${errorMessage(error)}`);
		} finally {
			this.incoming.done(token);
		}
	}

	private async dispatchNotification(method: string, params: unknown): Promise<void> {
		const handler = this.notificationHandlers.get(method);
		if (!handler) {
			this.options.log.trace(`Ignored notification ${method}: no handler`);
			return;
		}
		try {
			await handler(params);
		} catch (error) {
			this.options.log.error(`Handling ${method} failed: ${errorMessage(error)}`);
		}
	}

	/**
	 * Sends a request and validates the result with `schema`. Rejects with
	 * {@link AgentError} for an error reply, {@link InvalidResponseError} for a
	 * malformed result, or the close cause when the agent goes away first.
	 */
	sendRequest<S extends z.ZodMiniType>(method: string, params: unknown, schema: S, token?: CancellationToken): Promise<z.infer<S>> {
		if (this.failure) {
			return Promise.reject(this.failure);
		}
		return new Promise<z.infer<S>>((resolve, reject) => {
			this.inFlight.add(reject);
			const settle = () => this.inFlight.delete(reject);
			const request = token ? this.connection.sendRequest(method, params, token) : this.connection.sendRequest(method, params);
			request.then(
				(result: unknown) => {
					settle();
					const parsed = schema.safeParse(result);
					if (parsed.success) {
						resolve(parsed.data);
					} else {
						reject(new InvalidResponseError(method, describeZodError(parsed.error)));
					}
				},
				(error: unknown) => {
					settle();
					if (error instanceof ResponseError) {
						reject(new AgentError(method, error.code, error.message, error.data));
					} else {
						reject(this.failure ?? (error instanceof Error ? error : new Error(String(error))));
					}
				},
			);
		});
	}

	sendNotification(method: string, params: unknown): Promise<void> {
		if (this.failure) {
			return Promise.reject(this.failure);
		}
		return this.connection.sendNotification(method, params);
	}

	/** Fails every request in flight with `error` and closes the connection. Idempotent. */
	fail(error: Error): void {
		if (this.failure) {
			return;
		}
		this.failure = error;
		for (const reject of [...this.inFlight]) {
			reject(error);
		}
		this.inFlight.clear();
		this.closeEmitter.fire(error);
		this.dispose();
	}

	dispose(): void {
		if (!this.failure) {
			this.failure = new Error('The agent connection was closed.');
			for (const reject of [...this.inFlight]) {
				reject(this.failure);
			}
			this.inFlight.clear();
			this.closeEmitter.fire(this.failure);
		}
		this.closing = true;
		for (const source of this.incoming.byId.values()) {
			source.cancel();
		}
		this.connection.dispose();
		this.writer.end();
		this.closeEmitter.dispose();
	}

	/** Answers a message the reader could not hand on (JSON-RPC 2.0 §5: every request that can be identified gets an answer). */
	private answerInvalid(id: RequestId | null, code: number, message: string): void {
		if (this.failure) {
			return;
		}
		this.writer.write({ jsonrpc: '2.0', id, error: { code, message } } as unknown as Message).catch((error: unknown) => {
			this.options.log.debug(`Answering an invalid message failed: ${errorMessage(error)}`);
		});
	}

	private inputClosed(): void {
		if (this.failure || this.closing) {
			return;
		}
		this.closing = true;
		const describe = this.options.describeClose ?? (() => Promise.resolve(new Error('The agent closed its output.')));
		describe().then(
			(error) => this.fail(error),
			(error: unknown) => this.fail(error instanceof Error ? error : new Error(String(error))),
		);
	}
}

function raceCancellation<T>(work: Promise<T>, token: CancellationToken): Promise<T> {
	const cancelled = () => new ResponseError(ErrorCodes.RequestCancelled, 'Request cancelled');
	if (token.isCancellationRequested) {
		work.catch(() => {});
		return Promise.reject(cancelled());
	}
	return new Promise<T>((resolve, reject) => {
		const listener = token.onCancellationRequested(() => {
			listener.dispose();
			reject(cancelled());
		});
		work.then(
			(value) => {
				listener.dispose();
				resolve(value);
			},
			(error: unknown) => {
				listener.dispose();
				reject(error);
			},
		);
	});
}
