/**
 * Small value helpers of the transcript's model: text cut to a cap without splitting a character,
 * a tab title from a prompt, optional members set or left out (the model never holds `undefined`).
 */

/** A model type with its members writable, for the reducer's own copies. */
export type Writable<T> = { -readonly [K in keyof T]: T[K] };

/** A title made from the first prompt is cut to this many characters. */
const PROMPT_TITLE_CHARS = 80;

/** `text` cut to at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function clip(text: string, max: number): string {
	if (text.length <= max) {
		return text;
	}
	if (max <= 0) {
		return '';
	}
	const code = text.charCodeAt(max - 1);
	return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The first line of a prompt with text, collapsed and cut, as a tab title. */
export function titleFromPrompt(text: string): string | undefined {
	const line = text
		.split('\n')
		.map((l) => l.replace(/\s+/g, ' ').trim())
		.find((l) => l.length > 0);
	if (line === undefined) {
		return undefined;
	}
	return line.length > PROMPT_TITLE_CHARS ? `${clip(line, PROMPT_TITLE_CHARS - 1).trimEnd()}…` : line;
}

/** `object` with `key` set to `value`, or without `key` when `value` is undefined (the model never holds `undefined`). */
export function withOptional<T extends object, K extends string, V>(object: T, key: K, value: V | undefined): T & { [P in K]?: V } {
	if (value !== undefined) {
		(object as Record<string, unknown>)[key] = value;
	}
	return object as T & { [P in K]?: V };
}

/** Sets `key` to `value`, or removes it when `value` is undefined. */
export function setOptional<T extends object, K extends keyof T>(object: T, key: K, value: T[K] | undefined): void {
	if (value === undefined) {
		delete object[key];
	} else {
		object[key] = value;
	}
}
