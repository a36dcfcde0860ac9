/**
 * The agent reading files through the client: ACP v1 `fs/read_text_file`
 * (schema `schema/v1/schema.json` of `@agentclientprotocol/sdk` 2.4.0,
 * `ReadTextFileRequest` / `ReadTextFileResponse`), advertised with
 * `clientCapabilities.fs.readTextFile`.
 *
 * - `path` is absolute; `line` is 1-based, `limit` a number of lines;
 * - the answer is `{ content }`, the text of the editor's buffer when the file is open there.
 *
 * Pure: the params schema (the method name is `Methods.fs.readTextFile` in protocol.ts) (its messages name the offending field; they end up in
 * -32602 replies) and the slicing of a text by `line` and `limit`.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';

const positiveInt = (field: string) => z.int({ error: `${field}: expected a whole number` }).check(z.minimum(1, { error: `${field}: expected 1 or more` }));

/** Params of `fs/read_text_file`. */
export const readTextFileParamsSchema = z.looseObject({
	sessionId: z.string({ error: 'expected a session id (string)' }).check(z.minLength(1, { error: 'expected a session id (non-empty string)' })),
	path: z.string({ error: 'path: expected an absolute path (string)' }).check(z.minLength(1, { error: 'path: expected an absolute path (non-empty string)' })),
	line: z.nullish(positiveInt('line')),
	limit: z.nullish(z.int({ error: 'limit: expected a whole number' }).check(z.minimum(0, { error: 'limit: expected 0 or more' }))),
	_meta: z.nullish(z.record(z.string(), z.unknown())),
});

export type ReadTextFileParams = z.infer<typeof readTextFileParamsSchema>;
export type ReadTextFileResponse = acp.ReadTextFileResponse;

/** Compiles only if every request the SDK's type allows is one the schema's type allows too. */
type Accepts<T, U extends T> = U;
export type ReadTextFileParamsAcceptSdk = Accepts<ReadTextFileParams, acp.ReadTextFileRequest>;

/**
 * The lines of `text` from `line` (1-based; absent: the first) on, at most `limit` of them (absent:
 * all), each with its own line ending. A `line` past the end gives the empty string.
 */
export function sliceLines(text: string, line?: number | null, limit?: number | null): string {
	const first = (line ?? 1) - 1;
	if (first === 0 && (limit === undefined || limit === null)) {
		return text;
	}
	let start = 0;
	for (let i = 0; i < first; i++) {
		const next = text.indexOf('\n', start);
		if (next < 0) {
			return '';
		}
		start = next + 1;
	}
	if (limit === undefined || limit === null) {
		return text.slice(start);
	}
	let end = start;
	for (let i = 0; i < limit; i++) {
		if (end >= text.length) {
			break;
		}
		const next = text.indexOf('\n', end);
		end = next < 0 ? text.length : next + 1;
	}
	return text.slice(start, end);
}
