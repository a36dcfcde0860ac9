/**
 * The model's HTTP side: an OpenAI-compatible endpoint (Ollama, llama.cpp,
 * vLLM, LM Studio, or a service), `POST {endpoint}/completions` for raw
 * prompts and `POST {endpoint}/chat/completions` for chat formats. Replies are
 * validated; errors say what went wrong and never carry the API key.
 */
import * as z from 'zod/mini';
import type { ModelRequest } from './formats/types';

export interface ModelEndpoint {
	readonly endpoint: string;
	readonly model: string;
	readonly apiKey: string | undefined;
	readonly maxTokens: number;
}

export class ModelError extends Error {
	constructor(message: string) {
		super(message);
		this.name = 'ModelError';
	}
}

const completionReply = z.object({ choices: z.array(z.object({ text: z.string() })).check(z.minLength(1)) });
const chatReply = z.object({ choices: z.array(z.object({ message: z.object({ content: z.nullable(z.string()) }) })).check(z.minLength(1)) });

/** Sends one request and returns the model's text. Rejects with {@link ModelError}, or the signal's reason when it aborts. */
export async function requestModel(target: ModelEndpoint, request: ModelRequest, signal: AbortSignal, fetchImpl: typeof fetch = fetch): Promise<string> {
	const base = target.endpoint.replace(/\/+$/, '');
	const url = `${base}/${request.kind === 'completion' ? 'completions' : 'chat/completions'}`;
	const shown = withoutCredentials(url);
	const body =
		request.kind === 'completion'
			? { model: target.model, prompt: request.prompt, max_tokens: target.maxTokens, temperature: 0, ...(request.stop.length > 0 ? { stop: request.stop } : {}), stream: false }
			: { model: target.model, messages: request.messages, max_tokens: target.maxTokens, temperature: 0, stream: false };
	const headers: Record<string, string> = { 'content-type': 'application/json' };
	if (target.apiKey) {
		headers.authorization = `Bearer ${target.apiKey}`;
	}
	let response: Response;
	try {
		response = await fetchImpl(url, { method: 'POST', headers, body: JSON.stringify(body), signal });
	} catch (error) {
		if (signal.aborted) {
			throw signal.reason;
		}
		throw new ModelError(`${shown} could not be reached: ${error instanceof Error ? error.message : String(error)}`);
	}
	const text = await response.text().catch((error: unknown) => {
		if (signal.aborted) {
			throw signal.reason;
		}
		throw new ModelError(`reading the reply of ${shown} failed: ${error instanceof Error ? error.message : String(error)}`);
	});
	if (!response.ok) {
		throw new ModelError(`${shown} answered ${response.status}${text ? `: ${text.slice(0, 200)}` : ''}`);
	}
	let json: unknown;
	try {
		json = JSON.parse(text);
	} catch {
		throw new ModelError(`${shown} answered with something that is not JSON (${JSON.stringify(text.slice(0, 80))})`);
	}
	if (request.kind === 'completion') {
		const parsed = completionReply.safeParse(json);
		if (!parsed.success) {
			throw new ModelError(`${shown} answered without choices[0].text`);
		}
		return parsed.data.choices[0]!.text;
	}
	const parsed = chatReply.safeParse(json);
	if (!parsed.success) {
		throw new ModelError(`${shown} answered without choices[0].message.content`);
	}
	return parsed.data.choices[0]!.message.content ?? '';
}

/** The URL for logs: user and password left out. */
function withoutCredentials(url: string): string {
	try {
		const parsed = new URL(url);
		parsed.username = '';
		parsed.password = '';
		return parsed.toString();
	} catch {
		return '(the model endpoint)';
	}
}
