/**
 * The editor tools' MCP server for chat sessions: started on first use (its code, with the MCP SDK,
 * is dist/editor-tools.js, loaded then), and offered to each agent in the transport it takes: HTTP
 * when its `mcpCapabilities.http` is true, else the stdio bridge (dist/mcp-bridge.js) run with the
 * editor's own runtime. Every call is logged.
 */
import * as path from 'node:path';
import type * as acp from '@agentclientprotocol/sdk';
import type * as vscode from 'vscode';
import { EDITOR_TOOLS_SERVER_NAME, enabledEditorTools } from '../../common/editorToolNames';
import type { McpCapabilities } from '../../common/mcp';
import type { ReadyAgent } from '../agentManager';
import type { ExtensionLog } from '../log';
import type * as lazyModule from './lazy';

type LazyModule = typeof lazyModule;

export interface EditorToolsSettings {
	readonly enabled: boolean;
	readonly disabled: readonly string[];
}

export class EditorTools implements vscode.Disposable {
	private server?: lazyModule.EditorToolsServer;

	constructor(
		/** The folder dist/ is in. */
		private readonly extensionPath: string,
		private readonly settings: () => EditorToolsSettings,
		private readonly log: ExtensionLog,
		private readonly version: string,
	) {}

	private start(): lazyModule.EditorToolsServer {
		if (!this.server) {
			// Loaded here, on first use: the build keeps the MCP SDK in a bundle of its own (dist/editor-tools.js).
			// eslint-disable-next-line @typescript-eslint/no-require-imports
			const { startEditorToolsServer } = require('./lazy') as LazyModule;
			this.server = startEditorToolsServer({
				enabled: () => enabledEditorTools(this.settings().disabled),
				version: this.version,
				record: (call) => {
					const line = `Editor tool ${call.tool} ${call.args}: ${call.outcome} in ${call.ms.toFixed(1)} ms${call.message ? ` (${call.message})` : ''}`;
					if (call.outcome === 'failed') {
						this.log.warn(line);
					} else {
						this.log.info(line);
					}
				},
				onError: (message) => this.log.warn(message),
			});
		}
		return this.server;
	}

	/** The editor tools' entry for `agent`'s `mcpServers`, or undefined when they are turned off (or failed to start, which is logged). */
	async serverFor(agent: ReadyAgent): Promise<acp.McpServer | undefined> {
		if (!this.settings().enabled) {
			return undefined;
		}
		const caps = agent.initialized.agentCapabilities?.mcpCapabilities as McpCapabilities | undefined;
		try {
			if (caps?.http === true) {
				const { url, token } = await this.start().http();
				this.log.debug(`Editor tools for ${agent.name}: HTTP at ${url}.`);
				return { type: 'http', name: EDITOR_TOOLS_SERVER_NAME, url, headers: [{ name: 'Authorization', value: `Bearer ${token}` }] };
			}
			const socket = await this.start().socket();
			this.log.debug(`Editor tools for ${agent.name}: stdio bridge to ${socket.path}.`);
			return {
				name: EDITOR_TOOLS_SERVER_NAME,
				command: process.execPath,
				args: [path.join(this.extensionPath, 'dist', 'mcp-bridge.js')],
				env: [
					// The editor's runtime is Electron on the desktop: run it as plain Node.
					{ name: 'ELECTRON_RUN_AS_NODE', value: '1' },
					{ name: 'AGENT_LINK_MCP_SOCKET', value: socket.path },
					{ name: 'AGENT_LINK_MCP_TOKEN', value: socket.token },
				],
			};
		} catch (error) {
			this.log.warn(`Editor tools could not start, so ${agent.name} goes without them: ${error instanceof Error ? error.message : String(error)}`);
			return undefined;
		}
	}

	dispose(): void {
		void this.server?.dispose();
		this.server = undefined;
	}
}
