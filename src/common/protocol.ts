/**
 * The wire protocol Agent Link speaks: ACP v1 (schema `schema/v1/schema.json` of
 * `@agentclientprotocol/sdk` 2.4.0), newline-delimited JSON-RPC 2.0 over the
 * agent's stdio.
 *
 * Everything here is pure: method names as constants (features never spell a
 * method as a string literal), error codes, and the zod schemas that check what
 * the agent sends before any handler sees it. Types come from the SDK as
 * type-only imports, so they cost nothing at run time; each schema is checked
 * against its SDK type where the shapes line up.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';

/** The ACP protocol version this client speaks. */
export const PROTOCOL_VERSION = 1;

/** ACP method names, as they appear on the wire. */
export const Methods = {
	initialize: 'initialize',
	authenticate: 'authenticate',
	session: {
		new: 'session/new',
		cancel: 'session/cancel',
	},
	/** `$/cancel_request` in both directions (ACP's name, not LSP's `$/cancelRequest`). */
	cancelRequest: '$/cancel_request',
} as const;

/** JSON-RPC error codes ACP uses. */
export const ErrorCodes = {
	ParseError: -32700,
	InvalidRequest: -32600,
	MethodNotFound: -32601,
	InvalidParams: -32602,
	InternalError: -32603,
	AuthRequired: -32000,
	ResourceNotFound: -32002,
	RequestCancelled: -32800,
} as const;

export type InitializeRequest = acp.InitializeRequest;
export type InitializeResponse = acp.InitializeResponse;
export type ClientCapabilities = acp.ClientCapabilities;
export type AgentCapabilities = acp.AgentCapabilities;

/** `_meta` may sit on every ACP object. */
const meta = z.nullish(z.record(z.string(), z.unknown()));

export const implementationSchema = z.looseObject({
	name: z.string(),
	title: z.nullish(z.string()),
	version: z.string(),
	_meta: meta,
});

/**
 * Auth methods as agents send them: `agent` (the default when `type` is absent),
 * `terminal {args, env}`, and `env_var`, which agents in the wild send although
 * the schema does not list it. Unknown types are kept, so the user can still see them.
 */
export const authMethodSchema = z.looseObject({
	id: z.string(),
	name: z.string(),
	description: z.nullish(z.string()),
	type: z.optional(z.string()),
	_meta: meta,
});
export type AuthMethod = z.infer<typeof authMethodSchema>;

export const agentCapabilitiesSchema = z.looseObject({
	loadSession: z.optional(z.boolean()),
	promptCapabilities: z.optional(z.looseObject({})),
	mcpCapabilities: z.optional(z.looseObject({})),
	sessionCapabilities: z.optional(z.looseObject({})),
	_meta: meta,
});

export const initializeResponseSchema = z.looseObject({
	protocolVersion: z.int().check(z.nonnegative()),
	agentCapabilities: z.optional(agentCapabilitiesSchema),
	authMethods: z.optional(z.array(authMethodSchema)),
	agentInfo: z.nullish(implementationSchema),
	_meta: meta,
});
export type ValidatedInitializeResponse = z.infer<typeof initializeResponseSchema>;

export const cancelRequestParamsSchema = z.looseObject({
	requestId: z.union([z.string(), z.number(), z.null()]),
	_meta: meta,
});

/** Formats a zod error as one sentence naming the offending fields, for -32602 replies and logs. */
export function describeZodError(error: { readonly issues: readonly { readonly path: readonly PropertyKey[]; readonly message: string }[] }): string {
	const parts = error.issues.slice(0, 5).map((issue) => {
		const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(params)';
		return `${path}: ${issue.message}`;
	});
	const more = error.issues.length > 5 ? ` (+${error.issues.length - 5} more)` : '';
	return `Invalid params: ${parts.join('; ')}${more}`;
}
