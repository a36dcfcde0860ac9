/**
 * The JSON-RPC connection to one agent: vscode-jsonrpc over NDJSON stdio, with
 * ACP's rules on top.
 *
 * - Every request and notification from the agent is checked with the handler's
 *   zod schema first; a failure is a -32602 reply naming the field. The check
 *   runs as the line is read, so requests nobody can handle (no handler, invalid
 *   params) are answered at once and never wait behind others.
 * - Log lines about malformed or unexpected messages are rate-limited per kind
 *   ({@link LimitedLog}); the summaries still pending are written on close.
 * - `$/cancel_request {requestId}` in both directions; a request the agent
 *   cancels is answered with -32800.
 * - When the agent's output closes, every request in flight fails at once with
 *   the cause (vscode-jsonrpc alone would leave them pending until disposal).
 */
import type { Readable, Writable } from 'node:stream';
import {
	CancellationTokenSource,
	Emitter,
	ErrorCodes as RpcErrorCodes,
	ResponseError,
	createMessageConnection,
	type CancellationToken,
	type Disposable,
	type Event,
	type Message,
	type MessageConnection,
} from 'vscode-jsonrpc/node';
import type * as z from 'zod/mini';
import { ErrorCodes, Methods, cancelRequestParamsSchema, describeZodError } from '../common/protocol';
import { errorMessage, type Logger } from '../common/log';
import { LimitedLog, type LimitedKind, type RateLimitOptions } from '../common/rateLimit';
import type { WireTracer } from '../common/trace';
import type { PacerOptions } from '../common/pacer';
import { MessageKinds, type RequestId } from '../common/jsonrpc';
import { IncomingRequests } from './incomingRequests';
import { NdjsonMessageReader, NdjsonMessageWriter, type MessageChecks, type OutstandingIds, type Refusal } from './ndjsonTransport';

export interface AgentConnectionOptions {
	/** The agent's stdout. */
	readonly input: Readable;
	/** The agent's stdin. */
	readonly output: Writable;
	readonly maxLineBytes: number;
	/** Requests from the agent handled at once; the rest wait until answers are written. Default 1 024 (`admission.ts`). */
	readonly maxConcurrentRequests?: number;
	readonly log: Logger;
	/** How lines about malformed or unexpected messages are limited (defaults: the first 5 of each kind per 10 s). */
	readonly logLimits?: RateLimitOptions;
	/** How the agent's input is handled in time slices, and how much of it may wait (defaults in `pacer.ts`). */
	readonly pacing?: PacerOptions;
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

/** A handler with the schema of its params; the handler gets only params the schema accepted. */
interface RequestEntry {
	readonly schema: z.ZodMiniType;
	readonly handler: (params: unknown, token: CancellationToken) => unknown;
}
interface NotificationEntry {
	readonly schema: z.ZodMiniType;
	readonly handler: (params: unknown) => void | Promise<void>;
	/** The schema's result for the params it knows without the schema (its common case, cheaply), else undefined. */
	readonly fastPath?: (params: unknown) => unknown;
}

/** On a request or notification whose params passed a handler's schema as it was read: that handler's entry. */
const CHECKED_BY = Symbol('checkedBy');
type Checked = Record<string | symbol, unknown>;

/** How long a request whose write failed waits for the agent's exit to explain why. */
const WRITE_ERROR_GRACE_MS = 1000;

export class AgentConnection implements Disposable {
	private readonly connection: MessageConnection;
	private readonly reader: NdjsonMessageReader;
	private readonly writer: NdjsonMessageWriter;
	private readonly incoming = new IncomingRequests();
	private readonly inFlight = new Set<(error: Error) => void>();
	private readonly requestHandlers = new Map<string, RequestEntry>();
	private readonly notificationHandlers = new Map<string, NotificationEntry>();
	private readonly limitedLog: LimitedLog;
	private readonly closeEmitter = new Emitter<Error>();
	private failure: Error | undefined;
	private closing = false;

	/** Fires once, with the cause, when the connection can no longer be used. */
	readonly onDidClose: Event<Error> = this.closeEmitter.event;

	constructor(private readonly options: AgentConnectionOptions) {
		const outstanding: OutstandingIds = new Set();
		this.limitedLog = new LimitedLog(options.log, options.logLimits);
		const sink = { answer: (id: RequestId | null, code: number, message: string, kind?: LimitedKind) => this.answerInvalid(id, code, message, kind) };
		const checks: MessageChecks = {
			request: (method, message) => {
				const entry = this.requestHandlers.get(method);
				return entry ? this.check(entry, message, MessageKinds.invalidParams) : { code: ErrorCodes.MethodNotFound, message: `Unhandled method ${method}`, kind: MessageKinds.unknownMethod };
			},
			notification: (method, message) => {
				const entry = this.notificationHandlers.get(method);
				return entry ? this.check(entry, message, MessageKinds.invalidNotificationParams) : { code: ErrorCodes.MethodNotFound, message: 'no handler', kind: MessageKinds.unknownNotification };
			},
		};
		this.reader = new NdjsonMessageReader(options.input, {
			maxLineBytes: options.maxLineBytes,
			log: this.limitedLog,
			tracer: options.tracer,
			sink,
			checks,
			outstanding,
			maxConcurrentRequests: options.maxConcurrentRequests,
			dispatch: {
				request: (message) => this.handleRequest(message),
				notification: (message) => {
					if (!this.failure) {
						void this.dispatchNotification(message.method as string, message);
					}
				},
			},
			pacing: options.pacing,
		});
		this.writer = new NdjsonMessageWriter(options.output, { tracer: options.tracer, outstanding, onAnswered: (id) => this.reader.answered(id) });
		this.connection = createMessageConnection(this.reader, this.writer, {
			error: (m) => options.log.error(m),
			warn: (m) => options.log.warn(m),
			info: (m) => options.log.info(m),
			log: (m) => options.log.debug(m),
		}, {
			cancellationStrategy: {
				// Requests from the agent never reach vscode-jsonrpc (the reader hands them to handleRequest).
				receiver: { createCancellationTokenSource: () => new CancellationTokenSource() },
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
		this.onNotification(Methods.cancelRequest, cancelRequestParamsSchema, ({ requestId }) => {
			if (requestId !== null) {
				this.incoming.cancel(requestId);
			} else {
				this.limitedLog.report(MessageKinds.invalidNotificationParams, 'warn', () => `Ignored notification ${Methods.cancelRequest} from the agent: requestId is null`);
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
		const entry: RequestEntry = { schema, handler: handler as RequestEntry['handler'] };
		this.requestHandlers.set(method, entry);
		return { dispose: () => this.requestHandlers.get(method) === entry && this.requestHandlers.delete(method) };
	}

	/** Handles a notification from the agent; invalid params are logged and dropped. */
	onNotification<S extends z.ZodMiniType>(
		method: string,
		schema: S,
		handler: (params: z.infer<S>) => void | Promise<void>,
		fastPath?: (params: unknown) => z.infer<S> | undefined,
	): Disposable {
		const entry: NotificationEntry = { schema, handler: handler as NotificationEntry['handler'], ...(fastPath ? { fastPath } : {}) };
		this.notificationHandlers.set(method, entry);
		return { dispose: () => this.notificationHandlers.get(method) === entry && this.notificationHandlers.delete(method) };
	}

	/** Checks a message's params with the entry's schema as the line is read; valid params replace the message's own. */
	private check(entry: RequestEntry | NotificationEntry, message: Record<string, unknown>, kind: LimitedKind): Refusal | undefined {
		const quick = 'fastPath' in entry ? entry.fastPath?.(message.params) : undefined;
		if (quick !== undefined) {
			message.params = quick;
			(message as Checked)[CHECKED_BY] = entry;
			return undefined;
		}
		const parsed = entry.schema.safeParse(message.params ?? {});
		if (!parsed.success) {
			return { code: ErrorCodes.InvalidParams, message: describeZodError(parsed.error), kind };
		}
		message.params = parsed.data;
		(message as Checked)[CHECKED_BY] = entry;
		return undefined;
	}

	/**
	 * The params a handler gets: those checked as the message was read, or, should
	 * the handler have changed since, checked again now.
	 */
	private paramsFor(entry: RequestEntry | NotificationEntry, message: Record<string, unknown>): { ok: true; params: unknown } | { ok: false; reason: string } {
		const params = message.params;
		if ((message as Checked)[CHECKED_BY] === entry) {
			return { ok: true, params };
		}
		const parsed = entry.schema.safeParse(params ?? {});
		return parsed.success ? { ok: true, params: parsed.data } : { ok: false, reason: describeZodError(parsed.error) };
	}

	/**
	 * A request from the agent that passed its checks, as the reader hands it on: handled, and its
	 * answer written (a result, `null` for none, or the error), as vscode-jsonrpc would.
	 */
	private handleRequest(message: Record<string, unknown>): void {
		if (this.failure) {
			return;
		}
		const id = message.id as RequestId;
		const method = message.method as string;
		this.incoming.run(
			id,
			(token) => this.dispatchRequest(method, message, token),
			(failed, value) => {
				if (!failed) {
					this.answer({ jsonrpc: '2.0', id, result: value === undefined ? null : value });
					return;
				}
				if (!(value instanceof ResponseError)) {
					this.options.log.error(`Handling ${method} failed: ${errorMessage(value)}`);
				}
				const response = value instanceof ResponseError ? value : new ResponseError(ErrorCodes.InternalError, `${method} failed: ${errorMessage(value)}`);
				this.answer({ jsonrpc: '2.0', id, error: response.toJson() });
			},
		);
	}

	private answer(message: { jsonrpc: string; id: RequestId; result?: unknown; error?: unknown }): void {
		if (this.failure) {
			return;
		}
		this.writer.send(message as unknown as Message, undefined, this.answerFailed);
	}

	private readonly answerFailed = (error: Error, message: Message): void => {
		this.options.log.debug(`Answering request ${JSON.stringify((message as { id?: unknown }).id)} failed: ${errorMessage(error)}`);
	};

	/** The handler's result (or a promise of it) for a request whose params were checked as it was read; throws a ResponseError for what cannot be handled. */
	private dispatchRequest(method: string, message: Record<string, unknown>, token: CancellationToken): unknown {
		const entry = this.requestHandlers.get(method);
		if (!entry) {
			throw new ResponseError(ErrorCodes.MethodNotFound, `Unhandled method ${method}`);
		}
		const checked = this.paramsFor(entry, message);
		if (!checked.ok) {
			throw new ResponseError(ErrorCodes.InvalidParams, checked.reason);
		}
		return entry.handler(checked.params, token);
	}

	private async dispatchNotification(method: string, message: Record<string, unknown>): Promise<void> {
		// Checked as it was read; only a handler removed or replaced since then leaves anything to refuse here.
		const entry = this.notificationHandlers.get(method);
		if (!entry) {
			this.limitedLog.report(MessageKinds.unknownNotification, 'trace', () => `Ignored notification ${method} from the agent: no handler`);
			return;
		}
		const checked = this.paramsFor(entry, message);
		if (!checked.ok) {
			this.limitedLog.report(MessageKinds.invalidNotificationParams, 'warn', () => `Ignored notification ${method} from the agent: ${checked.reason}`);
			return;
		}
		try {
			await entry.handler(checked.params);
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
					// vscode-jsonrpc reports a failed write as a ResponseError of its own code.
					const writeFailed = error instanceof ResponseError && error.code === RpcErrorCodes.MessageWriteError;
					if (error instanceof ResponseError && !writeFailed) {
						settle();
						reject(new AgentError(method, error.code, error.message, error.data));
						return;
					}
					const cause = error instanceof Error ? new Error(error.message) : new Error(String(error));
					if (this.failure) {
						settle();
						reject(this.failure);
						return;
					}
					// A write that failed (EPIPE) because the agent is going away: its exit, which
					// fail() reports to everything in flight, says more. Only if that does not come
					// soon does the write error stand.
					setTimeout(() => {
						settle();
						reject(this.failure ?? cause);
					}, WRITE_ERROR_GRACE_MS).unref();
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
		this.incoming.cancelAll();
		this.connection.dispose();
		this.writer.end();
		this.closeEmitter.dispose();
		// Nothing left out of the log goes unsaid: the counts still pending are written now.
		this.limitedLog.dispose();
		this.options.tracer?.flush();
	}

	/** Answers a message the reader could not hand on (JSON-RPC 2.0 §5: every request that can be identified gets an answer). */
	private answerInvalid(id: RequestId | null, code: number, message: string, kind?: LimitedKind): void {
		if (this.failure) {
			return;
		}
		this.writer.send({ jsonrpc: '2.0', id, error: { code, message } } as unknown as Message, kind, this.answerInvalidFailed);
	}

	private readonly answerInvalidFailed = (error: Error): void => {
		this.options.log.debug(`Answering an invalid message failed: ${errorMessage(error)}`);
	};

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
