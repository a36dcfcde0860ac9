/**
 * Newline-delimited JSON framing, as ACP specifies for stdio transports:
 * one JSON-RPC message per line, UTF-8, lines ended by `\n` (a `\r` before it
 * is tolerated). Pure: no Node built-ins, so it runs anywhere and is unit-tested
 * in plain Node.
 */
import { cutDeepValues, mayNestDeeper } from './jsonDepth';

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
		for (const bytes of this.split(chunk)) {
			const line = this.decode(bytes);
			if (line !== undefined) {
				lines.push(line);
			}
		}
		return lines;
	}

	/**
	 * Like {@link push}, but returns the lines' bytes, undecoded: views of `chunk`
	 * where a line lies within it, so a caller that keeps them must not reuse
	 * `chunk` (Node's streams never do). {@link decode} gives each line's text.
	 */
	split(chunk: Uint8Array): Uint8Array[] {
		const lines: Uint8Array[] = [];
		let start = 0;
		for (;;) {
			const nl = chunk.indexOf(LF, start);
			if (nl === -1) {
				break;
			}
			lines.push(this.take(chunk.subarray(start, nl)));
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

	/** The text of a line's bytes (a `\r` at its end dropped); undefined for a line that is empty or only white space. */
	decode(bytes: Uint8Array): string | undefined {
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

	/** Bytes held for a line whose newline has not arrived yet. */
	get bufferedBytes(): number {
		return this.pendingLength;
	}

	reset(): void {
		this.pending = [];
		this.pendingLength = 0;
	}

	/** A whole line's bytes: `tail` after what is pending. */
	private take(tail: Uint8Array): Uint8Array {
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
		return bytes;
	}
}

/**
 * The result of parsing one line: a JSON value, or why it is not JSON. `cut`: how
 * many values nested past {@link MAX_JSON_DEPTH} were replaced by `null`.
 */
export type ParsedLine = { readonly ok: true; readonly value: unknown; readonly cut?: number } | { readonly ok: false; readonly reason: string };

/**
 * The deepest nesting kept from an agent's message. Deeper values are replaced by
 * `null` rather than built (see `jsonDepth.ts`): no ACP message needs them, and an
 * agent can send thousands of levels as an extra member nobody reads.
 */
export const MAX_JSON_DEPTH = 128;

const PREVIEW_CHARS = 80;

export function previewOf(line: string): string {
	const cut = line.length > PREVIEW_CHARS ? `${line.slice(0, PREVIEW_CHARS)}…` : line;
	return JSON.stringify(cut);
}

/**
 * Parses a line as JSON; a line that is not JSON comes back with a reason (the
 * log shows it with {@link previewOf}, when it shows it at all). Values nested
 * deeper than `maxDepth` are replaced by `null`, and counted in `cut`. Whether
 * the value is a JSON-RPC message is for `classifyEnvelope` to say.
 */
export function parseLine(line: string, maxDepth = MAX_JSON_DEPTH): ParsedLine {
	let text = line;
	let cut = 0;
	if (mayNestDeeper(line, maxDepth)) {
		const checked = cutDeepValues(line, maxDepth);
		if (!checked) {
			return { ok: false, reason: 'not JSON' };
		}
		({ text, cut } = checked);
	}
	try {
		const value = JSON.parse(text) as unknown;
		return cut > 0 ? { ok: true, value, cut } : { ok: true, value };
	} catch {
		return { ok: false, reason: 'not JSON' };
	}
}

/** Serializes one message as a line. */
export function encodeLine(message: unknown): string {
	return `${JSON.stringify(message)}\n`;
}
