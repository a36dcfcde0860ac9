/**
 * What dist/editor-tools.js holds: the MCP server (with the SDK) and the editor's answers to its
 * tools (with the .gitignore matcher). The extension loads it when the first chat session starts, so
 * none of it weighs on activation.
 */
import { createEditorToolsServer, type EditorToolsServer, type EditorToolsServerOptions } from '../../node/editorTools/server';
import { vscodeEditorToolsBackend } from './backend';

export type { EditorToolsServer };

/** The server, answering with this VS Code window's knowledge. */
export function startEditorToolsServer(options: Omit<EditorToolsServerOptions, 'backend'>): EditorToolsServer {
	return createEditorToolsServer({ ...options, backend: vscodeEditorToolsBackend() });
}
