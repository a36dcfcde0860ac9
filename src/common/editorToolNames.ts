/**
 * The editor tools' names (src/common/editorTools.ts has their schemas and descriptions): what the
 * extension's start-up bundle needs to offer the server, without the rest.
 */

/** The name the server has in `session/new`'s `mcpServers`, and in its `initialize` answer. */
export const EDITOR_TOOLS_SERVER_NAME = 'agent-link-editor';

export const EDITOR_TOOL_NAMES = [
	'stat',
	'glob_search',
	'read_binary_file',
	'get_diagnostics',
	'find_symbols',
	'document_symbols',
	'go_to_definition',
	'find_references',
	'hover',
	'get_selection',
	'get_open_editors',
] as const;

export type EditorToolName = (typeof EDITOR_TOOL_NAMES)[number];

/** The tools left on: all but those named in `disabled` (unknown names are ignored). */
export function enabledEditorTools(disabled: readonly string[]): Set<EditorToolName> {
	const off = new Set(disabled);
	return new Set(EDITOR_TOOL_NAMES.filter((name) => !off.has(name)));
}
