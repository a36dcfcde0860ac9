/**
 * Client editor state on the wire: the "Client Editor State Methods" RFD
 * (`shared/seeds/client-editor-state-rfd.txt`, summarised in
 * `shared/specs/protocols.md` §3). It is in no ACP schema or SDK release yet,
 * so this module mirrors the RFD as written:
 *
 * - capability `clientCapabilities.workspace {openDocuments, recentDocuments, activeDocument}`,
 *   each an empty object; agents must check it before calling;
 * - agent -> client requests, each with the `sessionId` of a session the client created:
 *   `workspace/open_documents`, `workspace/recent_documents {limit?}`,
 *   `workspace/active_document`;
 * - every returned `uri` is an absolute `file:///` URI.
 *
 * Pure: method names, the capability object, and zod/mini schemas whose
 * messages name the offending field (they end up in -32602 replies).
 */
import * as z from 'zod/mini';

/** Method names of the RFD, as they appear on the wire. */
export const EditorStateMethods = {
	openDocuments: 'workspace/open_documents',
	recentDocuments: 'workspace/recent_documents',
	activeDocument: 'workspace/active_document',
} as const;

/** `recent_documents` answers this many documents when the agent gives no `limit`. */
export const DEFAULT_RECENT_LIMIT = 50;

/**
 * The most recent documents the client remembers, and so the largest `limit`
 * that makes a difference: a larger one is clamped, not refused.
 */
export const MAX_RECENT_DOCUMENTS = 200;

/** What the client adds to `initialize`'s `clientCapabilities` (RFD "Capability advertisement"). */
export function clientEditorStateCapabilities(): { workspace: { openDocuments: object; recentDocuments: object; activeDocument: object } } {
	return { workspace: { openDocuments: {}, recentDocuments: {}, activeDocument: {} } };
}

/** One document in an answer. `uri` is an absolute `file:///` URI. */
export interface EditorDocument {
	readonly uri: string;
	readonly languageId: string;
}

export interface DocumentsResponse {
	readonly documents: readonly EditorDocument[];
}

export interface ActiveDocumentResponse {
	readonly document: EditorDocument | null;
}

const meta = z.nullish(z.record(z.string(), z.unknown()));
const sessionId = z.string({ error: 'expected a session id (string)' }).check(z.minLength(1, { error: 'expected a session id (non-empty string)' }));

/** Params of `workspace/open_documents` and `workspace/active_document`. */
export const sessionParamsSchema = z.looseObject({
	sessionId,
	_meta: meta,
});
export type SessionParams = z.infer<typeof sessionParamsSchema>;

const limitError = { error: 'expected a non-negative integer' };

/**
 * Params of `workspace/recent_documents`. `limit` may be absent or null (the
 * default applies); any non-negative integer is accepted, including ones past
 * the safe-integer range, and clamped later by {@link recentLimit}.
 */
export const recentDocumentsParamsSchema = z.looseObject({
	sessionId,
	limit: z.nullish(z.number(limitError).check(z.refine((n) => Number.isInteger(n), limitError), z.nonnegative(limitError))),
	_meta: meta,
});
export type RecentDocumentsParams = z.infer<typeof recentDocumentsParamsSchema>;

/** The number of recent documents to answer for a validated `limit`. */
export function recentLimit(limit: number | null | undefined): number {
	return Math.min(limit ?? DEFAULT_RECENT_LIMIT, MAX_RECENT_DOCUMENTS);
}
