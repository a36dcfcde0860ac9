/**
 * The `context` of `nes/suggest` (`shared/specs/protocols.md` §2): only the
 * keys the agent declared under `nes.context`, each list at most its
 * `maxCount` long (a default when the agent gave none, never more than a
 * ceiling of ours) and every text within a size cap.
 *
 * The vscode layer gathers the raw material (positions already in the agent's
 * encoding) for the declared keys only; this module bounds, orders and shapes
 * it. Pure: no `vscode`, no Node built-ins.
 */
import type { EditHistoryEntry, EditHistoryLimits } from './editHistory';
import { NES_CONTEXT_KEYS, type NesContextKey, type NesProfile, type Range } from './protocol';
import { userActionsForRevision, type RecordedUserAction } from './userActions';

export interface ContextLimits {
	/** Used when the agent declared a key without `maxCount`. */
	readonly defaultMaxCount: Readonly<Record<NesContextKey, number>>;
	/** Never more than this, whatever `maxCount` the agent asked for. */
	readonly ceiling: Readonly<Record<NesContextKey, number>>;
	/** A recent file's text is cut (at a line break) after this many UTF-16 code units… */
	readonly recentFileChars: number;
	/** …and no more files are added once their texts reach this. */
	readonly recentFilesTotalChars: number;
	/** Excerpts of one related snippet. */
	readonly excerptsPerSnippet: number;
	/** Lines of one excerpt. */
	readonly excerptLines: number;
	/** UTF-16 code units of one excerpt. */
	readonly excerptChars: number;
	/** UTF-16 code units of all excerpts. */
	readonly snippetsTotalChars: number;
	/** UTF-8 bytes of all edit-history diffs, and of one. */
	readonly editHistoryBytes: number;
	readonly editEntryBytes: number;
	/** UTF-16 code units of a diagnostic message. */
	readonly diagnosticMessageChars: number;
}

export const DEFAULT_CONTEXT_LIMITS: ContextLimits = Object.freeze({
	defaultMaxCount: Object.freeze({ recentFiles: 5, relatedSnippets: 8, editHistory: 10, userActions: 16, openFiles: 20, diagnostics: 20 }),
	ceiling: Object.freeze({ recentFiles: 20, relatedSnippets: 20, editHistory: 50, userActions: 64, openFiles: 50, diagnostics: 100 }),
	recentFileChars: 32 * 1024,
	recentFilesTotalChars: 128 * 1024,
	excerptsPerSnippet: 4,
	excerptLines: 40,
	excerptChars: 2048,
	snippetsTotalChars: 16 * 1024,
	editHistoryBytes: 16 * 1024,
	editEntryBytes: 4 * 1024,
	diagnosticMessageChars: 500,
});

/** The context keys `profile` declared, in protocol order. */
export function declaredContextKeys(profile: Pick<NesProfile, 'context'>): NesContextKey[] {
	return NES_CONTEXT_KEYS.filter((key) => profile.context[key] !== undefined);
}

/**
 * How many items of `key` may be sent: the agent's `maxCount` when it is a
 * positive integer, else our default; at most our ceiling. `undefined` when the
 * key was not declared.
 */
export function contextMaxCount(profile: Pick<NesProfile, 'context'>, key: NesContextKey, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): number | undefined {
	const declared = profile.context[key];
	if (declared === undefined) {
		return undefined;
	}
	// Keys without `maxCount` in the schema still pass unknown fields through: check it here.
	const asked: unknown = declared.maxCount;
	const count = typeof asked === 'number' && Number.isInteger(asked) && asked > 0 ? asked : limits.defaultMaxCount[key];
	return Math.min(count, limits.ceiling[key]);
}

/** A recently focused file, most recent first. */
export interface RecentFileInput {
	readonly uri: string;
	readonly languageId: string;
	readonly text: string;
}

/** A related excerpt; `endLine` is the last line it contains. */
export interface ExcerptInput {
	readonly startLine: number;
	readonly endLine: number;
	readonly text: string;
}

/** Excerpts of one file, most relevant first. */
export interface RelatedSnippetInput {
	readonly uri: string;
	readonly excerpts: readonly ExcerptInput[];
}

/** An open file; `visibleRange` in the agent's encoding, `null` when not visible. */
export interface OpenFileInput {
	readonly uri: string;
	readonly languageId: string;
	readonly visibleRange: Range | null;
	readonly lastFocusedMs: number | null;
}

export type DiagnosticSeverityName = 'error' | 'warning' | 'information' | 'hint';

/** A diagnostic; `range` in the agent's encoding. */
export interface DiagnosticInput {
	readonly uri: string;
	readonly range: Range;
	readonly severity: DiagnosticSeverityName;
	readonly message: string;
}

/** The raw material of each key; keys the agent did not declare are never read. */
export interface ContextInputs {
	readonly recentFiles?: readonly RecentFileInput[];
	readonly relatedSnippets?: readonly RelatedSnippetInput[];
	readonly editHistory?: { entries(limits: EditHistoryLimits): EditHistoryEntry[] };
	readonly userActions?: { recent(maxCount: number): RecordedUserAction[] };
	readonly openFiles?: readonly OpenFileInput[];
	readonly diagnostics?: { readonly items: readonly DiagnosticInput[]; readonly cursor: { readonly uri: string; readonly line: number } };
	/** The path edit-history diffs show for a file. */
	readonly pathOf?: (uri: string) => string;
}

/**
 * The `context` object for `profile`: exactly its declared keys (an empty list
 * when there is nothing to say), bounded by {@link contextMaxCount} and `limits`.
 */
export function assembleSuggestContext(profile: Pick<NesProfile, 'context' | 'revision'>, inputs: ContextInputs, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): Record<string, unknown> {
	const context: Record<string, unknown> = {};
	for (const key of declaredContextKeys(profile)) {
		const max = contextMaxCount(profile, key, limits)!;
		switch (key) {
			case 'recentFiles':
				context.recentFiles = boundRecentFiles(inputs.recentFiles ?? [], max, limits);
				break;
			case 'relatedSnippets':
				context.relatedSnippets = boundSnippets(inputs.relatedSnippets ?? [], max, limits);
				break;
			case 'editHistory':
				context.editHistory =
					inputs.editHistory?.entries({ maxCount: max, maxBytes: limits.editHistoryBytes, maxEntryBytes: limits.editEntryBytes, pathOf: inputs.pathOf }) ?? [];
				break;
			case 'userActions':
				context.userActions = userActionsForRevision(profile.revision, inputs.userActions?.recent(max) ?? []);
				break;
			case 'openFiles':
				context.openFiles = orderOpenFiles(inputs.openFiles ?? []).slice(0, max);
				break;
			case 'diagnostics':
				context.diagnostics = inputs.diagnostics ? orderDiagnostics(inputs.diagnostics.items, inputs.diagnostics.cursor, limits).slice(0, max) : [];
				break;
		}
	}
	return context;
}

/** `text` cut after at most `maxChars` code units, at a line break when there is one (so line numbers stay true). */
export function capText(text: string, maxChars: number): string {
	if (text.length <= maxChars) {
		return text;
	}
	const cut = text.lastIndexOf('\n', maxChars - 1);
	return cut > 0 ? text.slice(0, cut + 1) : cutCodeUnits(text, maxChars);
}

function boundRecentFiles(files: readonly RecentFileInput[], max: number, limits: ContextLimits): RecentFileInput[] {
	const result: RecentFileInput[] = [];
	let total = 0;
	for (const file of files) {
		if (result.length >= max || total >= limits.recentFilesTotalChars) {
			break;
		}
		const text = capText(file.text, Math.min(limits.recentFileChars, limits.recentFilesTotalChars - total));
		if (result.length > 0 && text.length < file.text.length && !text.includes('\n')) {
			// What is left of the budget does not hold one line of it.
			break;
		}
		total += text.length;
		result.push({ uri: file.uri, languageId: file.languageId, text });
	}
	return result;
}

function boundSnippets(snippets: readonly RelatedSnippetInput[], max: number, limits: ContextLimits): RelatedSnippetInput[] {
	const result: RelatedSnippetInput[] = [];
	let total = 0;
	for (const snippet of snippets) {
		if (result.length >= max) {
			break;
		}
		const excerpts: ExcerptInput[] = [];
		for (const excerpt of snippet.excerpts) {
			if (excerpts.length >= limits.excerptsPerSnippet) {
				break;
			}
			const clipped = clipExcerpt(excerpt, limits.excerptLines, Math.min(limits.excerptChars, limits.snippetsTotalChars - total));
			if (clipped) {
				total += clipped.text.length;
				excerpts.push(clipped);
			}
		}
		if (excerpts.length > 0) {
			result.push({ uri: snippet.uri, excerpts });
		}
	}
	return result;
}

/** An excerpt cut to `maxLines` lines and `maxChars` code units (at a line break when it can), `endLine` adjusted. */
export function clipExcerpt(excerpt: ExcerptInput, maxLines: number, maxChars: number): ExcerptInput | undefined {
	if (maxChars <= 0 || maxLines <= 0) {
		return undefined;
	}
	let lines = excerpt.text.split('\n');
	if (lines.length > maxLines) {
		lines = lines.slice(0, maxLines);
	}
	let text = lines.join('\n');
	if (text.length > maxChars) {
		const cut = text.lastIndexOf('\n', maxChars);
		text = cut > 0 ? text.slice(0, cut) : cutCodeUnits(text, maxChars);
	}
	const lineCount = text.split('\n').length;
	return { startLine: excerpt.startLine, endLine: Math.min(excerpt.endLine, excerpt.startLine + lineCount - 1), text };
}

/** Most recently focused first; never-focused files last, in the order given. */
export function orderOpenFiles(files: readonly OpenFileInput[]): OpenFileInput[] {
	return [...files].sort((a, b) => (b.lastFocusedMs ?? -Infinity) - (a.lastFocusedMs ?? -Infinity) || 0);
}

const SEVERITY_RANK: Readonly<Record<DiagnosticSeverityName, number>> = { error: 0, warning: 1, information: 2, hint: 3 };

/**
 * The current file's diagnostics first, nearest the cursor first (then by
 * severity); then the other files' errors and warnings, errors first.
 * Information and hints of other files are left out: they rarely explain the
 * next edit and would crowd out the rest.
 */
export function orderDiagnostics(items: readonly DiagnosticInput[], cursor: { readonly uri: string; readonly line: number }, limits: ContextLimits = DEFAULT_CONTEXT_LIMITS): DiagnosticInput[] {
	const distance = (d: DiagnosticInput) => (cursor.line < d.range.start.line ? d.range.start.line - cursor.line : cursor.line > d.range.end.line ? cursor.line - d.range.end.line : 0);
	const here = items.filter((d) => d.uri === cursor.uri).sort((a, b) => distance(a) - distance(b) || SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity]);
	const elsewhere = items
		.filter((d) => d.uri !== cursor.uri && SEVERITY_RANK[d.severity] <= SEVERITY_RANK.warning)
		.sort((a, b) => SEVERITY_RANK[a.severity] - SEVERITY_RANK[b.severity] || (a.uri < b.uri ? -1 : a.uri > b.uri ? 1 : 0) || a.range.start.line - b.range.start.line);
	return [...here, ...elsewhere].map((d) => ({
		uri: d.uri,
		range: { start: { line: d.range.start.line, character: d.range.start.character }, end: { line: d.range.end.line, character: d.range.end.character } },
		severity: d.severity,
		message: d.message.length > limits.diagnosticMessageChars ? `${cutCodeUnits(d.message, limits.diagnosticMessageChars - 1)}…` : d.message,
	}));
}

/** `vscode.DiagnosticSeverity` (Error 0, Warning 1, Information 2, Hint 3) by its protocol name. */
export function severityName(severity: number): DiagnosticSeverityName {
	return severity === 0 ? 'error' : severity === 1 ? 'warning' : severity === 2 ? 'information' : 'hint';
}

// Words that are never worth a definition lookup (keywords of the common languages).
const KEYWORDS = new Set(
	(
		'abstract as async await break case catch class const continue def default delete do elif else enum export extends false final finally fn for ' +
		'from func function if impl implements import in instanceof interface is let match mod module mut namespace new nil None null of package private ' +
		'protected pub public readonly return self Self static struct super switch this throw true True False try type typeof undefined use var void while with yield'
	).split(' '),
);

/** An identifier occurrence: where to ask for its definition. */
export interface IdentifierAt {
	readonly name: string;
	readonly line: number;
	readonly character: number;
}

/**
 * Distinct identifiers on `lines` (zero-based `firstLine` onwards), nearest the
 * cursor first (by line, then by column), keywords and one-letter names left
 * out; at most `max`. Each is given at the middle of its first occurrence.
 */
export function identifiersNear(lines: readonly string[], firstLine: number, cursor: { readonly line: number; readonly character: number }, max: number): IdentifierAt[] {
	const found: { name: string; line: number; character: number; rank: number }[] = [];
	const word = /[A-Za-z_$][\w$]*/g;
	lines.forEach((text, i) => {
		const line = firstLine + i;
		for (const m of text.matchAll(word)) {
			const name = m[0];
			if (name.length < 2 || KEYWORDS.has(name)) {
				continue;
			}
			const start = m.index;
			const column = cursor.character < start ? start - cursor.character : cursor.character > start + name.length ? cursor.character - start - name.length : 0;
			found.push({ name, line, character: start + Math.floor(name.length / 2), rank: Math.abs(line - cursor.line) * 10_000 + column });
		}
	});
	found.sort((a, b) => a.rank - b.rank);
	const seen = new Set<string>();
	const result: IdentifierAt[] = [];
	for (const f of found) {
		if (!seen.has(f.name)) {
			seen.add(f.name);
			result.push({ name: f.name, line: f.line, character: f.character });
			if (result.length >= max) {
				break;
			}
		}
	}
	return result;
}

/** The first `n` code units of `text`, not splitting a surrogate pair. */
function cutCodeUnits(text: string, n: number): string {
	const end = Math.max(0, n);
	const code = text.charCodeAt(end - 1);
	return text.slice(0, code >= 0xd800 && code <= 0xdbff ? end - 1 : end);
}
