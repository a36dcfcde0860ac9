/**
 * The editor tools as VS Code answers them (src/common/editorTools.ts): files through the file
 * system, everything else through the language features VS Code already has
 * (`vscode.executeDefinitionProvider` and friends), diagnostics from `languages.getDiagnostics`.
 * Every path is checked to be inside a workspace folder, symbolic links followed. Nothing writes.
 */
import * as fs from 'node:fs';
import * as path from 'node:path';
import ignore, { type Ignore } from 'ignore';
import * as vscode from 'vscode';
import { EditorToolError, MAX_LIST_RESULTS, DEFAULT_BINARY_READ_BYTES, DEFAULT_GLOB_RESULTS, isPathInside, type EditorToolsBackend, type ToolLocation, type ToolRange } from '../../common/editorTools';
import { tabUris } from '../tabs';

const caseInsensitive = process.platform === 'win32' || process.platform === 'darwin';

const asToolRange = (range: vscode.Range): ToolRange => ({
	start: { line: range.start.line + 1, character: range.start.character + 1 },
	end: { line: range.end.line + 1, character: range.end.character + 1 },
});

const severityName: Record<vscode.DiagnosticSeverity, string> = {
	[vscode.DiagnosticSeverity.Error]: 'error',
	[vscode.DiagnosticSeverity.Warning]: 'warning',
	[vscode.DiagnosticSeverity.Information]: 'information',
	[vscode.DiagnosticSeverity.Hint]: 'hint',
};

function fileFolders(): readonly vscode.WorkspaceFolder[] {
	return (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file');
}

/** The real path of `p`, or of its deepest existing ancestor with the rest appended (for paths that do not exist yet). */
async function realPathOf(p: string): Promise<string> {
	const rest: string[] = [];
	let current = p;
	for (;;) {
		try {
			return path.join(await fs.promises.realpath(current), ...rest.reverse());
		} catch {
			const parent = path.dirname(current);
			if (parent === current) {
				return p;
			}
			rest.push(path.basename(current));
			current = parent;
		}
	}
}

/**
 * `input` (absolute, relative to the first folder, or a `file:` URI) as an absolute path inside a
 * workspace folder, also once symbolic links are followed; an {@link EditorToolError} otherwise.
 */
export async function workspacePath(input: string): Promise<string> {
	const folders = fileFolders();
	if (folders.length === 0) {
		throw new EditorToolError('No workspace folder is open: editor tools answer only for files inside the workspace folders.');
	}
	let absolute: string;
	if (/^file:\/\//i.test(input)) {
		absolute = vscode.Uri.parse(input).fsPath;
	} else if (path.isAbsolute(input)) {
		absolute = path.normalize(input);
	} else {
		absolute = path.resolve(folders[0]!.uri.fsPath, input);
	}
	const names = folders.map((f) => f.uri.fsPath).join(', ');
	if (!folders.some((f) => isPathInside(absolute, f.uri.fsPath, caseInsensitive))) {
		throw new EditorToolError(`${input} is outside the workspace folders (${names}); editor tools answer only inside them.`);
	}
	const real = await realPathOf(absolute);
	const realFolders = await Promise.all(folders.map((f) => realPathOf(f.uri.fsPath)));
	if (!realFolders.some((f) => isPathInside(real, f, caseInsensitive))) {
		throw new EditorToolError(`${input} leads outside the workspace folders (to ${real}) through a symbolic link; editor tools answer only inside them.`);
	}
	return absolute;
}

async function existingFile(input: string): Promise<vscode.Uri> {
	const file = await workspacePath(input);
	const stat = await fs.promises.stat(file).catch(() => undefined);
	if (!stat) {
		throw new EditorToolError(`${input} does not exist.`);
	}
	if (stat.isDirectory()) {
		throw new EditorToolError(`${input} is a directory, not a file.`);
	}
	return vscode.Uri.file(file);
}

const asLocation = (location: vscode.Location | vscode.LocationLink): ToolLocation =>
	'targetUri' in location ? { path: location.targetUri.fsPath, range: asToolRange(location.targetSelectionRange ?? location.targetRange) } : { path: location.uri.fsPath, range: asToolRange(location.range) };

/** A glob of the keys set to `true` in an exclude setting (`files.exclude`, `search.exclude`); conditional entries are skipped. */
function excludeGlobs(section: string, scope: vscode.Uri | undefined): string[] {
	const value = vscode.workspace.getConfiguration(section.split('.')[0], scope).get<Record<string, unknown>>(section.split('.')[1]!) ?? {};
	return Object.entries(value)
		.filter(([, on]) => on === true)
		.map(([glob]) => glob);
}

/** The .gitignore rules of each folder on the way from `folder` to a file, read once per search. */
class IgnoreFiles {
	private readonly byDir = new Map<string, Promise<Ignore | undefined>>();

	private rules(dir: string): Promise<Ignore | undefined> {
		let rules = this.byDir.get(dir);
		if (!rules) {
			rules = fs.promises.readFile(path.join(dir, '.gitignore'), 'utf8').then(
				(text) => ignore().add(text),
				() => undefined,
			);
			this.byDir.set(dir, rules);
		}
		return rules;
	}

	/** Whether a .gitignore between `folder` and `file` (both absolute) ignores it. */
	async ignores(folder: string, file: string): Promise<boolean> {
		const relative = path.relative(folder, file).split(path.sep);
		for (let depth = 0; depth < relative.length; depth++) {
			const dir = path.join(folder, ...relative.slice(0, depth));
			const rules = await this.rules(dir);
			const rest = relative.slice(depth).join('/');
			if (rules?.ignores(rest)) {
				return true;
			}
			// A directory on the way that is ignored hides everything in it.
			for (let i = 1; i < relative.length - depth; i++) {
				if (rules?.ignores(`${relative.slice(depth, depth + i).join('/')}/`)) {
					return true;
				}
			}
		}
		return false;
	}
}

async function globSearch(pattern: string, maxResults: number): Promise<unknown> {
	const folders = fileFolders();
	if (folders.length === 0) {
		throw new EditorToolError('No workspace folder is open.');
	}
	if (path.isAbsolute(pattern) || pattern.split(/[\\/]/).includes('..')) {
		throw new EditorToolError(`The pattern ${pattern} is not relative to the workspace: give a glob such as "src/**/*.ts".`);
	}
	const scope = folders[0]!.uri;
	// Passing an exclude replaces files.exclude, so it is part of it, with search.exclude as VS Code's search does.
	const excludes = [...new Set([...excludeGlobs('files.exclude', scope), ...excludeGlobs('search.exclude', scope)])];
	const exclude = excludes.length > 0 ? `{${excludes.join(',')}}` : null;
	const useIgnoreFiles = vscode.workspace.getConfiguration('search', scope).get<boolean>('useIgnoreFiles', true);
	const ignoreFiles = new IgnoreFiles();
	const files: { path: string; absolute: string }[] = [];
	let truncated = false;
	for (const folder of folders) {
		// More than asked for, since .gitignore may drop some.
		const limit = useIgnoreFiles ? maxResults * 4 + 50 : maxResults + 1;
		const found = await vscode.workspace.findFiles(new vscode.RelativePattern(folder, pattern), exclude, limit);
		// The search stopped at its limit: there may be more than the files kept.
		truncated ||= found.length >= limit;
		found.sort((a, b) => (a.fsPath < b.fsPath ? -1 : a.fsPath > b.fsPath ? 1 : 0));
		for (const uri of found) {
			if (useIgnoreFiles && (await ignoreFiles.ignores(folder.uri.fsPath, uri.fsPath))) {
				continue;
			}
			if (files.length === maxResults) {
				truncated = true;
				break;
			}
			const relative = path.relative(folder.uri.fsPath, uri.fsPath).split(path.sep).join('/');
			files.push({ path: folders.length > 1 ? `${folder.name}/${relative}` : relative, absolute: uri.fsPath });
		}
		if (files.length === maxResults) {
			// Folders not searched may hold more.
			truncated ||= folder !== folders.at(-1);
			break;
		}
	}
	return { files, truncated };
}

type DocumentSymbolOut = { name: string; kind: string; detail?: string; range: ToolRange; children?: DocumentSymbolOut[] };

function documentSymbolOut(symbol: vscode.DocumentSymbol | vscode.SymbolInformation): DocumentSymbolOut {
	if ('children' in symbol) {
		return {
			name: symbol.name,
			kind: vscode.SymbolKind[symbol.kind],
			...(symbol.detail ? { detail: symbol.detail } : {}),
			range: asToolRange(symbol.range),
			...(symbol.children.length > 0 ? { children: symbol.children.map(documentSymbolOut) } : {}),
		};
	}
	return { name: symbol.name, kind: vscode.SymbolKind[symbol.kind], range: asToolRange(symbol.location.range) };
}

function hoverText(content: vscode.MarkdownString | vscode.MarkedString): string {
	if (typeof content === 'string') {
		return content;
	}
	if ('language' in content) {
		return `\`\`\`${content.language}\n${content.value}\n\`\`\``;
	}
	return content.value;
}

/** A position of a tool's arguments (1-based) in `document`, checked to be inside it. */
async function positionIn(args: { path: string; line: number; character: number }): Promise<{ uri: vscode.Uri; position: vscode.Position }> {
	const uri = await existingFile(args.path);
	const document = await vscode.workspace.openTextDocument(uri);
	if (args.line > document.lineCount) {
		throw new EditorToolError(`${args.path} has ${document.lineCount} lines; line ${args.line} is past its end.`);
	}
	return { uri, position: new vscode.Position(args.line - 1, Math.min(args.character - 1, document.lineAt(args.line - 1).text.length)) };
}

const statTool: EditorToolsBackend['stat'] = async ({ path: input }) => {
	const file = await workspacePath(input);
	const stat = await fs.promises.stat(file).catch(() => undefined);
	if (!stat) {
		return { path: file, exists: false };
	}
	return { path: file, exists: true, isDirectory: stat.isDirectory(), isFile: stat.isFile(), size: stat.size, modified: stat.mtime.toISOString() };
};

const readBinaryFile: EditorToolsBackend['read_binary_file'] = async ({ path: input, byteOffset = 0, byteLimit = DEFAULT_BINARY_READ_BYTES }) => {
	const uri = await existingFile(input);
	const handle = await fs.promises.open(uri.fsPath, 'r');
	try {
		const size = (await handle.stat()).size;
		const length = Math.max(0, Math.min(byteLimit, size - byteOffset));
		const buffer = Buffer.alloc(length);
		const { bytesRead } = length > 0 ? await handle.read(buffer, 0, length, byteOffset) : { bytesRead: 0 };
		return { path: uri.fsPath, size, byteOffset, bytesRead, endOfFile: byteOffset + bytesRead >= size, base64: buffer.subarray(0, bytesRead).toString('base64') };
	} finally {
		await handle.close();
	}
};

const getDiagnostics: EditorToolsBackend['get_diagnostics'] = async ({ path: input }) => {
	const file = input === undefined ? undefined : await existingFile(input);
	const entries: [vscode.Uri, readonly vscode.Diagnostic[]][] = file ? [[file, vscode.languages.getDiagnostics(file)]] : vscode.languages.getDiagnostics();
	const folders = fileFolders();
	const diagnostics = [];
	let total = 0;
	for (const [uri, list] of entries) {
		// The workspace-wide list keeps to the folders (language servers report library files too).
		if (input === undefined && (uri.scheme !== 'file' || !folders.some((f) => isPathInside(uri.fsPath, f.uri.fsPath, caseInsensitive)))) {
			continue;
		}
		for (const d of list) {
			total++;
			if (diagnostics.length < MAX_LIST_RESULTS) {
				const code = typeof d.code === 'object' ? d.code.value : d.code;
				diagnostics.push({ path: uri.fsPath, severity: severityName[d.severity], message: d.message, range: asToolRange(d.range), ...(d.source ? { source: d.source } : {}), ...(code !== undefined ? { code } : {}) });
			}
		}
	}
	return { diagnostics, ...(total > diagnostics.length ? { truncated: true, total } : {}) };
};

const findSymbols: EditorToolsBackend['find_symbols'] = async ({ query, maxResults = 100 }) => {
	const found = (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)) ?? [];
	const folders = fileFolders();
	const inside = found.filter((s) => s.location.uri.scheme === 'file' && folders.some((f) => isPathInside(s.location.uri.fsPath, f.uri.fsPath, caseInsensitive)));
	return {
		symbols: inside.slice(0, maxResults).map((s) => ({ name: s.name, kind: vscode.SymbolKind[s.kind], ...(s.containerName ? { containerName: s.containerName } : {}), path: s.location.uri.fsPath, range: asToolRange(s.location.range) })),
		...(inside.length > maxResults ? { truncated: true } : {}),
	};
};

const documentSymbols: EditorToolsBackend['document_symbols'] = async ({ path: input }) => {
	const uri = await existingFile(input);
	await vscode.workspace.openTextDocument(uri);
	const symbols = (await vscode.commands.executeCommand<(vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined>('vscode.executeDocumentSymbolProvider', uri)) ?? [];
	return { path: uri.fsPath, symbols: symbols.map(documentSymbolOut) };
};

const goToDefinition: EditorToolsBackend['go_to_definition'] = async (args) => {
	const { uri, position } = await positionIn(args);
	const found = (await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', uri, position)) ?? [];
	return { locations: found.slice(0, MAX_LIST_RESULTS).map(asLocation) };
};

const findReferences: EditorToolsBackend['find_references'] = async (args) => {
	const { uri, position } = await positionIn(args);
	const found = (await vscode.commands.executeCommand<vscode.Location[] | undefined>('vscode.executeReferenceProvider', uri, position)) ?? [];
	const locations = found.map(asLocation);
	// The providers include the declaration; leave it out when asked to.
	const declarations = args.includeDeclaration === false ? ((await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>('vscode.executeDefinitionProvider', uri, position)) ?? []).map(asLocation) : [];
	const same = (a: ToolLocation, b: ToolLocation) => a.path === b.path && a.range.start.line === b.range.start.line && a.range.start.character === b.range.start.character;
	const kept = locations.filter((l) => !declarations.some((d) => same(l, d)));
	return { locations: kept.slice(0, MAX_LIST_RESULTS), ...(kept.length > MAX_LIST_RESULTS ? { truncated: true, total: kept.length } : {}) };
};

const hoverTool: EditorToolsBackend['hover'] = async (args) => {
	const { uri, position } = await positionIn(args);
	const hovers = (await vscode.commands.executeCommand<vscode.Hover[] | undefined>('vscode.executeHoverProvider', uri, position)) ?? [];
	return { contents: hovers.flatMap((h) => h.contents.map(hoverText)).filter((t) => t.trim() !== '') };
};

const getSelection: EditorToolsBackend['get_selection'] = async () => {
	const editor = vscode.window.activeTextEditor;
	if (!editor || editor.document.uri.scheme !== 'file') {
		return { editor: null };
	}
	const { document } = editor;
	return {
		editor: {
			path: document.uri.fsPath,
			languageId: document.languageId,
			isDirty: document.isDirty,
			selections: editor.selections.map((s) => ({ range: asToolRange(s), text: document.getText(s).slice(0, 100_000) })),
		},
	};
};

const getOpenEditors: EditorToolsBackend['get_open_editors'] = async () => {
	const active = vscode.window.activeTextEditor?.document.uri.toString();
	const visible = new Set(vscode.window.visibleTextEditors.map((e) => e.document.uri.toString()));
	const dirty = new Set(vscode.workspace.textDocuments.filter((d) => d.isDirty).map((d) => d.uri.toString()));
	const seen = new Set<string>();
	const editors = [];
	for (const group of vscode.window.tabGroups.all) {
		for (const tab of group.tabs) {
			const uri = tabUris(tab.input)[0];
			if (!uri || uri.scheme !== 'file' || seen.has(uri.toString())) {
				continue;
			}
			seen.add(uri.toString());
			const key = uri.toString();
			editors.push({ path: uri.fsPath, isActive: key === active, isVisible: visible.has(key), isDirty: dirty.has(key) || tab.isDirty });
		}
	}
	return { editors };
};

/** The editor tools as this VS Code window answers them. */
export function vscodeEditorToolsBackend(): EditorToolsBackend {
	return {
		stat: statTool,
		glob_search: ({ pattern, maxResults }) => globSearch(pattern, maxResults ?? DEFAULT_GLOB_RESULTS),
		read_binary_file: readBinaryFile,
		get_diagnostics: getDiagnostics,
		find_symbols: findSymbols,
		document_symbols: documentSymbols,
		go_to_definition: goToDefinition,
		find_references: findReferences,
		hover: hoverTool,
		get_selection: getSelection,
		get_open_editors: getOpenEditors,
	};
}
