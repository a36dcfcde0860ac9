/**
 * What the user says before Agent Link talks to an agent on another machine:
 *
 * - A plain-text address (`http://`, `ws://`) to a host that is not this machine is used only
 *   after the user confirms that host, once (the answer is kept in global state, hosts only).
 * - The secret (a bearer token or API key) is asked for in a password box when the server asks
 *   for one (HTTP 401/403) and kept in the editor's secret storage, keyed by the agent's name and
 *   the server's origin, so a changed address never gets the old secret. Never in settings or the log.
 */
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { describeUrl, plainTextRemoteHost, type RemoteAgentDefinition } from '../common/remoteAgent';
import type { Logger } from '../common/log';

const SECRET_PREFIX = 'agentLink.remote:';
const HOSTS_KEY = 'agentLink.plainTextHosts';
const INDEX_KEY = 'agentLink.remoteAgents';
const storedSchema = z.object({ origin: z.string(), secret: z.string() });

/** What a remote agent's launch needs from the user; undefined: the user declined, so it does not connect. */
export interface RemoteAccess {
	/** Confirms a plain-text host when need be; then the stored secret, if any. */
	prepare(name: string, definition: RemoteAgentDefinition): Promise<{ readonly secret: string | undefined } | undefined>;
	/** The server refused the credential: asks for it again (stored when given). Resolves whether one was given. */
	askAgain(name: string, definition: RemoteAgentDefinition, status: number): Promise<boolean>;
}

export class EditorRemoteAccess implements RemoteAccess {
	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly state: vscode.Memento,
		private readonly log: Logger,
	) {}

	async prepare(name: string, definition: RemoteAgentDefinition): Promise<{ readonly secret: string | undefined } | undefined> {
		const host = plainTextRemoteHost(definition.url);
		if (host && !this.allowedHosts().includes(host)) {
			const connect = { label: `$(warning) Connect to ${host} without encryption`, detail: 'Remembered for this host. Prefer https:// or wss://.' };
			const chosen = await vscode.window.showQuickPick([connect, { label: "Don't connect" }], {
				title: `Agent Link: ${name} is at ${describeUrl(definition.url)}, on another machine`,
				placeHolder: 'Without encryption your code, the chat and the credential can be read on the way',
				ignoreFocusOut: true,
			});
			const pick = chosen === connect ? 'Connect' : undefined;
			if (pick !== 'Connect') {
				this.log.info(`Not connecting to ${host}: the plain-text address was not confirmed.`);
				return undefined;
			}
			await this.state.update(HOSTS_KEY, [...this.allowedHosts(), host].sort());
		}
		return { secret: await this.secret(name, definition) };
	}

	async askAgain(name: string, definition: RemoteAgentDefinition, status: number): Promise<boolean> {
		const value = await vscode.window.showInputBox({
			title: `Agent Link: ${name}`,
			prompt: `${describeUrl(definition.url)} answered HTTP ${status}: enter the token or key it takes (sent in the ${definition.authHeader} header; kept in the editor's secret storage).`,
			password: true,
			ignoreFocusOut: true,
			placeHolder: 'Token or key',
		});
		if (!value?.trim()) {
			this.log.info(`No credential given for ${name}.`);
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
