/**
 * vscode-jsonrpc reader and writer for ACP's newline-delimited JSON framing.
 * (vscode-jsonrpc's own stream reader and writer speak LSP's Content-Length
 * headers.) The envelope of every incoming message is sorted by
 * {@link classifyEnvelope} here, and requests and notifications are checked by
 * their owner ({@link MessageChecks}: a handler for the method, valid params):
 * only messages that can be handled reach vscode-jsonrpc, and the reader answers
 * or drops the rest at once, so a flood of them never queues in front of valid
 * requests. What it drops is logged and traced, rate-limited per kind
 * ({@link MessageKinds}).
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { RequestAdmission } from '../common/admission';
import { EnvelopeErrorCodes, MessageKinds, classifyEnvelope, type RequestId } from '../common/jsonrpc';
import { ErrorCodes, Methods } from '../common/protocol';
import { LineSplitter, parseLine, previewOf } from '../common/ndjson';
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
}

/** ACP's cancellation notification (`Methods.cancelRequest`), which never waits behind requests. */
const CANCEL_REQUEST = Methods.cancelRequest;

export class NdjsonMessageReader extends AbstractMessageReader {
	private readonly splitter: LineSplitter;
	private readonly admission: RequestAdmission<Message>;
	private readonly log: LimitedLog;
	private readonly tracer: WireTracer | undefined;
	private readonly sink: EnvelopeSink | undefined;
	private readonly checks: MessageChecks | undefined;
	private readonly outstanding: OutstandingIds | undefined;
	private callback: DataCallback | undefined;
	private closed = false;

	constructor(
		private readonly input: Readable,
		options: ReaderOptions,
	) {
		super();
		({ log: this.log, tracer: this.tracer, sink: this.sink, checks: this.checks, outstanding: this.outstanding } = options);
		this.splitter = new LineSplitter(options.maxLineBytes);
		this.admission = new RequestAdmission<Message>(
			{
				deliver: (message) => this.callback?.(message),
				cancelled: (id) => this.sink?.answer(id, ErrorCodes.RequestCancelled, 'Request cancelled'),
			},
			options.maxConcurrentRequests,
		);
	}

	/** The answer to request `id` has been written: let the next waiting request through. */
	answered(id: RequestId): void {
		this.admission.answered(id);
	}

	listen(callback: DataCallback): Disposable {
		this.callback = callback;
		const onData = (chunk: Buffer | string) => {
			if (this.closed) {
				return;
			}
			let lines: string[];
			try {
				lines = this.splitter.push(typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : chunk);
			} catch (error) {
				// A line past the cap: stop reading at once so no more of it is buffered.
				this.shutdown();
				this.fireError(error);
				this.fireClose();
				return;
			}
			for (const line of lines) {
				this.deliver(line);
			}
		};
		const onEnd = () => {
			if (!this.closed) {
				this.shutdown();
				this.fireClose();
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

	private deliver(line: string): void {
		const callback = this.callback!;
		const parsed = parseLine(line);
		if (!parsed.ok) {
			this.log.report(MessageKinds.notJson, 'warn', () => `Ignored a line from the agent that is ${parsed.reason}: ${previewOf(line)}`);
			return;
		}
		const value = parsed.value;
		const envelope = classifyEnvelope(value);
		switch (envelope.kind) {
			case 'request': {
				const message = envelope.message;
				const id = message.id as RequestId;
				const refusal = this.checks?.request(message.method as string, message);
				this.trace(value, line, refusal?.kind);
				if (refusal) {
					this.sink?.answer(id, refusal.code, refusal.message, refusal.kind);
				} else {
					this.admission.request(id, message as unknown as Message);
				}
				return;
			}
			case 'notification': {
				const message = envelope.message;
				const method = message.method as string;
				if (method === CANCEL_REQUEST) {
					const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
					// A request still waiting is answered as cancelled here; one being handled is cancelled by the dispatcher, at once.
					if ((typeof requestId === 'string' || typeof requestId === 'number') && this.admission.cancel(requestId)) {
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
					callback(message as unknown as Message);
				} else {
					this.admission.notification(message as unknown as Message);
				}
				return;
			}
			case 'response': {
				const id = envelope.message.id as RequestId | null;
				if (id === null) {
					this.trace(value, line, MessageKinds.responseWithoutId);
					const error = envelope.message.error as { code: number; message: string } | undefined;
					this.log.report(MessageKinds.responseWithoutId, 'warn', () => `The agent sent a response without an id${error ? ` (error ${error.code}: ${previewOf(error.message)})` : ''}; ignored.`);
				} else if (!this.outstanding || this.outstanding.delete(id)) {
					this.trace(value, line);
					callback(envelope.message as unknown as Message);
				} else {
					this.trace(value, line, MessageKinds.unexpectedResponse);
					this.log.report(
						MessageKinds.unexpectedResponse,
						'warn',
						() => `Ignored a response from the agent to request ${JSON.stringify(id)}, which Agent Link never sent or already has an answer for: ${previewOf(line)}`,
					);
				}
				return;
			}
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
					callback(failure as unknown as Message);
				}
				return;
			case 'badNotification':
				this.trace(value, line, MessageKinds.badNotification);
				this.log.report(MessageKinds.badNotification, 'warn', () => `Ignored notification ${envelope.method} from the agent: ${envelope.reason}`);
				return;
		}
	}

	/** Traces a message received (JSON objects only: anything else is in the log); `kind` if it is malformed or unexpected. */
	private trace(value: unknown, line: string, kind?: LimitedKind): void {
		if (this.tracer?.enabled && typeof value === 'object' && value !== null && !Array.isArray(value)) {
			this.tracer.record('recv', value, Buffer.byteLength(line, 'utf8') + 1, line, kind);
		}
	}

	private shutdown(): void {
		this.closed = true;
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
	private corked = false;
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
	 * Writes in call order: Node streams keep the order of `write` calls. `kind`:
	 * the message answers a malformed or unexpected one, and is traced as such.
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
		this.batch();
		return new Promise<void>((resolve, reject) => {
			this.output.write(line, 'utf8', (error) => {
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
		if (!this.output.writableEnded) {
			this.output.end();
		}
	}

	/**
	 * Holds the lines written in this tick and hands them to the stream together
	 * on the next: one system call for the answers to a chunk of lines rather
	 * than one per answer (each also wakes the agent to read it).
	 */
	private batch(): void {
		if (this.corked) {
			return;
		}
		this.corked = true;
		this.output.cork();
		process.nextTick(() => {
			this.corked = false;
			this.output.uncork();
		});
	}
}
