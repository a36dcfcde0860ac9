/**
 * `elicitation/create` and `elicitation/complete` as they arrive from the agent (ACP v1, stable
 * schema of SDK 2.4): the envelope checked with zod (a malformed one is a -32602 reply), then read
 * into what the chat draws: a form of fields (elicitationForm.ts) or a URL, each text cut to the
 * transcript's label cap. What the client cannot draw (a future mode, a property type it does not
 * know, a broken pattern, a URL that is not http or https) is a reason to answer `decline`.
 *
 * ACP: https://agentclientprotocol.com/protocol/v1/elicitation (`CreateElicitationRequest`,
 * `ElicitationFormMode`, `ElicitationUrlMode`, `ElicitationSessionScope`, `ElicitationRequestScope`,
 * `CompleteElicitationNotification`, `CreateElicitationResponse`).
 */
import * as z from 'zod/mini';
import { STRING_FORMATS, patternOf, type ElicitationChoice, type ElicitationField, type ElicitationValue, type StringFormat } from './elicitationForm';
import { clip } from './modelValues';
import { DEFAULT_LIMITS, type Elicitation } from './transcriptModel';

const meta = z.nullish(z.record(z.string(), z.unknown()));

/** Params of `elicitation/create`: the envelope; the form's schema is read by {@link readElicitation}. */
export const createElicitationParamsSchema = z.looseObject({
	message: z.string(),
	mode: z.string(),
	sessionId: z.optional(z.string()),
	toolCallId: z.nullish(z.string()),
	requestId: z.optional(z.union([z.string(), z.number(), z.null()])),
	requestedSchema: z.optional(z.unknown()),
	elicitationId: z.optional(z.string()),
	url: z.optional(z.string()),
	_meta: meta,
});
export type CreateElicitationParams = z.infer<typeof createElicitationParamsSchema>;

/** Params of `elicitation/complete`. */
export const completeElicitationParamsSchema = z.looseObject({ elicitationId: z.string(), _meta: meta });

/** The answer to `elicitation/create`. */
export type ElicitationResponse = { readonly action: 'accept'; readonly content?: Record<string, ElicitationValue> } | { readonly action: 'decline' } | { readonly action: 'cancel' };

/** An elicitation the client can draw: the model (pending, without the host's request id yet) and where it belongs. */
export interface ReadElicitation {
	readonly elicitation: Omit<Elicitation, 'requestId'>;
	/** The session it is tied to; undefined when tied to a request before any session. */
	readonly sessionId?: string;
	readonly toolCallId?: string;
	/** A URL elicitation's id, which `elicitation/complete` names. */
	readonly elicitationId?: string;
}

/** At most this many fields, and choices per field, are drawn; a larger form is declined. */
export const MAX_FIELDS = 64;
export const MAX_CHOICES = 256;
const LABEL = DEFAULT_LIMITS.maxLabelChars;

/** Reads a checked `elicitation/create`: what to draw, or why the client cannot (answered `decline`). */
export function readElicitation(params: CreateElicitationParams): { readonly ok: true; readonly read: ReadElicitation } | { readonly ok: false; readonly reason: string } {
	const sessionId = params.sessionId;
	if (sessionId === undefined && params.requestId === undefined) {
		return { ok: false, reason: 'it names neither a session nor a request' };
	}
	const scope = { ...(sessionId !== undefined ? { sessionId } : {}), ...(typeof params.toolCallId === 'string' && sessionId !== undefined ? { toolCallId: params.toolCallId } : {}) };
	const message = clip(params.message, LABEL);
	if (params.mode === 'form') {
		const form = readForm(params.requestedSchema);
		if (!form.ok) {
			return form;
		}
		return { ok: true, read: { ...scope, elicitation: { mode: 'form', message, ...form.form, state: 'pending' } } };
	}
	if (params.mode === 'url') {
		if (params.elicitationId === undefined || params.url === undefined) {
			return { ok: false, reason: 'a URL elicitation without its elicitationId or url' };
		}
		const url = webUrl(params.url);
		if (!url) {
			return { ok: false, reason: 'its URL is not an http or https address' };
		}
		return { ok: true, read: { ...scope, elicitationId: params.elicitationId, elicitation: { mode: 'url', message, fields: [], url: clip(url.href, LABEL), host: clip(url.host, LABEL), state: 'pending' } } };
	}
	return { ok: false, reason: `mode "${clip(params.mode, 60)}" is not one the client draws` };
}

function webUrl(text: string): URL | undefined {
	try {
		const url = new URL(text);
		return (url.protocol === 'https:' || url.protocol === 'http:') && url.host !== '' ? url : undefined;
	} catch {
		return undefined;
	}
}

type FormRead = { readonly ok: true; readonly form: Pick<Elicitation, 'title' | 'description' | 'fields'> } | { readonly ok: false; readonly reason: string };

function readForm(schema: unknown): FormRead {
	if (!isObject(schema) || (schema.type !== undefined && schema.type !== 'object')) {
		return { ok: false, reason: 'its requestedSchema is not an object schema' };
	}
	const properties = schema.properties ?? {};
	if (!isObject(properties)) {
		return { ok: false, reason: 'its requestedSchema has no properties object' };
	}
	const names = Object.keys(properties);
	if (names.length > MAX_FIELDS) {
		return { ok: false, reason: `its form has ${names.length} fields (at most ${MAX_FIELDS} are drawn)` };
	}
	const required = new Set(Array.isArray(schema.required) ? schema.required.filter((n): n is string => typeof n === 'string') : []);
	const fields: ElicitationField[] = [];
	for (const name of names) {
		const field = readField(name, properties[name], required.has(name));
		if (typeof field === 'string') {
			return { ok: false, reason: `field "${clip(name, 60)}": ${field}` };
		}
		fields.push(field);
	}
	const missing = [...required].find((n) => !names.includes(n));
	if (missing !== undefined) {
		return { ok: false, reason: `field "${clip(missing, 60)}" is required but not defined` };
	}
	return { ok: true, form: { ...text('title', schema.title), ...text('description', schema.description), fields } };
}

/** One property as a field, or what the client cannot draw about it. */
function readField(name: string, property: unknown, required: boolean): ElicitationField | string {
	if (!isObject(property) || typeof property.type !== 'string') {
		return 'not a property schema with a type';
	}
	const base = { name: clip(name, LABEL), title: clip(typeof property.title === 'string' && property.title !== '' ? property.title : name, LABEL), ...text('description', property.description), required };
	switch (property.type) {
		case 'string':
			return readString(base, property);
		case 'number':
		case 'integer':
			return readNumber(base, property, property.type === 'integer');
		case 'boolean':
			return { ...base, type: 'boolean', ...(typeof property.default === 'boolean' ? { default: property.default } : {}) };
		case 'array':
			return readMulti(base, property);
		default:
			return `type "${clip(property.type, 40)}" is not one the client draws`;
	}
}

type Base = Pick<ElicitationField, 'name' | 'title' | 'description' | 'required'>;

function readString(base: Base, property: Record<string, unknown>): ElicitationField | string {
	if (present(property.enum) || present(property.oneOf)) {
		const choices = present(property.oneOf) ? titledChoices(property.oneOf) : plainChoices(property.enum);
		if (typeof choices === 'string') {
			return choices;
		}
		const fallback = typeof property.default === 'string' && choices.some((c) => c.value === property.default) ? { default: property.default } : {};
		return { ...base, type: 'choice', choices, ...fallback };
	}
	const format = property.format;
	if (present(format) && !STRING_FORMATS.includes(format as StringFormat)) {
		return `format "${clip(String(format), 40)}" is not one the client checks`;
	}
	const pattern = property.pattern;
	if (present(pattern) && (typeof pattern !== 'string' || pattern.length > 1000 || !patternOf(pattern))) {
		return 'its pattern is not a regular expression the client can check';
	}
	const lengths = bounds(property, 'minLength', 'maxLength', true, true);
	if (typeof lengths === 'string') {
		return lengths;
	}
	return {
		...base,
		type: 'text',
		...(present(format) ? { format: format as StringFormat } : {}),
		...lengths,
		...(typeof pattern === 'string' ? { pattern } : {}),
		...(typeof property.default === 'string' ? { default: clip(property.default, LABEL) } : {}),
	};
}

function readNumber(base: Base, property: Record<string, unknown>, integer: boolean): ElicitationField | string {
	const range = bounds(property, 'minimum', 'maximum', integer);
	if (typeof range === 'string') {
		return range;
	}
	const fallback = typeof property.default === 'number' && Number.isFinite(property.default) && (!integer || Number.isSafeInteger(property.default)) ? { default: property.default } : {};
	return { ...base, type: 'number', integer, ...range, ...fallback };
}

function readMulti(base: Base, property: Record<string, unknown>): ElicitationField | string {
	const items = property.items;
	if (!isObject(items)) {
		return 'an array without items';
	}
	let choices: readonly ElicitationChoice[] | string;
	if (present(items.anyOf)) {
		choices = titledChoices(items.anyOf);
	} else if (items.type === 'string' && present(items.enum)) {
		choices = plainChoices(items.enum);
	} else {
		return 'an array whose items are not string choices';
	}
	if (typeof choices === 'string') {
		return choices;
	}
	const counts = bounds(property, 'minItems', 'maxItems', true, true);
	if (typeof counts === 'string') {
		return counts;
	}
	const known = new Set(choices.map((c) => c.value));
	const fallback = Array.isArray(property.default) ? { default: property.default.filter((v): v is string => typeof v === 'string' && known.has(v)) } : {};
	return { ...base, type: 'multi', choices, ...counts, ...fallback };
}

function plainChoices(values: unknown): readonly ElicitationChoice[] | string {
	if (!Array.isArray(values) || values.length === 0 || values.some((v) => typeof v !== 'string')) {
		return 'its enum is not a list of strings';
	}
	return checkChoices((values as string[]).map((value) => ({ value, title: clip(value, LABEL) })));
}

function titledChoices(options: unknown): readonly ElicitationChoice[] | string {
	if (!Array.isArray(options) || options.length === 0 || options.some((o) => !isObject(o) || typeof o.const !== 'string' || typeof o.title !== 'string')) {
		return 'its choices are not a list of {const, title}';
	}
	return checkChoices((options as Record<string, unknown>[]).map((o) => ({ value: o.const as string, title: clip(o.title as string, LABEL), ...text('description', o.description) })));
}

function checkChoices(choices: readonly ElicitationChoice[]): readonly ElicitationChoice[] | string {
	if (choices.length > MAX_CHOICES) {
		return `${choices.length} choices (at most ${MAX_CHOICES} are drawn)`;
	}
	return new Set(choices.map((c) => c.value)).size === choices.length ? choices : 'the same choice is listed twice';
}

/** A lower and an upper bound (absent or null: none); a wrong one, or one above the other, is why the field cannot be drawn. */
function bounds<L extends string, U extends string>(property: Record<string, unknown>, lower: L, upper: U, integer: boolean, count = false): Partial<Record<L | U, number>> | string {
	const out: Partial<Record<L | U, number>> = {};
	for (const key of [lower, upper] as const) {
		const value = property[key];
		if (!present(value)) {
			continue;
		}
		if (typeof value !== 'number' || !Number.isFinite(value) || (integer && !Number.isSafeInteger(value)) || (count && value < 0)) {
			return `its ${key} is not a ${count ? 'count' : integer ? 'whole number' : 'number'}`;
		}
		out[key] = value;
	}
	const low = out[lower];
	const high = out[upper];
	return low !== undefined && high !== undefined && low > high ? `its ${lower} is above its ${upper}` : out;
}

/** `{ [key]: value }` cut to the label cap, or nothing when it is not a non-empty string (absent, null, or of the wrong type: no value). */
function text<K extends string>(key: K, value: unknown): { [P in K]?: string } {
	return (typeof value === 'string' && value !== '' ? { [key]: clip(value, LABEL) } : {}) as { [P in K]?: string };
}

/** Given: neither absent nor null (the schema takes both as "none"). */
function present(value: unknown): boolean {
	return value !== undefined && value !== null;
}

function isObject(value: unknown): value is Record<string, unknown> {
	return typeof value === 'object' && value !== null && !Array.isArray(value);
}
