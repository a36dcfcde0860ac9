/**
 * Client editor state for agents: `workspace/open_documents`,
 * `workspace/recent_documents` and `workspace/active_document` of the "Client
 * Editor State Methods" RFD (`shared/specs/protocols.md` §3), answered from
 * VS Code's tabs, focus and a recent list kept in workspace state.
 *
 * Only `file` documents are ever answered, as `file:///` URIs spelled the way
 * Node's `url.pathToFileURL` spells them (see `fileUriFromPath`).
 *
 * Languages: a loaded document's own `languageId`; for a tab VS Code has not
 * loaded (restored at startup), the language its name gets from
 * `files.associations` and the extensions' `contributes.languages`
 * (`LanguageResolver`), else from its first line (1 KiB read), else plain
 * text. It never opens the document: `openTextDocument` reads the whole file
 * and announces it to every extension (NES document sync would send it to the
 * agent), which is not what a question about the editor should cause.
 */
import * as fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import {
	FocusOrder,
	LanguageResolver,
	PLAINTEXT,
	RecentDocuments,
	agentFileUri,
	orderOpenDocuments,
	selectExisting,
	type LanguageContribution,
} from '../common/editorState';
import {
	EditorStateMethods,
	MAX_RECENT_DOCUMENTS,
	clientEditorStateCapabilities,
	recentDocumentsParamsSchema,
	recentLimit,
	sessionParamsSchema,
	type ActiveDocumentResponse,
	type DocumentsResponse,
	type EditorDocument,
} from '../common/editorStateProtocol';
import { errorMessage, type Logger } from '../common/log';
import { SharedChecks } from '../common/sharedChecks';
import { ErrorCodes, type ClientCapabilities } from '../common/protocol';
import type { AgentFeature, RunningAgent } from './agentManager';
import type { AgentPool } from './agentPool';
import { tabUris } from './tabs';

/** The workspace-state key of the recent list. */
export const RECENT_STATE_KEY = 'agentLink.editorState.recentDocuments';

/** Bytes read from the start of a file to recognise its language by its first line (a shebang, a doctype). */
const FIRST_LINE_BYTES = 1024;
/** Entries kept in the path caches before they are cleared (they refill on the next call). */
const CACHE_LIMIT = 4 * MAX_RECENT_DOCUMENTS;

/** A document in a tab, before its language is known. */
interface OpenCandidate {
	readonly uri: string;
	readonly source: vscode.Uri;
}

/**
 * Implements the editor state methods for every agent and keeps what they
 * need: the order in which file editors had focus, and the recent list.
 */
export class EditorStateFeature implements AgentFeature, vscode.Disposable {
	private readonly windows = process.platform === 'win32';
	private readonly recent: RecentDocuments;
	private readonly focus = new FocusOrder();
	/** Language of each loaded file document, by agent URI. */
	private readonly loaded = new Map<string, string>();
	/** Language of files not loaded, as last resolved or last seen loaded, by agent URI. */
	private readonly languages = new Map<string, string>();
	/** Agent URI of each `vscode.Uri` string seen (`null`: not a file an agent may see). */
	private readonly uris = new Map<string, string | null>();
	private resolver: LanguageResolver | undefined;
	private readonly disposables: vscode.Disposable[] = [];
	private persisting: Thenable<void> = Promise.resolve();

	constructor(
		agents: Pick<AgentPool, 'registerFeature'>,
		private readonly state: vscode.Memento,
		private readonly log: Logger,
	) {
		agents.registerFeature(this);
		this.recent = RecentDocuments.fromStored(state.get<unknown>(RECENT_STATE_KEY));
		for (const document of vscode.workspace.textDocuments) {
			this.documentOpened(document);
		}
		this.disposables.push(
			vscode.workspace.onDidOpenTextDocument((d) => this.documentOpened(d)),
			vscode.workspace.onDidCloseTextDocument((d) => this.documentClosed(d)),
			vscode.window.onDidChangeActiveTextEditor((e) => this.activeEditorChanged(e)),
			vscode.window.tabGroups.onDidChangeTabs((e) => this.tabsOpened(e.opened)),
			vscode.extensions.onDidChange(() => this.languagesChanged()),
			vscode.workspace.onDidChangeConfiguration((e) => {
				if (e.affectsConfiguration('files.associations')) {
					this.languagesChanged();
				}
			}),
		);
		try {
			this.seedFromOpenTabs();
		} catch (error) {
			// Editor state must never stop the extension from activating.
			log.error(`Reading the open editors failed: ${errorMessage(error)}`);
		}
	}

	/**
	 * Tabs restored at startup were opened in an earlier session: they go
	 * behind what the stored list already knows, and the focused one in front.
	 */
	private seedFromOpenTabs(): void {
		let changed = false;
		for (const candidate of this.tabCandidates()) {
			if (this.recent.rank(candidate.uri) === undefined) {
				changed = this.recent.append({ uri: candidate.uri, languageId: this.knownLanguage(candidate.uri, candidate.source) ?? PLAINTEXT }) || changed;
				this.fixLanguage(candidate);
			}
		}
		if (!this.activeEditorChanged(vscode.window.activeTextEditor) && changed) {
			this.persist();
		}
	}

	fillClientCapabilities(capabilities: ClientCapabilities): void {
		const existing = (capabilities as { workspace?: Record<string, unknown> }).workspace;
		const ours = clientEditorStateCapabilities();
		Object.assign(capabilities, { workspace: { ...existing, ...ours.workspace } });
	}

	attach(agent: RunningAgent): void {
		const connection = agent.handle.connection;
		agent.disposables.push(
			connection.onRequest(EditorStateMethods.openDocuments, sessionParamsSchema, async (params): Promise<DocumentsResponse> => {
				checkSession(agent, params.sessionId);
				return { documents: await this.openDocuments() };
			}),
			connection.onRequest(EditorStateMethods.recentDocuments, recentDocumentsParamsSchema, async (params): Promise<DocumentsResponse> => {
				checkSession(agent, params.sessionId);
				return { documents: await this.recentDocuments(recentLimit(params.limit)) };
			}),
			connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, (params): ActiveDocumentResponse => {
				checkSession(agent, params.sessionId);
				return { document: this.activeDocument() };
			}),
		);
	}

	/** Files open in text and diff editor tabs of every group, most recently focused first. */
	async openDocuments(): Promise<EditorDocument[]> {
		const ordered = orderOpenDocuments(this.tabCandidates(), this.focus, this.recent);
		const documents: EditorDocument[] = [];
		let pending: Promise<void>[] | undefined;
		for (const [i, candidate] of ordered.entries()) {
			const known = this.knownLanguage(candidate.uri, candidate.source);
			if (known !== undefined) {
				documents.push({ uri: candidate.uri, languageId: known });
			} else {
				documents.push({ uri: candidate.uri, languageId: PLAINTEXT });
				(pending ??= []).push(this.resolveLanguage(candidate).then((languageId) => void (documents[i] = { uri: candidate.uri, languageId })));
			}
		}
		if (pending) {
			await Promise.all(pending);
		}
		return documents;
	}

	/** Up to `limit` recently opened files that still exist, most recent first. */
	recentDocuments(limit: number): Promise<EditorDocument[]> {
		const current = this.recent.documents.map((d) => {
			const languageId = this.loaded.get(d.uri);
			return languageId === undefined || languageId === d.languageId ? d : { uri: d.uri, languageId };
		});
		return selectExisting(current, limit, isFile);
	}

	/** The file in the active text editor, or `null` (no editor, or not a file: untitled, output, …). */
	activeDocument(): EditorDocument | null {
		const document = vscode.window.activeTextEditor?.document;
		const uri = document && this.agentUri(document.uri);
		return document && uri ? { uri, languageId: document.languageId } : null;
	}

	/** How many documents the recent list holds (never more than {@link MAX_RECENT_DOCUMENTS}). */
	get recentSize(): number {
		return this.recent.size;
	}

	/** Resolves once the recent list last changed has been handed to workspace state. */
	flush(): Thenable<void> {
		return this.persisting;
	}

	private *tabCandidates(): Generator<OpenCandidate> {
		for (const group of vscode.window.tabGroups.all) {
			for (const tab of group.tabs) {
				for (const source of tabUris(tab.input)) {
					const uri = this.agentUri(source);
					if (uri) {
						yield { uri, source };
					}
				}
			}
		}
	}

	private agentUri(uri: vscode.Uri): string | undefined {
		if (uri.scheme !== 'file') {
			return undefined;
		}
		const key = uri.toString();
		let agentUri = this.uris.get(key);
		if (agentUri === undefined) {
			if (this.uris.size >= CACHE_LIMIT) {
				this.uris.clear();
			}
			agentUri = agentFileUri(uri, this.windows) ?? null;
			this.uris.set(key, agentUri);
		}
		return agentUri ?? undefined;
	}

	private documentOpened(document: vscode.TextDocument): void {
		const uri = this.agentUri(document.uri);
		if (uri) {
			this.loaded.set(uri, document.languageId);
			// Changing a document's language closes and reopens it.
			if (this.recent.setLanguage(uri, document.languageId)) {
				this.persist();
			}
		}
	}

	private documentClosed(document: vscode.TextDocument): void {
		const uri = this.agentUri(document.uri);
		if (uri) {
			this.loaded.delete(uri);
			// A tab can outlive its document; it keeps the language the user saw.
			this.remember(uri, document.languageId);
		}
	}

	/** Returns whether the recent list changed (and was persisted). */
	private activeEditorChanged(editor: vscode.TextEditor | undefined): boolean {
		const uri = editor && this.agentUri(editor.document.uri);
		if (!editor || !uri) {
			return false;
		}
		this.focus.focus(uri);
		if (this.recent.touch({ uri, languageId: editor.document.languageId })) {
			this.persist();
			return true;
		}
		return false;
	}

	private tabsOpened(tabs: readonly vscode.Tab[]): void {
		let changed = false;
		for (const tab of tabs) {
			// The primary side last, so it ends up the most recent.
			for (const source of tabUris(tab.input).reverse()) {
				const uri = this.agentUri(source);
				if (!uri) {
					continue;
				}
				const known = this.knownLanguage(uri, source);
				changed = this.recent.touch({ uri, languageId: known ?? PLAINTEXT }) || changed;
				if (known === undefined) {
					this.fixLanguage({ uri, source });
				}
			}
		}
		if (changed) {
			this.persist();
		}
	}

	private languagesChanged(): void {
		this.resolver = undefined;
		this.languages.clear();
	}

	/** The language of a file if it is known without reading it. */
	private knownLanguage(uri: string, source: vscode.Uri): string | undefined {
		const languageId = this.loaded.get(uri) ?? this.languages.get(uri);
		if (languageId !== undefined) {
			return languageId;
		}
		const byPath = this.languageResolver().byPath(source.fsPath);
		if (byPath !== undefined) {
			this.remember(uri, byPath);
			return byPath;
		}
		return this.languageResolver().usesFirstLine ? undefined : PLAINTEXT;
	}

	/**
	 * The language of a file nothing claims by name: by its first line (read
	 * from disk, {@link FIRST_LINE_BYTES} at most), else plain text, as in VS Code.
	 */
	private async resolveLanguage(candidate: OpenCandidate): Promise<string> {
		const line = await readFirstLine(candidate.source.fsPath);
		const languageId = (line !== undefined ? this.languageResolver().byFirstLine(line) : undefined) ?? PLAINTEXT;
		// The document may have loaded meanwhile; its language wins.
		const loaded = this.loaded.get(candidate.uri);
		if (loaded !== undefined) {
			return loaded;
		}
		this.remember(candidate.uri, languageId);
		return languageId;
	}

	/** Replaces the provisional language of a recent entry once its first line has been read. */
	private fixLanguage(candidate: OpenCandidate): void {
		if (this.knownLanguage(candidate.uri, candidate.source) !== undefined) {
			return;
		}
		this.resolveLanguage(candidate).then(
			(languageId) => {
				if (this.recent.setLanguage(candidate.uri, languageId)) {
					this.persist();
				}
			},
			(error: unknown) => this.log.debug(`Could not tell the language of ${candidate.uri}: ${errorMessage(error)}`),
		);
	}

	private remember(uri: string, languageId: string): void {
		if (this.languages.size >= CACHE_LIMIT) {
			this.languages.clear();
		}
		this.languages.set(uri, languageId);
	}

	private languageResolver(): LanguageResolver {
		if (!this.resolver) {
			const associations = vscode.workspace.getConfiguration('files').get<Record<string, unknown>>('associations') ?? {};
			this.resolver = new LanguageResolver(contributedLanguages(), typeof associations === 'object' ? associations : {});
		}
		return this.resolver;
	}

	private persist(): void {
		const stored = this.recent.toStored();
		this.persisting = this.state.update(RECENT_STATE_KEY, stored).then(undefined, (error: unknown) => {
			this.log.warn(`Could not save the recent documents: ${errorMessage(error)}`);
		});
	}

	dispose(): void {
		for (const d of this.disposables.splice(0)) {
			d.dispose();
		}
	}
}

/**
 * The sessions the agent may name are the ones this client created with it
 * (the NES session, ACP chat sessions); anything else is a bad parameter.
 */
function checkSession(agent: RunningAgent, sessionId: string): void {
	if (!agent.sessions.has(sessionId)) {
		const shown = sessionId.length > 100 ? `${sessionId.slice(0, 100)}…` : sessionId;
		throw new ResponseError(
			ErrorCodes.InvalidParams,
			`Invalid params: sessionId: unknown session ${JSON.stringify(shown)}; use the id of a session this client created (nes/start or session/new)`,
		);
	}
}

/** `contributes.languages` of every extension, with the shapes checked (a manifest is input too). */
function contributedLanguages(): LanguageContribution[] {
	const strings = (value: unknown): string[] | undefined => (Array.isArray(value) ? value.filter((v): v is string => typeof v === 'string') : undefined);
	const languages: LanguageContribution[] = [];
	for (const extension of vscode.extensions.all) {
		const contributed = (extension.packageJSON as { contributes?: { languages?: unknown } } | undefined)?.contributes?.languages;
		if (!Array.isArray(contributed)) {
			continue;
		}
		for (const item of contributed as unknown[]) {
			if (typeof item !== 'object' || item === null) {
				continue;
			}
			const language = item as Record<string, unknown>;
			if (typeof language.id !== 'string' || language.id === '') {
				continue;
			}
			languages.push({
				id: language.id,
				extensions: strings(language.extensions),
				filenames: strings(language.filenames),
				filenamePatterns: strings(language.filenamePatterns),
				firstLine: typeof language.firstLine === 'string' ? language.firstLine : undefined,
			});
		}
	}
	return languages;
}

/**
 * How long the answer to whether a recent document is still a file serves the
 * requests after it: a file deleted is left out of answers from this long after
 * at the latest.
 */
const FILE_CHECK_FRESH_MS = 100;

/**
 * Whether a recent document is still a file on disk. Asynchronous so that a
 * slow or hung mount delays only this answer, never the extension host; the
 * callback form, because `fs.promises.stat` costs about three times as much
 * per call (measured with 200 files: 2.1 ms against 5.6 ms). The checks are
 * shared ({@link SharedChecks}): an agent with hundreds of `recent_documents`
 * requests in flight, or thousands a second, costs one check per file every
 * {@link FILE_CHECK_FRESH_MS}, not one per request (the flood benchmark saw
 * 12 800 callbacks land in one turn of the event loop).
 */
const fileChecks = new SharedChecks<string, boolean>((uri) => {
	let path: string;
	try {
		path = fileURLToPath(uri);
	} catch {
		return Promise.resolve(false);
	}
	return new Promise<boolean>((resolve) => fs.stat(path, (error, stats) => resolve(!error && stats.isFile())));
}, FILE_CHECK_FRESH_MS);

function isFile(uri: string): Promise<boolean> {
	return fileChecks.get(uri);
}

async function readFirstLine(path: string): Promise<string | undefined> {
	let handle: fs.promises.FileHandle | undefined;
	try {
		handle = await fs.promises.open(path, 'r');
		const buffer = Buffer.alloc(FIRST_LINE_BYTES);
		const { bytesRead } = await handle.read(buffer, 0, FIRST_LINE_BYTES, 0);
		const text = buffer.subarray(0, bytesRead).toString('utf8');
		return text.split(/\r?\n/, 1)[0];
	} catch {
		return undefined;
	} finally {
		await handle?.close().catch(() => {});
	}
}
