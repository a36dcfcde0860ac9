import * as vscode from 'vscode';
import type { AgentManager, AgentState } from './agentManager';
import { Commands } from './commands';
import type { NesDisplayState } from './nes/controller';

/** What the item adds for next edit suggestions. */
const NES_SUFFIX: Record<NesDisplayState, { icon: string; label: string }> = {
	off: { icon: '', label: 'off' },
	idle: { icon: '', label: 'on' },
	waiting: { icon: ' $(sync~spin)', label: 'waiting for the agent' },
	pending: { icon: ' $(lightbulb)', label: 'a suggestion is pending (Tab applies it, Escape dismisses it)' },
	snoozed: { icon: ' $(bell-slash)', label: 'snoozed' },
};

/** The agent's name and health, bottom right; a click opens the agent picker. */
export class AgentStatusBar implements vscode.Disposable {
	private readonly item: vscode.StatusBarItem;
	private readonly listener: vscode.Disposable;
	private nesListener: vscode.Disposable | undefined;
	private nesState: NesDisplayState = 'off';

	constructor(private readonly manager: AgentManager) {
		this.item = vscode.window.createStatusBarItem('agentLink.status', vscode.StatusBarAlignment.Right, 100);
		this.item.name = 'Agent Link';
		this.item.command = Commands.selectAgent;
		this.render(manager.state);
		this.item.show();
		this.listener = manager.onDidChangeState((state) => this.render(state));
	}

	/** Shows the NES state of `controller` next to the agent. */
	trackNes(controller: { readonly state: NesDisplayState; readonly onDidChangeState: vscode.Event<NesDisplayState> }): void {
		this.nesListener?.dispose();
		this.nesState = controller.state;
		this.nesListener = controller.onDidChangeState((state) => {
			this.nesState = state;
			this.render(this.manager.state);
		});
		this.render(this.manager.state);
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
				this.item.text = `$(hubot) ${state.name}${NES_SUFFIX[this.nesState].icon}`;
				md.appendMarkdown(`**${escape(state.name)}**: ready (pid ${String(state.pid)}).\n\n`);
				md.appendMarkdown(`Next edit suggestions: ${NES_SUFFIX[this.nesState].label}.\n\nClick to switch agents.`);
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
		this.item.tooltip = md;
		const nes = state.kind === 'ready' && this.nesState !== 'off' ? `, next edit suggestions ${NES_SUFFIX[this.nesState].label}` : '';
		this.item.accessibilityInformation = { label: `Agent Link: ${stateLabel(state)}${nes}` };
	}

	dispose(): void {
		this.listener.dispose();
		this.nesListener?.dispose();
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
