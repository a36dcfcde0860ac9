/**
 * What an ACP agent sends a chat: the stable `session/update` variants, the
 * content they carry, permission requests, and the answers to the session
 * requests the chat makes. ACP v1 as `schema/v1/schema.json` of
 * `@agentclientprotocol/sdk` 2.4.0 defines it
 * (https://agentclientprotocol.com/protocol/v1/prompt-turn).
 *
 * Parsing follows the schema's own leniency marks: a field marked
 * `x-deserialize-default-on-error` that holds a wrong value reads as absent
 * instead of failing the whole message, and a list marked
 * `x-deserialize-skip-invalid-items` loses its bad items only. Required fields
 * stay required, so a malformed update is rejected with an error that names
 * the field. Unknown fields are ignored, and a variant this client does not
 * know (an unstable one, or one added after 2.4.0) parses as
 * `{ sessionUpdate: 'unknown' }` (likewise content blocks and tool call
 * content as `{ type: 'unknown' }`), so a newer agent is never answered
 * with an error for something the chat may simply skip.
 *
 * This module is bundled into the webview too: it imports the SDK as types only.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';

// --- Building blocks --------------------------------------------------------------------------

/**
 * A field the schema marks `x-deserialize-default-on-error`: a value of the wrong shape reads
 * as absent. Absent and `null` stay distinct where the schema gives `null` a meaning.
 */
function lenient<S extends z.ZodMiniType>(schema: S) {
	return z.catch(z.optional(schema), undefined);
}

/** A list the schema marks `x-deserialize-skip-invalid-items`: items of the wrong shape are dropped. */
function list<S extends z.ZodMiniType>(item: S) {
	return z.pipe(
		z.array(z.unknown()),
		z.transform((items: unknown[]) => {
			const kept: z.output<S>[] = [];
			for (const raw of items) {
				const parsed = item.safeParse(raw);
				if (parsed.success) {
					kept.push(parsed.data as z.output<S>);
				}
			}
			return kept;
		}),
	);
}

type Outputs<V extends Record<string, z.ZodMiniType>> = { [K in keyof V]: z.output<V[K]> }[keyof V];

/**
 * A union told apart by a string tag. A known tag is checked by its variant's schema, whose
 * issues are reported with their full path (`update.toolCallId: expected string`); an unknown
 * tag becomes `unknown(tag)` instead of an error.
 */
function tagged<K extends string, V extends Record<string, z.ZodMiniType>, U>(key: K, variants: V, unknown: (tag: string) => U) {
	return z.pipe(
		z.looseObject({ [key]: z.string() }) as z.ZodMiniType<Record<string, unknown>>,
		z.transform((value: Record<string, unknown>, ctx): Outputs<V> | U => {
			const tag = value[key] as string;
			const variant = Object.hasOwn(variants, tag) ? variants[tag] : undefined;
			if (variant === undefined) {
				return unknown(tag);
			}
			const parsed = variant.safeParse(value);
			if (!parsed.success) {
				for (const issue of parsed.error.issues) {
					ctx.issues.push({ ...issue, input: undefined } as (typeof ctx.issues)[number]);
				}
				return z.NEVER;
			}
			return parsed.data as Outputs<V>;
		}),
	);
}

/** `_meta` may sit on every ACP object; nothing here reads it. */
const meta = lenient(z.nullish(z.record(z.string(), z.unknown())));
const optionalString = lenient(z.nullish(z.string()));
/** A count ACP sends as u32/u64: a non-negative integer (beyond 2^53 it is already rounded by JSON.parse). */
const count = z.number().check(z.nonnegative());

// --- Content (https://agentclientprotocol.com/protocol/v1/content) ---------------------------

const annotations = lenient(z.nullish(z.looseObject({})));

export const textContentSchema = z.looseObject({ type: z.literal('text'), text: z.string(), annotations, _meta: meta });
export const imageContentSchema = z.looseObject({ type: z.literal('image'), data: z.string(), mimeType: z.string(), uri: optionalString, annotations, _meta: meta });
export const audioContentSchema = z.looseObject({ type: z.literal('audio'), data: z.string(), mimeType: z.string(), annotations, _meta: meta });
export const resourceLinkSchema = z.looseObject({
	type: z.literal('resource_link'),
	uri: z.string(),
	name: z.string(),
	title: optionalString,
	description: optionalString,
	mimeType: optionalString,
	size: lenient(z.nullish(count)),
	annotations,
	_meta: meta,
});
const textResourceSchema = z.looseObject({ uri: z.string(), text: z.string(), mimeType: optionalString, _meta: meta });
const blobResourceSchema = z.looseObject({ uri: z.string(), blob: z.string(), mimeType: optionalString, _meta: meta });
export const embeddedResourceSchema = z.looseObject({
	type: z.literal('resource'),
	resource: z.union([textResourceSchema, blobResourceSchema]),
	annotations,
	_meta: meta,
});

/** A content block type this client does not know. */
export interface UnknownContent {
	readonly type: 'unknown';
	/** The `type` the agent sent. */
	readonly variant: string;
}
const unknownContent = (variant: string): UnknownContent => ({ type: 'unknown', variant });

/** `ContentBlock`: text, image, audio, resource link, embedded resource. */
export const contentBlockSchema = tagged(
	'type',
	{ text: textContentSchema, image: imageContentSchema, audio: audioContentSchema, resource_link: resourceLinkSchema, resource: embeddedResourceSchema },
	unknownContent,
);
export type ContentBlock = z.infer<typeof contentBlockSchema>;
export type KnownContentBlock = Exclude<ContentBlock, UnknownContent>;

// --- Tool calls (https://agentclientprotocol.com/protocol/v1/tool-calls) ---------------------

export const TOOL_KINDS = ['read', 'edit', 'delete', 'move', 'search', 'execute', 'think', 'fetch', 'switch_mode', 'other'] as const;
export const TOOL_CALL_STATUSES = ['pending', 'in_progress', 'completed', 'failed'] as const;
export type ToolKind = (typeof TOOL_KINDS)[number];
export type ToolCallStatus = (typeof TOOL_CALL_STATUSES)[number];
const toolKindSchema = z.enum(TOOL_KINDS);
const toolCallStatusSchema = z.enum(TOOL_CALL_STATUSES);

/** `ToolCallContent`: a content block, a diff (`oldText` absent or null for a new file), or a terminal made with `terminal/create`. */
export const toolCallContentSchema = tagged(
	'type',
	{
		content: z.looseObject({ type: z.literal('content'), content: contentBlockSchema, _meta: meta }),
		diff: z.looseObject({ type: z.literal('diff'), path: z.string(), oldText: optionalString, newText: z.string(), _meta: meta }),
		terminal: z.looseObject({ type: z.literal('terminal'), terminalId: z.string(), _meta: meta }),
	},
	unknownContent,
);
export type ToolCallContent = z.infer<typeof toolCallContentSchema>;

/** A file a tool call works on; `line` as the agent sent it. */
export const toolCallLocationSchema = z.looseObject({ path: z.string(), line: lenient(z.nullish(z.int().check(z.nonnegative()))), _meta: meta });
export type ToolCallLocation = z.infer<typeof toolCallLocationSchema>;

const toolCallShape = {
	toolCallId: z.string(),
	title: z.string(),
	name: optionalString,
	kind: lenient(toolKindSchema),
	status: lenient(toolCallStatusSchema),
	content: lenient(list(toolCallContentSchema)),
	locations: lenient(list(toolCallLocationSchema)),
	rawInput: z.optional(z.unknown()),
	rawOutput: z.optional(z.unknown()),
	_meta: meta,
};

/** `ToolCallUpdate`: every field but the id may be absent (or null), meaning unchanged; `content` and `locations` replace the lists. */
const toolCallUpdateShape = {
	toolCallId: z.string(),
	title: optionalString,
	name: optionalString,
	kind: lenient(z.nullish(toolKindSchema)),
	status: lenient(z.nullish(toolCallStatusSchema)),
	content: lenient(z.nullish(list(toolCallContentSchema))),
	locations: lenient(z.nullish(list(toolCallLocationSchema))),
	rawInput: z.optional(z.unknown()),
	rawOutput: z.optional(z.unknown()),
	_meta: meta,
};
export const toolCallUpdateSchema = z.looseObject(toolCallUpdateShape);
export type ToolCallUpdate = z.infer<typeof toolCallUpdateSchema>;

// --- Session state carried by updates and responses --------------------------------------------

export const PLAN_ENTRY_PRIORITIES = ['high', 'medium', 'low'] as const;
export const PLAN_ENTRY_STATUSES = ['pending', 'in_progress', 'completed'] as const;
export const planEntrySchema = z.looseObject({
	content: z.string(),
	priority: z.enum(PLAN_ENTRY_PRIORITIES),
	status: z.enum(PLAN_ENTRY_STATUSES),
	_meta: meta,
});
export type PlanEntry = z.infer<typeof planEntrySchema>;

/** A slash command; `input.hint` says what to type after it. */
export const availableCommandSchema = z.looseObject({
	name: z.string(),
	description: z.string(),
	input: lenient(z.nullish(z.looseObject({ hint: z.string(), _meta: meta }))),
	_meta: meta,
});
export type AvailableCommand = z.infer<typeof availableCommandSchema>;

export const sessionModeSchema = z.looseObject({ id: z.string(), name: z.string(), description: optionalString, _meta: meta });
export const sessionModeStateSchema = z.looseObject({ currentModeId: z.string(), availableModes: list(sessionModeSchema), _meta: meta });
export type SessionMode = z.infer<typeof sessionModeSchema>;
export type SessionModeState = z.infer<typeof sessionModeStateSchema>;

const configSelectOptionSchema = z.looseObject({ value: z.string(), name: z.string(), description: optionalString, _meta: meta });
const configSelectGroupSchema = z.looseObject({ group: z.string(), name: z.string(), options: list(configSelectOptionSchema), _meta: meta });
const configOptionBase = {
	id: z.string(),
	name: z.string(),
	description: optionalString,
	/** `mode`, `model`, `model_config`, `thought_level`, or any other string. */
	category: optionalString,
	_meta: meta,
};

/** A session config option (model, mode, thought level, ...): a select, flat or grouped, or a boolean. */
export const sessionConfigOptionSchema = tagged(
	'type',
	{
		select: z.looseObject({
			type: z.literal('select'),
			...configOptionBase,
			currentValue: z.string(),
			options: z.union([z.array(configSelectOptionSchema), z.array(configSelectGroupSchema)]),
		}),
		boolean: z.looseObject({ type: z.literal('boolean'), ...configOptionBase, currentValue: z.boolean() }),
	},
	unknownContent,
);
export type SessionConfigOption = z.infer<typeof sessionConfigOptionSchema>;
export type KnownSessionConfigOption = Exclude<SessionConfigOption, UnknownContent>;

// --- session/update ------------------------------------------------------------------------------

const contentChunk = { content: contentBlockSchema, messageId: optionalString, _meta: meta };

/** The stable variants of `session/update`, by their `sessionUpdate` tag. */
const updateVariants = {
	user_message_chunk: z.looseObject({ sessionUpdate: z.literal('user_message_chunk'), ...contentChunk }),
	agent_message_chunk: z.looseObject({ sessionUpdate: z.literal('agent_message_chunk'), ...contentChunk }),
	agent_thought_chunk: z.looseObject({ sessionUpdate: z.literal('agent_thought_chunk'), ...contentChunk }),
	tool_call: z.looseObject({ sessionUpdate: z.literal('tool_call'), ...toolCallShape }),
	tool_call_update: z.looseObject({ sessionUpdate: z.literal('tool_call_update'), ...toolCallUpdateShape }),
	/** The whole plan each time; it replaces the one before. */
	plan: z.looseObject({ sessionUpdate: z.literal('plan'), entries: list(planEntrySchema), _meta: meta }),
	available_commands_update: z.looseObject({ sessionUpdate: z.literal('available_commands_update'), availableCommands: list(availableCommandSchema), _meta: meta }),
	current_mode_update: z.looseObject({ sessionUpdate: z.literal('current_mode_update'), currentModeId: z.string(), _meta: meta }),
	config_option_update: z.looseObject({ sessionUpdate: z.literal('config_option_update'), configOptions: list(sessionConfigOptionSchema), _meta: meta }),
	/** Absent fields are unchanged, `null` clears. */
	session_info_update: z.looseObject({ sessionUpdate: z.literal('session_info_update'), title: optionalString, updatedAt: optionalString, _meta: meta }),
	/** Tokens in context (`used`) out of the window (`size`), and the session's cost so far. */
	usage_update: z.looseObject({
		sessionUpdate: z.literal('usage_update'),
		used: count,
		size: count,
		cost: lenient(z.nullish(z.looseObject({ amount: z.number(), currency: z.string(), _meta: meta }))),
		_meta: meta,
	}),
	/** Only sent to a client that advertised `session.notices`. `severity`: info, warning, error or another string. */
	notice: z.looseObject({ sessionUpdate: z.literal('notice'), severity: z.string(), title: z.string().check(z.minLength(1)), description: optionalString, _meta: meta }),
	/**
	 * Only with `session.compaction`. An upsert by `compactionId`; `summary` and `error` are
	 * patches (absent: unchanged, `null` or `[]`: cleared).
	 */
	compaction_update: z.looseObject({
		sessionUpdate: z.literal('compaction_update'),
		compactionId: z.string(),
		/** `in_progress`, `completed`, `failed`, `cancelled` or another string. */
		status: z.string(),
		summary: lenient(z.nullish(list(contentBlockSchema))),
		error: optionalString,
		_meta: meta,
	}),
	/** Appends one block to a compaction's summary; a first-seen id starts one in progress. */
	compaction_summary_chunk: z.looseObject({ sessionUpdate: z.literal('compaction_summary_chunk'), compactionId: z.string(), content: contentBlockSchema, _meta: meta }),
};

export type SessionUpdateKind = keyof typeof updateVariants;
export const SESSION_UPDATE_KINDS = Object.keys(updateVariants) as readonly SessionUpdateKind[];

/** A `session/update` variant this client does not know; the chat ignores it. */
export interface UnknownUpdate {
	readonly sessionUpdate: 'unknown';
	/** The `sessionUpdate` the agent sent. */
	readonly variant: string;
}

export const sessionUpdateSchema = tagged('sessionUpdate', updateVariants, (variant): UnknownUpdate => ({ sessionUpdate: 'unknown', variant }));
export type SessionUpdate = z.infer<typeof sessionUpdateSchema>;
/** One variant of `SessionUpdate` by its tag. */
export type SessionUpdateOf<K extends SessionUpdateKind | 'unknown'> = Extract<SessionUpdate, { sessionUpdate: K }>;

/** Params of the `session/update` notification. */
export const sessionNotificationSchema = z.looseObject({ sessionId: z.string(), update: sessionUpdateSchema, _meta: meta });
export type SessionNotification = z.infer<typeof sessionNotificationSchema>;

// --- Requests the agent makes of the chat --------------------------------------------------------

export const PERMISSION_OPTION_KINDS = ['allow_once', 'allow_always', 'reject_once', 'reject_always'] as const;
export type PermissionOptionKind = (typeof PERMISSION_OPTION_KINDS)[number];
export const permissionOptionSchema = z.looseObject({ optionId: z.string(), name: z.string(), kind: z.enum(PERMISSION_OPTION_KINDS), _meta: meta });
export type PermissionOption = z.infer<typeof permissionOptionSchema>;

/** Params of `session/request_permission`: the tool call (as an update of it) and the choices. */
export const requestPermissionParamsSchema = z.looseObject({
	sessionId: z.string(),
	toolCall: toolCallUpdateSchema,
	options: z.array(permissionOptionSchema),
	_meta: meta,
});
export type RequestPermissionParams = z.infer<typeof requestPermissionParamsSchema>;

// `fs/read_text_file`'s params are in src/common/fsProtocol.ts.

// --- Answers to the chat's requests ----------------------------------------------------------------

const sessionSetup = {
	modes: lenient(z.nullish(sessionModeStateSchema)),
	configOptions: lenient(z.nullish(list(sessionConfigOptionSchema))),
	_meta: meta,
};
export const newSessionResponseSchema = z.looseObject({ sessionId: z.string(), ...sessionSetup });
/** The answer to `session/load` and to `session/resume`. */
export const loadSessionResponseSchema = z.looseObject(sessionSetup);
export const setConfigOptionResponseSchema = z.looseObject({ configOptions: list(sessionConfigOptionSchema), _meta: meta });

/** A session the agent keeps, as `session/list` gives it. */
export const listedSessionSchema = z.looseObject({
	sessionId: z.string(),
	cwd: z.string(),
	additionalDirectories: lenient(list(z.string())),
	title: optionalString,
	updatedAt: optionalString,
	_meta: meta,
});
export type ListedSession = z.infer<typeof listedSessionSchema>;
/** The answer to `session/list`: a page of sessions, and the cursor of the next one when there is more. Sessions of the wrong shape are dropped. */
export const listSessionsResponseSchema = z.looseObject({ sessions: list(listedSessionSchema), nextCursor: optionalString, _meta: meta });

export const STOP_REASONS = ['end_turn', 'max_tokens', 'max_turn_requests', 'refusal', 'cancelled'] as const;
/** Why a turn ended. Any other string an agent sends is kept rather than failing the turn. */
export type StopReason = (typeof STOP_REASONS)[number] | (string & {});
export const promptResponseSchema = z.looseObject({ stopReason: z.string() as z.ZodMiniType<StopReason>, _meta: meta });

// --- Compile-time checks: whatever the SDK's types allow, these schemas accept --------------------

type Assignable<T, U extends T> = U;
export type _SchemasAcceptTheSdk = [
	Assignable<SessionUpdate, acp.SessionUpdate>,
	Assignable<SessionNotification, acp.SessionNotification>,
	Assignable<ContentBlock, acp.ContentBlock>,
	Assignable<ToolCallContent, acp.ToolCallContent>,
	Assignable<ToolCallUpdate, acp.ToolCallUpdate>,
	Assignable<SessionConfigOption, acp.SessionConfigOption>,
	Assignable<SessionModeState, acp.SessionModeState>,
	Assignable<RequestPermissionParams, acp.RequestPermissionRequest>,
	Assignable<z.infer<typeof newSessionResponseSchema>, acp.NewSessionResponse>,
	Assignable<z.infer<typeof loadSessionResponseSchema>, acp.LoadSessionResponse>,
	Assignable<z.infer<typeof loadSessionResponseSchema>, acp.ResumeSessionResponse>,
	Assignable<z.infer<typeof setConfigOptionResponseSchema>, acp.SetSessionConfigOptionResponse>,
	Assignable<z.infer<typeof listSessionsResponseSchema>, acp.ListSessionsResponse>,
	Assignable<z.infer<typeof promptResponseSchema>, acp.PromptResponse>,
	Assignable<StopReason, acp.StopReason>,
];
