import * as vscode from 'vscode';
import { describeCommand, type AgentChoice } from '../common/presets';
import { resolveCommand } from '../node/agentProcess';
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
	const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
	// Say up front which presets are not installed, instead of failing after the pick.
	const installed = new Map(
		await Promise.all(choices.map(async (c) => [c.name, (await resolveCommand(c.definition.command, { ...process.env, ...c.definition.env }, c.definition.cwd ?? cwd)) !== undefined] as const)),
	);
	const user = choices.filter((c) => c.source === 'user');
	const presets = choices.filter((c) => c.source === 'preset');
	if (user.length > 0) {
		items.push({ label: 'Configured agents', kind: vscode.QuickPickItemKind.Separator });
		items.push(...user.map((c) => toItem(c, current, installed.get(c.name) ?? true)));
	}
	items.push({ label: 'Presets', kind: vscode.QuickPickItemKind.Separator });
	items.push(...presets.map((c) => toItem(c, current, installed.get(c.name) ?? true)));
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

function toItem(choice: AgentChoice, current: string | undefined, installed: boolean): ChoiceItem {
	let detail: string | undefined;
	if (!installed) {
		detail = choice.install ? `$(warning) Not installed. Install with: ${choice.install}` : `$(warning) "${choice.definition.command}" was not found on PATH`;
	} else if (choice.source === 'preset') {
		detail = 'Preset';
	}
	return {
		label: `${choice.name === current ? '$(check) ' : ''}${choice.name}`,
		description: describeCommand(choice.definition),
		detail,
		choice,
	};
}
