/**
 * The running agents, one process per agent however many roles name it.
 *
 * The pool keeps one {@link AgentManager} per agent name. A role (the chat agent
 * chosen with **Select Agent**, the NES agent of `agentLink.nes.agent`) holds the
 * agent it names through an {@link AgentRole}; two roles naming the same agent
 * hold the same manager, so they share its process, restart policy, state and
 * sessions. An agent no role holds any more is stopped and dropped.
 *
 * Because a role takes hold of its manager synchronously, before anything is
 * awaited, the one-process rule holds under any ordering of activation,
 * settings changes, trust being granted and crashes: whichever role comes
 * second finds the manager the first one made.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/log';
import { agentChoices, type AgentChoice } from '../common/presets';
import type { ClientCapabilities } from '../common/protocol';
import { AgentManager, clientCapabilitiesOf, type AgentFeature, type AgentState, type ReadyAgent } from './agentManager';
import type { ClientInfo } from '../node/agentHandle';
import type { ConfigService } from './config';
import type { AgentCredentials } from './credentials';
import type { ExtensionLog } from './log';
import type { RemoteAccess } from './remoteAccess';

const STOPPED: AgentState = { kind: 'stopped' };

interface Entry {
	readonly manager: AgentManager;
	readonly holders: Set<object>;
	readonly subscription: vscode.Disposable;
}

export class AgentPool implements vscode.Disposable {
	private readonly entries = new Map<string, Entry>();
	private readonly features: AgentFeature[] = [];
	private readonly choiceSources: (() => readonly AgentChoice[])[] = [];
	private readonly changeEmitter = new vscode.EventEmitter<void>();
	/** Processes this pool has launched, for tests and the log: one per start of an agent. */
	private launchCount = 0;

	/** Fires when an agent is added to or dropped from the pool, or changes state. */
	readonly onDidChange = this.changeEmitter.event;

	constructor(
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
		private readonly clientInfo: ClientInfo,
		/** What the user gave to sign in to agents (env_var auth methods), added to their environment. */
		readonly credentials?: AgentCredentials,
		/** Confirmations and credentials for agents on other machines. */
		readonly remoteAccess?: RemoteAccess,
	) {}

	/** The agents in the pool now, running or not. */
	get agents(): readonly AgentManager[] {
		return [...this.entries.values()].map((e) => e.manager);
	}

	/** How many agent processes the pool has started so far (restarts included). */
	get launches(): number {
		return this.launchCount;
	}

	get(name: string): AgentManager | undefined {
		return this.entries.get(name)?.manager;
	}

	/** A capability every agent gets, now and later. */
	registerFeature(feature: AgentFeature): void {
		this.features.push(feature);
		for (const { manager } of this.entries.values()) {
			manager.registerFeature(feature);
		}
	}

	/** Adds agents that can be started by name (the built-in NES agent, installed registry agents). */
	addChoiceSource(source: () => readonly AgentChoice[]): vscode.Disposable {
		this.choiceSources.push(source);
		return new vscode.Disposable(() => {
			const index = this.choiceSources.indexOf(source);
			if (index >= 0) {
				this.choiceSources.splice(index, 1);
			}
		});
	}

	/** Configured agents first, then the presets they do not replace, then agents from other sources by other names. */
	choices(): AgentChoice[] {
		const choices = agentChoices(this.config.current.agents);
		const names = new Set(choices.map((c) => c.name));
		for (const source of this.choiceSources) {
			for (const choice of source()) {
				if (!names.has(choice.name)) {
					names.add(choice.name);
					choices.push(choice);
				}
			}
		}
		return choices;
	}

	findChoice(name: string): AgentChoice | undefined {
		return this.choices().find((c) => c.name === name);
	}

	/** The client capabilities sent in `initialize`: only what the registered features implement. */
	clientCapabilities(): ClientCapabilities {
		return clientCapabilitiesOf(this.features);
	}

	/** The manager of `name`, made if need be, now held by `holder` too. Starts nothing. */
	hold(name: string, holder: object): AgentManager {
		let entry = this.entries.get(name);
		if (!entry) {
			const manager = new AgentManager(name, this.config, this.log, this.clientInfo, async (agent) => (this.credentials ? this.credentials.env(agent) : {}), this.remoteAccess);
			for (const feature of this.features) {
				manager.registerFeature(feature);
			}
			const subscription = manager.onDidChangeState((state) => {
				if (state.kind === 'starting') {
					this.launchCount++;
				}
				this.changeEmitter.fire();
			});
			entry = { manager, holders: new Set(), subscription };
			this.entries.set(name, entry);
			this.changeEmitter.fire();
		}
		entry.holders.add(holder);
		return entry.manager;
	}

	/** Whether a holder other than `holder` holds `manager`. */
	heldByOthers(manager: AgentManager, holder: object): boolean {
		const entry = this.entries.get(manager.name);
		return entry?.manager === manager && [...entry.holders].some((h) => h !== holder);
	}

	/** `holder` lets go of `manager`; the last one to let go stops it. Resolves once it has stopped (if it had to). */
	async release(manager: AgentManager, holder: object, graceMs?: number): Promise<void> {
		const entry = this.entries.get(manager.name);
		if (entry?.manager !== manager) {
			return;
		}
		entry.holders.delete(holder);
		if (entry.holders.size > 0) {
			return;
		}
		try {
			await manager.stop(graceMs);
		} catch (error) {
			this.log.error(`Stopping ${manager.name} failed: ${errorMessage(error)}`);
		}
		// Someone may have taken hold of it again while it stopped: then it stays.
		if (entry.holders.size === 0 && this.entries.get(manager.name) === entry) {
			this.entries.delete(manager.name);
			entry.subscription.dispose();
			manager.dispose();
			this.changeEmitter.fire();
		}
	}

	/** Deactivation: every agent's process tree ends quickly. */
	async shutdown(): Promise<void> {
		await Promise.all([...this.entries.values()].map((e) => e.manager.shutdown()));
	}

	dispose(): void {
		for (const entry of this.entries.values()) {
			entry.subscription.dispose();
			entry.manager.dispose();
		}
		this.entries.clear();
		this.changeEmitter.dispose();
	}
}

/**
 * One role's agent (the chat agent, the NES agent): which agent it names, and that agent's state
 * as the role sees it. Starting another agent lets go of the previous one, which stops if no other
 * role holds it; starting an agent another role already runs joins its process.
 */
export class AgentRole implements vscode.Disposable {
	private held: AgentManager | undefined;
	/** What this role holds its agent with: a new token per hold, so letting go of an old hold never ends a newer one. */
	private token: object | undefined;
	private heldSubscriptions: vscode.Disposable[] = [];
	private lastChoice: AgentChoice | undefined;
	/** Bumped by each start and stop: the last one asked for wins. */
	private generation = 0;
	private readonly stateEmitter = new vscode.EventEmitter<AgentState>();
	private readonly readyEmitter = new vscode.EventEmitter<ReadyAgent>();

	/** Fires when the held agent changes state, or the role moves to another agent. */
	readonly onDidChangeState = this.stateEmitter.event;
	/** Fires each time the held agent completes `initialize`. */
	readonly onDidBecomeReady = this.readyEmitter.event;

	constructor(
		/** For the log: "chat", "NES". */
		readonly label: string,
		private readonly pool: AgentPool,
	) {}

	/** The pooled agent this role holds now. */
	get manager(): AgentManager | undefined {
		return this.held;
	}

	get state(): AgentState {
		return this.held?.state ?? STOPPED;
	}

	get readyAgent(): ReadyAgent | undefined {
		return this.held?.readyAgent;
	}

	get pid(): number | undefined {
		return this.held?.pid;
	}

	/** The agent this role runs, or last ran (what **Restart Agent** starts again). */
	get currentChoice(): AgentChoice | undefined {
		return this.held?.currentChoice ?? this.lastChoice;
	}

	/**
	 * Makes `choice` this role's agent. The agent it already runs is started again (with
	 * `choice`'s definition); an agent another role runs is joined as it is; any other is started.
	 * Resolves once it is ready or has failed.
	 */
	async start(choice: AgentChoice): Promise<void> {
		const generation = ++this.generation;
		this.lastChoice = choice;
		const current = this.held;
		if (current?.name === choice.name) {
			await current.start(choice);
			return;
		}
		// Held at once, before anything is awaited: a role that asks for the same agent from now on
		// joins this one instead of starting a second process.
		const token = {};
		const next = this.pool.hold(choice.name, token);
		if (current) {
			await this.letGo(current);
		}
		if (generation !== this.generation) {
			await this.pool.release(next, token); // a later start or stop of this role won
			return;
		}
		const launched = next.join(choice);
		this.switchTo(next, token);
		await launched;
	}

	async restart(): Promise<void> {
		if (this.held) {
			await this.held.restart();
		} else if (this.lastChoice) {
			await this.start(this.lastChoice);
		} else {
			throw new Error('No agent has been started yet.');
		}
	}

	/** Lets go of the agent: it stops unless another role still holds it. */
	async stop(graceMs?: number): Promise<void> {
		const generation = ++this.generation;
		const current = this.held;
		if (!current) {
			return;
		}
		await this.letGo(current, graceMs);
		if (generation === this.generation) {
			this.switchTo(undefined, undefined);
		}
	}

	/**
	 * Lets go of the held agent. The last holder waits for it to stop while still holding it, so
	 * features say goodbye (`nes/close`, rejects) before the role moves on; otherwise the agent keeps
	 * running for the others, and the role moves on at once.
	 */
	private async letGo(manager: AgentManager, graceMs?: number): Promise<void> {
		const token = this.token;
		if (!token || this.held !== manager) {
			return;
		}
		if (this.pool.heldByOthers(manager, token)) {
			this.switchTo(undefined, undefined);
		}
		await this.pool.release(manager, token, graceMs);
	}

	/** Whether another role holds the same agent (one process serving both). */
	sharesWith(other: AgentRole): boolean {
		return this.held !== undefined && this.held === other.held;
	}

	choices(): AgentChoice[] {
		return this.pool.choices();
	}

	findChoice(name: string): AgentChoice | undefined {
		return this.pool.findChoice(name);
	}

	addChoiceSource(source: () => readonly AgentChoice[]): vscode.Disposable {
		return this.pool.addChoiceSource(source);
	}

	registerFeature(feature: AgentFeature): void {
		this.pool.registerFeature(feature);
	}

	clientCapabilities(): ClientCapabilities {
		return this.pool.clientCapabilities();
	}

	private switchTo(manager: AgentManager | undefined, token: object | undefined): void {
		for (const d of this.heldSubscriptions.splice(0)) {
			d.dispose();
		}
		const before = this.state;
		this.held = manager;
		this.token = token;
		if (manager) {
			this.heldSubscriptions.push(
				manager.onDidChangeState((state) => this.stateEmitter.fire(state)),
				manager.onDidBecomeReady((agent) => this.readyEmitter.fire(agent)),
			);
		}
		if (this.state !== before) {
			this.stateEmitter.fire(this.state);
		}
	}

	dispose(): void {
		for (const d of this.heldSubscriptions.splice(0)) {
			d.dispose();
		}
		this.stateEmitter.dispose();
		this.readyEmitter.dispose();
	}
}
