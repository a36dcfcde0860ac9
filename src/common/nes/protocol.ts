/**
 * Next Edit Suggestions on the wire, in both revisions Agent Link speaks
 * (`shared/specs/protocols.md` §2):
 *
 * - **merged**: `@agentclientprotocol/sdk/experimental/nes` ("frozen NES
 *   compatibility snapshot from schema v1.25.0"): events `document/did*` with
 *   `sessionId`, agent caps under `nes.events.document`, client caps
 *   `nes.{jump, rename, searchAndReplace}`, `nes/close`.
 * - **seed**: the RFD as first proposed: events `nes/did*` without `sessionId`,
 *   agent caps directly under `nes.events`, client caps `nes.ideActions`,
 *   user actions as `{line, offset}`, no `nes/close`.
 *
 * The agent's capability shape says which one it speaks. Types of the merged
 * revision come from the SDK (type-only); the schemas here are zod/mini so
 * they stay small and report the offending field.
 */
import type * as nes from '@agentclientprotocol/sdk/experimental/nes';
import * as z from 'zod/mini';

export type NesRevision = 'seed' | 'merged';
export type PositionEncoding = 'utf-16' | 'utf-8' | 'utf-32';
export type SyncKind = 'full' | 'incremental';
export type NesEventName = 'didOpen' | 'didChange' | 'didClose' | 'didSave' | 'didFocus';
export type NesContextKey = 'recentFiles' | 'relatedSnippets' | 'editHistory' | 'userActions' | 'openFiles' | 'diagnostics';

export const NES_EVENT_NAMES: readonly NesEventName[] = ['didOpen', 'didChange', 'didClose', 'didSave', 'didFocus'];
export const NES_CONTEXT_KEYS: readonly NesContextKey[] = ['recentFiles', 'relatedSnippets', 'editHistory', 'userActions', 'openFiles', 'diagnostics'];

/** The position encodings this client offers, in order of preference. */
export const CLIENT_POSITION_ENCODINGS: readonly PositionEncoding[] = ['utf-16', 'utf-8', 'utf-32'];

export const NesMethods = {
	start: 'nes/start',
	suggest: 'nes/suggest',
	/** Merged revision only. */
	close: 'nes/close',
	accept: 'nes/accept',
	reject: 'nes/reject',
} as const;

/** The notification method of a document event in a revision. */
export function eventMethod(revision: NesRevision, event: NesEventName): string {
	return revision === 'merged' ? `document/${event}` : `nes/${event}`;
}

export type Position = nes.Position;
export type Range = nes.Range;

const meta = z.nullish(z.record(z.string(), z.unknown()));
const nullishObject = z.nullish(z.looseObject({ _meta: meta }));
const maxCount = z.nullish(z.looseObject({ maxCount: z.nullish(z.int().check(z.positive())), _meta: meta }));

const eventCaps = {
	didOpen: nullishObject,
	didChange: z.nullish(z.looseObject({ syncKind: z.enum(['full', 'incremental']), _meta: meta })),
	didClose: nullishObject,
	didSave: nullishObject,
	didFocus: nullishObject,
};

const contextCaps = z.nullish(
	z.looseObject({
		recentFiles: maxCount,
		relatedSnippets: nullishObject,
		editHistory: maxCount,
		userActions: maxCount,
		openFiles: nullishObject,
		diagnostics: nullishObject,
		_meta: meta,
	}),
);

/** `agentCapabilities.nes` in either revision. */
export const agentNesCapabilitiesSchema = z.looseObject({
	events: z.nullish(z.looseObject({ document: z.nullish(z.looseObject(eventCaps)), ...eventCaps, _meta: meta })),
	context: contextCaps,
	_meta: meta,
});

export const positionEncodingSchema = z.enum(['utf-16', 'utf-8', 'utf-32']);

/** What an NES agent asked for, normalized across revisions. */
export interface NesProfile {
	readonly revision: NesRevision;
	readonly encoding: PositionEncoding;
	/** The events the agent declared; `didChange` carries its sync kind. */
	readonly events: {
		readonly didOpen: boolean;
		readonly didChange: SyncKind | undefined;
		readonly didClose: boolean;
		readonly didSave: boolean;
		readonly didFocus: boolean;
	};
	/** The context keys the agent declared, each with its `maxCount` when it gave one. */
	readonly context: Readonly<Partial<Record<NesContextKey, { readonly maxCount?: number }>>>;
}

export type NesProfileResult = { readonly ok: true; readonly profile: NesProfile } | { readonly ok: false; readonly reason: string } | undefined;

/**
 * Reads an agent's NES capabilities. `undefined` when it advertises none;
 * `{ok: false}` with a reason when they are malformed.
 */
export function detectNesProfile(agentCapabilities: Record<string, unknown> | undefined): NesProfileResult {
	const raw = agentCapabilities?.nes;
	if (raw === undefined || raw === null) {
		return undefined;
	}
	const parsed = agentNesCapabilitiesSchema.safeParse(raw);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return { ok: false, reason: `nes.${issue?.path.map(String).join('.') ?? ''}: ${issue?.message ?? 'invalid'}` };
	}
	const encodingRaw = agentCapabilities?.positionEncoding;
	let encoding: PositionEncoding = 'utf-16';
	if (encodingRaw !== undefined && encodingRaw !== null) {
		const enc = positionEncodingSchema.safeParse(encodingRaw);
		if (!enc.success) {
			return { ok: false, reason: `positionEncoding: ${JSON.stringify(encodingRaw)} is not one of utf-16, utf-8, utf-32` };
		}
		encoding = enc.data;
	}
	const caps = parsed.data;
	const merged = caps.events?.document !== undefined && caps.events.document !== null;
	const events = merged ? caps.events?.document : caps.events;
	const context: Partial<Record<NesContextKey, { maxCount?: number }>> = {};
	for (const key of NES_CONTEXT_KEYS) {
		const value = caps.context?.[key];
		if (value !== undefined && value !== null) {
			const count = (value as { maxCount?: number | null }).maxCount;
			context[key] = count !== undefined && count !== null ? { maxCount: count } : {};
		}
	}
	return {
		ok: true,
		profile: {
			revision: merged ? 'merged' : 'seed',
			encoding,
			events: {
				didOpen: isDeclared(events?.didOpen),
				didChange: events?.didChange ? events.didChange.syncKind : undefined,
				didClose: isDeclared(events?.didClose),
				didSave: isDeclared(events?.didSave),
				didFocus: isDeclared(events?.didFocus),
			},
			context,
		},
	};
}

function isDeclared(value: unknown): boolean {
	return value !== undefined && value !== null;
}

/** What this build can do with suggestions; each later feature switches its part on. */
export interface ClientNesFeatures {
	readonly jump: boolean;
	readonly rename: boolean;
	readonly searchAndReplace: boolean;
}

/**
 * Client capabilities for NES, in both revisions' shapes at once (extra keys
 * are harmless), plus the position encodings offered.
 */
export function clientNesCapabilities(features: ClientNesFeatures): { nes: Record<string, unknown>; positionEncodings: PositionEncoding[] } {
	const merged: Record<string, unknown> = {};
	const ideActions: Record<string, unknown> = {};
	if (features.jump) {
		merged.jump = {};
	}
	if (features.rename) {
		merged.rename = {};
		ideActions.rename = {};
	}
	if (features.searchAndReplace) {
		merged.searchAndReplace = {};
		ideActions.searchAndReplace = {};
	}
	return { nes: { ...merged, ideActions }, positionEncodings: [...CLIENT_POSITION_ENCODINGS] };
}

export const startNesResponseSchema = z.looseObject({ sessionId: z.string().check(z.minLength(1)), _meta: meta });

const positionSchema = z.looseObject({ line: z.int().check(z.nonnegative()), character: z.int().check(z.nonnegative()) });
const rangeSchema = z.looseObject({ start: positionSchema, end: positionSchema });

/** A suggestion of either revision. */
export const nesSuggestionSchema = z.discriminatedUnion('kind', [
	z.looseObject({
		kind: z.literal('edit'),
		id: z.string(),
		uri: z.string(),
		edits: z.array(z.looseObject({ range: rangeSchema, newText: z.string() })),
		cursorPosition: z.nullish(positionSchema),
	}),
	z.looseObject({ kind: z.literal('jump'), id: z.string(), uri: z.string(), position: positionSchema }),
	z.looseObject({ kind: z.literal('rename'), id: z.string(), uri: z.string(), position: positionSchema, newName: z.string() }),
	z.looseObject({ kind: z.literal('searchAndReplace'), id: z.string(), uri: z.string(), search: z.string(), replace: z.string(), isRegex: z.nullish(z.boolean()) }),
	// Seed revision: an IDE action the client advertised under `ideActions`.
	z.looseObject({ kind: z.literal('action'), id: z.string(), actionId: z.string(), arguments: z.optional(z.record(z.string(), z.unknown())) }),
]);
export type NesSuggestion = z.infer<typeof nesSuggestionSchema>;

export const suggestNesResponseSchema = z.looseObject({ suggestions: z.array(nesSuggestionSchema), _meta: meta });
export type SuggestNesResponse = z.infer<typeof suggestNesResponseSchema>;

// Compile-time checks that the merged revision's shapes are accepted as the SDK defines them.
type Assignable<T, U extends T> = U;
export type _MergedSuggestionFits = Assignable<NesSuggestion, nes.NesSuggestion & { kind: 'edit' | 'jump' | 'rename' | 'searchAndReplace' }>;
