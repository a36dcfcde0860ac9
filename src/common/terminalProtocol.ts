/**
 * Terminals the agent runs commands in through the client: ACP v1 `terminal/create`,
 * `terminal/output`, `terminal/wait_for_exit`, `terminal/kill` and `terminal/release` (schema
 * `schema/v1/schema.json` of `@agentclientprotocol/sdk` 2.4.0, `CreateTerminalRequest` …
 * `ReleaseTerminalResponse`), advertised with `clientCapabilities.terminal`. The method names are
 * `Methods.terminal` in protocol.ts.
 *
 * - `create` starts `command` (with `args`, `env`, in `cwd`) and answers at once with a
 *   `terminalId`; the command runs on;
 * - `output` gives what it wrote so far (stdout and stderr, as they came), at most
 *   `outputByteLimit` bytes of UTF-8: earlier output is dropped from the start, at a character
 *   boundary, and `truncated` says so; `exitStatus` once it has exited;
 * - `wait_for_exit` answers when it exits; `kill` ends it and keeps the terminal; `release` ends it
 *   and forgets the id (a tool call that shows the terminal goes on showing its output).
 *
 * Pure: the params schemas (their messages name the offending field; they end up in -32602
 * replies), the output kept within its byte limit, and the text the chat shows of it.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';

/** The most output kept per terminal, whatever the agent asks for (and when it asks for no limit). */
export const MAX_OUTPUT_BYTES = 4 * 1024 * 1024;

const meta = z.nullish(z.record(z.string(), z.unknown()));
/** Process arguments and environment strings cannot hold NUL: the operating system would cut them there. */
const noNul = z.refine<string>((s) => !s.includes('\0'), { error: 'must not contain NUL characters' });
const text = (what: string, max: number) => z.string({ error: `expected ${what} (string)` }).check(z.maxLength(max, { error: `too long (at most ${max} characters)` }), noNul);
const nonEmpty = (what: string, max: number) => text(what, max).check(z.minLength(1, { error: `expected ${what} (non-empty string)` }));

const sessionId = nonEmpty('a session id', 1024);
const terminalId = nonEmpty('a terminal id', 256);

export const envVariableSchema = z.looseObject({
	name: nonEmpty('a variable name', 1024).check(z.refine((s) => !s.includes('='), { error: 'a variable name must not contain "="' })),
	value: text('a value', 128 * 1024),
	_meta: meta,
});

/** Params of `terminal/create`. */
export const createTerminalParamsSchema = z.looseObject({
	sessionId,
	command: nonEmpty('a command', 32 * 1024),
	args: z.nullish(z.array(text('an argument', 128 * 1024), { error: 'expected an array of strings' }).check(z.maxLength(4096, { error: 'too many arguments (at most 4096)' }))),
	env: z.nullish(z.array(envVariableSchema, { error: 'expected an array of {name, value}' }).check(z.maxLength(4096, { error: 'too many variables (at most 4096)' }))),
	cwd: z.nullish(nonEmpty('an absolute path', 32 * 1024)),
	outputByteLimit: z.nullish(z.int({ error: 'expected a whole number of bytes' }).check(z.minimum(0, { error: 'expected 0 or more' }))),
	_meta: meta,
});

/** Params of `terminal/output`, `terminal/wait_for_exit`, `terminal/kill` and `terminal/release`: the session and the terminal. */
export const terminalParamsSchema = z.looseObject({ sessionId, terminalId, _meta: meta });

export type CreateTerminalParams = z.infer<typeof createTerminalParamsSchema>;
export type TerminalParams = z.infer<typeof terminalParamsSchema>;
export type CreateTerminalResponse = acp.CreateTerminalResponse;
export type TerminalOutputResponse = acp.TerminalOutputResponse;
export type WaitForTerminalExitResponse = acp.WaitForTerminalExitResponse;

/** How a command ended: its exit code, or the signal that ended it. */
export interface TerminalExitStatus {
	readonly exitCode: number | null;
	readonly signal: string | null;
}

/** Compiles only if every request the SDK's type allows is one the schema's type allows too. */
type Accepts<T, U extends T> = U;
export type CreateTerminalParamsAcceptSdk = Accepts<CreateTerminalParams, acp.CreateTerminalRequest>;
export type TerminalParamsAcceptSdk = Accepts<TerminalParams, acp.TerminalOutputRequest | acp.WaitForTerminalExitRequest | acp.KillTerminalRequest | acp.ReleaseTerminalRequest>;
export type TerminalExitStatusIsSdk = Accepts<acp.TerminalExitStatus, TerminalExitStatus>;

// --- Output within a byte limit -------------------------------------------------------------------

/** Bytes of the UTF-8 form of `text` (a lone surrogate counts as the 3 bytes of its replacement). */
export function utf8Length(text: string): number {
	let bytes = 0;
	for (let i = 0; i < text.length; i++) {
		const code = text.charCodeAt(i);
		if (code < 0x80) {
			bytes += 1;
		} else if (code < 0x800) {
			bytes += 2;
		} else if (code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(i + 1))) {
			bytes += 4;
			i++;
		} else {
			bytes += 3;
		}
	}
	return bytes;
}

function isLowSurrogate(code: number): boolean {
	return code >= 0xdc00 && code <= 0xdfff;
}

/**
 * The end of `text` whose UTF-8 form is at most `maxBytes` bytes: whole characters are dropped from
 * the start (a surrogate pair is one character), so the kept part may be a little shorter than the
 * limit but never starts inside a character. `bytes` is `text`'s UTF-8 length, when known.
 */
export function keepLastBytes(text: string, maxBytes: number, bytes = utf8Length(text)): string {
	return text.slice(dropFromStart(text, bytes - Math.max(0, maxBytes)).start);
}

/** Where `text` goes on once at least `excess` bytes of whole characters are dropped from its start, and how many bytes that drops. */
function dropFromStart(text: string, excess: number): { start: number; dropped: number } {
	let start = 0;
	let dropped = 0;
	while (dropped < excess && start < text.length) {
		const code = text.charCodeAt(start);
		const pair = code >= 0xd800 && code <= 0xdbff && isLowSurrogate(text.charCodeAt(start + 1));
		dropped += code < 0x80 ? 1 : code < 0x800 ? 2 : pair ? 4 : 3;
		start += pair ? 2 : 1;
	}
	return { start, dropped };
}

/** Appended pieces smaller than this are joined to the last one, so a command writing line by line leaves few pieces. */
const PIECE_CHARS = 16 * 1024;

/**
 * A command's output, kept within a byte limit: earlier output is dropped from the start once it is
 * over. Kept in pieces, so that appending to a full buffer drops whole pieces from the front
 * instead of copying everything.
 */
export class OutputBuffer {
	private pieces: { text: string; bytes: number }[] = [];
	private bytes = 0;
	private chars = 0;
	private joined: string | undefined = '';
	private truncatedValue = false;

	constructor(private limit: number) {}

	/** What was kept, at most the limit's bytes of UTF-8. */
	get text(): string {
		if (this.joined === undefined) {
			this.joined = this.pieces.map((p) => p.text).join('');
			this.pieces = this.joined.length > 0 ? [{ text: this.joined, bytes: this.bytes }] : [];
		}
		return this.joined;
	}

	/** Whether output was dropped to stay within the limit. */
	get truncated(): boolean {
		return this.truncatedValue;
	}

	/** The last `maxChars` characters kept (or a little fewer, so no character is cut in half); `cut` when there was more. */
	tail(maxChars: number): { text: string; cut: boolean } {
		if (this.chars <= maxChars) {
			return { text: this.text, cut: false };
		}
		const parts: string[] = [];
		let room = maxChars;
		for (let i = this.pieces.length - 1; i >= 0 && room > 0; i--) {
			const piece = this.pieces[i]!.text;
			parts.unshift(piece.length <= room ? piece : piece.slice(piece.length - room));
			room -= piece.length;
		}
		const text = parts.join('');
		return { text: isLowSurrogate(text.charCodeAt(0)) ? text.slice(1) : text, cut: true };
	}

	append(text: string): void {
		if (text.length === 0) {
			return;
		}
		const bytes = utf8Length(text);
		const last = this.pieces[this.pieces.length - 1];
		if (last && last.text.length + text.length <= PIECE_CHARS) {
			last.text += text;
			last.bytes += bytes;
		} else {
			this.pieces.push({ text, bytes });
		}
		this.bytes += bytes;
		this.chars += text.length;
		this.joined = undefined;
		this.trim();
	}

	/** Lowers the limit (keeping the end of what there is). */
	shrink(limit: number): void {
		this.limit = Math.min(this.limit, limit);
		this.trim();
	}

	private trim(): void {
		while (this.bytes > this.limit && this.pieces.length > 0) {
			this.truncatedValue = true;
			this.joined = undefined;
			const first = this.pieces[0]!;
			const rest = this.bytes - first.bytes;
			if (rest >= this.limit) {
				this.pieces.shift();
				this.bytes = rest;
				this.chars -= first.text.length;
				continue;
			}
			const { start, dropped } = dropFromStart(first.text, this.bytes - this.limit);
			this.chars -= start;
			this.pieces[0] = { text: first.text.slice(start), bytes: first.bytes - dropped };
			this.bytes -= dropped;
		}
	}
}

// --- What the chat shows --------------------------------------------------------------------------

const ESCAPES = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -/]*[0-~]|\x9b[0-?]*[ -/]*[@-~]/g;
/** What is left of control characters but tab, line feed and carriage return. */
const CONTROLS = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f]/g;

/** `text` without terminal escape sequences (colours, cursor moves, titles) and other control characters but `\t`, `\n`, `\r`. */
export function stripAnsi(text: string): string {
	return text.replace(ESCAPES, '').replace(CONTROLS, '').replace(/\x1b/g, '');
}

/**
 * What a terminal shows of `output` as plain text: escape sequences removed, a carriage return
 * overwriting its line from the start (progress bars), at most `maxChars` characters from the end,
 * cut at a line start when one is near. `cut` says whether earlier text was left out.
 */
export function terminalText(output: string, maxChars: number): { text: string; cut: boolean } {
	// Escapes and overwritten text only shrink it: twice the room is plenty to fill `maxChars`.
	let window = output;
	if (output.length > maxChars * 2) {
		// From a line start when one is near, so no line (or escape sequence) shows cut in half.
		const from = output.length - maxChars * 2;
		const newline = output.indexOf('\n', from);
		window = output.slice(newline >= 0 && newline - from < 1000 ? newline + 1 : from);
	}
	const lines = stripAnsi(window)
		.split('\n')
		.map((line) => {
			const body = line.endsWith('\r') ? line.slice(0, -1) : line;
			return body.includes('\r') ? body.split('\r').reduce((shown, part) => part + shown.slice(part.length), '') : body;
		});
	let text = lines.join('\n');
	let cut = window.length < output.length;
	if (text.length > maxChars) {
		let start = text.length - maxChars;
		const newline = text.indexOf('\n', start);
		if (newline >= 0 && newline - start < 200) {
			start = newline + 1;
		} else if (isLowSurrogate(text.charCodeAt(start))) {
			start++;
		}
		text = text.slice(start);
		cut = true;
	}
	return { text, cut };
}
