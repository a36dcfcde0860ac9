/**
 * Which agent next edit suggestions come from. Most people chat with one agent
 * and take suggestions from another (by default Agent Link's own NES agent), so
 * the NES agent is chosen on its own (`agentLink.nes.agent`, **Select NES
 * Agent**) and held by a role of its own in the agent pool: its own process,
 * connection, restart policy and status, beside the chat agent. When both roles
 * name the same agent they hold the same pooled agent, so one process serves
 * both; when the setting is empty, suggestions come from the chat agent.
 */
import * as vscode from 'vscode';
import { BUILT_IN_NES_AGENT, type AgentChoice } from '../../common/presets';
import type { AgentRole } from '../agentPool';
import type { ConfigService } from '../config';
import type { ExtensionLog } from '../log';

export class NesAgentSelector implements vscode.Disposable {
	private sourceValue: AgentRole;
	/** The NES agent this selector last started, so a failed start is not retried in a loop. */
	private startedFor: string | undefined;
	private warnedMissing: string | undefined;
	private readonly emitter = new vscode.EventEmitter<AgentRole>();
	private readonly disposables: vscode.Disposable[] = [];

	/** Fires when suggestions move from one role's agent to the other's. */
	readonly onDidChangeSource = this.emitter.event;

	constructor(
		readonly chat: AgentRole,
		readonly nesAgents: AgentRole,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.sourceValue = config.current.nes.agent === '' ? chat : nesAgents;
		this.disposables.push(
			this.emitter,
			config.onDidChange(() => this.reconcile()),
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.reconcile()),
			vscode.commands.registerCommand('agentLink.nes.selectAgent', () => this.pick()),
		);
	}

	/** The role whose agent serves next edit suggestions now. */
	get source(): AgentRole {
		return this.sourceValue;
	}

	/** Both roles, whose state changes the NES session follows. */
	get roles(): readonly AgentRole[] {
		return [this.chat, this.nesAgents];
	}

	/** Whether the chat agent's process serves suggestions too (the setting is empty, or both roles hold the same agent). */
	get shared(): boolean {
		return this.sourceValue === this.chat || this.nesAgents.sharesWith(this.chat);
	}

	/** Starts, stops or hands over the NES agent so it matches the settings. Idempotent. */
	reconcile(): void {
		const { enabled, agent: wanted } = this.config.current.nes;
		const source = wanted === '' ? this.chat : this.nesAgents;
		if (source !== this.sourceValue) {
			this.sourceValue = source;
			this.log.info(source === this.chat ? 'Next edit suggestions come from the chat agent.' : `Next edit suggestions come from ${wanted}.`);
			this.emitter.fire(source);
		}
		if (wanted === '' || !enabled) {
			this.startedFor = undefined;
			void this.nesAgents.stop();
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
		// Joins the chat agent's process when the chat role already runs this agent.
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
