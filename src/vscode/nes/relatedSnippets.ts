/**
 * The `relatedSnippets` context of `nes/suggest`: the definitions of the
 * identifiers around the cursor, as excerpts of the files that hold them.
 *
 * Definitions come from the language's definition provider
 * (`vscode.executeDefinitionProvider`); when it gives nothing, the document's
 * symbols with those names stand in. Providers can take hundreds of
 * milliseconds in a large file, so {@link RelatedSnippetsCache} looks them up
 * in the background once the cursor rests, and a request takes what is ready.
 * Every lookup has a time budget: what has not answered by then is left out.
 * Only `file:` documents inside the workspace are excerpted, and a file the
 * editor has not loaded is read from disk rather than opened (opening would
 * tell other extensions, and the agent, that the user opened it). Counts and
 * sizes are bounded again by the context assembler.
 */
import * as vscode from 'vscode';
import { identifiersNear, type ExcerptInput, type IdentifierAt, type RelatedSnippetInput } from '../../common/nes/context';
import type { TextLines } from '../../common/positionEncoding';
import { documentLines } from './positionConverter';

export interface RelatedSnippetOptions {
	/** Files with excerpts, at most. */
	readonly maxCount: number;
	/** Give up on providers that have not answered after this long. */
	readonly budgetMs: number;
	/** Files larger than this are not read. */
	readonly maxFileBytes: number;
	readonly token?: vscode.CancellationToken;
}

// Lines around the cursor whose identifiers are looked up, and how many identifiers at most.
const LINES_AROUND = 3;
const MAX_IDENTIFIERS = 12;
// A definition given only as its name's range grows to this many lines, or to the first blank line.
const NAME_ONLY_LINES = 15;

interface Target {
	readonly uri: vscode.Uri;
	readonly range: vscode.Range;
	/** Only the name was given (a `Location`), not the whole declaration (a `LocationLink`'s `targetRange`). */
	readonly nameOnly: boolean;
}

/** Excerpts found around one cursor position; `complete` when every lookup answered within the budget. */
export interface RelatedSnippetsResult {
	readonly snippets: RelatedSnippetInput[];
	readonly complete: boolean;
}

/** Excerpts of the definitions of the identifiers around `position` in `document`, most relevant file first. */
export async function collectRelatedSnippets(document: vscode.TextDocument, position: vscode.Position, options: RelatedSnippetOptions): Promise<RelatedSnippetsResult> {
	const deadline = Date.now() + options.budgetMs;
	const first = Math.max(0, position.line - LINES_AROUND);
	const last = Math.min(document.lineCount - 1, position.line + LINES_AROUND);
	const lines: string[] = [];
	for (let line = first; line <= last; line++) {
		lines.push(document.lineAt(line).text);
	}
	const identifiers = identifiersNear(lines, first, position, MAX_IDENTIFIERS);
	if (identifiers.length === 0) {
		return { snippets: [], complete: true };
	}
	const answers = await withinBudget(
		identifiers.map((id) => definitions(document, id)),
		deadline,
		options.token,
	);
	let complete = answers.complete;
	let targets = answers.values.flatMap((a) => a ?? []);
	if (targets.length === 0 && complete) {
		const symbols = await withinBudget([symbolTargets(document, identifiers)], deadline, options.token);
		complete = symbols.complete;
		targets = symbols.values[0] ?? [];
	}
	const read = await excerpts(dedupe(targets).filter((t) => isUseful(t, document, position)), options, deadline);
	return { snippets: read.snippets, complete: complete && read.complete };
}

export interface RelatedSnippetsCacheOptions {
	readonly maxCount: number;
	readonly maxFileBytes: number;
	/** Quiet time after the last cursor move before looking up. */
	readonly debounceMs: number;
	/** Budget of a background lookup: nobody waits on it, so it can be generous. */
	readonly budgetMs: number;
}

export const DEFAULT_RELATED_SNIPPETS_CACHE_OPTIONS: Omit<RelatedSnippetsCacheOptions, 'maxCount' | 'maxFileBytes'> = Object.freeze({ debounceMs: 250, budgetMs: 3000 });

interface Lookup {
	readonly uri: string;
	readonly line: number;
	readonly cancel: vscode.CancellationTokenSource;
	readonly result: Promise<RelatedSnippetsResult>;
	settled?: RelatedSnippetsResult;
}

/**
 * Related snippets for the line the cursor rests on, looked up in the
 * background ({@link schedule} on every cursor move; cheap) and handed to a
 * request by {@link get} without waiting when they are ready.
 */
export class RelatedSnippetsCache implements vscode.Disposable {
	private readonly options: RelatedSnippetsCacheOptions;
	private lookup: Lookup | undefined;
	private timer: NodeJS.Timeout | undefined;

	constructor(options: Pick<RelatedSnippetsCacheOptions, 'maxCount' | 'maxFileBytes'> & Partial<RelatedSnippetsCacheOptions>) {
		this.options = { ...DEFAULT_RELATED_SNIPPETS_CACHE_OPTIONS, ...options };
	}

	/** The cursor of `editor` moved: look up its surroundings once it rests. */
	schedule(editor: vscode.TextEditor): void {
		clearTimeout(this.timer);
		this.timer = setTimeout(() => {
			const { document, selection } = editor;
			if (!document.isClosed && !this.matches(document.uri.toString(), selection.active.line)) {
				this.start(document, selection.active);
			}
		}, this.options.debounceMs);
	}

	/**
	 * Snippets for `position`: at once when a complete lookup of its line is
	 * ready; otherwise what a lookup (the one under way, or a new one) finds
	 * within `waitMs`.
	 */
	async get(document: vscode.TextDocument, position: vscode.Position, waitMs: number): Promise<RelatedSnippetInput[]> {
		const uri = document.uri.toString();
		let lookup = this.lookup;
		if (lookup?.settled?.complete && this.matches(uri, position.line)) {
			return lookup.settled.snippets;
		}
		if (!lookup || !this.matches(uri, position.line) || lookup.settled) {
			lookup = this.start(document, position);
		}
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), waitMs)));
		const result = await Promise.race([lookup.result, timeout]);
		clearTimeout(timer);
		return result?.snippets ?? [];
	}

	private matches(uri: string, line: number): boolean {
		return this.lookup !== undefined && this.lookup.uri === uri && this.lookup.line === line;
	}

	private start(document: vscode.TextDocument, position: vscode.Position): Lookup {
		this.lookup?.cancel.cancel();
		const cancel = new vscode.CancellationTokenSource();
		const result = collectRelatedSnippets(document, position, { ...this.options, token: cancel.token }).catch(() => ({ snippets: [], complete: false }));
		const lookup: Lookup = { uri: document.uri.toString(), line: position.line, cancel, result };
		void result.then((settled) => {
			lookup.settled = settled;
			cancel.dispose();
		});
		this.lookup = lookup;
		return lookup;
	}

	dispose(): void {
		clearTimeout(this.timer);
		this.lookup?.cancel.cancel();
		this.lookup = undefined;
	}
}

async function definitions(document: vscode.TextDocument, id: IdentifierAt): Promise<Target[]> {
	const result = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | vscode.Location | undefined>(
		'vscode.executeDefinitionProvider',
		document.uri,
		new vscode.Position(id.line, id.character),
	);
	const list = Array.isArray(result) ? result : result ? [result] : [];
	return list.map((d) =>
		'targetUri' in d ? { uri: d.targetUri, range: d.targetRange, nameOnly: false } : { uri: d.uri, range: d.range, nameOnly: d.range.isSingleLine },
	);
}

/** The fallback: symbols of `document` named like the identifiers. */
async function symbolTargets(document: vscode.TextDocument, identifiers: readonly IdentifierAt[]): Promise<Target[]> {
	const symbols = await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', document.uri);
	const byName = new Map<string, vscode.Range>();
	const visit = (list: readonly (vscode.DocumentSymbol | vscode.SymbolInformation)[]) => {
		for (const s of list) {
			const range = 'location' in s ? s.location.range : s.range;
			if (!byName.has(s.name)) {
				byName.set(s.name, range);
			}
			if ('children' in s) {
				visit(s.children);
			}
		}
	};
	visit(symbols ?? []);
	return identifiers.flatMap((id) => {
		const range = byName.get(id.name);
		return range ? [{ uri: document.uri, range, nameOnly: false }] : [];
	});
}

/** Not the cursor's own surroundings (a declaration, or the function the cursor is in), only workspace files. */
function isUseful(target: Target, document: vscode.TextDocument, position: vscode.Position): boolean {
	if (target.uri.scheme !== 'file' || !vscode.workspace.getWorkspaceFolder(target.uri)) {
		return false;
	}
	return !(target.uri.toString() === document.uri.toString() && target.range.contains(position));
}

function dedupe(targets: readonly Target[]): Target[] {
	const seen = new Set<string>();
	return targets.filter((t) => {
		const key = `${t.uri.toString()}#${t.range.start.line}`;
		if (seen.has(key)) {
			return false;
		}
		seen.add(key);
		return true;
	});
}

async function excerpts(targets: readonly Target[], options: Pick<RelatedSnippetOptions, 'maxCount' | 'maxFileBytes' | 'token'>, deadline: number): Promise<RelatedSnippetsResult> {
	const byFile = new Map<string, { uri: vscode.Uri; targets: Target[] }>();
	for (const t of targets) {
		const key = t.uri.toString();
		let entry = byFile.get(key);
		if (!entry) {
			if (byFile.size >= options.maxCount) {
				continue;
			}
			entry = { uri: t.uri, targets: [] };
			byFile.set(key, entry);
		}
		entry.targets.push(t);
	}
	const files = await withinBudget(
		[...byFile.values()].map(async ({ uri, targets: list }): Promise<RelatedSnippetInput | undefined> => {
			const lines = await fileLines(uri, options.maxFileBytes);
			if (!lines) {
				return undefined;
			}
			const last = lines.lineCount - 1;
			const result: ExcerptInput[] = list.map((t) => {
				const start = Math.min(t.range.start.line, last);
				let end = Math.min(t.range.end.line, last);
				if (t.nameOnly) {
					end = start;
					while (end < last && end - start + 1 < NAME_ONLY_LINES && lines.lineText(end + 1).trim() !== '') {
						end++;
					}
				}
				const text: string[] = [];
				for (let line = start; line <= end; line++) {
					text.push(lines.lineText(line));
				}
				return { startLine: start, endLine: end, text: text.join('\n') };
			});
			return { uri: uri.toString(), excerpts: result };
		}),
		deadline,
		options.token,
	);
	return { snippets: files.values.filter((f) => f !== undefined), complete: files.complete };
}

/** The lines of a file: from the editor when it has it loaded, else from disk (not opened). */
async function fileLines(uri: vscode.Uri, maxFileBytes: number): Promise<TextLines | undefined> {
	const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	if (loaded) {
		return documentLines(loaded);
	}
	try {
		const stat = await vscode.workspace.fs.stat(uri);
		if (stat.size > maxFileBytes) {
			return undefined;
		}
		const lines = new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split(/\r\n|\r|\n/);
		return { lineCount: lines.length, lineText: (line) => lines[line] ?? '' };
	} catch {
		return undefined;
	}
}

/** Each promise's value if it settled successfully before `deadline` (or cancellation), else `undefined`; `complete` when all settled. */
async function withinBudget<T>(promises: readonly Promise<T>[], deadline: number, token: vscode.CancellationToken | undefined): Promise<{ values: (T | undefined)[]; complete: boolean }> {
	const values: (T | undefined)[] = promises.map(() => undefined);
	if (token?.isCancellationRequested) {
		return { values, complete: false };
	}
	let timer: NodeJS.Timeout | undefined;
	let cancelled: vscode.Disposable | undefined;
	const stop = new Promise<false>((resolve) => {
		timer = setTimeout(() => resolve(false), Math.max(0, deadline - Date.now()));
		cancelled = token?.onCancellationRequested(() => resolve(false));
	});
	const all = Promise.all(
		promises.map((p, i) =>
			p.then(
				(value) => {
					values[i] = value;
				},
				() => {},
			),
		),
	).then(() => true);
	const complete = await Promise.race([all, stop]);
	clearTimeout(timer);
	cancelled?.dispose();
	return { values: [...values], complete };
}
