/**
 * Starts, watches, restarts and stops one agent: the pool (agentPool.ts) keeps
 * one manager per agent, shared by every role that names it.
 *
 * Two lifetimes: the manager lives as long as some role holds its agent; each
 * {@link RunningAgent} lives as long as one agent process, and everything a
 * feature registers for that agent goes into its `disposables`, cleared on
 * every stop and restart.
 */
import * as os from 'node:os';
import * as vscode from 'vscode';
import { errorMessage } from '../common/log';
import type { AgentChoice } from '../common/presets';
import type { ClientCapabilities, ValidatedInitializeResponse } from '../common/protocol';
import { RestartPolicy } from '../common/restartPolicy';
import { SessionRegistry } from '../common/sessions';
import { WireTracer } from '../common/trace';
import { UserWaits, withTimeoutOutsideWaits } from '../common/userWaits';
import { CommandNotFoundError } from '../node/agentProcess';
import { AgentHandle, UnsupportedProtocolError, type ClientInfo } from '../node/agentHandle';
import { InvalidResponseError } from '../node/connection';
import { isRemoteAuthError, refusedMessage, type RemoteAuthError } from '../node/remoteErrors';
import { isRemoteDefinition } from '../common/remoteAgent';
import type { ConfigService } from './config';
import type { ExtensionLog } from './log';
import type { RemoteAccess } from './remoteAccess';

export type AgentState =
	| { readonly kind: 'stopped' }
	| { readonly kind: 'starting'; readonly name: string }
	| { readonly kind: 'ready'; readonly name: string; readonly pid: number | undefined }
	| { readonly kind: 'crashed'; readonly name: string; readonly message: string; readonly restartingInMs?: number; readonly connectionLost?: boolean }
	| { readonly kind: 'failed'; readonly name: string; readonly message: string };

/** An agent process with its connection, alive from launch until stop or crash. */
export interface RunningAgent {
	readonly name: string;
	readonly handle: AgentHandle;
	readonly disposables: vscode.Disposable[];
	/** Sessions this client created with this agent. */
	readonly sessions: SessionRegistry;
	/** Questions open on the agent's behalf: its `initialize` time limit stops while one is. */
	readonly userWaits: UserWaits;
}

/** An agent that completed `initialize`. */
export interface ReadyAgent extends RunningAgent {
	readonly initialized: ValidatedInitializeResponse;
}

/** A capability of the client, hooked into every agent's lifetime. */
export interface AgentFeature {
	/** Adds what this feature implements to `initialize`'s client capabilities. */
	fillClientCapabilities?(capabilities: ClientCapabilities): void;
	/** Before `initialize`: register request handlers on the connection. */
	attach?(agent: RunningAgent): void;
	/** After a successful `initialize`. */
	initialized?(agent: ReadyAgent): void | Promise<void>;
	/** Before a healthy agent is stopped on purpose, while its connection still works (bounded in time). */
	beforeStop?(agent: ReadyAgent): Promise<void>;
}

const INITIALIZE_TIMEOUT_MS = 60_000;
/** A remote agent's server is connected to within 10 s (remoteTransport.ts); its agent then has this long to answer. */
const REMOTE_INITIALIZE_TIMEOUT_MS = 30_000;
const BEFORE_STOP_TIMEOUT_MS = 1000;
const DEACTIVATE_GRACE_MS = 1000;

export class AgentManager implements vscode.Disposable {
	private stateValue: AgentState = { kind: 'stopped' };
	private running: RunningAgent | undefined;
	private ready: ReadyAgent | undefined;
	private lastChoice: AgentChoice | undefined;
	private generation = 0;
	private stopGeneration = -1;
	/** The launch under way, so a role that joins a starting agent can wait for it. */
	private launching: Promise<void> | undefined;
	/** The process being ended, so a new one never starts beside it. */
	private tearingDown: Promise<void> | undefined;
	private restartTimer: NodeJS.Timeout | undefined;
	private readonly features: AgentFeature[] = [];
	private readonly policy = new RestartPolicy();
	private readonly stateEmitter = new vscode.EventEmitter<AgentState>();
	private readonly readyEmitter = new vscode.EventEmitter<ReadyAgent>();
	private readonly tracer: WireTracer;

	readonly onDidChangeState = this.stateEmitter.event;
	/** Fires each time an agent completes `initialize`. */
	readonly onDidBecomeReady = this.readyEmitter.event;

	constructor(
		/** The agent's name (its key in the pool). */
		readonly name: string,
		private readonly config: ConfigService,
		private readonly log: ExtensionLog,
		private readonly clientInfo: ClientInfo,
		/** Variables added to the agent's environment at each start (what the user gave to sign in: credentials.ts). */
		private readonly extraEnv: (name: string) => Promise<Readonly<Record<string, string>>> = async () => ({}),
		/** Confirmations and credentials for agents on other machines (remoteAccess.ts). */
		private readonly remoteAccess?: RemoteAccess,
	) {
		this.tracer = new WireTracer(() => this.config.current.trace, (line) => this.log.wire(line));
	}

	get state(): AgentState {
		return this.stateValue;
	}

	/** The agent that completed `initialize`, if one is running. */
	get readyAgent(): ReadyAgent | undefined {
		return this.ready;
	}

	get pid(): number | undefined {
		return this.running?.handle.pid;
	}

	get currentChoice(): AgentChoice | undefined {
		return this.lastChoice;
	}

	registerFeature(feature: AgentFeature): void {
		this.features.push(feature);
	}

	/** The client capabilities sent in `initialize`: only what the registered features implement. */
	clientCapabilities(): ClientCapabilities {
		return clientCapabilitiesOf(this.features);
	}

	/** Stops the current agent (if any) and starts `choice`. Resolves once it is ready or has failed. */
	async start(choice: AgentChoice): Promise<void> {
		this.policy.reset();
		await this.trackLaunch(choice);
	}

	/**
	 * For a new holder of this agent: starts it with `choice` unless it runs or is starting (a
	 * stop under way counts as not running), so joining never restarts it. Resolves once it is
	 * ready or has failed.
	 */
	join(choice: AgentChoice): Promise<void> {
		const kind = this.stateValue.kind;
		return kind === 'stopped' || kind === 'failed' || this.stopping ? this.start(choice) : this.whenSettled();
	}

	/** Resolves once the launch under way (if any) is ready or has failed. */
	async whenSettled(): Promise<void> {
		await this.launching;
	}

	private trackLaunch(choice: AgentChoice): Promise<void> {
		const launching = this.launch(choice).finally(() => {
			if (this.launching === launching) {
				this.launching = undefined;
			}
		});
		this.launching = launching;
		return launching;
	}

	async restart(): Promise<void> {
		if (!this.lastChoice) {
			throw new Error('No agent has been started yet.');
		}
		this.policy.reset();
		await this.trackLaunch(this.lastChoice);
	}

	/** Stops the agent and everything it started. */
	async stop(graceMs?: number): Promise<void> {
		const generation = ++this.generation;
		this.stopGeneration = generation;
		this.clearRestartTimer();
		await this.teardown(graceMs);
		// A start asked for meanwhile has the last word.
		if (generation === this.generation) {
			this.setState({ kind: 'stopped' });
		}
	}

	/** Whether a stop was asked for and has not finished (nor been overtaken by a start). */
	private get stopping(): boolean {
		return this.stopGeneration === this.generation && this.stateValue.kind !== 'stopped';
	}

	/**
	 * Starts `choice`: the process (spawnFor), then its features attached and the handshake
	 * (handshake). A later launch or a stop (a new generation) overtakes it at every step.
	 */
	private async launch(choice: AgentChoice, credentialGiven = false): Promise<void> {
		const generation = ++this.generation;
		this.clearRestartTimer();
		// Starting from the moment it is asked for, so a role that joins now shares this launch.
		this.lastChoice = choice;
		this.setState({ kind: 'starting', name: choice.name });
		await this.teardown();
		if (generation !== this.generation) {
			return;
		}
		const handle = await this.spawnFor(choice, generation);
		if (!handle) {
			return;
		}
		if (generation !== this.generation) {
			await handle.dispose();
			return;
		}
		const running: RunningAgent = { name: choice.name, handle, disposables: [], sessions: new SessionRegistry(), userWaits: new UserWaits() };
		this.running = running;
		handle.connection.onDidClose((cause) => {
			if (this.running === running) {
				void this.onCrash(choice, running, cause);
			}
		});
		for (const feature of this.features) {
			feature.attach?.(running);
		}
		await this.handshake(choice, running, generation, credentialGiven);
	}

	/** The agent's process, with its settings' environment; undefined when it failed (said) or was overtaken. */
	private async spawnFor(choice: AgentChoice, generation: number): Promise<AgentHandle | undefined> {
		const config = this.config.current;
		try {
			if (isRemoteDefinition(choice.definition)) {
				const access = this.remoteAccess ? await this.remoteAccess.prepare(choice.name, choice.definition) : { secret: undefined };
				if (generation !== this.generation) {
					return undefined;
				}
				if (!access) {
					throw new Error(`the connection to its plain-text address was not confirmed.`);
				}
				return await AgentHandle.launch({ definition: choice.definition, defaultCwd: defaultCwd(), maxLineBytes: config.maxMessageBytes, log: this.log, tracer: this.tracer, secret: access.secret });
			}
			const extra = await this.extraEnv(choice.name);
			if (generation !== this.generation) {
				return undefined;
			}
			const definition = Object.keys(extra).length > 0 ? { ...choice.definition, env: { ...choice.definition.env, ...extra } } : choice.definition;
			return await AgentHandle.launch({
				definition,
				defaultCwd: defaultCwd(),
				maxLineBytes: config.maxMessageBytes,
				log: this.log,
				tracer: this.tracer,
				install: choice.install,
			});
		} catch (error) {
			if (generation === this.generation) {
				this.fail(choice, error);
			}
			return undefined;
		}
	}

	/** `initialize`, then the agent is ready: said, and each feature set up for it. */
	private async handshake(choice: AgentChoice, running: RunningAgent, generation: number, credentialGiven: boolean): Promise<void> {
		const { handle } = running;
		let initialized: ValidatedInitializeResponse;
		try {
			initialized = await withTimeoutOutsideWaits(
				handle.initialize(this.clientInfo, this.clientCapabilities()),
				handle.isRemote ? REMOTE_INITIALIZE_TIMEOUT_MS : INITIALIZE_TIMEOUT_MS,
				running.userWaits,
				`The agent did not answer initialize within ${(handle.isRemote ? REMOTE_INITIALIZE_TIMEOUT_MS : INITIALIZE_TIMEOUT_MS) / 1000} s (not counting time spent answering its questions).`,
			);
		} catch (error) {
			if (generation !== this.generation || this.running !== running) {
				return; // stopped, replaced, or the crash handler has it
			}
			if (isRemoteAuthError(error)) {
				await this.onRefused(choice, running, error, credentialGiven);
				return;
			}
			if (error instanceof UnsupportedProtocolError || error instanceof InvalidResponseError || !handle.connection.isClosed) {
				this.running = undefined;
				disposeAll(running.disposables);
				await handle.dispose();
				this.fail(choice, error);
			}
			return;
		}
		if (generation !== this.generation || this.running !== running) {
			return;
		}
		this.logHandshake(choice.name, initialized);
		const ready: ReadyAgent = { ...running, initialized };
		this.ready = ready;
		this.setState({ kind: 'ready', name: choice.name, pid: handle.pid });
		this.readyEmitter.fire(ready);
		for (const feature of this.features) {
			try {
				await feature.initialized?.(ready);
			} catch (error) {
				this.log.error(`Setting up ${choice.name} failed: ${errorMessage(error)}`);
			}
		}
	}

	private async onCrash(choice: AgentChoice, running: RunningAgent, cause: Error): Promise<void> {
		// Decide and show the new state before awaiting anything: a stop or another start may come
		// in while the old process is being ended, and must win.
		if (isRemoteAuthError(cause)) {
			// Refused at connect: the launch under way asks for the credential (handshake), so whoever waits for it waits for that too.
			if (this.ready?.handle === running.handle) {
				await this.onRefused(choice, running, cause, false);
			}
			return;
		}
		const generation = this.generation;
		this.running = undefined;
		this.ready = undefined;
		disposeAll(running.disposables);
		running.sessions.clear();
		const remote = running.handle.isRemote;
		this.log.error(`${choice.name} ${remote ? 'lost its connection' : 'stopped unexpectedly'}: ${cause.message}`);
		const decision = this.policy.onCrash(Date.now());
		if (!decision.restart) {
			const message = `${choice.name} was not restarted: ${decision.reason}. Last error: ${cause.message}`;
			this.setState({ kind: 'failed', name: choice.name, message });
			this.notify(`Agent Link: ${message}`, true);
		} else {
			this.log.info(`${remote ? 'Reconnecting to' : 'Restarting'} ${choice.name} in ${decision.delayMs} ms (attempt ${decision.attempt} of at most ${this.policy.maxRestarts} in 3 minutes).`);
			this.setState({ kind: 'crashed', name: choice.name, message: cause.message, restartingInMs: decision.delayMs, ...(remote ? { connectionLost: true } : {}) });
		}
		await this.trackTeardown(running.handle.dispose());
		if (decision.restart && generation === this.generation) {
			this.restartTimer = setTimeout(() => {
				this.restartTimer = undefined;
				if (generation === this.generation) {
					void this.trackLaunch(choice);
				}
			}, decision.delayMs);
		}
	}

	/**
	 * A remote agent's server refused the credential (HTTP 401/403): the credential is asked for
	 * again and the agent connected to with it, within the same launch (a chat waiting for the agent
	 * waits for the answer); without one it stays failed. Never retried blindly, and a 403 for a
	 * credential just given is not asked about again (no loop): the chat says why (remoteErrors.ts).
	 */
	private async onRefused(choice: AgentChoice, running: RunningAgent, cause: RemoteAuthError, credentialGiven: boolean): Promise<void> {
		const generation = this.generation;
		this.running = undefined;
		this.ready = undefined;
		disposeAll(running.disposables);
		running.sessions.clear();
		this.log.warn(`${choice.name}: ${cause.message}`);
		await this.trackTeardown(running.handle.dispose());
		const definition = choice.definition;
		const ask = !(cause.status === 403 && credentialGiven);
		const given = ask && isRemoteDefinition(definition) && this.remoteAccess ? await this.remoteAccess.askAgain(choice.name, definition, cause.status, credentialGiven) : false;
		if (generation !== this.generation) {
			return;
		}
		if (given) {
			await this.launch(choice, true);
		} else {
			this.setState({ kind: 'failed', name: choice.name, message: refusedMessage(choice.name, cause, ask) });
		}
	}

	private fail(choice: AgentChoice, error: unknown): void {
		const message = errorMessage(error);
		this.log.error(`${choice.name} could not be started: ${message}`);
		this.setState({ kind: 'failed', name: choice.name, message });
		if (error instanceof CommandNotFoundError && error.install) {
			void vscode.window.showErrorMessage(`Agent Link: ${choice.name} is not installed. ${message}`, 'Copy Install Command', 'Show Log').then((pick) => {
				if (pick === 'Copy Install Command') {
					void vscode.env.clipboard.writeText(error.install ?? '');
				} else if (pick === 'Show Log') {
					this.log.show();
				}
			});
		} else {
			this.notify(`Agent Link: ${choice.name} could not be started. ${message}`, false);
		}
	}

	private notify(message: string, offerRestart: boolean): void {
		const actions = offerRestart ? ['Show Log', 'Restart'] : ['Show Log'];
		void vscode.window.showErrorMessage(message, ...actions).then((pick) => {
			if (pick === 'Show Log') {
				this.log.show();
			} else if (pick === 'Restart') {
				void this.restart();
			}
		});
	}

	private logHandshake(name: string, result: ValidatedInitializeResponse): void {
		const info = result.agentInfo ? `${result.agentInfo.title ?? result.agentInfo.name} ${result.agentInfo.version}` : 'no agent info';
		this.log.info(`${name} is ready: ACP protocol ${result.protocolVersion}, ${info}.`);
		this.log.info(`Agent capabilities: ${JSON.stringify(result.agentCapabilities ?? {})}`);
		this.log.info(`Client capabilities: ${JSON.stringify(this.clientCapabilities())}`);
		const methods = (result.authMethods ?? []).map((m) => `${m.name} (${m.type ?? 'agent'})`);
		this.log.info(`Auth methods: ${methods.length > 0 ? methods.join(', ') : 'none'}`);
	}

	/** Ends the running process (if any), and waits for any end already under way. */
	private teardown(graceMs?: number): Promise<void> {
		return this.trackTeardown(this.endRunning(graceMs));
	}

	/** Work that ends a process: a launch waits for all of it, so a new process never starts beside a dying one. */
	private trackTeardown(work: Promise<void>): Promise<void> {
		const all: Promise<void> = Promise.all([this.tearingDown, work])
			.then(() => undefined)
			.finally(() => {
				if (this.tearingDown === all) {
					this.tearingDown = undefined;
				}
			});
		this.tearingDown = all;
		return all;
	}

	private async endRunning(graceMs: number | undefined): Promise<void> {
		const running = this.running;
		const ready = this.ready;
		this.running = undefined;
		this.ready = undefined;
		if (ready && !ready.handle.connection.isClosed) {
			await Promise.all(
				this.features.map((feature) =>
					feature.beforeStop
						? withTimeoutOutsideWaits(feature.beforeStop(ready), BEFORE_STOP_TIMEOUT_MS, new UserWaits(), 'timed out').catch((error: unknown) => this.log.debug(`Before stopping ${ready.name}: ${errorMessage(error)}`))
						: undefined,
				),
			);
		}
		if (running) {
			running.sessions.clear();
			disposeAll(running.disposables);
			this.log.info(`Stopping ${running.name} (pid ${String(running.handle.pid)}).`);
			await running.handle.dispose(graceMs);
		}
	}

	private clearRestartTimer(): void {
		if (this.restartTimer) {
			clearTimeout(this.restartTimer);
			this.restartTimer = undefined;
		}
	}

	private setState(state: AgentState): void {
		this.stateValue = state;
		this.stateEmitter.fire(state);
	}

	/** Deactivation: end the agent's process tree quickly. */
	async shutdown(): Promise<void> {
		await this.stop(DEACTIVATE_GRACE_MS);
	}

	dispose(): void {
		void this.shutdown();
		this.stateEmitter.dispose();
		this.readyEmitter.dispose();
	}
}

/** The client capabilities `features` implement, over a base that offers nothing. */
export function clientCapabilitiesOf(features: readonly AgentFeature[]): ClientCapabilities {
	const capabilities: ClientCapabilities = { fs: { readTextFile: false, writeTextFile: false }, terminal: false };
	for (const feature of features) {
		feature.fillClientCapabilities?.(capabilities);
	}
	return capabilities;
}

function defaultCwd(): string {
	const folder = vscode.workspace.workspaceFolders?.find((f) => f.uri.scheme === 'file');
	return folder?.uri.fsPath ?? os.homedir();
}

function disposeAll(disposables: vscode.Disposable[]): void {
	for (const d of disposables.splice(0)) {
		try {
			d.dispose();
		} catch {
			// keep disposing the rest
		}
	}
}
