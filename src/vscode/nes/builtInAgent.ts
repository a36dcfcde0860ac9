/**
 * Agent Link NES (built in): the NES agent shipped in `dist/nes-agent.js`, run
 * with the editor's own runtime, offered as a choice to both the chat and the
 * NES role. Its optional model (engine 2) is configured in settings, with the
 * API key in VS Code's secret storage; both reach the agent through its
 * environment, so the key never lands in settings, in the log or on the wire.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { LocalAgentDefinition } from '../../common/config';
import { BUILT_IN_NES_AGENT, builtInNesAgent, type AgentChoice } from '../../common/presets';
import type { AgentPool } from '../agentPool';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';

const SECRET_KEY = 'agentLink.nesAgent.model.apiKey';

export class BuiltInNesAgent implements vscode.Disposable {
	private apiKey: string | undefined;
	private readonly disposables: vscode.Disposable[] = [];
	private lastEnv: string;

	private constructor(
		private readonly context: vscode.ExtensionContext,
		private readonly config: ConfigService,
		private readonly pool: AgentPool,
		private readonly log: ExtensionLog,
	) {
		this.lastEnv = JSON.stringify(this.choice().definition.env);
		this.disposables.push(
			pool.addChoiceSource(() => [this.choice()]),
			config.onDidChange(() => this.restartIfChanged()),
			context.secrets.onDidChange(async (event) => {
				if (event.key === SECRET_KEY) {
					this.apiKey = await this.readKey();
					this.restartIfChanged();
				}
			}),
			vscode.commands.registerCommand('agentLink.nesAgent.setApiKey', () => this.setApiKey()),
		);
	}

	/**
	 * Reads the stored key first, so the agent's first start already has it; a secret store that
	 * does not answer within a second does not hold up activation (a key that arrives later
	 * restarts a running built-in agent with it).
	 */
	static async create(context: vscode.ExtensionContext, config: ConfigService, pool: AgentPool, log: ExtensionLog): Promise<BuiltInNesAgent> {
		const agent = new BuiltInNesAgent(context, config, pool, log);
		const read = agent.readKey();
		agent.apiKey = await Promise.race([read, new Promise<undefined>((resolve) => setTimeout(() => resolve(undefined), 1000))]);
		void read.then((key) => {
			if (key !== agent.apiKey) {
				agent.apiKey = key;
				agent.restartIfChanged();
			}
		});
		agent.lastEnv = JSON.stringify(agent.choice().definition.env);
		return agent;
	}

	/** The choice, with the model's settings and key in its environment when a model is configured. */
	choice(): AgentChoice & { readonly definition: LocalAgentDefinition } {
		const base = builtInNesAgent(process.execPath, path.join(this.context.extensionPath, 'dist', 'nes-agent.js'));
		const model = this.config.current.nesAgent.model;
		if (!model.endpoint) {
			return base;
		}
		const env: Record<string, string> = {
			...base.definition.env,
			AGENT_LINK_NES_MODEL_ENDPOINT: model.endpoint,
			AGENT_LINK_NES_MODEL: model.model,
			AGENT_LINK_NES_MODEL_FORMAT: model.format,
			...(this.apiKey ? { AGENT_LINK_NES_MODEL_API_KEY: this.apiKey } : {}),
		};
		return { ...base, definition: { ...base.definition, env } };
	}

	private async readKey(): Promise<string | undefined> {
		try {
			return (await this.context.secrets.get(SECRET_KEY)) || undefined;
		} catch (error) {
			this.log.warn(`Reading the NES model's API key from secret storage failed: ${error instanceof Error ? error.message : String(error)}`);
			return undefined;
		}
	}

	/** A running built-in agent is restarted when its model settings or key change. */
	private restartIfChanged(): void {
		const env = JSON.stringify(this.choice().definition.env);
		if (env === this.lastEnv) {
			return;
		}
		this.lastEnv = env;
		// One process, whichever roles hold it.
		const manager = this.pool.get(BUILT_IN_NES_AGENT);
		if (manager && manager.state.kind !== 'stopped') {
			this.log.info(`Restarting ${BUILT_IN_NES_AGENT}: its model settings changed.`);
			void manager.start(this.choice());
		}
	}

	/** **Agent Link: Set NES Model API Key**: kept in secret storage; empty removes it. */
	private async setApiKey(): Promise<void> {
		const value = await vscode.window.showInputBox({
			title: 'Agent Link: NES model API key',
			prompt: `Sent as "Authorization: Bearer …" to ${this.config.current.nesAgent.model.endpoint || 'the model endpoint (agentLink.nesAgent.model.endpoint)'}. Kept in VS Code's secret storage. Leave empty to remove it.`,
			password: true,
			ignoreFocusOut: true,
		});
		if (value === undefined) {
			return;
		}
		if (value.trim() === '') {
			await this.context.secrets.delete(SECRET_KEY);
			void vscode.window.showInformationMessage('Agent Link: the NES model API key was removed.');
		} else {
			await this.context.secrets.store(SECRET_KEY, value.trim());
			void vscode.window.showInformationMessage('Agent Link: the NES model API key was saved in secret storage.');
		}
	}

	dispose(): void {
		for (const d of this.disposables) {
			d.dispose();
		}
	}
}
