/**
 * Values the user gave to sign in to an agent with an `env_var` auth method (an API key, say):
 * kept in VS Code's secret storage (the OS keychain where there is one), never in settings or
 * logs, and added to the agent's environment each time it starts.
 *
 * Secret storage cannot list its keys, so the names of the agents with stored values are kept in
 * the extension's global state (names only) for **Forget Sign-in Secrets**.
 */
import type * as vscode from 'vscode';
import * as z from 'zod/mini';

const KEY_PREFIX = 'agentLink.env:';
const INDEX_KEY = 'agentLink.envAgents';
/** What an environment variable's name may be (POSIX's portable set, as agents name them). */
export const ENV_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

const storedSchema = z.record(z.string().check(z.regex(ENV_NAME)), z.string());

export class AgentCredentials {
	constructor(
		private readonly secrets: vscode.SecretStorage,
		private readonly state: vscode.Memento,
	) {}

	/** The variables stored for `agentName` (none when nothing was stored or what was stored is unreadable). */
	async env(agentName: string): Promise<Readonly<Record<string, string>>> {
		if (!this.agents().includes(agentName)) {
			return {}; // nothing stored: no trip to the secret store at each start
		}
		const raw = await Promise.resolve(this.secrets.get(KEY_PREFIX + agentName)).catch(() => undefined);
		if (raw === undefined) {
			return {};
		}
		try {
			const parsed = storedSchema.safeParse(JSON.parse(raw));
			return parsed.success ? parsed.data : {};
		} catch {
			return {};
		}
	}

	/** Stores `values` for `agentName`, over what was stored for the same variables. */
	async store(agentName: string, values: Readonly<Record<string, string>>): Promise<void> {
		for (const name of Object.keys(values)) {
			if (!ENV_NAME.test(name)) {
				throw new Error(`"${name}" is not an environment variable name.`);
			}
		}
		await this.secrets.store(KEY_PREFIX + agentName, JSON.stringify({ ...(await this.env(agentName)), ...values }));
		const names = this.agents();
		if (!names.includes(agentName)) {
			await this.state.update(INDEX_KEY, [...names, agentName].sort());
		}
	}

	/** Removes every value stored for `agentName`. */
	async forget(agentName: string): Promise<void> {
		await this.secrets.delete(KEY_PREFIX + agentName);
		await this.state.update(
			INDEX_KEY,
			this.agents().filter((n) => n !== agentName),
		);
	}

	/** The agents with stored values. */
	agents(): string[] {
		const names = this.state.get<unknown>(INDEX_KEY);
		return Array.isArray(names) ? names.filter((n): n is string => typeof n === 'string') : [];
	}
}
