import * as vscode from 'vscode';
import type { AgentState } from './agentManager';
import type { AgentRole } from './agentPool';
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

/** Where an item sits and what it is for: the chat agent's (the default) or the NES agent's. */
export interface AgentStatusBarOptions {
	readonly id: string;
	readonly name: string;
	readonly command: string;
	readonly priority: number;
	/** Hidden while its agent is stopped (the NES agent's item, when the chat agent serves suggestions). */
	readonly hideWhenStopped?: boolean;
	/** Hidden while this says so (the NES agent's item, while the chat agent's process serves both roles). */
	readonly hiddenWhen?: () => boolean;
	/** Events after which `hiddenWhen` is asked again. */
	readonly refreshOn?: readonly vscode.Event<unknown>[];
	/** Said before the agent's name in the tooltip and to screen readers. */
	readonly role?: string;
}

/** The agent's name and health, bottom right; a click opens the agent picker. */
export class AgentStatusBar implements vscode.Disposable {
	private readonly item: vscode.StatusBarItem;
	private readonly listeners: vscode.Disposable[];
	private nesListener: vscode.Disposable | undefined;
	private nesState: NesDisplayState = 'off';
	private servesNes: () => boolean = () => true;

	constructor(
		private readonly manager: AgentRole,
		private readonly options: AgentStatusBarOptions = { id: 'agentLink.status', name: 'Agent Link', command: Commands.selectAgent, priority: 100 },
	) {
		this.item = vscode.window.createStatusBarItem(options.id, vscode.StatusBarAlignment.Right, options.priority);
		this.item.name = options.name;
		this.item.command = options.command;
		this.render(manager.state);
		this.listeners = [manager.onDidChangeState((state) => this.render(state)), ...(options.refreshOn ?? []).map((event) => event(() => this.render(this.manager.state)))];
	}

	/** Shows the NES state of `controller` next to the agent. */
	/**
	 * Shows the NES state of `controller` next to the agent while this item's agent serves
	 * suggestions (`servesNes`, re-checked when `onDidChangeSource` fires).
	 */
	trackNes(controller: { readonly state: NesDisplayState; readonly onDidChangeState: vscode.Event<NesDisplayState> }, servesNes: () => boolean = () => true, onDidChangeSource?: vscode.Event<unknown>): void {
		this.nesListener?.dispose();
		this.nesState = controller.state;
		this.servesNes = servesNes;
		const subscriptions = [
			controller.onDidChangeState((state) => {
				this.nesState = state;
				this.render(this.manager.state);
			}),
			...(onDidChangeSource ? [onDidChangeSource(() => this.render(this.manager.state))] : []),
		];
		this.nesListener = new vscode.Disposable(() => subscriptions.forEach((d) => d.dispose()));
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
		// The NES agent's item says its role before the name.
		const shown = state.kind === 'stopped' ? '' : this.options.role ? `${this.options.role}: ${state.name}` : state.name;
		switch (state.kind) {
			case 'stopped':
				this.item.text = '$(debug-disconnect) Agent Link';
				md.appendMarkdown('**Agent Link**: no agent running.\n\nClick to select an agent.');
				break;
			case 'starting':
				this.item.text = `$(loading~spin) ${shown}`;
				md.appendMarkdown(`**${escape(state.name)}**: starting…`);
				break;
			case 'ready':
				this.item.text = `$(hubot) ${shown}${this.servesNes() ? NES_SUFFIX[this.nesState].icon : ''}`;
				md.appendMarkdown(`**${escape(state.name)}**: ready (pid ${String(state.pid)}).\n\n`);
				md.appendMarkdown(`${this.servesNes() ? `Next edit suggestions: ${NES_SUFFIX[this.nesState].label}.` : 'Next edit suggestions come from the NES agent.'}\n\nClick to switch agents.`);
				break;
			case 'crashed':
				this.item.text = `$(warning) ${shown}: crashed`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.warningBackground');
				md.appendMarkdown(`**${escape(state.name)}** crashed${state.restartingInMs !== undefined ? ', restarting' : ''}.\n\n`);
				md.appendText(state.message);
				break;
			case 'failed':
				this.item.text = `$(error) ${shown}: stopped`;
				this.item.backgroundColor = new vscode.ThemeColor('statusBarItem.errorBackground');
				md.appendMarkdown(`**${escape(state.name)}** is not running.\n\n`);
				md.appendText(state.message);
				break;
		}
		this.item.tooltip = md;
		const nes = state.kind === 'ready' && this.nesState !== 'off' && this.servesNes() ? `, next edit suggestions ${NES_SUFFIX[this.nesState].label}` : '';
		this.item.accessibilityInformation = { label: `Agent Link${this.options.role ? ` ${this.options.role}` : ''}: ${stateLabel(state)}${nes}` };
		if ((this.options.hideWhenStopped && state.kind === 'stopped') || this.options.hiddenWhen?.()) {
			this.item.hide();
		} else {
			this.item.show();
		}
	}

	dispose(): void {
		this.listeners.forEach((d) => d.dispose());
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
