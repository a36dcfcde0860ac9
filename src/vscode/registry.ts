/**
 * Agents from the ACP Agent Registry in the agent picker: the catalogue (cached
 * an hour in global storage, the saved copy when offline), consent before a
 * registry agent first runs (once per agent and version), downloads with
 * progress and cancellation, and updates offered in the status bar and the
 * picker. Installed agents are remembered, so they start by name and offline.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import { errorMessage } from '../common/log';
import { AGENT_PRESETS, type AgentChoice } from '../common/presets';
import { REGISTRY_MAX_AGE_MS, age, chooseLaunch, compareVersions, consentFacts, registryPlatform, type ConsentFact, type RegistryAgent, type RegistryLaunch, type RegistryOffer } from '../common/registry';
import { resolveCommand } from '../node/agentProcess';
import { DownloadCancelledError, installBinary, loadCatalogue, removeOtherVersions, type Catalogue } from '../node/registryClient';
import type { AgentRole } from './agentPool';
import type { ConfigService } from './config';
import type { ExtensionLog } from './log';

const CONSENT_KEY = 'agentLink.registry.consent';
/** How long an unreachable registry is left alone before the next try (the saved copy serves meanwhile). */
const OFFLINE_RETRY_MS = 5 * 60 * 1000;
const INSTALLED_KEY = 'agentLink.registry.installed';

/** What is remembered of a registry agent that was set up here. */
interface InstalledRecord {
	readonly id: string;
	readonly name: string;
	readonly version: string;
	readonly kind: 'binary' | 'npx' | 'uvx';
	readonly command: string;
	readonly args: readonly string[];
	readonly env: Readonly<Record<string, string>>;
}

export { offerText } from '../common/registry';

export interface RegistryListing {
	readonly offers: readonly RegistryOffer[];
	/** A line for the picker's section: where the list comes from and, offline, how old it is. */
	readonly label: string;
	/** Why the registry could not be read at all (no offers then). */
	readonly error?: string;
}

export class RegistryFeature implements vscode.Disposable {
	private catalogue: Catalogue | undefined;
	private loading: Promise<Catalogue | undefined> | undefined;
	private attemptedAt = 0;
	private readonly updateItem: vscode.StatusBarItem;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly context: vscode.ExtensionContext,
		/** The chat role: the agent **Update Agent** updates. */
		private readonly manager: AgentRole,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
	) {
		this.updateItem = vscode.window.createStatusBarItem('agentLink.registryUpdate', vscode.StatusBarAlignment.Right, 99);
		this.updateItem.name = 'Agent Link: agent update';
		this.updateItem.command = 'agentLink.updateAgent';
		this.disposables.push(
			this.updateItem,
			// Choices of every role: the pool's.
			manager.addChoiceSource(() => this.installedChoices()),
			manager.onDidChangeState((state) => {
				if (state.kind === 'ready') {
					void this.afterStart();
				}
				this.renderUpdate();
			}),
			config.onDidChange(() => {
				if (this.catalogue && this.catalogue.url !== this.config.current.registryUrl) {
					this.catalogue = undefined;
				}
				this.renderUpdate();
			}),
			vscode.commands.registerCommand('agentLink.updateAgent', () => this.updateCurrent()),
		);
	}

	/** Agent Link's global storage folder: `agents/<id>/<version>/` and the saved `registry/` list live here. */
	get storageFolder(): string {
		return this.context.globalStorageUri.fsPath;
	}

	private get agentsDir(): string {
		return path.join(this.storageFolder, 'agents');
	}

	private get installed(): Record<string, InstalledRecord> {
		return this.context.globalState.get<Record<string, InstalledRecord>>(INSTALLED_KEY) ?? {};
	}

	/** Registry agents set up here, startable by name. */
	installedChoices(): AgentChoice[] {
		return Object.values(this.installed).map((r) => toChoice(r));
	}

	/** The catalogue, loaded at most once an hour (the cache decides); undefined when the registry is off. */
	async load(refresh = false): Promise<Catalogue | undefined> {
		const url = this.config.current.registryUrl;
		if (!url) {
			return undefined;
		}
		if (!refresh && this.loading) {
			return this.loading; // one fetch at a time
		}
		// The list in memory while it is under an hour old; when the last try found the registry
		// unreachable, the saved copy for a few minutes before trying again.
		const held = this.catalogue;
		if (!refresh && held?.url === url && Date.now() - (held.offline ? this.attemptedAt : held.fetchedAt) < (held.offline ? OFFLINE_RETRY_MS : REGISTRY_MAX_AGE_MS)) {
			return held;
		}
		this.attemptedAt = Date.now();
		const loading: Promise<Catalogue | undefined> = loadCatalogue({ url, cacheDir: path.join(this.context.globalStorageUri.fsPath, 'registry'), refresh })
			.then((catalogue) => {
				if (!this.catalogue || this.catalogue.fetchedAt !== catalogue.fetchedAt) {
					for (const problem of catalogue.problems) {
						this.log.warn(`ACP Registry: ${problem}`);
					}
				}
				if (catalogue.offline && !this.catalogue?.offline) {
					this.log.warn(`ACP Registry: using the copy saved ${age(catalogue.fetchedAt)}: ${catalogue.offline}`);
				}
				this.catalogue = catalogue;
				this.renderUpdate();
				return catalogue;
			})
			.finally(() => {
				if (this.loading === loading) {
					this.loading = undefined;
				}
			});
		this.loading = loading;
		return loading;
	}

	/** The registry section of the picker: agents not already configured, presets that are in it left out. */
	async listing(): Promise<RegistryListing | undefined> {
		if (!this.config.current.registryUrl) {
			return undefined;
		}
		let catalogue: Catalogue | undefined;
		try {
			catalogue = await this.load();
		} catch (error) {
			this.log.warn(errorMessage(error));
			return { offers: [], label: 'ACP Registry', error: errorMessage(error) };
		}
		if (!catalogue) {
			return undefined;
		}
		const taken = new Set([...Object.keys(this.config.current.agents), ...AGENT_PRESETS.map((p) => p.name)]);
		const presetIds = new Set(AGENT_PRESETS.map((p) => p.registryId));
		const available = await this.runners();
		const platform = registryPlatform(process.platform, process.arch);
		const installed = this.installed;
		const offers = catalogue.agents
			.filter((agent) => !presetIds.has(agent.id) && !taken.has(agent.name))
			.map((agent): RegistryOffer => {
				const record = installed[agent.id];
				return {
					agent,
					launch: chooseLaunch(agent, platform, available),
					installed: record?.version === agent.version,
					updateFrom: record && compareVersions(agent.version, record.version) > 0 ? record.version : undefined,
				};
			});
		const label = catalogue.offline ? `ACP Registry (offline: the list saved ${age(catalogue.fetchedAt)})` : 'ACP Registry';
		return { offers, label };
	}

	/** The registry entry of a preset, if the registry lists it (for presets that are not installed). */
	presetEntry(registryId: string): RegistryAgent | undefined {
		return this.catalogue?.agents.find((a) => a.id === registryId);
	}

	/**
	 * Everything between picking a registry agent and starting it: what will run
	 * and where it comes from, the user's consent (once per agent and version),
	 * the download with progress. Undefined when the user declined or cancelled.
	 */
	async prepare(agent: RegistryAgent): Promise<AgentChoice | undefined> {
		const launch = chooseLaunch(agent, registryPlatform(process.platform, process.arch), await this.runners());
		if (launch.kind === 'unavailable') {
			void vscode.window.showErrorMessage(`Agent Link: ${launch.reason}`);
			return undefined;
		}
		if (!(await this.consent(agent, launch))) {
			this.log.info(`${agent.name} ${agent.version} was not started: the user did not consent.`);
			return undefined;
		}
		let record: InstalledRecord;
		if (launch.kind === 'binary') {
			const installed = await this.download(agent, launch);
			if (!installed) {
				return undefined;
			}
			record = installed;
		} else {
			record = { id: agent.id, name: agent.name, version: agent.version, kind: launch.kind, command: launch.command, args: launch.args, env: launch.env };
		}
		await this.context.globalState.update(INSTALLED_KEY, { ...this.installed, [agent.id]: record });
		return toChoice(record);
	}

	/**
	 * Asked once per agent and version, in the palette: what runs, from where, checked how, one
	 * fact a row so none is cut short. Only "Install and run" consents; picking the source opens
	 * it; an Enter within the first half second (a keypress meant for the picker before) is ignored.
	 */
	private async consent(agent: RegistryAgent, launch: Exclude<RegistryLaunch, { kind: 'unavailable' }>): Promise<boolean> {
		const key = `${agent.id}@${agent.version}`;
		const given = this.context.globalState.get<string[]>(CONSENT_KEY) ?? [];
		if (given.includes(key)) {
			return true;
		}
		interface ConsentItem extends vscode.QuickPickItem {
			readonly answer?: boolean;
			readonly open?: string;
		}
		const icons: Record<ConsentFact['kind'], string> = { download: 'cloud-download', checksum: 'shield', package: 'package', command: 'terminal', source: 'repo', publisher: 'person' };
		const items: ConsentItem[] = [
			{ label: `$(play) Install and run ${agent.name} ${agent.version}`, answer: true },
			{ label: '$(close) Cancel', answer: false },
			{ label: 'What will run', kind: vscode.QuickPickItemKind.Separator },
			...consentFacts(agent, launch).map((fact): ConsentItem => ({ label: `$(${icons[fact.kind]}) ${fact.text}`, description: fact.note, open: fact.kind === 'source' && /^https:\/\//.test(fact.text) ? fact.text : undefined })),
		];
		// The whole of each fact in the log too, for what a row has to cut short.
		this.log.info(`Asking to run ${agent.name} ${agent.version} from the ACP Registry: ${consentFacts(agent, launch).map((f) => `${f.note ?? f.kind}: ${f.text}`).join('; ')}.`);
		const quickPick = vscode.window.createQuickPick<ConsentItem>();
		quickPick.title = `Agent Link: run ${agent.name} ${agent.version} from the ACP Registry?`;
		quickPick.placeholder = 'This runs code from the internet on this machine. Agent Link asks once for each agent and version.';
		quickPick.ignoreFocusOut = true;
		quickPick.items = items;
		const shownAt = Date.now();
		const answer = await new Promise<boolean>((resolve) => {
			quickPick.onDidAccept(() => {
				const item = quickPick.selectedItems[0];
				if (item?.open) {
					void vscode.env.openExternal(vscode.Uri.parse(item.open));
				} else if (item?.answer !== undefined && Date.now() - shownAt >= 500) {
					resolve(item.answer);
				}
			});
			quickPick.onDidHide(() => resolve(false));
			quickPick.show();
		});
		quickPick.dispose();
		if (!answer) {
			return false;
		}
		await this.context.globalState.update(CONSENT_KEY, [...given.filter((k) => !k.startsWith(`${agent.id}@`)), key]);
		return true;
	}

	private async download(agent: RegistryAgent, launch: Extract<RegistryLaunch, { kind: 'binary' }>): Promise<InstalledRecord | undefined> {
		try {
			const installed = await vscode.window.withProgress(
				{ location: vscode.ProgressLocation.Notification, title: `Installing ${agent.name} ${agent.version}`, cancellable: true },
				async (progress, token) => {
					const controller = new AbortController();
					const listener = token.onCancellationRequested(() => controller.abort());
					let reported = 0;
					try {
						return await installBinary(this.agentsDir, agent, launch.target, {
							signal: controller.signal,
							onProgress: (received, total) => {
								if (total) {
									const percent = (received / total) * 100;
									progress.report({ increment: percent - reported, message: `${mb(received)} of ${mb(total)}` });
									reported = percent;
								} else {
									progress.report({ message: mb(received) });
								}
							},
						});
					} finally {
						listener.dispose();
					}
				},
			);
			this.log.info(`Installed ${agent.name} ${agent.version} from ${launch.target.archive}${launch.target.sha256 ? ' (sha256 verified)' : ' (the registry gives no checksum)'} in ${installed.folder}`);
			return { id: agent.id, name: agent.name, version: agent.version, kind: 'binary', command: installed.command, args: installed.args, env: installed.env };
		} catch (error) {
			if (error instanceof DownloadCancelledError) {
				this.log.info(`Installing ${agent.name} ${agent.version} was cancelled.`);
				return undefined;
			}
			this.log.error(`Installing ${agent.name} ${agent.version} failed: ${errorMessage(error)}`);
			void vscode.window.showErrorMessage(`Agent Link: ${agent.name} could not be installed. ${errorMessage(error)}`, 'Show Log').then((pick) => {
				if (pick) {
					this.log.show();
				}
			});
			return undefined;
		}
	}

	/** Once a registry agent runs: older versions of it go, and the registry is asked about updates. */
	private async afterStart(): Promise<void> {
		const choice = this.manager.currentChoice;
		if (choice?.source !== 'registry' || !choice.registry?.version) {
			return;
		}
		const record = this.installed[choice.registry.id];
		if (record?.kind === 'binary') {
			const removed = await removeOtherVersions(this.agentsDir, choice.registry.id, choice.registry.version).catch((error: unknown) => {
				this.log.warn(`Could not remove old versions of ${choice.name}: ${errorMessage(error)}`);
				return [];
			});
			if (removed.length > 0) {
				this.log.info(`Removed ${choice.name} ${removed.join(', ')} after switching to ${choice.registry.version}.`);
			}
		}
		await this.load().catch(() => undefined);
	}

	/** The newer version the registry lists for the running registry agent, if any. */
	availableUpdate(): RegistryAgent | undefined {
		const choice = this.manager.currentChoice;
		if (choice?.source !== 'registry' || !choice.registry?.version || !this.catalogue) {
			return undefined;
		}
		const entry = this.catalogue.agents.find((a) => a.id === choice.registry?.id);
		return entry && compareVersions(entry.version, choice.registry.version) > 0 ? entry : undefined;
	}

	private renderUpdate(): void {
		const update = this.availableUpdate();
		if (update && this.manager.state.kind !== 'stopped') {
			this.updateItem.text = `$(arrow-circle-up) ${update.name} ${update.version}`;
			this.updateItem.tooltip = `Update ${update.name} from ${this.manager.currentChoice?.registry?.version ?? '?'} to ${update.version} (ACP Registry)`;
			this.updateItem.show();
		} else {
			this.updateItem.hide();
		}
	}

	/** `agentLink.updateAgent`: the running registry agent to the registry's version, asking consent for it. */
	async updateCurrent(): Promise<void> {
		await this.load(true).catch((error: unknown) => this.log.warn(errorMessage(error)));
		const update = this.availableUpdate();
		if (!update) {
			void vscode.window.showInformationMessage(
				this.manager.currentChoice?.source === 'registry' ? `Agent Link: ${this.manager.currentChoice.name} is up to date.` : 'Agent Link: the running agent does not come from the ACP Registry.',
			);
			return;
		}
		const choice = await this.prepare(update);
		if (choice) {
			await this.manager.start(choice);
		}
	}

	/** Which package runners are on PATH. */
	private async runners(): Promise<{ npx: boolean; uvx: boolean }> {
		const cwd = vscode.workspace.workspaceFolders?.[0]?.uri.fsPath ?? process.cwd();
		const [npx, uvx] = await Promise.all([resolveCommand('npx', process.env, cwd), resolveCommand('uvx', process.env, cwd)]);
		return { npx: npx !== undefined, uvx: uvx !== undefined };
	}

	dispose(): void {
		for (const d of this.disposables) {
			d.dispose();
		}
	}
}

function toChoice(record: InstalledRecord): AgentChoice {
	return { name: record.name, definition: { command: record.command, args: [...record.args], env: { ...record.env } }, source: 'registry', registry: { id: record.id, version: record.version } };
}

function mb(bytes: number): string {
	return `${(bytes / (1024 * 1024)).toFixed(1)} MB`;
}
