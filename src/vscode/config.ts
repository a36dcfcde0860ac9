import * as vscode from 'vscode';
import { parseConfig, settingSchemas, type Config, type SettingKey } from '../common/config';
import type { Logger } from '../common/log';

/**
 * Settings that make the editor run a program are read from user (and remote
 * machine) settings only: a folder's `.vscode/settings.json` comes with
 * whatever repository was cloned and must never choose a command.
 */
// The model endpoint receives your code: a repository must not be able to send it elsewhere.
// OpenCtx module providers run code in the editor, HTTP ones receive the documents.
// MCP servers start programs (stdio) and receive the agent's requests (http, sse).
const USER_ONLY: ReadonlySet<SettingKey> = new Set(['agents', 'mcpServers', 'maxMessageSize', 'registry.url', 'nesAgent.model.endpoint', 'nesAgent.model.model', 'nesAgent.model.format', 'openctx.providers']);

export class ConfigService implements vscode.Disposable {
	private snapshot: Config;
	private readonly emitter = new vscode.EventEmitter<Config>();
	private readonly listener: vscode.Disposable;

	readonly onDidChange = this.emitter.event;

	constructor(private readonly log: Logger) {
		this.snapshot = this.read();
		this.listener = vscode.workspace.onDidChangeConfiguration((event) => {
			if (event.affectsConfiguration('agentLink')) {
				this.snapshot = this.read();
				this.emitter.fire(this.snapshot);
			}
		});
	}

	get current(): Config {
		return this.snapshot;
	}

	private read(): Config {
		const section = vscode.workspace.getConfiguration('agentLink');
		const raw: Partial<Record<SettingKey, unknown>> = {};
		for (const key of Object.keys(settingSchemas) as SettingKey[]) {
			if (USER_ONLY.has(key)) {
				// `application` scope already keeps workspace values out; reading the user value
				// alone keeps it so whatever the editor's version does with scopes.
				raw[key] = section.inspect(key)?.globalValue;
			} else {
				raw[key] = section.get(key);
			}
		}
		const { config, problems } = parseConfig(raw);
		for (const problem of problems) {
			this.log.warn(`Setting ${problem.key}: ${problem.message}`);
		}
		return config;
	}

	dispose(): void {
		this.listener.dispose();
		this.emitter.dispose();
	}
}
