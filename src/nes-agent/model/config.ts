/**
 * Engine 2's configuration, from the agent's environment (a key in an
 * environment variable never reaches a log or the wire). The editor's
 * settings and secret storage will fill these in when it starts the agent (#9):
 *
 * | variable | meaning |
 * | --- | --- |
 * | `AGENT_LINK_NES_MODEL_ENDPOINT` | an OpenAI-compatible base URL, e.g. `http://localhost:11434/v1` (Ollama); unset: engine 1 only |
 * | `AGENT_LINK_NES_MODEL` | the model's name at that endpoint (required with an endpoint) |
 * | `AGENT_LINK_NES_MODEL_FORMAT` | `sweep` (default), `zeta` or `instinct` |
 * | `AGENT_LINK_NES_MODEL_API_KEY` | sent as `Authorization: Bearer …` when set |
 * | `AGENT_LINK_NES_MODEL_TIMEOUT_MS` | a request slower than this is cut off and engine 1 answers (default 2000) |
 * | `AGENT_LINK_NES_MODEL_MAX_TOKENS` | the longest reply asked for (default 512) |
 */
import * as z from 'zod/mini';
import type { FormatName } from './formats/types';

export interface ModelConfig {
	readonly endpoint: string;
	readonly model: string;
	readonly format: FormatName;
	readonly apiKey: string | undefined;
	readonly timeoutMs: number;
	readonly maxTokens: number;
}

export type ModelConfigResult = { readonly ok: true; readonly config: ModelConfig } | { readonly ok: false; readonly reason: string } | undefined;

const number = (min: number, max: number, fallback: number) =>
	z.pipe(
		z.optional(z.string()),
		z.transform((value, ctx) => {
			if (value === undefined || value.trim() === '') {
				return fallback;
			}
			const n = Number(value);
			if (!Number.isInteger(n) || n < min || n > max) {
				ctx.issues.push({ code: 'custom', message: `must be a whole number from ${min} to ${max}`, input: value });
				return z.NEVER;
			}
			return n;
		}),
	);

const schema = z.object({
	AGENT_LINK_NES_MODEL_ENDPOINT: z.url({ protocol: /^https?$/ }),
	AGENT_LINK_NES_MODEL: z.string().check(z.minLength(1, 'is required with AGENT_LINK_NES_MODEL_ENDPOINT')),
	AGENT_LINK_NES_MODEL_FORMAT: z._default(z.optional(z.enum(['sweep', 'zeta', 'instinct'])), 'sweep'),
	AGENT_LINK_NES_MODEL_API_KEY: z.optional(z.string()),
	AGENT_LINK_NES_MODEL_TIMEOUT_MS: number(50, 600_000, 2000),
	AGENT_LINK_NES_MODEL_MAX_TOKENS: number(16, 32_768, 512),
});

/** `undefined` when no endpoint is set (engine 1 only); `{ok: false}` naming the variable when a value is invalid. */
export function modelConfigFromEnv(env: Readonly<Record<string, string | undefined>>): ModelConfigResult {
	const endpoint = env.AGENT_LINK_NES_MODEL_ENDPOINT;
	if (endpoint === undefined || endpoint.trim() === '') {
		return undefined;
	}
	const picked = Object.fromEntries(Object.keys(schema.shape).map((key) => [key, env[key] === '' ? undefined : env[key]]));
	const parsed = schema.safeParse(picked);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return { ok: false, reason: `${issue?.path.map(String).join('.') ?? 'environment'}: ${issue?.message ?? 'invalid'}` };
	}
	const v = parsed.data;
	return {
		ok: true,
		config: {
			endpoint: v.AGENT_LINK_NES_MODEL_ENDPOINT,
			model: v.AGENT_LINK_NES_MODEL,
			format: v.AGENT_LINK_NES_MODEL_FORMAT,
			apiKey: v.AGENT_LINK_NES_MODEL_API_KEY || undefined,
			timeoutMs: v.AGENT_LINK_NES_MODEL_TIMEOUT_MS,
			maxTokens: v.AGENT_LINK_NES_MODEL_MAX_TOKENS,
		},
	};
}
