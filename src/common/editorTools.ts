/**
 * Editor tools: what VS Code knows (files, diagnostics, symbols, definitions, references, the
 * selection), offered to every chat agent as tools of an MCP server of Agent Link's. This module is
 * the pure part: the tools' names, descriptions and argument schemas, the interface the editor
 * implements ({@link EditorToolsBackend}; tests pass fakes), and one dispatcher that validates the
 * arguments, runs the tool and shapes the answer as an MCP `tools/call` result.
 *
 * Positions are 1-based (line and character), like the lines of ACP's `fs/read_text_file`. Paths are
 * absolute, or relative to the first workspace folder; the editor refuses any outside the folders.
 * Nothing here writes. MCP: https://modelcontextprotocol.io/specification/2025-06-18/server/tools
 */
import * as z from 'zod/mini';
import { EDITOR_TOOL_NAMES, type EditorToolName } from './editorToolNames';

export { EDITOR_TOOLS_SERVER_NAME, EDITOR_TOOL_NAMES, enabledEditorTools, type EditorToolName } from './editorToolNames';

/** Bytes `read_binary_file` returns at most per call (and by default). */
export const MAX_BINARY_READ_BYTES = 1024 * 1024;
export const DEFAULT_BINARY_READ_BYTES = 256 * 1024;
/** Paths `glob_search` returns at most, and by default. */
export const MAX_GLOB_RESULTS = 5000;
export const DEFAULT_GLOB_RESULTS = 200;
/** Symbols, diagnostics and locations listed at most per answer. */
export const MAX_LIST_RESULTS = 1000;

const path = z.string().check(z.trim(), z.minLength(1, 'path must not be empty'));
const positive = z.number().check(z.int(), z.minimum(1));
const position = { path, line: positive, character: positive };
const strict = <T extends z.core.$ZodLooseShape>(shape: T) => z.strictObject(shape);

/** Each tool's arguments. */
export const editorToolArgs = {
	stat: strict({ path }),
	glob_search: strict({ pattern: z.string().check(z.trim(), z.minLength(1, 'pattern must not be empty')), maxResults: z.optional(positive.check(z.maximum(MAX_GLOB_RESULTS))) }),
	read_binary_file: strict({ path, byteOffset: z.optional(z.number().check(z.int(), z.minimum(0))), byteLimit: z.optional(positive.check(z.maximum(MAX_BINARY_READ_BYTES))) }),
	get_diagnostics: strict({ path: z.optional(path) }),
	find_symbols: strict({ query: z.string(), maxResults: z.optional(positive.check(z.maximum(MAX_LIST_RESULTS))) }),
	document_symbols: strict({ path }),
	go_to_definition: strict(position),
	find_references: strict({ ...position, includeDeclaration: z.optional(z.boolean()) }),
	hover: strict(position),
	get_selection: strict({}),
	get_open_editors: strict({}),
} as const satisfies Record<EditorToolName, z.ZodMiniObject>;

export type EditorToolArgs<N extends EditorToolName> = z.infer<(typeof editorToolArgs)[N]>;

export function isEditorToolName(name: string): name is EditorToolName {
	return Object.prototype.hasOwnProperty.call(editorToolArgs, name);
}

const descriptions: Record<EditorToolName, string> = {
	stat: 'Whether a path exists in the workspace, and if so whether it is a file or a directory, its size in bytes and its modification time.',
	glob_search: `Files of the workspace matching a glob pattern (for example "src/**/*.ts"), as VS Code's file search finds them: files.exclude, search.exclude and .gitignore are honoured. At most maxResults paths (default ${DEFAULT_GLOB_RESULTS}).`,
	read_binary_file: `Bytes of a workspace file, base64-encoded, from byteOffset (default 0), at most byteLimit bytes (default ${DEFAULT_BINARY_READ_BYTES}, at most ${MAX_BINARY_READ_BYTES}).`,
	get_diagnostics: 'The problems VS Code knows (errors, warnings, hints from the language extensions and linters) for one file, or for the whole workspace without a path. Lines and characters are 1-based.',
	find_symbols: 'Workspace symbols (classes, functions, variables, …) whose names match the query, from the language extensions. Lines and characters are 1-based.',
	document_symbols: 'The outline of a file: its symbols, nested, with their ranges (1-based).',
	go_to_definition: 'Where the symbol at a position (1-based line and character) is defined.',
	find_references: 'Every reference to the symbol at a position (1-based line and character), across the workspace.',
	hover: 'What the editor shows when hovering a position (1-based line and character): types, signatures, documentation.',
	get_selection: 'The active editor: its file, language and the selected text with its range (1-based), or null when no file editor is active.',
	get_open_editors: 'The files open in editor tabs, which is active, which are visible and which have unsaved changes.',
};

/** What `tools/list` shows for one tool. */
export interface EditorToolInfo {
	readonly name: EditorToolName;
	readonly description: string;
	readonly inputSchema: { readonly type: 'object'; readonly [key: string]: unknown };
}

/** The tools of `enabled`, in the order they are declared here. */
export function editorToolList(enabled: ReadonlySet<EditorToolName>): EditorToolInfo[] {
	return EDITOR_TOOL_NAMES.filter((name) => enabled.has(name)).map((name) => {
		const { $schema: _, ...schema } = z.toJSONSchema(editorToolArgs[name]) as { $schema?: string; [key: string]: unknown };
		return { name, description: descriptions[name], inputSchema: { ...schema, type: 'object' } };
	});
}

/**
 * A refusal the agent should read (a path outside the workspace, a missing file): its message is the
 * answer. Recognized by its name, not `instanceof`: the editor and the server are separate bundles,
 * each with its own copy of this class.
 */
export class EditorToolError extends Error {
	override readonly name = 'EditorToolError';

	static is(error: unknown): error is EditorToolError {
		return error instanceof Error && error.name === 'EditorToolError';
	}
}

/** A 1-based position, and a range of two. */
export interface ToolPosition {
	readonly line: number;
	readonly character: number;
}
export interface ToolRange {
	readonly start: ToolPosition;
	readonly end: ToolPosition;
}
export interface ToolLocation {
	readonly path: string;
	readonly range: ToolRange;
}

/** What the editor does for each tool, with validated arguments. Implemented in src/vscode; tests pass fakes. */
export type EditorToolsBackend = {
	readonly [N in EditorToolName]: (args: EditorToolArgs<N>) => Promise<unknown>;
};

/** MCP's `CallToolResult`, as far as these tools use it. */
export interface EditorToolResult {
	readonly content: { readonly type: 'text'; readonly text: string }[];
	readonly isError?: boolean;
	readonly [key: string]: unknown;
}

/** One call, for the log. */
export interface EditorToolCallRecord {
	readonly tool: string;
	readonly args: string;
	readonly ms: number;
	readonly outcome: 'ok' | 'refused' | 'failed';
	readonly message?: string;
}

const errorResult = (text: string): EditorToolResult => ({ content: [{ type: 'text', text }], isError: true });

/** The arguments in one short line: strings cut at 60 characters, the whole at 200. */
export function summarizeToolArgs(args: unknown): string {
	const text = JSON.stringify(args ?? {}, (_key, value: unknown) => (typeof value === 'string' && value.length > 60 ? `${value.slice(0, 57)}…` : value)) ?? '';
	return text.length > 200 ? `${text.slice(0, 199)}…` : text;
}

/**
 * Runs one `tools/call`: a tool that is unknown or turned off, and arguments that do not fit its
 * schema, are answered with `isError` and a message saying what is wrong (MCP reports tool errors in
 * the result, so the model can read them); so is an {@link EditorToolError}. Any other exception is
 * answered the same way, with its message. `record` gets every call.
 */
export async function callEditorTool(
	backend: EditorToolsBackend,
	enabled: ReadonlySet<EditorToolName>,
	name: string,
	args: unknown,
	record: (call: EditorToolCallRecord) => void,
	now: () => number = Date.now,
): Promise<EditorToolResult> {
	const start = now();
	const done = (outcome: EditorToolCallRecord['outcome'], result: EditorToolResult, message?: string): EditorToolResult => {
		record({ tool: name, args: summarizeToolArgs(args), ms: now() - start, outcome, ...(message ? { message } : {}) });
		return result;
	};
	if (!isEditorToolName(name) || !enabled.has(name)) {
		const message = isEditorToolName(name) ? `The tool ${name} is turned off in this editor (agentLink.editorTools.disabled).` : `There is no tool ${name}. Tools: ${EDITOR_TOOL_NAMES.filter((n) => enabled.has(n)).join(', ')}.`;
		return done('refused', errorResult(message), message);
	}
	const parsed = editorToolArgs[name].safeParse(args ?? {});
	if (!parsed.success) {
		const message = `Invalid arguments for ${name}: ${parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : 'arguments'}: ${issue.message}`).join('; ')}`;
		return done('refused', errorResult(message), message);
	}
	try {
		const run = backend[name] as (a: unknown) => Promise<unknown>;
		const value = await run(parsed.data);
		return done('ok', { content: [{ type: 'text', text: JSON.stringify(value ?? null) }] });
	} catch (error) {
		const message = error instanceof Error ? error.message : String(error);
		return done(EditorToolError.is(error) ? 'refused' : 'failed', errorResult(message), message);
	}
}

/**
 * Whether `child` is `parent` or inside it, for normalized absolute paths of one platform (`/` or
 * `\` separated; compared case-insensitively when `caseInsensitive`, as on Windows and macOS).
 */
export function isPathInside(child: string, parent: string, caseInsensitive = false): boolean {
	const norm = (p: string) => {
		const trimmed = p.length > 1 ? p.replace(/[\\/]+$/, '') : p;
		return caseInsensitive ? trimmed.toLowerCase() : trimmed;
	};
	const c = norm(child);
	const p = norm(parent);
	if (c === p) {
		return true;
	}
	const sep = p.endsWith('/') || p.endsWith('\\') ? '' : c[p.length];
	return c.startsWith(p) && (sep === '/' || sep === '\\' || sep === '');
}
