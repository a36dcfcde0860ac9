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

/**
 * ACP method names, as they appear on the wire, grouped by their prefix (the
 * SDK's `methods` groups them by side instead; `_MethodsMatchTheSdk` below checks
 * each against it). Requests the agent makes of the client are marked.
 */
export const Methods = {
	initialize: 'initialize',
	authenticate: 'authenticate',
	/** Signs out of the agent (`agentCapabilities.auth.logout`). */
	logout: 'logout',
	session: {
		new: 'session/new',
		load: 'session/load',
		resume: 'session/resume',
		close: 'session/close',
		/** Sessions the agent keeps, a page at a time (`sessionCapabilities.list`). */
		list: 'session/list',
		/** `sessionCapabilities.delete`. */
		delete: 'session/delete',
		prompt: 'session/prompt',
		/** A notification. */
		cancel: 'session/cancel',
		setMode: 'session/set_mode',
		setConfigOption: 'session/set_config_option',
		/** Agent to client, a notification: what the chat renders (`src/common/chat/updates.ts`). */
		update: 'session/update',
		/** Agent to client. */
		requestPermission: 'session/request_permission',
	},
	fs: {
		/** Agent to client. */
		readTextFile: 'fs/read_text_file',
		/** Agent to client. */
		writeTextFile: 'fs/write_text_file',
	},
	/** Agent to client, all of them: terminals the agent runs commands in (`src/common/terminalProtocol.ts`). */
	terminal: {
		create: 'terminal/create',
		output: 'terminal/output',
		release: 'terminal/release',
		waitForExit: 'terminal/wait_for_exit',
		kill: 'terminal/kill',
	},
	/** Agent to client: input asked of the user, as a form or a URL (`src/common/chat/elicitationRequest.ts`). */
	elicitation: {
		create: 'elicitation/create',
		/** A notification: a URL elicitation is done. */
		complete: 'elicitation/complete',
	},
	/** `$/cancel_request` in both directions (ACP's name, not LSP's `$/cancelRequest`). */
	cancelRequest: '$/cancel_request',
} as const;

// Compile-time check that every name above is spelled as the SDK spells it.
type SdkMethods = typeof acp.methods;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type IsTrue<T extends true> = T;
export type _MethodsMatchTheSdk = IsTrue<
	[
		Same<typeof Methods.initialize, SdkMethods['agent']['initialize']>,
		Same<typeof Methods.authenticate, SdkMethods['agent']['authenticate']>,
		Same<typeof Methods.logout, SdkMethods['agent']['logout']>,
		Same<Omit<typeof Methods.session, 'update' | 'requestPermission'>, Pick<SdkMethods['agent']['session'], 'new' | 'load' | 'resume' | 'close' | 'list' | 'delete' | 'prompt' | 'cancel' | 'setMode' | 'setConfigOption'>>,
		Same<Pick<typeof Methods.session, 'update' | 'requestPermission'>, SdkMethods['client']['session']>,
		Same<typeof Methods.fs, SdkMethods['client']['fs']>,
		Same<typeof Methods.terminal, SdkMethods['client']['terminal']>,
		Same<typeof Methods.elicitation, SdkMethods['client']['elicitation']>,
		Same<typeof Methods.cancelRequest, SdkMethods['protocol']['cancelRequest']>,
	] extends true[]
		? true
		: false
>;

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

/** The parts of a zod issue `describeZodError` reads. */
interface DescribedIssue {
	readonly path: readonly PropertyKey[];
	readonly message: string;
	readonly code?: string;
	readonly expected?: unknown;
	readonly values?: readonly unknown[];
	readonly options?: readonly unknown[];
	readonly minimum?: unknown;
	readonly maximum?: unknown;
}

/** Formats a zod error as one sentence naming the offending fields, for -32602 replies and logs. */
export function describeZodError(error: { readonly issues: readonly DescribedIssue[] }): string {
	const parts = error.issues.slice(0, 5).map((issue) => {
		const path = issue.path.length > 0 ? issue.path.map(String).join('.') : '(params)';
		return `${path}: ${issueText(issue)}`;
	});
	const more = error.issues.length > 5 ? ` (+${error.issues.length - 5} more)` : '';
	return `Invalid params: ${parts.join('; ')}${more}`;
}

/**
 * zod/mini carries no English messages (they would weigh on the webview bundle): a check
 * without a message of its own says only "Invalid input". This spells out what was expected.
 */
function issueText(issue: DescribedIssue): string {
	if (issue.message !== 'Invalid input') {
		return issue.message;
	}
	switch (issue.code) {
		case 'invalid_type':
			return issue.expected === undefined ? issue.message : `expected ${String(issue.expected)}`;
		case 'invalid_value':
			return issue.values ? `expected ${issue.values.map((v) => JSON.stringify(v)).join(' or ')}` : issue.message;
		case 'too_small':
			return `too small (minimum ${String(issue.minimum)})`;
		case 'too_big':
			return `too big (maximum ${String(issue.maximum)})`;
		case 'invalid_union':
			// A discriminated union lists the tags it knows.
			return issue.options ? `expected ${issue.options.map((v) => JSON.stringify(v)).join(' or ')}` : 'matches none of the allowed shapes';
		default:
			return issue.message;
	}
}
