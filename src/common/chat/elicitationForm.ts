/**
 * The form of an `elicitation/create` (ACP v1, form mode) as the chat draws it: one field per
 * property of the agent's `requestedSchema` (elicitationRequest.ts makes them), and the check of
 * what the user entered, used twice: in the page before the answer is sent (inline messages), and
 * on the host before it goes to the agent. Pure: shared by the host and the page.
 *
 * ACP: https://agentclientprotocol.com/protocol/v1/elicitation (schema `ElicitationSchema`,
 * `ElicitationPropertySchema`, `ElicitationContentValue`).
 */

export const STRING_FORMATS = ['email', 'uri', 'date', 'date-time'] as const;
export type StringFormat = (typeof STRING_FORMATS)[number];

/** A choice of a single or multiple select: the value sent, and what the user reads. */
export interface ElicitationChoice {
	readonly value: string;
	readonly title: string;
	readonly description?: string;
}

interface FieldBase {
	/** The property's name: the key of the answer's `content`. */
	readonly name: string;
	/** The property's title, or its name. */
	readonly title: string;
	readonly description?: string;
	readonly required: boolean;
}

export type ElicitationField =
	| (FieldBase & { readonly type: 'text'; readonly format?: StringFormat; readonly minLength?: number; readonly maxLength?: number; readonly pattern?: string; readonly default?: string })
	| (FieldBase & { readonly type: 'number'; readonly integer: boolean; readonly minimum?: number; readonly maximum?: number; readonly default?: number })
	| (FieldBase & { readonly type: 'boolean'; readonly default?: boolean })
	| (FieldBase & { readonly type: 'choice'; readonly choices: readonly ElicitationChoice[]; readonly default?: string })
	| (FieldBase & { readonly type: 'multi'; readonly choices: readonly ElicitationChoice[]; readonly minItems?: number; readonly maxItems?: number; readonly default?: readonly string[] });

/** A value of the answer's `content` (`ElicitationContentValue`). */
export type ElicitationValue = string | number | boolean | readonly string[];

/**
 * What the user entered in one field: text as typed (a number field's too), a checkbox, the
 * choices ticked; or, from an answer already made, the typed value.
 */
export type FieldInput = string | number | boolean | readonly string[] | undefined;

export type FormCheck = { readonly ok: true; readonly content: Record<string, ElicitationValue> } | { readonly ok: false; readonly errors: Record<string, string> };

/**
 * Checks every field's input and, when all are right, gives the answer's `content` (empty text
 * and choices left out; booleans always sent). Otherwise one message per wrong field, by name.
 */
export function checkForm(fields: readonly ElicitationField[], inputs: Readonly<Record<string, FieldInput>>): FormCheck {
	const content: Record<string, ElicitationValue> = {};
	const errors: Record<string, string> = {};
	for (const field of fields) {
		const result = checkField(field, inputs[field.name]);
		if ('error' in result) {
			errors[field.name] = result.error;
		} else if (result.value !== undefined) {
			content[field.name] = result.value;
		}
	}
	return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, content };
}

type FieldResult = { readonly value: ElicitationValue | undefined } | { readonly error: string };

/** One field's input checked: its value (undefined when left empty), or what is wrong, as the user should read it. */
export function checkField(field: ElicitationField, input: FieldInput): FieldResult {
	switch (field.type) {
		case 'text':
			return checkText(field, input);
		case 'number':
			return checkNumber(field, input);
		case 'boolean':
			if (input !== undefined && typeof input !== 'boolean') {
				return { error: 'Expected yes or no.' };
			}
			return { value: input ?? field.default ?? false };
		case 'choice': {
			if (input === undefined || input === '') {
				return field.required ? { error: 'Choose one.' } : { value: undefined };
			}
			return typeof input === 'string' && field.choices.some((c) => c.value === input) ? { value: input } : { error: 'Choose one of the listed options.' };
		}
		case 'multi':
			return checkMulti(field, input);
	}
}

function checkText(field: Extract<ElicitationField, { type: 'text' }>, input: FieldInput): FieldResult {
	if (input !== undefined && typeof input !== 'string') {
		return { error: 'Expected text.' };
	}
	const text = field.format ? (input ?? '').trim() : (input ?? '');
	if (text === '') {
		return field.required ? { error: 'Required.' } : { value: undefined };
	}
	const length = [...text].length;
	if (field.minLength !== undefined && length < field.minLength) {
		return { error: `At least ${field.minLength} characters.` };
	}
	if (field.maxLength !== undefined && length > field.maxLength) {
		return { error: `At most ${field.maxLength} characters.` };
	}
	const formatError = field.format ? checkFormat(field.format, text) : undefined;
	if (formatError) {
		return { error: formatError };
	}
	if (field.pattern !== undefined && !patternOf(field.pattern)?.test(text)) {
		return { error: `Does not have the expected form (${field.pattern}).` };
	}
	return { value: text };
}

/** An ECMAScript regular expression from a schema's `pattern` (unanchored, as JSON Schema says); undefined when it is not one. */
export function patternOf(pattern: string): RegExp | undefined {
	try {
		return new RegExp(pattern, 'u');
	} catch {
		return undefined;
	}
}

const EMAIL = /^[^\s@]+@[^\s@.]+(\.[^\s@.]+)+$/;
const URI_SCHEME = /^[A-Za-z][A-Za-z0-9+.-]*:\S+$/;
const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATE_TIME = /^(\d{4}-\d{2}-\d{2})[Tt ](\d{2}):(\d{2})(:(\d{2})(\.\d+)?)?([Zz]|[+-]\d{2}:\d{2})$/;

function checkFormat(format: StringFormat, text: string): string | undefined {
	switch (format) {
		case 'email':
			return EMAIL.test(text) ? undefined : 'Enter an email address, such as name@example.com.';
		case 'uri':
			return URI_SCHEME.test(text) ? undefined : 'Enter a URL, such as https://example.com.';
		case 'date':
			return validDate(text) ? undefined : 'Enter a date as YYYY-MM-DD, such as 2026-03-31.';
		case 'date-time': {
			const match = DATE_TIME.exec(text);
			const fine = match !== null && validDate(match[1]!) && Number(match[2]) < 24 && Number(match[3]) < 60 && (match[5] === undefined || Number(match[5]) < 60);
			return fine ? undefined : 'Enter a date and time with its zone, such as 2026-03-31T14:30:00Z.';
		}
	}
}

function validDate(text: string): boolean {
	const match = DATE.exec(text);
	if (!match) {
		return false;
	}
	const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
	const date = new Date(Date.UTC(year, month - 1, day));
	return date.getUTCFullYear() === year && date.getUTCMonth() === month - 1 && date.getUTCDate() === day;
}

const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

function checkNumber(field: Extract<ElicitationField, { type: 'number' }>, input: FieldInput): FieldResult {
	let value: number;
	if (typeof input === 'number') {
		value = input;
	} else if (input === undefined || (typeof input === 'string' && input.trim() === '')) {
		return field.required ? { error: 'Required.' } : { value: undefined };
	} else if (typeof input === 'string' && NUMBER.test(input.trim())) {
		value = Number(input.trim());
	} else {
		return { error: field.integer ? 'Enter a whole number.' : 'Enter a number.' };
	}
	if (!Number.isFinite(value) || (field.integer && !Number.isSafeInteger(value))) {
		return { error: field.integer ? 'Enter a whole number.' : 'Enter a number.' };
	}
	if (field.minimum !== undefined && value < field.minimum) {
		return { error: `At least ${field.minimum}.` };
	}
	if (field.maximum !== undefined && value > field.maximum) {
		return { error: `At most ${field.maximum}.` };
	}
	return { value };
}

function checkMulti(field: Extract<ElicitationField, { type: 'multi' }>, input: FieldInput): FieldResult {
	if (input !== undefined && !Array.isArray(input)) {
		return { error: 'Expected a list of choices.' };
	}
	const picked = (input ?? []) as readonly unknown[];
	if (picked.some((v) => typeof v !== 'string' || !field.choices.some((c) => c.value === v)) || new Set(picked).size !== picked.length) {
		return { error: 'Choose among the listed options.' };
	}
	if (picked.length === 0 && field.required && !field.minItems) {
		return { error: 'Choose at least one.' };
	}
	if (field.minItems !== undefined && picked.length < field.minItems && (picked.length > 0 || field.required)) {
		return { error: `Choose at least ${field.minItems}.` };
	}
	if (field.maxItems !== undefined && picked.length > field.maxItems) {
		return { error: `Choose at most ${field.maxItems}.` };
	}
	return { value: picked.length > 0 ? (picked as string[]) : undefined };
}

/** What a field shows before the user changes it: its default, as the form's input. */
export function initialInput(field: ElicitationField): FieldInput {
	switch (field.type) {
		case 'number':
			return field.default !== undefined ? String(field.default) : '';
		case 'boolean':
			return field.default ?? false;
		case 'multi':
			return field.default ?? [];
		default:
			return field.default ?? '';
	}
}
