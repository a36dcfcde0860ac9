/**
 * vscode-jsonrpc reader and writer for ACP's newline-delimited JSON framing.
 * (vscode-jsonrpc's own stream reader and writer speak LSP's Content-Length
 * headers.) The envelope of every incoming message is sorted by
 * {@link classifyEnvelope} here: only valid messages reach vscode-jsonrpc, and
 * the reader says what to answer for the rest. Method params are checked by the
 * handlers' own schemas in {@link AgentConnection}.
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import { EnvelopeErrorCodes, classifyEnvelope, type RequestId } from '../common/jsonrpc';
import { LineSplitter, parseLine, previewOf } from '../common/ndjson';
import type { Logger } from '../common/log';
import type { WireTracer } from '../common/trace';

/** What the reader cannot hand to the dispatcher, and so asks its owner to deal with. */
export interface EnvelopeSink {
	/** Answer this error to the agent (an invalid request, or a request with params of the wrong type). */
	answer(id: RequestId | null, code: number, message: string): void;
}

/**
 * Ids of our requests still waiting for an answer, shared by the writer (which
 * adds them) and the reader (which takes them out), so an answer to an id we
 * never used, or used and already got an answer for, is seen and dropped.
 */
export type OutstandingIds = Set<RequestId>;

export class NdjsonMessageReader extends AbstractMessageReader {
	private readonly splitter: LineSplitter;
	private closed = false;

	constructor(
		private readonly input: Readable,
		maxLineBytes: number,
		private readonly log: Logger,
		private readonly tracer?: WireTracer,
		private readonly sink?: EnvelopeSink,
		private readonly outstanding?: OutstandingIds,
	) {
		super();
		this.splitter = new LineSplitter(maxLineBytes);
	}

	listen(callback: DataCallback): Disposable {
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
				this.deliver(line, callback);
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

	private deliver(line: string, callback: DataCallback): void {
		const parsed = parseLine(line);
		if (!parsed.ok) {
			this.log.warn(`Ignored a line from the agent that is ${parsed.reason}: ${parsed.preview}`);
			return;
		}
		const value = parsed.value;
		if (this.tracer?.enabled && typeof value === 'object' && value !== null && !Array.isArray(value)) {
			this.tracer.record('recv', value, Buffer.byteLength(line, 'utf8') + 1, line);
		}
		const envelope = classifyEnvelope(value);
		switch (envelope.kind) {
			case 'request':
			case 'notification':
				callback(envelope.message as unknown as Message);
				return;
			case 'response': {
				const id = envelope.message.id as RequestId | null;
				if (id === null) {
					const error = envelope.message.error as { code: number; message: string } | undefined;
					this.log.warn(`The agent sent a response without an id${error ? ` (error ${error.code}: ${previewOf(error.message)})` : ''}; ignored.`);
				} else if (!this.outstanding || this.outstanding.delete(id)) {
					callback(envelope.message as unknown as Message);
				} else {
					this.log.warn(`Ignored a response from the agent to request ${JSON.stringify(id)}, which Agent Link never sent or already has an answer for: ${previewOf(line)}`);
				}
				return;
			}
			case 'answer':
				this.log.warn(`Answered ${envelope.code} to a message from the agent (${envelope.message}): ${previewOf(line)}`);
				this.sink?.answer(envelope.id, envelope.code, envelope.message);
				return;
			case 'badResponse':
				this.log.warn(`Ignored a response from the agent that is not valid JSON-RPC 2.0 (${envelope.reason}): ${previewOf(line)}`);
				if (envelope.id !== undefined && (!this.outstanding || this.outstanding.delete(envelope.id))) {
					// Fail the request it names rather than leave it waiting for an answer that came broken.
					const failure = { jsonrpc: '2.0', id: envelope.id, error: { code: EnvelopeErrorCodes.InvalidRequest, message: `The agent's reply is not valid JSON-RPC 2.0: ${envelope.reason}` } };
					callback(failure as unknown as Message);
				}
				return;
			case 'badNotification':
				this.log.warn(`Ignored notification ${envelope.method} from the agent: ${envelope.reason}`);
				return;
		}
	}

	private shutdown(): void {
		this.closed = true;
		this.splitter.reset();
		this.input.pause();
		this.input.removeAllListeners('data');
		this.input.resume(); // drain and drop whatever else comes
	}
}

export class NdjsonMessageWriter extends AbstractMessageWriter {
	private errorCount = 0;
	private closed = false;

	constructor(
		private readonly output: Writable,
		private readonly tracer?: WireTracer,
		private readonly outstanding?: OutstandingIds,
	) {
		super();
		output.on('error', (error: Error) => this.fireError(error));
		output.on('close', () => {
			this.closed = true;
			this.fireClose();
		});
	}

	/** Writes in call order: Node streams keep the order of `write` calls. */
	write(message: Message): Promise<void> {
		if (this.closed || this.output.destroyed || this.output.writableEnded) {
			return Promise.reject(new Error('The agent connection is closed.'));
		}
		const line = `${JSON.stringify(message)}\n`;
		const { id, method } = message as { id?: unknown; method?: unknown };
		if (this.outstanding && method !== undefined && (typeof id === 'number' || typeof id === 'string')) {
			this.outstanding.add(id);
		}
		if (this.tracer?.enabled) {
			this.tracer.record('send', message as never, Buffer.byteLength(line, 'utf8'), line);
		}
		return new Promise<void>((resolve, reject) => {
			this.output.write(line, 'utf8', (error) => {
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
}
