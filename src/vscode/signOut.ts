/**
 * **Agent Link: Sign Out of Agent**: ACP's `logout`, for an agent that advertises
 * `agentCapabilities.auth.logout`, and then the values Agent Link keeps for that agent's `env_var`
 * sign-in are forgotten (credentials.ts). The agent is the only one running, the one the user picks
 * when several run (the chat agent first, then those that offer signing out), or the one named by
 * the caller (tests, keybindings).
 *
 * An agent that does not advertise sign-out is not sent `logout`: the user is told so, and offered
 * to forget the kept values when there are any. A failed `logout` forgets nothing.
 */
import * as vscode from 'vscode';
import { canSignOut } from '../common/agentAbilities';
import { errorMessage } from '../common/log';
import { logout } from '../node/logout';
import type { ReadyAgent } from './agentManager';
import type { AgentPool, AgentRole } from './agentPool';
import type { AgentCredentials } from './credentials';
import type { ExtensionLog } from './log';

export const SIGN_OUT_COMMAND = 'agentLink.signOut';
const TITLE = 'Agent Link: Sign Out of Agent';

interface AgentItem extends vscode.QuickPickItem {
	readonly agent: ReadyAgent;
}

export function registerSignOutCommand(pool: AgentPool, chatRole: AgentRole, credentials: AgentCredentials, log: ExtensionLog): vscode.Disposable {
	return vscode.commands.registerCommand(SIGN_OUT_COMMAND, async (agentName?: unknown) => {
		const agent = await chooseAgent(pool, chatRole, typeof agentName === 'string' ? agentName : undefined);
		if (agent) {
			await signOut(agent, credentials, log);
		}
	});
}

/** The agent to sign out of: the one named, the only one running, or the one picked; undefined (said) when there is none. */
async function chooseAgent(pool: AgentPool, chatRole: AgentRole, name: string | undefined): Promise<ReadyAgent | undefined> {
	const running = pool.agents.map((m) => m.readyAgent).filter((a): a is ReadyAgent => a !== undefined);
	if (name !== undefined) {
		const named = running.find((a) => a.name === name);
		if (!named) {
			void vscode.window.showErrorMessage(`Agent Link: ${name} is not running, so it cannot be signed out of. Start it, then sign out.`);
		}
		return named;
	}
	if (running.length === 0) {
		void vscode.window.showInformationMessage('Agent Link: no agent is running. Start the agent to sign out of it (Agent Link: Select Agent).');
		return undefined;
	}
	if (running.length === 1) {
		return running[0];
	}
	// The chat agent first, then those that offer signing out.
	const chat = chatRole.readyAgent?.name;
	const rank = (agent: ReadyAgent) => (agent.name === chat ? 0 : canSignOut(agent.initialized.agentCapabilities) ? 1 : 2);
	const ordered = [...running].sort((x, y) => rank(x) - rank(y));
	const pick = await vscode.window.showQuickPick<AgentItem>(
		ordered.map((agent) => ({
			label: agent.name,
			description: agent.name === chat ? 'chat agent' : undefined,
			detail: canSignOut(agent.initialized.agentCapabilities) ? undefined : 'Does not offer signing out',
			agent,
		})),
		{ title: TITLE, placeHolder: 'The agent to sign out of' },
	);
	return pick?.agent;
}

/** `logout` on `agent` (node/logout.ts), then its kept sign-in values forgotten; each outcome said. */
async function signOut(agent: ReadyAgent, credentials: AgentCredentials, log: ExtensionLog): Promise<void> {
	const kept = credentials.agents().includes(agent.name);
	const outcome = await vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title: `Signing out of ${agent.name}…`, cancellable: true }, (_progress, token) =>
		logout(agent.handle.connection, agent.initialized.agentCapabilities, token),
	);
	if (outcome.kind === 'not_offered') {
		log.info(`${agent.name} does not advertise auth.logout: not signed out.`);
		const forget = kept ? 'Forget Sign-in Values' : undefined;
		const message = `Agent Link: ${agent.name} does not offer signing out (it does not advertise auth.logout).${kept ? ' Agent Link can still forget the sign-in values it keeps for it.' : ''}`;
		void vscode.window.showWarningMessage(message, ...(forget ? [forget] : [])).then((pick) => (pick === forget && forget ? forgetValues(agent, credentials, log) : undefined));
		return;
	}
	if (outcome.kind === 'failed') {
		log.error(`Signing out of ${agent.name} failed: ${outcome.message}`);
		void vscode.window.showErrorMessage(`Agent Link: signing out of ${agent.name} failed: ${outcome.message}${kept ? ' The sign-in values Agent Link keeps for it are kept.' : ''}`, 'Show Log').then((pick) => pick && log.show());
		return;
	}
	log.info(`Signed out of ${agent.name}.`);
	const forgotten = kept && (await forgetValues(agent, credentials, log));
	void vscode.window.showInformationMessage(
		`Agent Link: signed out of ${agent.name}.${forgotten ? ` The sign-in values Agent Link kept for it are forgotten (the running ${agent.name} keeps them until it restarts).` : ''}`,
	);
}

async function forgetValues(agent: ReadyAgent, credentials: AgentCredentials, log: ExtensionLog): Promise<boolean> {
	try {
		await credentials.forget(agent.name);
		log.info(`Forgot the sign-in values kept for ${agent.name}.`);
		return true;
	} catch (error) {
		log.error(`Forgetting the sign-in values of ${agent.name} failed: ${errorMessage(error)}`);
		void vscode.window.showErrorMessage(`Agent Link: forgetting the sign-in values of ${agent.name} failed: ${errorMessage(error)}`);
		return false;
	}
}
