/**
 * OpenCtx, protocol version 0.1 (`meta`, `mentions`, `items`, `annotations`), as the schemas of
 * `@openctx/protocol` and `@openctx/schema` describe it. Everything a provider answers is parsed
 * here before any feature sees it: a provider is outside code, and a malformed answer leaves that
 * provider out of the result instead of reaching the editor, the chat or an agent.
 */
import * as z from 'zod/mini';

/** The method names of the protocol. */
export const OpenCtxMethods = {
	meta: 'meta',
	mentions: 'mentions',
	items: 'items',
	annotations: 'annotations',
} as const;
export type OpenCtxMethod = (typeof OpenCtxMethods)[keyof typeof OpenCtxMethods];

/** Bounds on what one provider may hand back, so a runaway provider cannot flood the editor or a prompt. */
export const OPENCTX_LIMITS = {
	/** Annotations per document per provider. */
	annotations: 2_000,
	/** Mentions per query per provider. */
	mentions: 200,
	/** Items per call per provider. */
	items: 200,
	/** Characters of one string (titles, hovers, URLs). */
	text: 20_000,
	/** Characters of `ai.content`: what an item gives the agent. */
	content: 1_000_000,
} as const;

const text = z.string().check(z.maxLength(OPENCTX_LIMITS.text));
const uint = z.int().check(z.minimum(0));

export const selectorSchema = z.object({ path: z.optional(text), contentContains: z.optional(text) });
export type Selector = z.infer<typeof selectorSchema>;

export const messageSelectorSchema = z.object({ pattern: text });
export type MessageSelector = z.infer<typeof messageSelectorSchema>;

/**
 * `meta`. `name` is required by the newer schema; providers written to the first version of the
 * protocol send only `selector`, which then scopes annotations.
 */
export const metaResultSchema = z.object({
	name: z.optional(text),
	selector: z.optional(z.array(selectorSchema)),
	items: z.optional(z.object({ messageSelectors: z.optional(z.array(messageSelectorSchema)) })),
	mentions: z.optional(z.object({ label: z.optional(text), autoInclude: z.optional(z.boolean()) })),
	annotations: z.optional(z.object({ selectors: z.optional(z.array(selectorSchema)) })),
});
export type MetaResult = z.infer<typeof metaResultSchema>;

export const mentionSchema = z.object({
	title: text,
	description: z.optional(text),
	uri: text,
	data: z.optional(z.record(z.string(), z.unknown())),
});
export type Mention = z.infer<typeof mentionSchema>;

export const itemSchema = z.object({
	title: text,
	url: z.optional(text),
	ui: z.optional(z.object({ hover: z.optional(z.object({ markdown: z.optional(text), text: z.optional(text) })) })),
	ai: z.optional(z.object({ content: z.optional(z.string().check(z.maxLength(OPENCTX_LIMITS.content))) })),
});
export type Item = z.infer<typeof itemSchema>;

const positionSchema = z.object({ line: uint, character: uint });
export const rangeSchema = z.object({ start: positionSchema, end: positionSchema });
export type Range = z.infer<typeof rangeSchema>;

export const annotationSchema = z.object({
	uri: text,
	range: z.optional(rangeSchema),
	item: itemSchema,
	presentationHints: z.optional(z.array(z.string())),
});
export type Annotation = z.infer<typeof annotationSchema>;

/** What each method's answer must be. */
export const resultSchemas = {
	meta: metaResultSchema,
	mentions: z.array(mentionSchema).check(z.maxLength(OPENCTX_LIMITS.mentions)),
	items: z.array(itemSchema).check(z.maxLength(OPENCTX_LIMITS.items)),
	annotations: z.array(annotationSchema).check(z.maxLength(OPENCTX_LIMITS.annotations)),
} as const;

export interface MethodParams {
	meta: Record<string, never>;
	mentions: { query?: string; uri?: string };
	items: { message?: string; mention?: Mention };
	annotations: { uri: string; content: string };
}
export type MethodResult<M extends OpenCtxMethod> = z.infer<(typeof resultSchemas)[M]>;

/** An HTTP provider's answer: `{ result }` or `{ error }`. */
export const responseMessageSchema = z.object({
	result: z.optional(z.unknown()),
	error: z.optional(z.object({ code: z.optional(z.number()), message: z.optional(z.string()), data: z.optional(z.unknown()) })),
});

/** Parses a method's answer; the error names the first wrong field. */
export function parseResult<M extends OpenCtxMethod>(method: M, value: unknown): { ok: true; value: MethodResult<M> } | { ok: false; error: string } {
	// A provider may leave out a method it does not implement: an absent answer is an empty one.
	const input = value === undefined || value === null ? (method === 'meta' ? {} : []) : value;
	const parsed = resultSchemas[method].safeParse(input);
	if (parsed.success) {
		return { ok: true, value: parsed.data as MethodResult<M> };
	}
	const issue = parsed.error.issues[0];
	const where = issue && issue.path.length > 0 ? ` at ${issue.path.join('.')}` : '';
	return { ok: false, error: `malformed ${method} answer${where}: ${issue?.message ?? 'invalid'}` };
}
