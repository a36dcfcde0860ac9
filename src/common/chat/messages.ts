/**
 * The messages between the chat panel's host (the extension) and its page (the webview),
 * shared by both sides and checked with zod on arrival on both: the page's content is
 * drawn from what agents send, so the host does not trust it either.
 *
 * Three kinds, each a constant with its method name and params schema (like an LSP
 * message type):
 * - commands, page to host: something the user did (`{ method, params }`);
 * - requests, page to host, with an answer (`{ id, method, params }`, answered
 *   `{ id, result }` or `{ id, error }`);
 * - notifications, host to page: state to draw (`{ method, params }`).
 *
 * The host owns the state (tabs, transcripts, pending permissions); the page asks for it
 * with {@link PageRequests.getState} whenever it (re)loads, then follows
 * {@link HostNotifications.didPatchTranscript} patches. Nothing lives only in the page.
 */
import * as z from 'zod/mini';
import { describeZodError } from '../protocol';
import { transcriptPatchSchema, transcriptSnapshotSchema } from './transcriptWire';

// --- Sizes the host accepts from the page ------------------------------------------------------

/** The longest prompt text the page may send, in characters. */
export const MAX_PROMPT_CHARS = 1_000_000;
/** Attachments on one prompt. */
export const MAX_ATTACHMENTS = 64;
/** Base64 characters of one pasted or dropped image (15 MB). */
export const MAX_IMAGE_CHARS = 20_000_000;
/** Code the page asks to copy or insert: at most one transcript entry's text. */
export const MAX_CODE_CHARS = 1_000_000;
/** The end of a terminal's output a page is sent, in characters (the agent may keep more). */
export const MAX_TERMINAL_TEXT_CHARS = 50_000;
/** Ids, keys, paths, names and other short strings. */
const MAX_SHORT = 32_768;

const short = z.string().check(z.maxLength(MAX_SHORT));
const key = z.string().check(z.minLength(1), z.maxLength(256));
const count = z.int().check(z.nonnegative());

// --- Message types -------------------------------------------------------------------------------

export interface CommandType<M extends string, P> {
	readonly kind: 'command';
	readonly method: M;
	readonly params: z.ZodMiniType<P>;
}

export interface RequestType<M extends string, P, R> {
	readonly kind: 'request';
	readonly method: M;
	readonly params: z.ZodMiniType<P>;
	readonly result: z.ZodMiniType<R>;
}

export interface NotificationType<M extends string, P> {
	readonly kind: 'notification';
	readonly method: M;
	readonly params: z.ZodMiniType<P>;
}

function command<M extends string, P>(method: M, params: z.ZodMiniType<P>): CommandType<M, P> {
	return { kind: 'command', method, params };
}

function request<M extends string, P, R>(method: M, params: z.ZodMiniType<P>, result: z.ZodMiniType<R>): RequestType<M, P, R> {
	return { kind: 'request', method, params, result };
}

function notification<M extends string, P>(method: M, params: z.ZodMiniType<P>): NotificationType<M, P> {
	return { kind: 'notification', method, params };
}

// --- The panel's state ------------------------------------------------------------------------------

export const AGENT_STATUSES = ['stopped', 'starting', 'running', 'restarting', 'failed'] as const;
export type AgentStatus = (typeof AGENT_STATUSES)[number];

/** An agent chats can be opened with, and how its process is doing. */
export const agentInfoSchema = z.object({ id: key, name: z.string(), status: z.enum(AGENT_STATUSES), detail: z.optional(z.string()) });
export type AgentInfo = z.infer<typeof agentInfoSchema>;

/** How to sign in to an agent (`authMethods` of `initialize`); `type`: `agent` (the default), `terminal`, `env_var` or another. */
export const authMethodInfoSchema = z.object({ id: z.string(), name: z.string(), description: z.optional(z.string()), type: z.optional(z.string()) });

/**
 * A chat tab. `starting`: `session/new` (or, from history, `session/resume` or `load`) in flight;
 * `auth_required`: the agent asked for sign-in (`authMethods` says how); `ended`: the conversation
 * is over; `failed`: the session could not be created (`detail` says why); `stored`: a chat from
 * history, drawn from what was stored, that goes on with its agent when the user sends a message;
 * `read_only`: a chat from history its agent cannot go on with (`detail` says why). Its title is
 * its transcript's.
 */
export const tabSchema = z.object({
	sessionKey: key,
	agentId: key,
	agentName: z.string(),
	state: z.enum(['starting', 'ready', 'auth_required', 'ended', 'failed', 'stored', 'read_only']),
	detail: z.optional(z.string()),
	authMethods: z.optional(z.array(authMethodInfoSchema)),
	/** What the agent accepts in a prompt besides text and resource links. */
	promptCapabilities: z.object({ image: z.boolean(), audio: z.boolean(), embeddedContext: z.boolean() }),
	/**
	 * Files this chat's agent changed and the user has not kept or undone yet: `deleted` when the
	 * agent deleted it, `note` when it cannot be shown or undone (why).
	 */
	changes: z.optional(
		z.array(z.object({ path: z.string(), name: z.string(), added: count, removed: count, created: z.boolean(), deleted: z.optional(z.boolean()), note: z.optional(z.string()) })),
	),
	/** The turns that changed files, by the id of their end in the transcript: how many files, and whether they were undone (Undo this turn). */
	turns: z.optional(z.array(z.object({ id: count, files: count, undone: z.optional(z.boolean()) }))),
	/** Undo this turn asks first: what goes back and what is left alone (`canUndo` false: nothing can, and why). */
	undoAsk: z.optional(z.object({ turnId: count, title: z.string(), lines: z.array(z.string()), canUndo: z.boolean() })),
	/** Follow mode: each file the agent reads or edits is revealed as it happens. */
	follow: z.optional(z.boolean()),
	/** What the input starts with in a new tab (a chat that goes on from one that cannot: a link to its transcript). */
	seed: z.optional(z.object({ text: z.string().check(z.maxLength(MAX_PROMPT_CHARS)), attachments: z.array(z.lazy(() => attachmentSchema)).check(z.maxLength(MAX_ATTACHMENTS)) })),
});
export type Tab = z.infer<typeof tabSchema>;

export const chatStateSchema = z.object({
	tabs: z.array(tabSchema),
	/** The tab shown. */
	selected: z.optional(key),
	agents: z.array(agentInfoSchema),
	/** The agent a new chat uses unless the user picks another (**Select Agent**). */
	defaultAgent: z.optional(key),
	/**
	 * Tabs' transcripts, by session key: every tab's in the answer to `getState`; in
	 * `didChangeState`, only those the page does not have at their current revision (it keeps
	 * its copy of the others and goes on applying their patches).
	 */
	transcripts: z.record(z.string(), transcriptSnapshotSchema),
});
export type ChatState = z.infer<typeof chatStateSchema>;

// --- What the page sends ----------------------------------------------------------------------------

/** 1-based, inclusive. */
const linesSchema = z.object({ start: z.int().check(z.positive()), end: z.int().check(z.positive()) }).check(z.refine((l) => l.start <= l.end, { message: 'start must not be after end' }));

/**
 * Something added to a prompt: a file (or lines of it: the active selection), a folder, a
 * symbol, or a pasted or dropped image. The host turns them into embedded resources or
 * resource links as the agent's prompt capabilities allow.
 */
export const attachmentSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('file'), path: short, lines: z.optional(linesSchema) }),
	z.object({ type: z.literal('folder'), path: short }),
	z.object({ type: z.literal('symbol'), path: short, name: short, lines: linesSchema }),
	z.object({
		type: z.literal('image'),
		mimeType: z.string().check(z.regex(/^image\/[\w.+-]+$/, { message: 'expected an image MIME type' })),
		data: z.string().check(z.maxLength(MAX_IMAGE_CHARS), z.regex(/^[A-Za-z0-9+/]*={0,2}$/, { message: 'expected base64' })),
		name: z.optional(short),
	}),
	// An OpenCtx provider's mention (its items are fetched when the prompt is sent), or, with
	// `message`, a provider whose message selectors matched what was written.
	z.object({
		type: z.literal('openctx'),
		provider: short,
		providerName: short,
		title: short,
		uri: short,
		description: z.optional(short),
		data: z.optional(z.record(z.string(), z.unknown())),
		message: z.optional(z.boolean()),
	}),
]);
export type Attachment = z.infer<typeof attachmentSchema>;

/** A choice of the @-mention picker. */
export const mentionSchema = z.object({ label: z.string(), detail: z.optional(z.string()), group: z.optional(z.string()), attachment: attachmentSchema });
export type Mention = z.infer<typeof mentionSchema>;

const session = { sessionKey: key };
const empty = z.object({});

/** What the user did in the page. */
export const PageCommands = {
	/** A new chat tab, with the given agent, or the default one, or (`pick`) the one the user picks. */
	newChat: command('chat/newChat', z.object({ agentId: z.optional(key), pick: z.optional(z.boolean()) })),
	sendPrompt: command(
		'chat/sendPrompt',
		z.object({ ...session, text: z.string().check(z.maxLength(MAX_PROMPT_CHARS)), attachments: z.array(attachmentSchema).check(z.maxLength(MAX_ATTACHMENTS)) }),
	),
	/** Stop the turn (`session/cancel`); pending permission prompts are answered `cancelled`. */
	cancel: command('chat/cancel', z.object(session)),
	answerPermission: command('chat/answerPermission', z.object({ ...session, requestId: key, optionId: short })),
	/** The user's answer to an elicitation: the form's content with `accept` (checked again by the host); a URL's `accept` opens it. */
	answerElicitation: command(
		'chat/answerElicitation',
		z.object({
			...session,
			requestId: key,
			action: z.enum(['accept', 'decline', 'cancel']),
			content: z.optional(z.record(short, z.union([z.string().check(z.maxLength(MAX_PROMPT_CHARS)), z.number(), z.boolean(), z.array(short).check(z.maxLength(256))]))),
		}),
	),
	/** `session/set_config_option`. */
	setConfigOption: command('chat/setConfigOption', z.object({ ...session, configId: short, value: z.union([short, z.boolean()]) })),
	/** `session/set_mode`, for agents with modes and no config options. */
	setMode: command('chat/setMode', z.object({ ...session, modeId: short })),
	/** Sign in with one of the tab's `authMethods`, then retry. */
	authenticate: command('chat/authenticate', z.object({ ...session, methodId: short })),
	/** Not now: the request that needed the sign-in fails with the agent's answer. */
	dismissSignIn: command('chat/dismissSignIn', z.object(session)),
	selectTab: command('chat/selectTab', z.object(session)),
	/** Close a tab and end its session. */
	closeTab: command('chat/closeTab', z.object(session)),
	/** Open the review of a file the agent changed (the file itself when nothing is left to review). */
	reviewFile: command('chat/reviewFile', z.object({ ...session, path: short })),
	/** Keep the agent's changes: to one file, or all of this chat's. */
	keepChanges: command('chat/keepChanges', z.object({ ...session, path: z.optional(short) })),
	/** Undo the agent's changes: to one file, or all of this chat's. */
	undoChanges: command('chat/undoChanges', z.object({ ...session, path: z.optional(short) })),
	/** Undo this turn: the host asks what it would do (the tab's `undoAsk`). */
	undoTurn: command('chat/undoTurn', z.object({ ...session, turnId: count })),
	/** The answer to `undoAsk`: every file the turn changed goes back (`undo`), or nothing happens. */
	answerUndoTurn: command('chat/answerUndoTurn', z.object({ ...session, turnId: count, undo: z.boolean() })),
	/** Follow mode on or off. */
	setFollow: command('chat/setFollow', z.object({ ...session, on: z.boolean() })),
	/** **Chat History…**: pick a stored chat (or one the agent keeps) to open. */
	openHistory: command('chat/openHistory', empty),
	/** A new chat with the tab's agent and folder, its input holding a link to this (read-only) chat's transcript. */
	continueInNewChat: command('chat/continueInNewChat', z.object(session)),
	/** Open a file a tool call names, at a line when it has one. */
	openLocation: command('chat/openLocation', z.object({ path: short, line: z.optional(count) })),
	copy: command('chat/copy', z.object({ code: z.string().check(z.maxLength(MAX_CODE_CHARS)) })),
	insertAtCursor: command('chat/insertAtCursor', z.object({ code: z.string().check(z.maxLength(MAX_CODE_CHARS)) })),
	/** Show a terminal of a tool call as a VS Code terminal, fed by the same process. */
	openTerminal: command('chat/openTerminal', z.object({ ...session, terminalId: key })),
	/** The page was asked to focus its input only if it has the keyboard, and has not: the host shows the chat (VS Code focusing it) and asks again. */
	showChat: command('chat/showChat', empty),
} as const;

/**
 * The page's own life, not the user's: `started` is sent by a line of the page's document itself,
 * before its script has loaded, so the host knows the webview is there and its script on the way
 * (a page on a busy machine may take seconds more to ask for its state; a blank one never does).
 */
export const PageLifecycle = {
	started: command('chat/pageStarted', z.object({ load: z.optional(z.string().check(z.maxLength(64))) })),
	/** The page got the keyboard (its window was focused, or had the keyboard as it started). */
	focused: command('chat/pageFocused', empty),
} as const;

/** What the page asks the host, with an answer. */
export const PageRequests = {
	/**
	 * Everything to draw, asked for whenever the page (re)loads. `load` is the id the host wrote into
	 * this load of the page: a request from a page the host has loaded again since is not answered.
	 */
	getState: request('chat/getState', z.object({ load: z.optional(z.string().check(z.maxLength(64))) }), chatStateSchema),
	/** Files, folders and symbols matching what the user typed after `@`. */
	searchMentions: request('chat/searchMentions', z.object({ ...session, query: z.string().check(z.maxLength(1_000)) }), z.object({ items: z.array(mentionSchema) })),
	/** Context to offer for what is being written: OpenCtx providers whose message selectors match it. */
	suggestContext: request('chat/suggestContext', z.object({ ...session, text: z.string().check(z.maxLength(MAX_PROMPT_CHARS)) }), z.object({ items: z.array(mentionSchema) })),
	/** The active editor's selection, or its file when nothing is selected; `null` without an editor. */
	activeEditorAttachment: request('chat/activeEditorAttachment', z.object(session), z.object({ attachment: z.nullable(attachmentSchema) })),
} as const;

// --- What the host sends -----------------------------------------------------------------------------

/** What the host tells the page. */
export const HostNotifications = {
	/** Everything, as `getState` answers; sent when tabs open, close or change state. */
	didChangeState: notification('chat/didChangeState', chatStateSchema),
	/** A transcript moved on: apply to the page's copy at `patch.from`, else ask `getState`. */
	didPatchTranscript: notification('chat/didPatchTranscript', z.object({ ...session, patch: transcriptPatchSchema })),
	didChangeAgentStatus: notification('chat/didChangeAgentStatus', z.object({ agentId: key, status: z.enum(AGENT_STATUSES), detail: z.optional(z.string()) })),
	/** Something to tell the user in the panel (an image the agent cannot take, a failed command). */
	didShowNotice: notification('chat/didShowNotice', z.object({ severity: z.enum(['info', 'warning', 'error']), message: z.string(), sessionKey: z.optional(key) })),
	/**
	 * A terminal the agent runs a command in (`terminal/create`), as a tool call shows it: the end of
	 * its output as plain text, whether earlier output was left out, how it ended; `released`: the
	 * agent is done with it. Sent at most every 50 ms per terminal while it writes, and for every
	 * terminal after `getState`.
	 */
	didUpdateTerminal: notification(
		'chat/didUpdateTerminal',
		z.object({
			...session,
			terminalId: key,
			command: z.string().check(z.maxLength(MAX_SHORT)),
			output: z.string().check(z.maxLength(MAX_TERMINAL_TEXT_CHARS)),
			truncated: z.boolean(),
			exitStatus: z.optional(z.object({ exitCode: z.nullable(z.int()), signal: z.nullable(z.string().check(z.maxLength(64))) })),
			released: z.boolean(),
		}),
	),
	/** Move focus to a tab's input (**New Chat**, **Focus Chat**). */
	focusInput: notification('chat/focusInput', z.object({ sessionKey: z.optional(key), ifFocused: z.optional(z.boolean()) })),
} as const;

export type ParamsOf<T> = T extends { readonly params: z.ZodMiniType<infer P> } ? P : never;
export type ResultOf<T> = T extends RequestType<string, unknown, infer R> ? R : never;

// --- Encoding and decoding -----------------------------------------------------------------------------

/** A message as posted, before it is checked. */
export type WireMessage = { method: string; params: unknown; id?: number } | { id: number; result: unknown } | { id: number; error: string };

export function encodeCommand<M extends string, P>(type: CommandType<M, P>, params: P): WireMessage {
	return { method: type.method, params };
}

export function encodeRequest<M extends string, P, R>(type: RequestType<M, P, R>, id: number, params: P): WireMessage {
	return { id, method: type.method, params };
}

export function encodeNotification<M extends string, P>(type: NotificationType<M, P>, params: P): WireMessage {
	return { method: type.method, params };
}

export function encodeResult<M extends string, P, R>(_type: RequestType<M, P, R>, id: number, result: R): WireMessage {
	return { id, result };
}

export function encodeError(id: number, message: string): WireMessage {
	return { id, error: message };
}

type Table = Record<string, CommandType<string, unknown> | RequestType<string, unknown, unknown> | NotificationType<string, unknown>>;

/** A checked message of a table: `method` tells the params' type. */
type Decoded<T extends Table> = {
	[K in keyof T]: T[K] extends RequestType<infer M, infer P, unknown>
		? { readonly kind: 'request'; readonly id: number; readonly method: M; readonly params: P }
		: T[K] extends CommandType<infer M, infer P>
			? { readonly kind: 'command'; readonly method: M; readonly params: P }
			: T[K] extends NotificationType<infer M, infer P>
				? { readonly kind: 'notification'; readonly method: M; readonly params: P }
				: never;
}[keyof T];

/** A message that failed its check; `id` when it was a request, so the sender can be answered. */
export interface Invalid {
	readonly kind: 'invalid';
	readonly id?: number;
	readonly error: string;
}

const envelopeSchema = z.object({ method: z.string(), params: z.optional(z.unknown()), id: z.optional(z.int()) });
const responseSchema = z.union([z.object({ id: z.int(), result: z.unknown() }), z.object({ id: z.int(), error: z.string() })]);

function byMethod<T extends Table>(table: T): Map<string, T[keyof T]> {
	return new Map(Object.values(table).map((type) => [type.method, type as T[keyof T]]));
}

function decode<T extends Table>(types: Map<string, T[keyof T]>, raw: unknown, side: string): Decoded<T> | Invalid {
	const envelope = envelopeSchema.safeParse(raw);
	if (!envelope.success) {
		return { kind: 'invalid', error: `Not a ${side} message: ${describeZodError(envelope.error)}` };
	}
	const { method, params, id } = envelope.data;
	const type = types.get(method);
	const asRequest = id !== undefined;
	if (!type || (type.kind === 'request') !== asRequest) {
		return withId({ kind: 'invalid', error: `Unknown ${side} ${asRequest ? 'request' : 'message'} ${JSON.stringify(method)}` }, id);
	}
	const parsed = type.params.safeParse(params ?? {});
	if (!parsed.success) {
		return withId({ kind: 'invalid', error: `${method}: ${describeZodError(parsed.error)}` }, id);
	}
	const decoded = asRequest ? { kind: type.kind, id, method, params: parsed.data } : { kind: type.kind, method, params: parsed.data };
	return decoded as Decoded<T>;
}

function withId(invalid: { kind: 'invalid'; error: string }, id: number | undefined): Invalid {
	return id === undefined ? invalid : { ...invalid, id };
}

const fromPage = byMethod({ ...PageCommands, ...PageRequests, ...PageLifecycle });
const fromHost = byMethod(HostNotifications);

/** Checks a message from the page (host side). */
export function decodePageMessage(raw: unknown): Decoded<typeof PageCommands & typeof PageRequests & typeof PageLifecycle> | Invalid {
	return decode(fromPage, raw, 'page');
}

/** Checks a notification from the host (page side). Answers to requests go through {@link decodeResponse}. */
export function decodeHostNotification(raw: unknown): Decoded<typeof HostNotifications> | Invalid {
	return decode(fromHost, raw, 'host');
}

/** Whether a message from the host is an answer to a request (rather than a notification). */
export function isResponse(raw: unknown): raw is { id: number } {
	return typeof raw === 'object' && raw !== null && typeof (raw as { id?: unknown }).id === 'number' && !('method' in raw);
}

/** Checks the host's answer to a request of the given type (page side). */
export function decodeResponse<M extends string, P, R>(type: RequestType<M, P, R>, raw: unknown): { readonly ok: true; readonly id: number; readonly result: R } | { readonly ok: false; readonly id?: number; readonly error: string } {
	const response = responseSchema.safeParse(raw);
	if (!response.success) {
		return { ok: false, error: `Not an answer: ${describeZodError(response.error)}` };
	}
	const { id } = response.data;
	if ('error' in response.data) {
		return { ok: false, id, error: response.data.error };
	}
	const result = type.result.safeParse(response.data.result);
	return result.success ? { ok: true, id, result: result.data } : { ok: false, id, error: `${type.method} answer: ${describeZodError(result.error)}` };
}
