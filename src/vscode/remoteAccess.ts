/**
 * What the user says before Agent Link talks to an agent on another machine:
 *
 * - A plain-text address (`http://`, `ws://`) to a host that is not this machine is used only
 *   after the user confirms that host, once (the answer is kept in global state, hosts only).
 * - The secret (a bearer token or API key) is asked for in a password box when the server asks
 *   for one (HTTP 401/403) and kept in the editor's secret storage, keyed by the agent's name and
 *   the server's origin, so a changed address never gets the old secret. Never in settings or the log.
 *   HTTP 401 (no credential, or a wrong one) and 403 (the credential is refused: wrong, or without
 *   access) are told apart in the box; declining stores nothing.
 * - While a question is open {@link EditorRemoteAccess.onDidAsk} says so, so that the chat does not
 *   take the keyboard from it, and takes it back once it is answered.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { describeUrl, plainTextRemoteHost, type RemoteAgentDefinition } from '../common/remoteAgent';
import type { Logger } from '../common/log';

const SECRET_PREFIX = 'agentLink.remote:';
const HOSTS_KEY = 'agentLink.plainTextHosts';
const INDEX_KEY = 'agentLink.remoteAgents';
const storedSchema = z.object({ origin: z.string(), secret: z.string() });

/** A question about the agent `name` opened or was answered. */
export interface RemoteQuestion {
	readonly name: string;
	readonly open: boolean;
}

/** What a remote agent's launch needs from the user; undefined: the user declined, so it does not connect. */
export interface RemoteAccess {
	/** Whether a question is open now. */
	readonly asking: boolean;
	/** Fires when a question opens and when it is answered. */
	readonly onDidAsk: vscode.Event<RemoteQuestion>;
	/** Confirms a plain-text host when need be (one question per host at a time). Resolves whether it may connect. */
	confirm(name: string, definition: RemoteAgentDefinition): Promise<boolean>;
	/** {@link confirm}, then the stored secret, if any. */
	prepare(name: string, definition: RemoteAgentDefinition): Promise<{ readonly secret: string | undefined } | undefined>;
	/**
	 * The server refused the credential (HTTP `status`): asks for it again (stored when given).
	 * `again`: the one just given was refused. Resolves whether one was given.
	 */
	askAgain(name: string, definition: RemoteAgentDefinition, status: number, again: boolean): Promise<boolean>;
}

export class EditorRemoteAccess implements RemoteAccess, vscode.Disposable {
	private readonly confirming = new Map<string, Promise<boolean>>();
	private readonly askEmitter = new vscode.EventEmitter<RemoteQuestion>();
	private openQuestions = 0;
	/** Fires when a question (a confirmation, a password box) opens and when it is answered. */
	readonly onDidAsk = this.askEmitter.event;

	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly state: vscode.Memento,
		private readonly log: Logger,
	) {}

	get asking(): boolean {
		return this.openQuestions > 0;
	}

	confirm(name: string, definition: RemoteAgentDefinition): Promise<boolean> {
		const host = plainTextRemoteHost(definition.url);
		if (!host || this.allowedHosts().includes(host)) {
			return Promise.resolve(true);
		}
		let pending = this.confirming.get(host);
		if (!pending) {
			pending = this.askHost(name, definition, host).finally(() => this.confirming.delete(host));
			this.confirming.set(host, pending);
		}
		return pending;
	}

	async prepare(name: string, definition: RemoteAgentDefinition): Promise<{ readonly secret: string | undefined } | undefined> {
		if (!(await this.confirm(name, definition))) {
			return undefined;
		}
		return { secret: await this.secret(name, definition) };
	}

	dispose(): void {
		this.askEmitter.dispose();
	}

	private async askHost(name: string, definition: RemoteAgentDefinition, host: string): Promise<boolean> {
		const connect = { label: `$(warning) Connect to ${host} without encryption`, detail: 'Remembered for this host. Prefer https:// or wss://.' };
		const chosen = await this.asked(name, () =>
			vscode.window.showQuickPick([connect, { label: "Don't connect" }], {
				title: `Agent Link: ${name} is at ${describeUrl(definition.url)}, on another machine`,
				placeHolder: 'Without encryption your code, the chat and the credential can be read on the way',
				ignoreFocusOut: true,
			}),
		);
		if (chosen !== connect) {
			this.log.info(`Not connecting to ${host}: the plain-text address was not confirmed.`);
			return false;
		}
		await this.state.update(HOSTS_KEY, [...new Set([...this.allowedHosts(), host])].sort());
		return true;
	}

	/** Runs a question, saying that it is open meanwhile. */
	private async asked<T>(name: string, question: () => Thenable<T>): Promise<T> {
		this.openQuestions++;
		this.askEmitter.fire({ name, open: true });
		try {
			return await question();
		} finally {
			this.openQuestions--;
			this.askEmitter.fire({ name, open: false });
		}
	}

	async askAgain(name: string, definition: RemoteAgentDefinition, status: number, again: boolean): Promise<boolean> {
		const value = await this.asked(name, () =>
			vscode.window.showInputBox({
				title: `Agent Link: ${name}`,
				prompt: `${refusal(describeUrl(definition.url), status, again)} Enter the token or key it takes (sent in the ${definition.authHeader} header; kept in the editor's secret storage).`,
				password: true,
				ignoreFocusOut: true,
				placeHolder: 'Token or key',
			}),
		);
		if (!value?.trim()) {
			this.log.info(`No credential given for ${name}; nothing was stored.`);
			return false;
		}
		await this.secrets.store(SECRET_PREFIX + name, JSON.stringify({ origin: new URL(definition.url).origin, secret: value.trim() }));
		const names = this.agents();
		if (!names.includes(name)) {
			await this.state.update(INDEX_KEY, [...names, name].sort());
		}
		this.log.info(`Kept a credential for ${name} (secret storage).`);
		return true;
	}

	/** The agents with a stored credential (names only). */
	agents(): string[] {
		const names = this.state.get<unknown>(INDEX_KEY);
		return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
	}

	/** Forgets the credential stored for `name`. */
	async forget(name: string): Promise<void> {
		await this.secrets.delete(SECRET_PREFIX + name);
		await this.state.update(
			INDEX_KEY,
			this.agents().filter((n) => n !== name),
		);
	}

	private async secret(name: string, definition: RemoteAgentDefinition): Promise<string | undefined> {
		if (!this.agents().includes(name)) {
			return undefined;
		}
		const raw = await Promise.resolve(this.secrets.get(SECRET_PREFIX + name)).catch(() => undefined);
		try {
			const parsed = storedSchema.safeParse(raw === undefined ? undefined : JSON.parse(raw));
			return parsed.success && parsed.data.origin === new URL(definition.url).origin ? parsed.data.secret : undefined;
		} catch {
			return undefined;
		}
	}

	private allowedHosts(): string[] {
		const hosts = this.state.get<unknown>(HOSTS_KEY);
		return Array.isArray(hosts) ? hosts.filter((h): h is string => typeof h === 'string') : [];
	}
}

/** Why the box asks: 401 (none, or a wrong one) and 403 (refused: wrong, or without access) told apart. */
function refusal(where: string, status: number, again: boolean): string {
	if (status === 403) {
		return `${where} refused the ${again ? 'credential just given' : 'stored credential'} (HTTP 403): it is wrong or has no access there.`;
	}
	return again ? `${where} did not accept the credential just given (HTTP ${status}).` : `${where} asks for a credential (HTTP ${status}).`;
}
