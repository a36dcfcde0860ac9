/**
 * Agent Link's own NES agent: the handlers behind each method, as one small
 * class (the connection is made in `main.ts`). Speaks the merged NES revision
 * of `@agentclientprotocol/sdk/experimental/nes`; params arrive validated by
 * the SDK's schemas. The seed revision (`nes/did*` without sessions) is not
 * offered: Agent Link's client picks the merged one from these capabilities.
 *
 * It answers `nes/suggest` only from what the client told it: the documents
 * it opened and changed in this session. It reads no file.
 */
import { RequestError, type InitializeRequest, type InitializeResponse } from '@agentclientprotocol/sdk/experimental/nes';
import type * as nes from '@agentclientprotocol/sdk/experimental/nes';
import { TrackedDocument } from './documents';
import type { LineEdit, NesEngine } from './engines/types';
import { NO_FEATURES, SuggestionMemory, toSuggestions, type ClientFeatures } from './suggestions';

export const AGENT_PROTOCOL_VERSION = 1;
const MAX_SESSIONS = 16;

/**
 * What this agent asks the client for: the document events it keeps its copy
 * with, in UTF-16; no context for engine 1, related snippets for a model's prompt.
 */
export function agentCapabilities(relatedSnippets = false): NonNullable<InitializeResponse['agentCapabilities']> {
	return {
		nes: {
			events: { document: { didOpen: {}, didChange: { syncKind: 'incremental' }, didClose: {} } },
			context: relatedSnippets ? { relatedSnippets: {} } : {},
		},
		positionEncoding: 'utf-16',
	};
}

/** Related snippets passed on to a prompt, at most. */
const MAX_SNIPPETS = 8;
/** Bursts of other documents passed on to a prompt, at most. */
const MAX_RECENT_EDITS = 8;

export interface NesAgentOptions {
	readonly engine: NesEngine;
	readonly version: string;
	/** One line for the log (stderr); never a document's text. */
	readonly log: (message: string) => void;
	/** Ask the client for related snippets (a model engine uses them in its prompt). */
	readonly relatedSnippets?: boolean;
	/** How long a rejected suggestion's place stays silent. */
	readonly rejectionWindowMs?: number;
	/** How long `nes/suggest` waits for the document version it names to arrive. */
	readonly versionWaitMs?: number;
	readonly now?: () => number;
}

interface Session {
	readonly id: string;
	/** Workspace folder URIs from `nes/start`, each ending in `/`: prompts name files relative to them. */
	readonly folders: readonly string[];
	/** Open documents, the most recently changed last. */
	readonly documents: Map<string, TrackedDocument>;
	readonly memory: SuggestionMemory;
	/** Suggest requests waiting for a document version, by uri. */
	readonly waiting: Map<string, Set<() => void>>;
}

export class NesAgent {
	private features: ClientFeatures = NO_FEATURES;
	private readonly sessions = new Map<string, Session>();
	private nextSession = 1;
	private nextSuggestion = 1;

	constructor(private readonly options: NesAgentOptions) {}

	initialize(params: InitializeRequest): InitializeResponse {
		const caps = params.clientCapabilities?.nes;
		this.features = { jump: isSet(caps?.jump), rename: isSet(caps?.rename), searchAndReplace: isSet(caps?.searchAndReplace) };
		const shown = Object.entries(this.features).filter(([, on]) => on).map(([kind]) => kind);
		this.options.log(`Initialized with ${params.clientInfo?.name ?? 'a client'}; it shows edit${shown.map((k) => `, ${k}`).join('')} suggestions; engine: ${this.options.engine.name}.`);
		return {
			protocolVersion: AGENT_PROTOCOL_VERSION,
			agentInfo: { name: 'agent-link-nes', title: 'Agent Link NES', version: this.options.version },
			agentCapabilities: agentCapabilities(this.options.relatedSnippets),
			authMethods: [],
		};
	}

	start(params: nes.StartNesRequest): nes.StartNesResponse {
		const id = `nes-${this.nextSession++}`;
		const folders = [...(params.workspaceFolders ?? []).map((f) => f.uri), ...(params.workspaceUri ? [params.workspaceUri] : [])].map((uri) => (uri.endsWith('/') ? uri : `${uri}/`));
		this.sessions.set(id, { id, folders, documents: new Map(), memory: new SuggestionMemory(this.options.rejectionWindowMs, this.options.now), waiting: new Map() });
		// Sessions a client forgot to close are not kept forever.
		if (this.sessions.size > MAX_SESSIONS) {
			this.sessions.delete(this.sessions.keys().next().value!);
		}
		return { sessionId: id };
	}

	close(params: nes.CloseNesRequest): nes.CloseNesResponse {
		const session = this.session(params.sessionId);
		for (const waiters of session.waiting.values()) {
			waiters.forEach((wake) => wake());
		}
		this.sessions.delete(session.id);
		return {};
	}

	async suggest(params: nes.SuggestNesRequest, signal: AbortSignal): Promise<nes.SuggestNesResponse> {
		const session = this.session(params.sessionId);
		// The SDK starts a request's handler before the handlers of notifications that arrived
		// just ahead of it: let those (the document events the request was made after) run first.
		await new Promise<void>((resolve) => setImmediate(resolve));
		let document = session.documents.get(params.uri);
		if (document && params.version > document.version) {
			// The request overtook the change it was made after: wait for it (or for cancellation).
			await this.waitForVersion(session, params.uri, params.version, signal);
			document = session.documents.get(params.uri);
		}
		signal.throwIfAborted();
		if (!document || document.version !== params.version) {
			return { suggestions: [] }; // never a suggestion for a document (or a version) it was not told about
		}
		const path = relativePath(params.uri, session.folders);
		const proposal = await this.options.engine.suggest(
			{
				uri: params.uri,
				languageId: document.languageId,
				document,
				cursor: params.position,
				lastEdit: document.lastEdit,
				earlierEdits: document.earlierEdits,
				path,
				recentEdits: recentEdits(session, document),
				relatedSnippets: (params.context?.relatedSnippets ?? []).slice(0, MAX_SNIPPETS).map((s) => ({
					path: relativePath(s.uri, session.folders),
					text: s.excerpts.map((e) => e.text).join('\n...\n'),
				})),
			},
			signal,
		);
		signal.throwIfAborted();
		if (!proposal || session.documents.get(params.uri) !== document || document.version !== params.version) {
			return { suggestions: [] };
		}
		const suggestions = toSuggestions(proposal, params.uri, {
			features: this.features,
			newId: () => `s${this.nextSuggestion++}`,
			isRejected: (place) => session.memory.isRejected(place),
		});
		suggestions.forEach((s) => session.memory.offer(s));
		return { suggestions };
	}

	accept(params: nes.AcceptNesNotification): void {
		// The client applies an accepted edit as a change of its own; at another place it starts a new burst.
		this.sessions.get(params.sessionId)?.memory.accept(params.id);
	}

	reject(params: nes.RejectNesNotification): void {
		this.sessions.get(params.sessionId)?.memory.reject(params.id, params.reason);
	}

	didOpen(params: nes.DidOpenDocumentNotification): void {
		const session = this.eventSession(params.sessionId, 'didOpen');
		if (session) {
			session.documents.set(params.uri, new TrackedDocument(params.uri, params.languageId, params.version, params.text));
			this.wake(session, params.uri);
		}
	}

	didChange(params: nes.DidChangeDocumentNotification): void {
		const session = this.eventSession(params.sessionId, 'didChange');
		const document = session?.documents.get(params.uri);
		if (!session || !document) {
			if (session) {
				this.options.log(`Ignored didChange for ${params.uri}: it is not open.`);
			}
			return;
		}
		document.applyChanges(params.contentChanges, params.version);
		// Keep the map in order of the latest change (recent edits for prompts come from it).
		session.documents.delete(params.uri);
		session.documents.set(params.uri, document);
		this.wake(session, params.uri);
	}

	didClose(params: nes.DidCloseDocumentNotification): void {
		const session = this.eventSession(params.sessionId, 'didClose');
		if (session?.documents.delete(params.uri)) {
			this.wake(session, params.uri);
		}
	}

	/** A session for a request: an unknown id is invalid params (-32602). */
	private session(id: string): Session {
		const session = this.sessions.get(id);
		if (!session) {
			throw RequestError.invalidParams({ sessionId: id }, `Unknown NES session ${JSON.stringify(id)}`);
		}
		return session;
	}

	/** A session for a notification: an unknown id is logged and the event dropped. */
	private eventSession(id: string, event: string): Session | undefined {
		const session = this.sessions.get(id);
		if (!session) {
			this.options.log(`Ignored ${event} for unknown NES session ${JSON.stringify(id)}.`);
		}
		return session;
	}

	private wake(session: Session, uri: string): void {
		const waiters = session.waiting.get(uri);
		if (waiters) {
			session.waiting.delete(uri);
			waiters.forEach((wake) => wake());
		}
	}

	/** Resolves when the document reaches `version`, closes, the session ends or the wait times out; rejects when `signal` aborts. */
	private async waitForVersion(session: Session, uri: string, version: number, signal: AbortSignal): Promise<void> {
		const deadline = (this.options.now ?? Date.now)() + (this.options.versionWaitMs ?? 5000);
		for (;;) {
			const document = session.documents.get(uri);
			if (!document || document.version >= version || !this.sessions.has(session.id) || (this.options.now ?? Date.now)() >= deadline) {
				return;
			}
			signal.throwIfAborted();
			await new Promise<void>((resolve, reject) => {
				const waiters = session.waiting.get(uri) ?? new Set<() => void>();
				session.waiting.set(uri, waiters);
				const cleanup = () => {
					clearTimeout(timer);
					signal.removeEventListener('abort', aborted);
					waiters.delete(done);
				};
				const done = () => {
					cleanup();
					resolve();
				};
				const aborted = () => {
					cleanup();
					// The SDK answers a request whose handler throws its signal's reason with -32800.
					reject(signal.reason instanceof Error ? signal.reason : RequestError.requestCancelled());
				};
				const timer = setTimeout(done, Math.max(0, deadline - (this.options.now ?? Date.now)()));
				waiters.add(done);
				signal.addEventListener('abort', aborted, { once: true });
			});
		}
	}
}

/** `uri` relative to the first workspace folder that holds it, or its path. */
function relativePath(uri: string, folders: readonly string[]): string {
	const folder = folders.find((f) => uri.startsWith(f));
	const path = folder ? uri.slice(folder.length) : uri.replace(/^file:\/\//, '');
	try {
		return decodeURIComponent(path);
	} catch {
		return path;
	}
}

/** The latest bursts of the session's documents, oldest first, `current`'s own history last. */
function recentEdits(session: Session, current: TrackedDocument): { path: string; edit: LineEdit }[] {
	const out: { path: string; edit: LineEdit }[] = [];
	for (const document of session.documents.values()) {
		if (document !== current && document.lastEdit) {
			out.push({ path: relativePath(document.uri, session.folders), edit: document.lastEdit });
		}
	}
	const path = relativePath(current.uri, session.folders);
	const own = [...current.earlierEdits, ...(current.lastEdit ? [current.lastEdit] : [])].map((edit) => ({ path, edit }));
	return [...out.slice(-MAX_RECENT_EDITS), ...own];
}

function isSet(value: unknown): boolean {
	return value !== undefined && value !== null;
}
