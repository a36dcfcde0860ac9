/**
 * The pure half of client editor state (`editorStateProtocol.ts`): which URIs
 * may be shown to an agent and how they are spelled, the bounded list of
 * recent documents, the order of open documents, and the language of a file
 * VS Code has not loaded. The vscode layer feeds it tabs and focus changes.
 */
import { MAX_RECENT_DOCUMENTS, type EditorDocument } from './editorStateProtocol';

// ---------------------------------------------------------------------------
// URIs

/** The parts of a `vscode.Uri` this module needs. */
export interface UriLike {
	readonly scheme: string;
	readonly authority: string;
	/** The platform path (`vscode.Uri.fsPath`). */
	readonly fsPath: string;
}

// Node's `url.pathToFileURL` (20 to 24 agree) encodes what `encodeURI` does, plus these.
const ENCODED_BY_NODE: Readonly<Record<string, string>> = { '?': '%3F', '#': '%23', '~': '%7E' };

function encodePath(path: string): string | undefined {
	try {
		return encodeURI(path).replace(/[?#~]/g, (ch) => ENCODED_BY_NODE[ch]!);
	} catch {
		// A lone surrogate has no UTF-8 form: no URI can name this file exactly.
		return undefined;
	}
}

/**
 * The `file:///` URI of an absolute platform path, spelled as Node's
 * `url.pathToFileURL` spells it, so that `url.fileURLToPath` gives the path
 * back exactly. `vscode.Uri.toString()` is not used: it encodes `:` (so
 * `file:///c%3A/…` on Windows) and lower-cases drive letters, and agents
 * compare URIs as strings.
 *
 * Returns `undefined` for a path that is not absolute, or that no file URI can
 * name (a lone UTF-16 surrogate, a host on a POSIX system).
 */
export function fileUriFromPath(path: string, windows: boolean): string | undefined {
	if (windows) {
		const unc = /^[\\/]{2}([^\\/]+)[\\/]+(.*)$/.exec(path);
		if (unc) {
			const host = encodePath(unc[1]!);
			const rest = encodePath(`/${unc[2]!.replace(/\\/g, '/')}`);
			return host && rest !== undefined && !/[%@:]/.test(host) ? `file://${host}${rest}` : undefined;
		}
		const drive = /^([A-Za-z]):[\\/]/.exec(path);
		if (!drive) {
			return undefined;
		}
		const rest = encodePath(path.slice(2).replace(/\\/g, '/'));
		return rest === undefined ? undefined : `file:///${drive[1]!.toUpperCase()}:${rest}`;
	}
	if (!path.startsWith('/') || path.startsWith('//')) {
		return undefined;
	}
	const encoded = encodePath(path);
	return encoded === undefined ? undefined : `file://${encoded}`;
}

/**
 * The `file:///` URI of a document an agent may see, or `undefined`: only the
 * `file` scheme counts (never `untitled:`, `git:`, `output:`,
 * `vscode-notebook-cell:`, `vscode-userdata:` …).
 */
export function agentFileUri(uri: UriLike, windows: boolean): string | undefined {
	if (uri.scheme !== 'file') {
		return undefined;
	}
	if (uri.authority !== '' && !windows) {
		return undefined;
	}
	return fileUriFromPath(uri.fsPath, windows);
}

// ---------------------------------------------------------------------------
// Recent documents

/** Versioned shape of the recent list in workspace state. */
export interface StoredRecent {
	readonly version: 1;
	readonly documents: readonly EditorDocument[];
}

/**
 * Documents recently opened or focused, most recent first, one entry per URI,
 * never more than `capacity`.
 */
export class RecentDocuments {
	private list: EditorDocument[] = [];
	private ranks: Map<string, number> | undefined;

	constructor(readonly capacity = MAX_RECENT_DOCUMENTS) {}

	/** Most recent first. */
	get documents(): readonly EditorDocument[] {
		return this.list;
	}

	get size(): number {
		return this.list.length;
	}

	/** Moves `document` to the front; returns whether anything changed. */
	touch(document: EditorDocument): boolean {
		const first = this.list[0];
		if (first && first.uri === document.uri && first.languageId === document.languageId) {
			return false;
		}
		const index = this.list.findIndex((d) => d.uri === document.uri);
		if (index !== -1) {
			this.list.splice(index, 1);
		}
		this.list.unshift(document);
		if (this.list.length > this.capacity) {
			this.list.length = this.capacity;
		}
		this.ranks = undefined;
		return true;
	}

	/** Adds `document` at the end if it is absent and there is room; returns whether it was added. */
	append(document: EditorDocument): boolean {
		if (this.list.length >= this.capacity || this.rank(document.uri) !== undefined) {
			return false;
		}
		this.list.push(document);
		this.ranks = undefined;
		return true;
	}

	/** Records a document's new language without changing its place; returns whether anything changed. */
	setLanguage(uri: string, languageId: string): boolean {
		const index = this.rank(uri);
		if (index === undefined || this.list[index]!.languageId === languageId) {
			return false;
		}
		this.list[index] = { uri, languageId };
		return true;
	}

	/** 0 for the most recent document, `undefined` for one not in the list. */
	rank(uri: string): number | undefined {
		if (!this.ranks) {
			this.ranks = new Map(this.list.map((d, i) => [d.uri, i]));
		}
		return this.ranks.get(uri);
	}

	toStored(): StoredRecent {
		return { version: 1, documents: this.list.map((d) => ({ uri: d.uri, languageId: d.languageId })) };
	}

	/**
	 * Restores what {@link toStored} wrote. Workspace state outlives versions of
	 * this extension and can be edited by hand: anything unexpected is dropped,
	 * and the list is cut to `capacity`.
	 */
	static fromStored(value: unknown, capacity = MAX_RECENT_DOCUMENTS): RecentDocuments {
		const recent = new RecentDocuments(capacity);
		if (typeof value !== 'object' || value === null || (value as { version?: unknown }).version !== 1) {
			return recent;
		}
		const documents = (value as { documents?: unknown }).documents;
		if (!Array.isArray(documents)) {
			return recent;
		}
		for (const item of documents as unknown[]) {
			if (typeof item !== 'object' || item === null) {
				continue;
			}
			const { uri, languageId } = item as { uri?: unknown; languageId?: unknown };
			if (typeof uri === 'string' && uri.startsWith('file:///') && typeof languageId === 'string' && languageId !== '') {
				recent.append({ uri, languageId });
			}
		}
		return recent;
	}
}

/**
 * The first `limit` documents of `documents` that still exist, in order.
 * `exists` is asked in batches (in parallel within a batch) and only as far as
 * needed, so a long list with a small limit costs a few checks.
 */
export async function selectExisting(
	documents: readonly EditorDocument[],
	limit: number,
	exists: (uri: string) => boolean | Promise<boolean>,
): Promise<EditorDocument[]> {
	const chosen: EditorDocument[] = [];
	let next = 0;
	while (chosen.length < limit && next < documents.length) {
		const batch = documents.slice(next, next + Math.max(limit - chosen.length, 8));
		next += batch.length;
		const present = await Promise.all(batch.map((d) => exists(d.uri)));
		for (let i = 0; i < batch.length && chosen.length < limit; i++) {
			if (present[i]) {
				chosen.push(batch[i]!);
			}
		}
	}
	return chosen;
}

// ---------------------------------------------------------------------------
// Open documents

/**
 * When each document last had focus, as a sequence number (higher is more
 * recent). Only documents focused in this window session are here; it forgets
 * the oldest when it grows past `capacity`.
 */
export class FocusOrder {
	private seq = 0;
	private readonly order = new Map<string, number>();

	constructor(private readonly capacity = 4 * MAX_RECENT_DOCUMENTS) {}

	focus(uri: string): void {
		// Re-inserting keeps the map in focus order, so the oldest entry is first.
		this.order.delete(uri);
		this.order.set(uri, ++this.seq);
		if (this.order.size > this.capacity) {
			const oldest = this.order.keys().next();
			if (!oldest.done) {
				this.order.delete(oldest.value);
			}
		}
	}

	rank(uri: string): number | undefined {
		return this.order.get(uri);
	}

	get size(): number {
		return this.order.size;
	}
}

/**
 * Open documents, deduplicated, most recently focused first. Documents not
 * focused in this session (tabs restored at startup, tabs opened in the
 * background) follow, in the order of the persisted recent list, then in the
 * order they were given (tab order).
 */
export function orderOpenDocuments<T extends { readonly uri: string }>(
	inTabOrder: Iterable<T>,
	focus: Pick<FocusOrder, 'rank'>,
	recent: Pick<RecentDocuments, 'rank'>,
): T[] {
	const seen = new Set<string>();
	const keyed: { item: T; focus: number; recent: number; index: number }[] = [];
	for (const item of inTabOrder) {
		if (seen.has(item.uri)) {
			continue;
		}
		seen.add(item.uri);
		keyed.push({ item, focus: focus.rank(item.uri) ?? -1, recent: recent.rank(item.uri) ?? Number.MAX_SAFE_INTEGER, index: keyed.length });
	}
	keyed.sort((a, b) => b.focus - a.focus || a.recent - b.recent || a.index - b.index);
	return keyed.map((k) => k.item);
}

// ---------------------------------------------------------------------------
// Languages of files VS Code has not loaded

/** One entry of an extension's `contributes.languages`. */
export interface LanguageContribution {
	readonly id: string;
	readonly extensions?: readonly string[];
	readonly filenames?: readonly string[];
	readonly filenamePatterns?: readonly string[];
	readonly firstLine?: string;
}

/** The language VS Code gives a file nothing claims. */
export const PLAINTEXT = 'plaintext';

interface Claim {
	readonly id: string;
	/** Registration order: later registrations win ties. */
	readonly order: number;
}

interface PatternClaim extends Claim {
	readonly pattern: string;
	readonly regex: RegExp;
	/** The literal end of the pattern (`.json` for `hooks` + `/*.json`): a cheap test before the regex. */
	readonly tail: string;
	/** A pattern with a `/` matches the whole path, else the file name. */
	readonly onPath: boolean;
}

/**
 * One priority level of associations (`files.associations`, or what
 * extensions contribute), indexed so that a lookup costs a few map reads
 * rather than a scan of every language.
 */
class Associations {
	private readonly filenames = new Map<string, string>();
	private readonly extensions = new Map<string, Claim>();
	/** Extensions that do not start with a dot match any ending: rare, so scanned. */
	private readonly endings: (Claim & { readonly ending: string })[] = [];
	private readonly patterns: PatternClaim[] = [];
	private order = 0;

	addFilename(id: string, filename: string): void {
		this.order++;
		this.filenames.set(filename.toLowerCase(), id);
	}

	addExtension(id: string, extension: string): void {
		const lower = extension.toLowerCase();
		if (lower === '') {
			return;
		}
		const claim = { id, order: ++this.order };
		if (lower.startsWith('.')) {
			this.extensions.set(lower, claim);
		} else {
			this.endings.push({ ...claim, ending: lower });
		}
	}

	addPattern(id: string, pattern: string): void {
		const lower = pattern.toLowerCase();
		const tail = /[^*?[\]{},]*$/.exec(lower)![0];
		this.patterns.push({ id, order: ++this.order, pattern: lower, regex: globToRegExp(lower), tail, onPath: lower.includes('/') });
	}

	/** `path` and `filename` lower-case, `/` as separator. */
	match(path: string, filename: string): string | undefined {
		const byName = this.filenames.get(filename);
		if (byName !== undefined) {
			return byName;
		}
		let pattern: PatternClaim | undefined;
		for (const p of this.patterns) {
			const longer = !pattern || p.pattern.length > pattern.pattern.length || (p.pattern.length === pattern.pattern.length && p.order > pattern.order);
			if (longer && filename.endsWith(p.tail) && p.regex.test(p.onPath ? path : filename)) {
				pattern = p;
			}
		}
		if (pattern) {
			return pattern.id;
		}
		// The longest extension: the suffix from the first dot that some language claims.
		let extension: (Claim & { readonly length: number }) | undefined;
		for (let dot = filename.indexOf('.'); dot !== -1 && !extension; dot = filename.indexOf('.', dot + 1)) {
			const claim = this.extensions.get(filename.slice(dot));
			if (claim) {
				extension = { ...claim, length: filename.length - dot };
			}
		}
		for (const e of this.endings) {
			const longer = !extension || e.ending.length > extension.length || (e.ending.length === extension.length && e.order > extension.order);
			if (longer && filename.endsWith(e.ending)) {
				extension = { id: e.id, order: e.order, length: e.ending.length };
			}
		}
		return extension?.id;
	}
}

/**
 * Picks the language VS Code would give a file from its path (and, failing
 * that, its first line), the way VS Code's own `languagesAssociations`
 * does: `files.associations` first, then the languages extensions contribute;
 * within each, an exact file name beats the longest matching pattern, which
 * beats the longest matching extension, and later registrations win ties.
 * First-line patterns count only when the path matched nothing.
 *
 * VS Code has no API that answers this without loading the document
 * (`workspace.openTextDocument` loads the whole file and tells every
 * extension about it), hence this reconstruction from the same inputs.
 */
export class LanguageResolver {
	private readonly user = new Associations();
	private readonly registered = new Associations();
	private readonly firstLines: { readonly id: string; readonly regex: RegExp }[] = [];

	constructor(contributions: Iterable<LanguageContribution>, userAssociations: Readonly<Record<string, unknown>> = {}) {
		for (const language of contributions) {
			for (const extension of language.extensions ?? []) {
				this.registered.addExtension(language.id, extension);
			}
			for (const filename of language.filenames ?? []) {
				this.registered.addFilename(language.id, filename);
			}
			for (const pattern of language.filenamePatterns ?? []) {
				this.registered.addPattern(language.id, pattern);
			}
			if (language.firstLine) {
				try {
					this.firstLines.push({ id: language.id, regex: new RegExp(language.firstLine) });
				} catch {
					// An extension's invalid regular expression is ignored, as VS Code does.
				}
			}
		}
		for (const [pattern, id] of Object.entries(userAssociations)) {
			if (typeof id === 'string' && id !== '' && pattern !== '') {
				this.user.addPattern(id, pattern);
			}
		}
	}

	/** The language for `path` (an absolute platform path), or `undefined` if only the first line can tell. */
	byPath(path: string): string | undefined {
		const lower = path.toLowerCase().replace(/\\/g, '/');
		const filename = lower.slice(lower.lastIndexOf('/') + 1);
		return this.user.match(lower, filename) ?? this.registered.match(lower, filename);
	}

	/** The language claimed by a first-line pattern (a shebang, a doctype …), if any. */
	byFirstLine(line: string): string | undefined {
		return this.firstLines.find((f) => f.regex.test(line))?.id;
	}

	/** Whether any language can be recognised by its first line (else reading it is pointless). */
	get usesFirstLine(): boolean {
		return this.firstLines.length > 0;
	}
}

/**
 * A glob as VS Code's `files.associations` and `filenamePatterns` use them:
 * `*` and `?` within a path segment, `**` across segments, `{a,b}`
 * alternatives, `[…]` character ranges. Anchored at both ends.
 */
export function globToRegExp(glob: string): RegExp {
	let out = '';
	let braces = 0;
	for (let i = 0; i < glob.length; i++) {
		const ch = glob[i]!;
		if (ch === '*') {
			if (glob[i + 1] === '*') {
				// `**/` matches any number of whole segments, including none.
				if (glob[i + 2] === '/') {
					out += '(?:[^/]*/)*';
					i += 2;
				} else {
					out += '.*';
					i += 1;
				}
			} else {
				out += '[^/]*';
			}
		} else if (ch === '?') {
			out += '[^/]';
		} else if (ch === '{') {
			braces++;
			out += '(?:';
		} else if (ch === '}' && braces > 0) {
			braces--;
			out += ')';
		} else if (ch === ',' && braces > 0) {
			out += '|';
		} else if (ch === '[') {
			const end = glob.indexOf(']', i + 1);
			if (end === -1) {
				out += '\\[';
			} else {
				const body = glob.slice(i + 1, end).replace(/^!/, '^').replace(/\\/g, '\\\\');
				out += `[${body}]`;
				i = end;
			}
		} else {
			out += /[.+^$()|\\\]]/.test(ch) || ch === '}' || ch === ',' ? `\\${ch}` : ch;
		}
	}
	out += ')'.repeat(braces);
	try {
		return new RegExp(`^${out}$`);
	} catch {
		return /(?!)/;
	}
}
