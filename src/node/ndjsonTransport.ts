/**
 * vscode-jsonrpc reader and writer for ACP's newline-delimited JSON framing.
 * (vscode-jsonrpc's own stream reader and writer speak LSP's Content-Length
 * headers.) Lines are queued as they are read and handled in time slices
 * ({@link Pacer}): a flood from one agent never holds the event loop, and while
 * it waits to be handled the agent's output is not read further, so the flood
 * waits in the agent's pipe rather than in our memory.
 *
 * The envelope of every incoming message is sorted by {@link classifyEnvelope}
 * here, and requests and notifications are checked by their owner
 * ({@link MessageChecks}: a handler for the method, valid params): those that can
 * be handled go straight to the owner's dispatcher ({@link MessageDispatch}), in
 * order and without a macrotask each; the reader answers or drops the rest at
 * once. Responses to our own requests go to vscode-jsonrpc. What the reader drops
 * is logged and traced, rate-limited per kind ({@link MessageKinds}).
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { RequestAdmission } from '../common/admission';
import { EnvelopeErrorCodes, MessageKinds, classifyEnvelope, type RequestId } from '../common/jsonrpc';
import { ErrorCodes, Methods } from '../common/protocol';
import { LineSplitter, MAX_JSON_DEPTH, parseLine, previewOf } from '../common/ndjson';
import { Pacer, type PacerOptions } from '../common/pacer';
import type { LimitedKind, LimitedLog } from '../common/rateLimit';
import type { WireTracer } from '../common/trace';

/** What the reader cannot hand to the dispatcher, and so asks its owner to deal with. */
export interface EnvelopeSink {
	/** Answer this error to the agent (an invalid request, or a request with params of the wrong type); `kind` says which, for the trace. */
	answer(id: RequestId | null, code: number, message: string, kind?: LimitedKind): void;
}

/** Why a request or notification cannot be handled: the answer a request gets, and the kind for the log and the trace. */
export interface Refusal {
	readonly code: number;
	readonly message: string;
	readonly kind: LimitedKind;
}

/**
 * The owner's checks on each valid request and notification, before it is queued.
 * A check may replace `message.params` with the validated params.
 */
export interface MessageChecks {
	request(method: string, message: Record<string, unknown>): Refusal | undefined;
	notification(method: string, message: Record<string, unknown>): Refusal | undefined;
}

/** Where requests and notifications that passed {@link MessageChecks} go, one at a time, in the order the agent sent them. */
export interface MessageDispatch {
	request(message: Record<string, unknown>): void;
	notification(message: Record<string, unknown>): void;
}

/**
 * Ids of our requests still waiting for an answer, shared by the writer (which
 * adds them) and the reader (which takes them out), so an answer to an id we
 * never used, or used and already got an answer for, is seen and dropped.
 */
export type OutstandingIds = Set<RequestId>;

export interface ReaderOptions {
	/** The longest line accepted; a longer one closes the connection. */
	readonly maxLineBytes: number;
	/** Where malformed and unexpected messages are logged, rate-limited per kind. */
	readonly log: LimitedLog;
	readonly tracer?: WireTracer;
	readonly sink?: EnvelopeSink;
	readonly checks?: MessageChecks;
	readonly outstanding?: OutstandingIds;
	/** Requests handled at once before the rest wait for answers to be written ({@link RequestAdmission}). */
	readonly maxConcurrentRequests?: number;
	/** Where valid requests and notifications go; without one, they go to the listener like responses. */
	readonly dispatch?: MessageDispatch;
	/** Time slices and how much input may wait to be handled. */
	readonly pacing?: PacerOptions;
}

/** Queued after the last line when the agent's output ends. */
const END_OF_INPUT = new Uint8Array(0);

/** ACP's cancellation notification (`Methods.cancelRequest`), which never waits behind requests. */
const CANCEL_REQUEST = Methods.cancelRequest;

export class NdjsonMessageReader extends AbstractMessageReader {
	private readonly splitter: LineSplitter;
	private readonly admission: RequestAdmission<Message>;
	private readonly pacer: Pacer<Uint8Array>;
	private readonly log: LimitedLog;
	private readonly tracer: WireTracer | undefined;
	private readonly sink: EnvelopeSink | undefined;
	private readonly checks: MessageChecks | undefined;
	private readonly outstanding: OutstandingIds | undefined;
	private readonly dispatch: MessageDispatch | undefined;
	private callback: DataCallback | undefined;
	private closed = false;
	private ended = false;

	constructor(
		private readonly input: Readable,
		options: ReaderOptions,
	) {
		super();
		({ log: this.log, tracer: this.tracer, sink: this.sink, checks: this.checks, outstanding: this.outstanding, dispatch: this.dispatch } = options);
		this.splitter = new LineSplitter(options.maxLineBytes);
		this.admission = new RequestAdmission<Message>(
			{
				// A request let through because an answer was written waits for the next slice.
				deliver: (message) => (this.pacer.inSlice ? this.handOn(message) : this.pacer.defer(() => this.handOn(message))),
				cancelled: (id) => this.sink?.answer(id, ErrorCodes.RequestCancelled, 'Request cancelled'),
			},
			options.maxConcurrentRequests,
		);
		this.pacer = new Pacer<Uint8Array>(
			{
				handle: (bytes) => this.handleLine(bytes),
				pause: () => this.input.pause(),
				resume: () => this.input.resume(),
			},
			options.pacing,
		);
	}

	/** The answer to request `id` has been written: let the next waiting request through. */
	answered(id: RequestId): void {
		this.admission.answered(id);
		this.pacer.hold(this.admission.queuedBytes);
	}

	/** Bytes read from the agent and not yet handled, and whether reading is paused until they are. */
	get backlog(): { readonly bytes: number; readonly lines: number; readonly paused: boolean } {
		return { bytes: this.pacer.bytes, lines: this.pacer.length, paused: this.pacer.isPaused };
	}

	listen(callback: DataCallback): Disposable {
		this.callback = callback;
		const onData = (chunk: Buffer | string) => {
			if (this.closed) {
				return;
			}
			let lines: Uint8Array[];
			try {
				lines = this.splitter.split(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
			} catch (error) {
				// A line past the cap: stop reading at once so no more of it is buffered.
				this.shutdown();
				this.fireError(error);
				this.fireClose();
				return;
			}
			for (const line of lines) {
				if (line.length > 0) {
					this.pacer.push(line, line.length + 1);
				}
			}
		};
		const onEnd = () => {
			if (!this.closed && !this.ended) {
				// What was read before the end is handled first, then the close is reported.
				this.ended = true;
				this.pacer.push(END_OF_INPUT, 0);
			}
		};
		const onError = (error: Error) => this.fireError(error);
		this.input.on('data', onData);
		this.input.on('end', onEnd);
		this.input.on('close', onEnd);
		this.input.on('error', onError);
		return {
			dispose: () => {
				this.input.off('data', onData);
				this.input.off('end', onEnd);
				this.input.off('close', onEnd);
				this.input.off('error', onError);
			},
		};
	}

	private handleLine(bytes: Uint8Array): void {
		if (bytes === END_OF_INPUT) {
			if (!this.closed) {
				this.shutdown();
				this.fireClose();
			}
			return;
		}
		const line = this.splitter.decode(bytes);
		if (line !== undefined) {
			this.deliver(line);
		}
	}

	/** A request or notification that passed its checks and was let through: to the dispatcher. */
	private handOn(message: Message): void {
		const m = message as unknown as Record<string, unknown>;
		if (!this.dispatch) {
			this.callback?.(message);
		} else if (m.id === undefined) {
			this.dispatch.notification(m);
		} else {
			this.dispatch.request(m);
		}
	}

	private deliver(line: string): void {
		const parsed = parseLine(line);
		if (!parsed.ok) {
			this.log.report(MessageKinds.notJson, 'warn', () => `Ignored a line from the agent that is ${parsed.reason}: ${previewOf(line)}`);
			return;
		}
		if (parsed.cut) {
			this.log.report(MessageKinds.nestedTooDeep, 'warn', () => `A message from the agent nests deeper than ${MAX_JSON_DEPTH} levels: ${parsed.cut} values past that were replaced by null: ${previewOf(line)}`);
		}
		const value = parsed.value;
		const envelope = classifyEnvelope(value);
		switch (envelope.kind) {
			case 'request':
				return this.request(envelope.message, value, line);
			case 'notification':
				return this.notification(envelope.message, value, line);
			case 'response':
				return this.response(envelope.message, value, line);
			case 'answer': {
				const kind = envelope.code === EnvelopeErrorCodes.InvalidParams ? MessageKinds.paramsNotStructured : MessageKinds.invalidRequest;
				this.trace(value, line, kind);
				this.log.report(kind, 'warn', () => `Answered ${envelope.code} to a message from the agent (${envelope.message}): ${previewOf(line)}`);
				this.sink?.answer(envelope.id, envelope.code, envelope.message, kind);
				return;
			}
			case 'badResponse':
				this.trace(value, line, MessageKinds.badResponse);
				this.log.report(MessageKinds.badResponse, 'warn', () => `Ignored a response from the agent that is not valid JSON-RPC 2.0 (${envelope.reason}): ${previewOf(line)}`);
				if (envelope.id !== undefined && (!this.outstanding || this.outstanding.delete(envelope.id))) {
					// Fail the request it names rather than leave it waiting for an answer that came broken.
					const failure = { jsonrpc: '2.0', id: envelope.id, error: { code: EnvelopeErrorCodes.InvalidRequest, message: `The agent's reply is not valid JSON-RPC 2.0: ${envelope.reason}` } };
					this.toConnection(failure as unknown as Message);
				}
				return;
			case 'badNotification':
				this.trace(value, line, MessageKinds.badNotification);
				this.log.report(MessageKinds.badNotification, 'warn', () => `Ignored notification ${envelope.method} from the agent: ${envelope.reason}`);
				return;
		}
	}

	private request(message: Record<string, unknown>, value: unknown, line: string): void {
		const id = message.id as RequestId;
		const refusal = this.checks?.request(message.method as string, message);
		this.trace(value, line, refusal?.kind);
		if (refusal) {
			this.sink?.answer(id, refusal.code, refusal.message, refusal.kind);
		} else {
			this.admission.request(id, message as unknown as Message, line.length);
			this.pacer.hold(this.admission.queuedBytes);
		}
	}

	private notification(message: Record<string, unknown>, value: unknown, line: string): void {
		const method = message.method as string;
		if (method === CANCEL_REQUEST) {
			const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
			// A request still waiting is answered as cancelled here; one being handled is cancelled by the dispatcher, at once.
			if ((typeof requestId === 'string' || typeof requestId === 'number') && this.admission.cancel(requestId)) {
				this.pacer.hold(this.admission.queuedBytes);
				this.trace(value, line);
				return;
			}
		}
		const refusal = this.checks?.notification(method, message);
		this.trace(value, line, refusal?.kind);
		if (refusal) {
			// An agent may send notifications Agent Link has no use for: only worth a trace-level line.
			const level = refusal.kind === MessageKinds.unknownNotification ? 'trace' : 'warn';
			this.log.report(refusal.kind, level, () => `Ignored notification ${method} from the agent: ${refusal.message}`);
		} else if (method === CANCEL_REQUEST) {
			// Never waits behind requests.
			this.handOn(message as unknown as Message);
		} else {
			this.admission.notification(message as unknown as Message, line.length);
			this.pacer.hold(this.admission.queuedBytes);
		}
	}

	private response(message: Record<string, unknown>, value: unknown, line: string): void {
		const id = message.id as RequestId | null;
		if (id === null) {
			this.trace(value, line, MessageKinds.responseWithoutId);
			const error = message.error as { code: number; message: string } | undefined;
			this.log.report(MessageKinds.responseWithoutId, 'warn', () => `The agent sent a response without an id${error ? ` (error ${error.code}: ${previewOf(error.message)})` : ''}; ignored.`);
		} else if (!this.outstanding || this.outstanding.delete(id)) {
			this.trace(value, line);
			this.toConnection(message as unknown as Message);
		} else {
			this.trace(value, line, MessageKinds.unexpectedResponse);
			this.log.report(
				MessageKinds.unexpectedResponse,
				'warn',
				() => `Ignored a response from the agent to request ${JSON.stringify(id)}, which Agent Link never sent or already has an answer for: ${previewOf(line)}`,
			);
		}
	}

	/**
	 * A response to one of our requests, to vscode-jsonrpc, which handles it in a macrotask of its own:
	 * the slice ends here, so that it is handled (and whatever its answer starts) before the next line.
	 */
	private toConnection(message: Message): void {
		this.callback?.(message);
		this.pacer.yieldSlice();
	}

	/** Traces a message received (JSON objects only: anything else is in the log); `kind` if it is malformed or unexpected. */
	private trace(value: unknown, line: string, kind?: LimitedKind): void {
		if (this.tracer?.enabled && typeof value === 'object' && value !== null && !Array.isArray(value)) {
			this.tracer.record('recv', value, Buffer.byteLength(line, 'utf8') + 1, line, kind);
		}
	}

	override dispose(): void {
		super.dispose();
		this.closed = true;
		this.pacer.stop();
		this.admission.clear();
	}

	private shutdown(): void {
		this.closed = true;
		this.pacer.stop();
		this.admission.clear();
		this.splitter.reset();
		this.input.pause();
		this.input.removeAllListeners('data');
		this.input.resume(); // drain and drop whatever else comes
	}
}

export interface WriterOptions {
	readonly tracer?: WireTracer;
	readonly outstanding?: OutstandingIds;
	/** Called once an answer to the agent's request `id` has been written out (or failed to be). */
	readonly onAnswered?: (id: RequestId) => void;
}

export class NdjsonMessageWriter extends AbstractMessageWriter {
	private errorCount = 0;
	private closed = false;
	/** Lines written in this tick, handed to the stream together on the next, and what to call once they are out. */
	private lines: string[] = [];
	private callbacks: ((error: Error | null | undefined) => void)[] = [];
	private readonly tracer: WireTracer | undefined;
	private readonly outstanding: OutstandingIds | undefined;
	private readonly onAnswered: ((id: RequestId) => void) | undefined;

	constructor(
		private readonly output: Writable,
		options: WriterOptions = {},
	) {
		super();
		({ tracer: this.tracer, outstanding: this.outstanding, onAnswered: this.onAnswered } = options);
		output.on('error', (error: Error) => this.fireError(error));
		output.on('close', () => {
			this.closed = true;
			this.fireClose();
		});
	}

	/**
	 * Writes in call order. `kind`: the message answers a malformed or unexpected
	 * one, and is traced as such.
	 */
	write(message: Message, kind?: LimitedKind): Promise<void> {
		if (this.closed || this.output.destroyed || this.output.writableEnded) {
			return Promise.reject(new Error('The agent connection is closed.'));
		}
		const line = `${JSON.stringify(message)}\n`;
		const { id, method } = message as { id?: unknown; method?: unknown };
		const hasId = typeof id === 'number' || typeof id === 'string';
		if (this.outstanding && method !== undefined && hasId) {
			this.outstanding.add(id);
		}
		const answered = method === undefined && hasId ? this.onAnswered : undefined;
		if (this.tracer?.enabled) {
			this.tracer.record('send', message as never, Buffer.byteLength(line, 'utf8'), line, kind);
		}
		return new Promise<void>((resolve, reject) => {
			if (this.lines.length === 0) {
				process.nextTick(() => this.flush());
			}
			this.lines.push(line);
			this.callbacks.push((error) => {
				answered?.(id as RequestId);
				if (error) {
					this.errorCount++;
					this.fireError(error, message, this.errorCount);
					reject(error);
				} else {
					this.errorCount = 0;
					resolve();
				}
			});
		});
	}

	end(): void {
		this.flush();
		if (!this.output.writableEnded) {
			this.output.end();
		}
	}

	/**
	 * Hands the lines written in this tick to the stream as one string: one
	 * system call for the answers to a slice of lines rather than one per answer
	 * (each also wakes the agent to read it), and one write request rather than
	 * one per line.
	 */
	private flush(): void {
		if (this.lines.length === 0) {
			return;
		}
		const text = this.lines.length === 1 ? this.lines[0]! : this.lines.join('');
		const callbacks = this.callbacks;
		this.lines = [];
		this.callbacks = [];
		const done = (error: Error | null | undefined) => {
			for (const callback of callbacks) {
				callback(error);
			}
		};
		if (this.closed || this.output.destroyed || this.output.writableEnded) {
			done(new Error('The agent connection is closed.'));
			return;
		}
		this.output.write(text, 'utf8', done);
	}
}
