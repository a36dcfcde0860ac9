import * as vscode from 'vscode';
import type { AgentManager, AgentState } from './agentManager';
import { Commands } from './commands';

/** Where an item sits and what it is for: the chat agent's (the default) or the NES agent's. */
export interface AgentStatusBarOptions {
	readonly id: string;
	readonly name: string;
	readonly command: string;
	readonly priority: number;
	/** Hidden while its agent is stopped (the NES agent's item, when the chat agent serves suggestions). */
	readonly hideWhenStopped?: boolean;
	/** Said before the agent's name in the tooltip and to screen readers. */
	readonly role?: string;
}

/** The agent's name and health, bottom right; a click opens the agent picker. */
export class AgentStatusBar implements vscode.Disposable {
	private readonly item: vscode.StatusBarItem;
	private readonly listener: vscode.Disposable;

	constructor(
		manager: AgentManager,
		private readonly options: AgentStatusBarOptions = { id: 'agentLink.status', name: 'Agent Link', command: Commands.selectAgent, priority: 100 },
	) {
		this.item = vscode.window.createStatusBarItem(options.id, vscode.StatusBarAlignment.Right, options.priority);
		this.item.name = options.name;
		this.item.command = options.command;
		this.render(manager.state);
		this.listener = manager.onDidChangeState((state) => this.render(state));
	}

	/** What the item shows, for tests. */
	get text(): string {
		return this.item.text;
	}

	private render(state: AgentState): void {
		const md = new vscode.MarkdownString(undefined, true);
		md.isTrusted = false;
		this.item.backgroundColor = undefined;
		switch (state.kind) {
			case 'stopped':
				this.item.text = '$(debug-disconnect) Agent Link';
				md.appendMarkdown('**Agent Link**: no agent running.\n\nClick to select an agent.');
				break;
			case 'starting':
				this.item.text = `$(loading~spin) ${state.name}`;
				md.appendMarkdown(`**${escape(state.name)}**: starting…`);
				break;
			case 'ready':
				this.item.text = `$(hubot) ${state.name}`;
				md.appendMarkdown(`**${escape(state.name)}**: ready (pid ${String(state.pid)}).\n\nClick to switch agents.`);
				break;
			case 'crashed':
				this.item.text = `$(warning) ${state.name}: crashed`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
				md.appendMarkdown(`**${escape(state.name)}** crashed${state.restartingInMs !== undefined ? ', restarting' : ''}.\n\n`);
				md.appendText(state.message);
				break;
			case 'failed':
				this.item.text = `$(error) ${state.name}: stopped`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
				md.appendMarkdown(`**${escape(state.name)}** is not running.\n\n`);
				md.appendText(state.message);
				break;
		}
		if (this.options.role && state.kind !== 'stopped') {
			this.item.text = this.item.text.replace(/^(\$\([^)]+\) )/, `$1${this.options.role}: `);
		}
		this.item.tooltip = md;
		this.item.accessibilityInformation = { label: `Agent Link${this.options.role ? ` ${this.options.role}` : ''}: ${stateLabel(state)}` };
		if (this.options.hideWhenStopped && state.kind === 'stopped') {
			this.item.hide();
		} else {
			this.item.show();
		}
	}

	dispose(): void {
		this.listener.dispose();
		this.item.dispose();
	}
}

export function stateLabel(state: AgentState): string {
	switch (state.kind) {
		case 'stopped':
			return 'stopped';
		case 'starting':
			return `${state.name} starting`;
		case 'ready':
			return `${state.name} ready`;
		case 'crashed':
			return `${state.name} crashed`;
		case 'failed':
			return `${state.name} stopped after an error`;
	}
}

function escape(text: string): string {
	return text.replace(/[\\`*_{}[\]()#+\-.!|<>]/g, '\\$&');
}
