/**
 * Which agent next edit suggestions come from. Most people chat with one agent
 * and take suggestions from another (by default Agent Link's own NES agent), so
 * the NES agent is chosen on its own (`agentLink.nes.agent`, **Select NES
 * Agent**) and runs beside the chat agent in a manager of its own: its own
 * process, connection, restart policy and status. When both roles name the same
 * agent, or the setting is empty, the chat agent's process serves both and no
 * second one is started.
 */
import * as vscode from 'vscode';
import { BUILT_IN_NES_AGENT, type AgentChoice } from '../../common/presets';
import type { AgentManager } from '../agentManager';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';

export class NesAgentSelector implements vscode.Disposable {
	private sourceValue: AgentManager;
	/** The NES agent this selector last started, so a failed start is not retried in a loop. */
	private startedFor: string | undefined;
	private warnedMissing: string | undefined;
	private readonly emitter = new vscode.EventEmitter<AgentManager>();
	private readonly disposables: vscode.Disposable[] = [];

	/** Fires when suggestions move from one agent manager to the other. */
	readonly onDidChangeSource = this.emitter.event;

	constructor(
		readonly chat: AgentManager,
		readonly nesAgents: AgentManager,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.sourceValue = chat;
		this.disposables.push(
			this.emitter,
			config.onDidChange(() => this.reconcile()),
			chat.onDidChangeState(() => this.reconcile()),
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.reconcile()),
			vscode.commands.registerCommand('agentLink.nes.selectAgent', () => this.pick()),
		);
	}

	/** The manager whose agent serves next edit suggestions now. */
	get source(): AgentManager {
		return this.sourceValue;
	}

	/** Both managers, for features every agent gets (editor state, NES capabilities). */
	get managers(): readonly AgentManager[] {
		return [this.chat, this.nesAgents];
	}

	/** Whether the chat agent serves suggestions too (the setting is empty or names it). */
	get shared(): boolean {
		const wanted = this.config.current.nes.agent;
		return wanted === '' || (this.chat.state.kind !== 'stopped' && this.chat.currentChoice?.name === wanted);
	}

	/** Starts, stops or hands over the NES agent so it matches the settings and the chat agent. Idempotent. */
	reconcile(): void {
		const { enabled, agent: wanted } = this.config.current.nes;
		const shared = this.shared;
		const source = shared ? this.chat : this.nesAgents;
		if (source !== this.sourceValue) {
			this.sourceValue = source;
			this.log.info(shared ? 'Next edit suggestions come from the chat agent.' : `Next edit suggestions come from ${wanted}, beside the chat agent.`);
			this.emitter.fire(source);
		}
		if (shared || !enabled) {
			this.startedFor = undefined;
			if (this.nesAgents.state.kind !== 'stopped') {
				void this.nesAgents.stop();
			}
			return;
		}
		if (this.startedFor === wanted || !vscode.workspace.isTrusted) {
			return;
		}
		const choice = this.nesAgents.findChoice(wanted);
		if (!choice) {
			if (this.warnedMissing !== wanted) {
				this.warnedMissing = wanted;
				this.log.warn(`agentLink.nes.agent is "${wanted}", but no configured agent, preset or installed registry agent has that name.`);
			}
			return;
		}
		this.startedFor = wanted;
		void this.nesAgents.start(choice);
	}

	/** **Agent Link: Select NES Agent**: the built-in agent, the chat agent, or any other; saved in user settings. */
	private async pick(): Promise<void> {
		interface Item extends vscode.QuickPickItem {
			readonly value?: string;
		}
		const wanted = this.config.current.nes.agent;
		const mark = (name: string) => (name === wanted ? '$(check) ' : '');
		const choices = this.nesAgents.choices().filter((c) => c.name !== BUILT_IN_NES_AGENT);
		const builtIn = this.nesAgents.findChoice(BUILT_IN_NES_AGENT);
		const items: Item[] = [
			...(builtIn ? [{ label: `${mark(BUILT_IN_NES_AGENT)}${BUILT_IN_NES_AGENT}`, detail: 'Edit-by-example, offline, nothing to install', value: BUILT_IN_NES_AGENT }] : []),
			{ label: `${mark('')}The chat agent`, detail: 'Whichever agent you chat with, if it offers next edit suggestions', value: '' },
			{ label: 'Other agents', kind: vscode.QuickPickItemKind.Separator },
			...choices.map((c: AgentChoice): Item => ({ label: `${mark(c.name)}${c.name}`, description: c.source === 'registry' ? 'ACP Registry' : c.source === 'preset' ? 'Preset' : undefined, value: c.name })),
		];
		const pick = await vscode.window.showQuickPick(items, { title: 'Agent Link: Select NES Agent', placeHolder: 'The agent next edit suggestions come from (it runs beside the chat agent)' });
		if (pick?.value === undefined) {
			return;
		}
		this.startedFor = undefined;
		await vscode.workspace.getConfiguration('agentLink').update('nes.agent', pick.value, vscode.ConfigurationTarget.Global);
		this.reconcile();
	}

	dispose(): void {
		for (const d of this.disposables) {
			d.dispose();
		}
	}
}
