import * as vscode from 'vscode';
import { describeCommand, type AgentChoice } from '../common/presets';
import type { AgentManager } from './agentManager';
import type { ExtensionLog } from './log';

/** Command ids: every command lives under `agentLink.`, clear of other ACP extensions' `acp.*`. */
export const Commands = {
	selectAgent: 'agentLink.selectAgent',
	restartAgent: 'agentLink.restartAgent',
	stopAgent: 'agentLink.stopAgent',
	showLog: 'agentLink.showLog',
} as const;

interface ChoiceItem extends vscode.QuickPickItem {
	readonly choice?: AgentChoice;
	readonly configure?: true;
}

export function registerCommands(manager: AgentManager, log: ExtensionLog): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand(Commands.selectAgent, async (name?: unknown) => {
			// Tests and keybindings may pass a name; the palette shows the picker.
			const choice = typeof name === 'string' ? manager.findChoice(name) : await pickAgent(manager);
			if (typeof name === 'string' && !choice) {
				void vscode.window.showErrorMessage(`Agent Link: there is no agent named "${name}". Add it to the agentLink.agents setting.`);
				return;
			}
			if (choice) {
				if (!vscode.workspace.isTrusted) {
					log.info(`Starting ${choice.name} in an untrusted workspace because the user asked for it.`);
				}
				await manager.start(choice);
			}
		}),
		vscode.commands.registerCommand(Commands.restartAgent, async () => {
			if (!manager.currentChoice) {
				void vscode.window.showInformationMessage('Agent Link: no agent has been started yet.', 'Select Agent').then((pick) => {
					if (pick) {
						void vscode.commands.executeCommand(Commands.selectAgent);
					}
				});
				return;
			}
			await manager.restart();
		}),
		vscode.commands.registerCommand(Commands.stopAgent, () => manager.stop()),
		vscode.commands.registerCommand(Commands.showLog, () => log.show()),
	];
}

async function pickAgent(manager: AgentManager): Promise<AgentChoice | undefined> {
	const current = manager.state.kind === 'stopped' ? undefined : manager.currentChoice?.name;
	const items: ChoiceItem[] = [];
	const choices = manager.choices();
	const user = choices.filter((c) => c.source === 'user');
	const presets = choices.filter((c) => c.source === 'preset');
	if (user.length > 0) {
		items.push({ label: 'Configured agents', kind: vscode.QuickPickItemKind.Separator });
		items.push(...user.map((c) => toItem(c, current)));
	}
	items.push({ label: 'Presets', kind: vscode.QuickPickItemKind.Separator });
	items.push(...presets.map((c) => toItem(c, current)));
	items.push({ label: '', kind: vscode.QuickPickItemKind.Separator });
	items.push({ label: '$(gear) Configure agents…', description: 'agentLink.agents in user settings', configure: true });
	const pick = await vscode.window.showQuickPick(items, {
		title: 'Agent Link: Select Agent',
		placeHolder: 'The agent to start (the running one is stopped)',
		matchOnDescription: true,
		matchOnDetail: true,
	});
	if (pick?.configure) {
		await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'agentLink.agents' } });
		return undefined;
	}
	return pick?.choice;
}

function toItem(choice: AgentChoice, current: string | undefined): ChoiceItem {
	return {
		label: `${choice.name === current ? '$(check) ' : ''}${choice.name}`,
		description: describeCommand(choice.definition),
		detail: choice.source === 'preset' ? `Preset · install: ${choice.install ?? ''}` : undefined,
		choice,
	};
}
