/**
 * vscode-jsonrpc reader and writer for ACP's newline-delimited JSON framing.
 * (vscode-jsonrpc's own stream reader and writer speak LSP's Content-Length
 * headers.) The envelope of every incoming message is checked with zod here;
 * method params are checked by the handlers' own schemas in {@link AgentConnection}.
 */
import type { Readable, Writable } from 'node:stream';
import { AbstractMessageReader, AbstractMessageWriter, type DataCallback, type Disposable, type Message } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { LineSplitter, parseLine, previewOf } from '../common/ndjson';
import type { Logger } from '../common/log';
import type { WireTracer } from '../common/trace';

const idSchema = z.union([z.string(), z.number(), z.null()]);

/** A JSON-RPC 2.0 request, notification or response, as far as framing cares. */
const envelopeSchema = z.union([
	z.looseObject({ jsonrpc: z.literal('2.0'), method: z.string(), id: z.optional(idSchema), params: z.optional(z.union([z.record(z.string(), z.unknown()), z.array(z.unknown())])) }),
	z.looseObject({ jsonrpc: z.literal('2.0'), id: idSchema, result: z.unknown() }).check(z.refine((m) => 'result' in m, 'missing result')),
	z.looseObject({ jsonrpc: z.literal('2.0'), id: idSchema, error: z.looseObject({ code: z.int(), message: z.string(), data: z.optional(z.unknown()) }) }),
]);

export class NdjsonMessageReader extends AbstractMessageReader {
	private readonly splitter: LineSplitter;
	private closed = false;

	constructor(
		private readonly input: Readable,
		maxLineBytes: number,
		private readonly log: Logger,
		private readonly tracer?: WireTracer,
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
		const envelope = envelopeSchema.safeParse(parsed.value);
		if (!envelope.success) {
			this.log.warn(`Ignored a message from the agent that is not JSON-RPC 2.0: ${previewOf(line)}`);
			return;
		}
		if (this.tracer?.enabled) {
			this.tracer.record('recv', parsed.value, Buffer.byteLength(line, 'utf8') + 1, line);
		}
		callback(parsed.value as unknown as Message);
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
