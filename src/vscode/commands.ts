import * as vscode from 'vscode';
import type { AgentDefinition } from '../common/config';
import { describeCommand, type AgentChoice } from '../common/presets';
import { isRemoteDefinition } from '../common/remoteAgent';
import type { RegistryAgent } from '../common/registry';
import { resolveCommand } from '../node/agentProcess';
import type { AgentRole } from './agentPool';
import type { ExtensionLog } from './log';
import { offerText, type RegistryFeature, type RegistryListing } from './registry';

/** Command ids: every command lives under `agentLink.`, clear of other ACP extensions' `acp.*`. */
export const Commands = {
	selectAgent: 'agentLink.selectAgent',
	restartAgent: 'agentLink.restartAgent',
	stopAgent: 'agentLink.stopAgent',
	showLog: 'agentLink.showLog',
} as const;

interface ChoiceItem extends vscode.QuickPickItem {
	readonly choice?: AgentChoice;
	/** An agent of the ACP Registry, set up (consent, download) once picked. */
	readonly registry?: RegistryAgent;
	readonly configure?: true;
	readonly showLog?: true;
}

export function registerCommands(manager: AgentRole, log: ExtensionLog, registry?: RegistryFeature): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand(Commands.selectAgent, async (name?: unknown) => {
			// Tests and keybindings may pass a name; the palette shows the picker.
			let choice: AgentChoice | undefined;
			if (typeof name === 'string') {
				choice = manager.findChoice(name);
			} else {
				const picked = await pickAgent(manager, registry);
				if (picked?.showLog) {
					log.show();
				}
				choice = picked?.registry && registry ? await registry.prepare(picked.registry) : picked?.choice;
			}
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

/**
 * The agent picker. Configured agents and presets show at once; the ACP Registry's section is
 * added when its list has loaded (the picker shows it is busy meanwhile), so a slow network never
 * holds the picker up.
 */
async function pickAgent(manager: AgentRole, registry: RegistryFeature | undefined): Promise<ChoiceItem | undefined> {
	const current = manager.state.kind === 'stopped' ? undefined : manager.currentChoice?.name;
	const choices = manager.choices();
	const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
	// Say up front which presets are not installed, instead of failing after the pick.
	const installed = new Map(
		await Promise.all(choices.map(async (c) => [c.name, await isInstalled(c.definition, cwd)] as const)),
	);
	const user = choices.filter((c) => c.source === 'user');
	const presets = choices.filter((c) => c.source === 'preset');
	const configure: ChoiceItem[] = [
		{ label: '', kind: vscode.QuickPickItemKind.Separator },
		{ label: '$(gear) Configure agents…', description: 'agentLink.agents in user settings', configure: true },
	];
	const build = (listing: RegistryListing | undefined): ChoiceItem[] => {
		const items: ChoiceItem[] = [];
		if (user.length > 0) {
			items.push({ label: 'Configured agents', kind: vscode.QuickPickItemKind.Separator });
			items.push(...user.map((c) => toItem(c, current, installed.get(c.name) ?? true)));
		}
		items.push({ label: 'Presets', kind: vscode.QuickPickItemKind.Separator });
		for (const preset of presets) {
			// A preset that is not installed but is in the registry is offered from there: listed once.
			const entry = !(installed.get(preset.name) ?? true) && preset.registry ? registry?.presetEntry(preset.registry.id) : undefined;
			const item = toItem(preset, current, installed.get(preset.name) ?? true);
			items.push(entry ? { ...item, detail: `$(cloud-download) Not installed: pick to run ${entry.name} ${entry.version} from the ACP Registry, or install with: ${preset.install ?? ''}`, choice: undefined, registry: entry } : item);
		}
		if (listing) {
			items.push({ label: listing.label, kind: vscode.QuickPickItemKind.Separator });
			if (listing.error) {
				items.push({ label: '$(warning) The ACP Registry could not be loaded', detail: listing.error, description: 'Show Log', showLog: true });
			}
			for (const offer of listing.offers) {
				const icon = offer.agent.icon && /^https:\/\//.test(offer.agent.icon) ? vscode.Uri.parse(offer.agent.icon) : undefined;
				items.push({ label: `${offer.agent.name === current ? '$(check) ' : ''}${offer.agent.name}`, ...offerText(offer), iconPath: icon, registry: offer.agent });
			}
		}
		return [...items, ...configure];
	};
	const quickPick = vscode.window.createQuickPick<ChoiceItem>();
	quickPick.title = 'Agent Link: Select Agent';
	quickPick.placeholder = 'The agent to start (the running one is stopped)';
	quickPick.matchOnDescription = true;
	quickPick.matchOnDetail = true;
	quickPick.items = build(undefined);
	const pick = await new Promise<ChoiceItem | undefined>((resolve) => {
		// Enter with no row highlighted (as the registry's section resets the list) keeps it open.
		quickPick.onDidAccept(() => {
			const item = quickPick.selectedItems[0];
			if (item) {
				resolve(item);
			}
		});
		quickPick.onDidHide(() => resolve(undefined));
		quickPick.show();
		if (registry) {
			quickPick.busy = true;
			void registry.listing().then((listing) => {
				quickPick.busy = false;
				if (listing) {
					// Keep what the user typed and where the highlight is.
					const active = quickPick.activeItems[0];
					quickPick.items = build(listing);
					const again = active && quickPick.items.find((i) => i.label === active.label && i.kind !== vscode.QuickPickItemKind.Separator);
					if (again) {
						quickPick.activeItems = [again];
					}
				}
			}, () => {
				quickPick.busy = false;
			});
		}
	});
	quickPick.dispose();
	if (pick?.configure) {
		await vscode.commands.executeCommand('workbench.action.openSettingsJson', { revealSetting: { key: 'agentLink.agents' } });
		return undefined;
	}
	return pick;
}

/** Whether a local agent's command is found; a remote agent is never checked before it is picked. */
async function isInstalled(definition: AgentDefinition, cwd: string): Promise<boolean> {
	return isRemoteDefinition(definition) || (await resolveCommand(definition.command, { ...process.env, ...definition.env }, definition.cwd ?? cwd)) !== undefined;
}

function toItem(choice: AgentChoice, current: string | undefined, installed: boolean): ChoiceItem {
	let detail: string | undefined;
	if (!installed) {
		detail = choice.install ? `$(warning) Not installed. Install with: ${choice.install}` : `$(warning) "${isRemoteDefinition(choice.definition) ? '' : choice.definition.command}" was not found on PATH`;
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
