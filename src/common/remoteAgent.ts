/**
 * An agent on another machine, reached over ACP's remote transport (Streamable HTTP or
 * WebSocket): the settings entry's schema, and the rules about its address. Pure.
 *
 * - `url`: `ws://`, `wss://`, `http://` or `https://`; plain `http://` and `ws://` go only to
 *   this machine unless the user confirms the host (remoteAccess.ts keeps the answer).
 * - `headers`: sent on every request; not secret, so names that usually carry a secret are
 *   refused here: the secret is asked for and kept in the editor's secret storage instead.
 * - `authHeader`: the header the secret goes in (default `Authorization`, as `Bearer <secret>`).
 */
import * as z from 'zod/mini';
import type { AgentDefinition } from './config';

/** Header names that carry a secret, and words that say a header does. */
const SECRET_HEADER = /^(authorization|proxy-authorization|cookie)$|token|secret|key|auth|password|credential|session/i;
const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

export const REMOTE_SCHEMES = ['ws:', 'wss:', 'http:', 'https:'] as const;

function parseUrl(text: string): URL | undefined {
	try {
		return new URL(text);
	} catch {
		return undefined;
	}
}

export const remoteAgentDefinitionSchema = z.object({
	url: z.string().check(
		z.trim(),
		z.refine((s) => {
			const url = parseUrl(s);
			return url !== undefined && (REMOTE_SCHEMES as readonly string[]).includes(url.protocol) && url.hostname !== '';
		}, 'url must be a ws://, wss://, http:// or https:// address'),
		z.refine((s) => {
			const url = parseUrl(s);
			return !url || (url.username === '' && url.password === '');
		}, 'url must not hold a user name or password: Agent Link asks for the secret and keeps it in secret storage'),
	),
	headers: z._default(
		z.record(z.string(), z.string()).check(
			z.refine((h) => Object.keys(h).every((name) => HEADER_NAME.test(name)), 'headers: a header name may hold only letters, digits and !#$%&\'*+-.^_`|~'),
			z.refine(
				(h) => !Object.keys(h).some((name) => SECRET_HEADER.test(name)),
				'headers must not hold secrets (Authorization, cookies, tokens, keys): Agent Link asks for the secret once and keeps it in secret storage; name its header in authHeader',
			),
		),
		{},
	),
	authHeader: z._default(z.string().check(z.trim(), z.regex(HEADER_NAME, 'authHeader must be a header name')), 'Authorization'),
});
export type RemoteAgentDefinition = z.infer<typeof remoteAgentDefinitionSchema>;

export function isRemoteDefinition(definition: AgentDefinition): definition is RemoteAgentDefinition {
	return 'url' in definition;
}

export type RemoteProfile = 'websocket' | 'http';

export function remoteProfile(url: string): RemoteProfile {
	return /^wss?:/i.test(url) ? 'websocket' : 'http';
}

/** Whether `hostname` (as `URL.hostname` gives it) is this machine. */
export function isLoopbackHost(hostname: string): boolean {
	const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
	return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(host) || host === '::ffff:127.0.0.1';
}

/** The host a plain-text (`http://`, `ws://`) address goes to when that is not this machine; undefined otherwise. */
export function plainTextRemoteHost(url: string): string | undefined {
	const parsed = parseUrl(url);
	if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'ws:')) {
		return undefined;
	}
	return isLoopbackHost(parsed.hostname) ? undefined : parsed.host.toLowerCase();
}

/** The headers of a request: the entry's, then the secret in its header (`Bearer` for Authorization). */
export function requestHeaders(definition: RemoteAgentDefinition, secret: string | undefined): Record<string, string> {
	const headers: Record<string, string> = { ...definition.headers };
	if (secret) {
		headers[definition.authHeader] = definition.authHeader.toLowerCase() === 'authorization' && !/^\w+\s/.test(secret) ? `Bearer ${secret}` : secret;
	}
	return headers;
}

/** The address without its query and fragment (which may carry a token), for the log and the chat. */
export function describeUrl(url: string): string {
	const parsed = parseUrl(url);
	return parsed ? `${parsed.protocol}//${parsed.host}${parsed.pathname}` : url;
}
