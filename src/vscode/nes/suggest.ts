/**
 * `nes/suggest` (`shared/specs/protocols.md` §2) for the active editor:
 * `{uri, version, position, selection?, triggerKind, context?}` with the
 * context keys the agent declared, every position in its encoding; the
 * session adds `sessionId` for the merged revision.
 *
 * requests.ts sends it for every trigger; presenter.ts shows the answer.
 */
import * as vscode from 'vscode';
import {
	assembleSuggestContext,
	capText,
	contextMaxCount,
	declaredContextKeys,
	severityName,
	DEFAULT_CONTEXT_LIMITS,
	type ContextInputs,
	type DiagnosticInput,
	type OpenFileInput,
	type RecentFileInput,
	type RelatedSnippetInput,
} from '../../common/nes/context';
import type { NesSuggestion, SuggestNesResponse } from '../../common/nes/protocol';
import { suggestionUri, suggestionsFromAgent } from '../../common/nes/suggestions';
import { isInsideFolders, type TriggerKind } from '../../common/nes/triggers';
import type { PositionEncoding } from '../../common/positionEncoding';
import type { Recording } from './contextRecorder';
import type { NesSession } from './nesSession';
import { documentConverter } from './positionConverter';
import { collectRelatedSnippets } from './relatedSnippets';

export const SUGGEST_COMMAND = 'agentLink.nes.suggest';

export type { TriggerKind } from '../../common/nes/triggers';

/** What `agentLink.nes.suggest` returns. */
export interface SuggestOutcome {
	/** The params sent (without the `sessionId` the session adds). */
	readonly request?: Record<string, unknown>;
	/** The agent's validated answer, as sent (positions in the agent's encoding). */
	readonly response?: SuggestNesResponse;
	/** The suggestions with positions in the editor's coordinates (UTF-16); those for documents that cannot be read are left out. */
	readonly suggestions?: NesSuggestion[];
	/** Why there is no answer, as shown to the user. */
	readonly error?: string;
	/** Time to build the request, context included, in milliseconds. */
	readonly buildMs?: number;
}

export interface BuildOptions {
	readonly triggerKind: TriggerKind;
	/** Files larger than this are never sent (`agentLink.nes.maxFileSize`). */
	readonly maxFileBytes: number;
	/** How long to wait for definition lookups (`relatedSnippets`) that are not ready yet. */
	readonly snippetBudgetMs: number;
	readonly token?: vscode.CancellationToken;
	/** Related snippets from other sources (OpenCtx), after the definitions' within the same bounds. */
	readonly extraSnippets?: (document: vscode.TextDocument, maxFileBytes: number) => Promise<RelatedSnippetInput[]>;
}


/**
 * The `nes/suggest` params for `editor`, with only the context keys the
 * session's agent declared; nothing is gathered for the others.
 */
export async function buildSuggestParams(editor: vscode.TextEditor, session: Pick<NesSession, 'profile'>, recording: Recording | undefined, options: BuildOptions): Promise<Record<string, unknown>> {
	const { profile } = session;
	const keys = declaredContextKeys(profile);
	const document = editor.document;
	let snippets: RelatedSnippetInput[] | undefined;
	if (keys.includes('relatedSnippets')) {
		const at = editor.selection.active;
		snippets = recording?.relatedSnippets
			? await recording.relatedSnippets.get(document, at, options.snippetBudgetMs)
			: (
					await collectRelatedSnippets(document, at, {
						maxCount: contextMaxCount(profile, 'relatedSnippets')!,
						budgetMs: options.snippetBudgetMs,
						maxFileBytes: options.maxFileBytes,
						token: options.token,
					})
				).snippets;
		if (options.extraSnippets) {
			snippets = mergeSnippets(snippets, await options.extraSnippets(document, options.maxFileBytes).catch(() => []));
		}
	}
	// Everything else is read after the only wait, in one go, so it all describes the same moment.
	const selection = editor.selection;
	const converter = documentConverter(document, profile.encoding);
	const uri = document.uri.toString();
	const params: Record<string, unknown> = {
		uri,
		version: document.version,
		position: converter.toAgentPosition(selection.active),
	};
	if (!selection.isEmpty) {
		params.selection = converter.toAgentRange(selection);
	}
	params.triggerKind = options.triggerKind;
	if (keys.length === 0) {
		return params;
	}
	const loaded = new Map<string, vscode.TextDocument>();
	for (const d of vscode.workspace.textDocuments) {
		if (d.uri.scheme === 'file') {
			loaded.set(d.uri.toString(), d);
		}
	}
	const small = (d: vscode.TextDocument) => withinSize(d, options.maxFileBytes);
	const inputs: { -readonly [K in keyof ContextInputs]: ContextInputs[K] } = {};
	for (const key of keys) {
		switch (key) {
			case 'recentFiles':
				inputs.recentFiles = recentFiles(document, recording, loaded, small, contextMaxCount(profile, key)!);
				break;
			case 'relatedSnippets':
				inputs.relatedSnippets = snippets;
				break;
			case 'editHistory':
				inputs.editHistory = recording?.editHistory;
				inputs.pathOf = (u) => vscode.workspace.asRelativePath(vscode.Uri.parse(u), false);
				break;
			case 'userActions':
				inputs.userActions = recording?.userActions;
				break;
			case 'openFiles':
				inputs.openFiles = openFiles(recording, loaded, profile.encoding);
				break;
			case 'diagnostics':
				inputs.diagnostics = { items: diagnostics(uri, loaded, profile.encoding), cursor: { uri, line: selection.active.line } };
				break;
		}
	}
	params.context = assembleSuggestContext(profile, inputs);
	return params;
}

/** Whether `document` is at most `maxBytes` in UTF-8, without encoding it when its length settles it. */
export function withinSize(document: vscode.TextDocument, maxBytes: number): boolean {
	const units = document.offsetAt(document.lineAt(document.lineCount - 1).range.end);
	// A UTF-16 code unit is 1 to 3 UTF-8 bytes (a surrogate pair, 2 units, is 4).
	if (units > maxBytes) {
		return false;
	}
	return units * 3 <= maxBytes || Buffer.byteLength(document.getText(), 'utf8') <= maxBytes;
}

/** Whether `uri` lies inside one of the workspace folders (only those get suggestions). */
export function inWorkspace(uri: vscode.Uri): boolean {
	return isInsideFolders(uri.toString(), (vscode.workspace.workspaceFolders ?? []).map((f) => f.uri.toString()));
}

/** The active file first, then the files focused during the session, as the editor has them now. */
function recentFiles(
	current: vscode.TextDocument,
	recording: Recording | undefined,
	loaded: ReadonlyMap<string, vscode.TextDocument>,
	small: (d: vscode.TextDocument) => boolean,
	max: number,
): RecentFileInput[] {
	const uris = [current.uri.toString(), ...(recording?.recentlyFocused() ?? [])];
	const result: RecentFileInput[] = [];
	const seen = new Set<string>();
	for (const uri of uris) {
		const d = loaded.get(uri);
		if (seen.has(uri) || !d || !small(d)) {
			continue;
		}
		seen.add(uri);
		result.push({ uri, languageId: d.languageId, text: head(d, DEFAULT_CONTEXT_LIMITS.recentFileChars) });
		if (result.length >= max) {
			break;
		}
	}
	return result;
}

/** The start of a document, without copying all of a large one. */
function head(document: vscode.TextDocument, maxChars: number): string {
	const end = document.positionAt(maxChars);
	return capText(document.getText(new vscode.Range(0, 0, end.line, end.character)), maxChars);
}

/** Files open in tabs that the editor has loaded, with their visible range and last focus. */
function openFiles(recording: Recording | undefined, loaded: ReadonlyMap<string, vscode.TextDocument>, encoding: NesSession['profile']['encoding']): OpenFileInput[] {
	const visible = new Map<string, vscode.TextEditor>();
	for (const editor of vscode.window.visibleTextEditors) {
		visible.set(editor.document.uri.toString(), editor);
	}
	const result: OpenFileInput[] = [];
	const seen = new Set<string>();
	for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
		if (!(tab.input instanceof vscode.TabInputText)) {
			continue;
		}
		const uri = tab.input.uri.toString();
		const document = loaded.get(uri);
		if (!document || seen.has(uri)) {
			continue;
		}
		seen.add(uri);
		const ranges = visible.get(uri)?.visibleRanges;
		const first = ranges?.[0];
		const last = ranges?.[ranges.length - 1];
		result.push({
			uri,
			languageId: document.languageId,
			visibleRange: first && last ? documentConverter(document, encoding).toAgentRange(new vscode.Range(first.start, last.end)) : null,
			lastFocusedMs: recording?.lastFocusedMs(uri) ?? null,
		});
	}
	return result;
}

/** Diagnostics of loaded `file:` documents: all of the current file's, errors and warnings of the others. */
function diagnostics(current: string, loaded: ReadonlyMap<string, vscode.TextDocument>, encoding: NesSession['profile']['encoding']): DiagnosticInput[] {
	const result: DiagnosticInput[] = [];
	for (const [uri, list] of vscode.languages.getDiagnostics()) {
		const key = uri.toString();
		const document = loaded.get(key);
		if (!document) {
			continue;
		}
		const converter = documentConverter(document, encoding);
		for (const d of list) {
			if (key !== current && d.severity > vscode.DiagnosticSeverity.Warning) {
				continue;
			}
			result.push({ uri: key, range: converter.toAgentRange(d.range), severity: severityName(d.severity), message: d.message });
		}
	}
	return result;
}

/** Converts suggestions to UTF-16 positions against the current text of the files they name. */
export async function toEditorCoordinates(suggestions: readonly NesSuggestion[], encoding: PositionEncoding): Promise<NesSuggestion[]> {
	const documents = new Map<string, vscode.TextDocument | undefined>();
	for (const uri of new Set(suggestions.map(suggestionUri))) {
		if (uri === undefined || documents.has(uri)) {
			continue;
		}
		const parsed = vscode.Uri.parse(uri, false);
		const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === parsed.toString());
		documents.set(uri, open ?? (parsed.scheme === 'file' ? await vscode.workspace.openTextDocument(parsed).then((d) => d, () => undefined) : undefined));
	}
	return suggestionsFromAgent(suggestions, (uri) => {
		const document = documents.get(uri);
		return document && documentConverter(document, encoding);
	});
}

/** Adds `extra` after `snippets`: excerpts of a file already there join its entry, unless they overlap one. */
export function mergeSnippets(snippets: readonly RelatedSnippetInput[], extra: readonly RelatedSnippetInput[]): RelatedSnippetInput[] {
	const merged = snippets.map((s) => ({ uri: s.uri, excerpts: [...s.excerpts] }));
	for (const snippet of extra) {
		const same = merged.find((s) => s.uri === snippet.uri);
		if (!same) {
			merged.push({ uri: snippet.uri, excerpts: [...snippet.excerpts] });
			continue;
		}
		for (const excerpt of snippet.excerpts) {
			if (!same.excerpts.some((e) => e.startLine <= excerpt.endLine && excerpt.startLine <= e.endLine)) {
				same.excerpts.push(excerpt);
			}
		}
	}
	return merged;
}
