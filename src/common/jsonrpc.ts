/**
 * The JSON-RPC 2.0 envelope of each line an agent sends, sorted into what the
 * connection does with it (JSON-RPC 2.0 §4, §5 and §5.1; ACP v1 uses it as is).
 *
 * JSON-RPC asks a server to answer every request it can identify, so a line is
 * never just dropped when it may be a request:
 *
 * - a valid request, notification or response goes on to the dispatcher;
 *   `"params": null` (how Python, Go and others often spell "no params") is
 *   treated as absent, so the method's schema decides;
 * - a request whose `params` is neither an object nor an array is answered
 *   -32602, since its id and method are known;
 * - anything else that may be a request is answered -32600 (Invalid Request),
 *   with its id when the id is a string or number and `null` otherwise; a batch
 *   (a JSON array) gets one such answer with `id: null`, since ACP has no batches;
 * - a malformed *response* (no `method`, but `result` or `error`) is never
 *   answered: ids are chosen separately in each direction, so an answer with its
 *   id would look to the agent like the answer to one of its own requests. It is
 *   logged, and fails the request of ours it names, if there is one.
 *
 * Hand-written rather than a zod union: the answer depends on *which* rule a
 * message breaks and on whether its id can be read, which a union's error does
 * not say, and these few `typeof` checks run on every message. Method params are
 * still checked by each handler's zod schema. Pure.
 */
import type { LimitedKind } from './rateLimit';

/** A JSON-RPC id as the wire allows it in a request. */
export type RequestId = string | number;

/** JSON-RPC 2.0 error codes for envelopes (§5.1). */
export const EnvelopeErrorCodes = {
	InvalidRequest: -32600,
	InvalidParams: -32602,
} as const;

export type Envelope =
	/** Valid: hand it to the dispatcher. `params: null` has been removed. */
	| { readonly kind: 'request' | 'notification' | 'response'; readonly message: Record<string, unknown> }
	/** Answer it with this error, then forget it. */
	| { readonly kind: 'answer'; readonly id: RequestId | null; readonly code: number; readonly message: string }
	/** A response that is not valid JSON-RPC: log it; `id` names the request of ours it claims to answer, if readable. */
	| { readonly kind: 'badResponse'; readonly id: RequestId | undefined; readonly reason: string }
	/** A notification whose params are neither an object nor an array: log it and drop it (notifications get no answer). */
	| { readonly kind: 'badNotification'; readonly method: string; readonly reason: string };

function isId(value: unknown): value is RequestId {
	return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

/** A short, safe spelling of a value for an error message: never the whole of a huge or deeply nested value. */
function describeValue(value: unknown): string {
	if (value === undefined) {
		return 'absent';
	}
	if (typeof value === 'string') {
		return JSON.stringify(value.length > 20 ? `${value.slice(0, 20)}…` : value);
	}
	return typeof value === 'number' || typeof value === 'boolean' ? String(value) : describeType(value);
}

function describeType(value: unknown): string {
	if (value === null) {
		return 'null';
	}
	return Array.isArray(value) ? 'an array' : typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

const hasOwn = (object: object, key: string): boolean => Object.prototype.hasOwnProperty.call(object, key);

/**
 * Sorts one parsed line (any JSON value) into what to do with it. The value may
 * be changed in place: a `params: null` member is deleted.
 */
export function classifyEnvelope(value: unknown): Envelope {
	if (typeof value !== 'object' || value === null) {
		return invalidRequest(null, `a message must be a JSON object, not ${describeType(value)}`);
	}
	if (Array.isArray(value)) {
		return invalidRequest(null, 'batches (JSON arrays) are not supported');
	}
	const message = value as Record<string, unknown>;
	const id = message.id;
	const idIsReadable = isId(id);
	if (hasOwn(message, 'method')) {
		const method = message.method;
		const answerId = idIsReadable ? id : null;
		if (typeof method !== 'string') {
			return invalidRequest(answerId, `"method" must be a string, not ${describeType(method)}`);
		}
		if (message.jsonrpc !== '2.0') {
			return invalidRequest(answerId, `"jsonrpc" must be "2.0", not ${describeValue(message.jsonrpc)}`);
		}
		const isRequest = id !== undefined;
		if (isRequest && !idIsReadable) {
			return invalidRequest(null, `"id" must be a string or a number, not ${describeType(id)}`);
		}
		const params = message.params;
		if (params === null) {
			delete message.params;
		} else if (params !== undefined && typeof params !== 'object') {
			const reason = `Invalid params: params must be an object or an array, not ${describeType(params)}`;
			return isRequest ? { kind: 'answer', id: id as RequestId, code: EnvelopeErrorCodes.InvalidParams, message: reason } : { kind: 'badNotification', method, reason };
		}
		return { kind: isRequest ? 'request' : 'notification', message };
	}
	const hasResult = hasOwn(message, 'result');
	const hasError = hasOwn(message, 'error');
	if (!hasResult && !hasError) {
		return invalidRequest(idIsReadable ? id : null, 'a message needs a "method" (request or notification) or a "result" or "error" (response)');
	}
	const responseId = idIsReadable ? id : undefined;
	if (message.jsonrpc !== '2.0') {
		return { kind: 'badResponse', id: responseId, reason: `"jsonrpc" must be "2.0", not ${describeValue(message.jsonrpc)}` };
	}
	if (!idIsReadable && id !== null) {
		return { kind: 'badResponse', id: undefined, reason: `"id" must be a string, a number or null, not ${describeType(id)}` };
	}
	if (hasResult && hasError) {
		return { kind: 'badResponse', id: responseId, reason: 'a response has either "result" or "error", not both' };
	}
	if (hasResult && message.result === undefined) {
		return { kind: 'badResponse', id: responseId, reason: '"result" is missing' };
	}
	if (hasError) {
		const error = message.error;
		if (typeof error !== 'object' || error === null || Array.isArray(error)) {
			return { kind: 'badResponse', id: responseId, reason: `"error" must be an object, not ${describeType(error)}` };
		}
		const { code, message: text } = error as Record<string, unknown>;
		if (typeof code !== 'number' || !Number.isInteger(code)) {
			return { kind: 'badResponse', id: responseId, reason: '"error.code" must be an integer' };
		}
		if (typeof text !== 'string') {
			return { kind: 'badResponse', id: responseId, reason: '"error.message" must be a string' };
		}
	}
	return { kind: 'response', message };
}

function invalidRequest(id: RequestId | null, reason: string): Envelope {
	return { kind: 'answer', id, code: EnvelopeErrorCodes.InvalidRequest, message: `Invalid Request: ${reason}` };
}

/**
 * The kinds of malformed or unexpected messages an agent can send, each limited
 * on its own in the log and the trace (`rateLimit.ts`): a flood of one kind never
 * hides the first lines of another.
 */
export const MessageKinds = {
	notJson: { what: 'lines from the agent that are not JSON' },
	nestedTooDeep: { what: 'messages from the agent with values nested too deep, replaced by null' },
	invalidRequest: { what: 'invalid JSON-RPC messages from the agent (-32600)' },
	paramsNotStructured: { what: 'requests from the agent with params that are neither an object nor an array (-32602)' },
	invalidParams: { what: 'requests from the agent with invalid params (-32602)' },
	unknownMethod: { what: 'requests from the agent for methods Agent Link does not handle (-32601)' },
	unexpectedResponse: { what: 'responses from the agent to requests Agent Link never sent or already has an answer for' },
	responseWithoutId: { what: 'responses from the agent without an id' },
	badResponse: { what: 'responses from the agent that are not valid JSON-RPC 2.0' },
	badNotification: { what: 'notifications from the agent with params that are neither an object nor an array' },
	invalidNotificationParams: { what: 'notifications from the agent with invalid params' },
	unknownNotification: { what: 'notifications from the agent for methods Agent Link does not handle' },
} as const satisfies Record<string, LimitedKind>;
