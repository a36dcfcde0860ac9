/**
 * Newline-delimited JSON framing, as ACP specifies for stdio transports:
 * one JSON-RPC message per line, UTF-8, lines ended by `\n` (a `\r` before it
 * is tolerated). Pure: no Node built-ins, so it runs anywhere and is unit-tested
 * in plain Node.
 */

const LF = 0x0a;
const CR = 0x0d;

/** Raised when a single line grows past the configured cap before its newline arrives. */
export class LineTooLongError extends Error {
	constructor(readonly limit: number) {
		super(`The agent sent a message line larger than ${formatBytes(limit)} (agentLink.maxMessageSize); the connection was closed.`);
		this.name = 'LineTooLongError';
	}
}

export function formatBytes(n: number): string {
	if (n >= 1024 * 1024) {
		return `${Math.round((n / (1024 * 1024)) * 10) / 10} MiB`;
	}
	if (n >= 1024) {
		return `${Math.round((n / 1024) * 10) / 10} KiB`;
	}
	return `${n} B`;
}

/**
 * Splits a byte stream into lines. Bytes are split on `\n` before decoding, so a
 * multi-byte UTF-8 character cut across two chunks decodes correctly. A partial
 * line is kept as a list of chunk slices and only joined once its newline
 * arrives, so a huge line costs one copy, not one per chunk.
 */
export class LineSplitter {
	private pending: Uint8Array[] = [];
	private pendingLength = 0;
	private readonly decoder = new TextDecoder('utf-8');

	constructor(private readonly maxLineBytes: number) {}

	/**
	 * Feeds one chunk and returns every line it completes (without the line
	 * terminator). Empty lines are skipped. Throws {@link LineTooLongError} as soon
	 * as the line being collected passes the cap, before buffering any more of it.
	 */
	push(chunk: Uint8Array): string[] {
		const lines: string[] = [];
		let start = 0;
		for (;;) {
			const nl = chunk.indexOf(LF, start);
			if (nl === -1) {
				break;
			}
			const line = this.take(chunk.subarray(start, nl));
			if (line !== undefined) {
				lines.push(line);
			}
			start = nl + 1;
		}
		if (start < chunk.length) {
			const rest = chunk.subarray(start);
			if (this.pendingLength + rest.length > this.maxLineBytes) {
				this.reset();
				throw new LineTooLongError(this.maxLineBytes);
			}
			// The caller may reuse its buffer: keep a copy of the tail.
			this.pending.push(rest.slice());
			this.pendingLength += rest.length;
		}
		return lines;
	}

	/** Bytes held for a line whose newline has not arrived yet. */
	get bufferedBytes(): number {
		return this.pendingLength;
	}

	reset(): void {
		this.pending = [];
		this.pendingLength = 0;
	}

	private take(tail: Uint8Array): string | undefined {
		let bytes: Uint8Array;
		if (this.pending.length === 0) {
			bytes = tail;
		} else {
			const total = this.pendingLength + tail.length;
			if (total > this.maxLineBytes) {
				this.reset();
				throw new LineTooLongError(this.maxLineBytes);
			}
			bytes = new Uint8Array(total);
			let offset = 0;
			for (const part of this.pending) {
				bytes.set(part, offset);
				offset += part.length;
			}
			bytes.set(tail, offset);
			this.reset();
		}
		if (bytes.length > this.maxLineBytes) {
			throw new LineTooLongError(this.maxLineBytes);
		}
		let end = bytes.length;
		if (end > 0 && bytes[end - 1] === CR) {
			end--;
		}
		if (end === 0) {
			return undefined;
		}
		const text = this.decoder.decode(end === bytes.length ? bytes : bytes.subarray(0, end));
		return text.trim().length === 0 ? undefined : text;
	}
}

/** The result of parsing one line: a JSON value, or why it is not JSON. */
export type ParsedLine = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly reason: string };

const PREVIEW_CHARS = 80;

export function previewOf(line: string): string {
	const cut = line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line;
	return JSON.stringify(cut);
}

/**
 * Parses a line as JSON; a line that is not JSON (including one nested too deep
 * for the parser) comes back with a reason (the log shows it with
 * {@link previewOf}, when it shows it at all). Whether the value is a JSON-RPC
 * message is for `classifyEnvelope` to say.
 */
export function parseLine(line: string): ParsedLine {
	try {
		return { ok: true, value: JSON.parse(line) as unknown };
	} catch {
		return { ok: false, reason: 'not JSON' };
	}
}

/** Serializes one message as a line. */
export function encodeLine(message: unknown): string {
	return `${JSON.stringify(message)}\n`;
}
