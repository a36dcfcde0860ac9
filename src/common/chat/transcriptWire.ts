/**
 * The chat transcript's model (transcriptModel.ts) as the host and the page send it to each other:
 * zod schemas for entries, session info, snapshots and patches, checked on arrival, and a
 * compile-time proof that each says exactly what the model's types say (a field added to one and
 * not the other fails the build). Messages themselves are in messages.ts.
 */
import * as z from 'zod/mini';
import type { Entry, SessionInfo, TranscriptPatch, TranscriptSnapshot } from './transcriptModel';
import { STRING_FORMATS } from './elicitationForm';
import { PERMISSION_OPTION_KINDS, PLAN_ENTRY_PRIORITIES, PLAN_ENTRY_STATUSES, TOOL_CALL_STATUSES, TOOL_KINDS } from './updates';

const count = z.int().check(z.nonnegative());

// --- The transcript model on the wire (transcript.ts defines it; checked equal below) -----------

const blockSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('text'), text: z.string() }),
	z.object({ type: z.literal('image'), mimeType: z.string(), data: z.string(), uri: z.optional(z.string()), omitted: z.optional(z.literal(true)) }),
	z.object({ type: z.literal('audio'), mimeType: z.string(), data: z.string(), omitted: z.optional(z.literal(true)) }),
	z.object({
		type: z.literal('resource_link'),
		uri: z.string(),
		name: z.string(),
		title: z.optional(z.string()),
		description: z.optional(z.string()),
		mimeType: z.optional(z.string()),
		size: z.optional(z.number()),
	}),
	z.object({ type: z.literal('resource'), uri: z.string(), mimeType: z.optional(z.string()), text: z.optional(z.string()), truncated: z.optional(z.literal(true)) }),
]);

const toolContentSchema = z.discriminatedUnion('type', [
	z.object({ type: z.literal('content'), content: blockSchema }),
	z.object({ type: z.literal('diff'), path: z.string(), oldText: z.optional(z.string()), newText: z.string(), truncated: z.optional(z.literal(true)) }),
	z.object({ type: z.literal('terminal'), terminalId: z.string() }),
]);

const permissionSchema = z.object({
	requestId: z.string(),
	options: z.array(z.object({ optionId: z.string(), name: z.string(), kind: z.enum(PERMISSION_OPTION_KINDS) })),
	state: z.enum(['pending', 'selected', 'cancelled']),
	optionId: z.optional(z.string()),
});

const choiceSchema = z.object({ value: z.string(), title: z.string(), description: z.optional(z.string()) });
const fieldBase = { name: z.string(), title: z.string(), description: z.optional(z.string()), required: z.boolean() };
const fieldSchema = z.discriminatedUnion('type', [
	z.object({
		...fieldBase,
		type: z.literal('text'),
		format: z.optional(z.enum(STRING_FORMATS)),
		minLength: z.optional(count),
		maxLength: z.optional(count),
		pattern: z.optional(z.string()),
		default: z.optional(z.string()),
	}),
	z.object({ ...fieldBase, type: z.literal('number'), integer: z.boolean(), minimum: z.optional(z.number()), maximum: z.optional(z.number()), default: z.optional(z.number()) }),
	z.object({ ...fieldBase, type: z.literal('boolean'), default: z.optional(z.boolean()) }),
	z.object({ ...fieldBase, type: z.literal('choice'), choices: z.array(choiceSchema), default: z.optional(z.string()) }),
	z.object({ ...fieldBase, type: z.literal('multi'), choices: z.array(choiceSchema), minItems: z.optional(count), maxItems: z.optional(count), default: z.optional(z.array(z.string())) }),
]);

const elicitationSchema = z.object({
	requestId: z.string(),
	mode: z.enum(['form', 'url']),
	message: z.string(),
	title: z.optional(z.string()),
	description: z.optional(z.string()),
	fields: z.array(fieldSchema),
	url: z.optional(z.string()),
	host: z.optional(z.string()),
	state: z.enum(['pending', 'accepted', 'declined', 'cancelled', 'completed']),
});

const entryBase = { id: count, rev: count };
const truncated = z.optional(z.literal(true));

const entryWire = z.discriminatedUnion('kind', [
	z.object({ ...entryBase, kind: z.enum(['user', 'agent', 'thought']), blocks: z.array(blockSchema), messageId: z.optional(z.string()), truncated }),
	z.object({
		...entryBase,
		kind: z.literal('tool_call'),
		toolCallId: z.string(),
		title: z.string(),
		toolKind: z.enum(TOOL_KINDS),
		status: z.enum(TOOL_CALL_STATUSES),
		name: z.optional(z.string()),
		content: z.array(toolContentSchema),
		locations: z.array(z.object({ path: z.string(), line: z.optional(count) })),
		rawInput: z.optional(z.string()),
		rawOutput: z.optional(z.string()),
		permission: z.optional(permissionSchema),
		elicitation: z.optional(elicitationSchema),
		truncated,
	}),
	z.object({ ...entryBase, kind: z.literal('elicitation'), elicitation: elicitationSchema }),
	z.object({ ...entryBase, kind: z.literal('plan'), items: z.array(z.object({ content: z.string(), priority: z.enum(PLAN_ENTRY_PRIORITIES), status: z.enum(PLAN_ENTRY_STATUSES) })) }),
	z.object({ ...entryBase, kind: z.literal('notice'), severity: z.string(), title: z.string(), description: z.optional(z.string()) }),
	z.object({ ...entryBase, kind: z.literal('compaction'), compactionId: z.string(), status: z.string(), blocks: z.array(blockSchema), error: z.optional(z.string()), truncated }),
	z.object({ ...entryBase, kind: z.literal('turn_end'), stopReason: z.optional(z.string()), error: z.optional(z.string()) }),
	z.object({ ...entryBase, kind: z.literal('status'), status: z.enum(['resumed', 'ended']), reason: z.optional(z.string()) }),
]);

const configChoiceSchema = z.object({ value: z.string(), name: z.string(), description: z.optional(z.string()) });
const configBase = { id: z.string(), name: z.string(), description: z.optional(z.string()), category: z.optional(z.string()) };

const sessionInfoWire = z.object({
	title: z.optional(z.string()),
	titleSource: z.optional(z.enum(['agent', 'prompt'])),
	updatedAt: z.optional(z.string()),
	commands: z.array(z.object({ name: z.string(), description: z.string(), hint: z.optional(z.string()) })),
	modes: z.optional(z.object({ currentModeId: z.string(), available: z.array(z.object({ id: z.string(), name: z.string(), description: z.optional(z.string()) })) })),
	configOptions: z.array(
		z.discriminatedUnion('type', [
			z.object({
				...configBase,
				type: z.literal('select'),
				currentValue: z.string(),
				groups: z.array(z.object({ group: z.optional(z.string()), name: z.optional(z.string()), options: z.array(configChoiceSchema) })),
			}),
			z.object({ ...configBase, type: z.literal('boolean'), currentValue: z.boolean() }),
		]),
	),
	usage: z.optional(z.object({ used: z.number(), size: z.number(), cost: z.optional(z.object({ amount: z.number(), currency: z.string() })) })),
	turn: z.enum(['idle', 'running']),
	ended: z.boolean(),
	planId: z.optional(count),
});

const transcriptSnapshotWire = z.object({ revision: count, firstId: count, dropped: count, entries: z.array(entryWire), session: sessionInfoWire });

const transcriptPatchWire = z.object({
	from: count,
	to: count,
	firstId: count,
	dropped: count,
	changes: z.array(z.union([z.object({ entry: entryWire }), z.object({ id: count, rev: count, append: z.string() })])),
	session: z.optional(sessionInfoWire),
});

// Typed as transcript.ts's (readonly) model, which `_WireSchemasMatchTheModel` below proves they describe exactly.
export const entrySchema = entryWire as z.ZodMiniType<Entry>;
export const sessionInfoSchema = sessionInfoWire as z.ZodMiniType<SessionInfo>;
export const transcriptSnapshotSchema = transcriptSnapshotWire as z.ZodMiniType<TranscriptSnapshot>;
export const transcriptPatchSchema = transcriptPatchWire as z.ZodMiniType<TranscriptPatch>;

// --- Compile-time checks: the wire schemas say exactly what transcript.ts defines ---------------------------

type Primitive = string | number | boolean | null | undefined;
type DeepMutable<T> = T extends Primitive ? T : T extends readonly (infer U)[] ? DeepMutable<U>[] : T extends object ? { -readonly [K in keyof T]: DeepMutable<T[K]> } : T;
/** Every optional field made required, so a field one side has and the other lacks is a mismatch. */
type DeepRequired<T> = T extends Primitive ? T : T extends readonly (infer U)[] ? DeepRequired<U>[] : T extends object ? { -readonly [K in keyof T]-?: DeepRequired<T[K]> } : T;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Exact<A, B> = [Same<DeepMutable<A>, DeepMutable<B>>, Same<DeepRequired<A>, DeepRequired<B>>] extends [true, true] ? true : false;
type IsTrue<T extends true> = T;
export type _WireSchemasMatchTheModel = IsTrue<
	[
		Exact<z.infer<typeof entryWire>, Entry>,
		Exact<z.infer<typeof sessionInfoWire>, SessionInfo>,
		Exact<z.infer<typeof transcriptSnapshotWire>, TranscriptSnapshot>,
		Exact<z.infer<typeof transcriptPatchWire>, TranscriptPatch>,
	] extends true[]
		? true
		: false
>;
