import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { errorMessage, type Logger } from '../common/log';
import { ErrorCodes, Methods, authMethodSchema, type AuthMethod } from '../common/protocol';
import { AgentError } from '../node/connection';
import type { ReadyAgent } from './agentManager';

/** True when an error from the agent means "authenticate first" (-32000). */
export function isAuthRequired(error: unknown): error is AgentError {
	return error instanceof AgentError && error.code === ErrorCodes.AuthRequired;
}

interface MethodItem extends vscode.QuickPickItem {
	readonly method: AuthMethod;
}

/**
 * Asks the user to sign in with one of the agent's auth methods (from the error's
 * `data.authMethods` when it lists them, else from `initialize`) and calls
 * `authenticate`. Resolves true when the agent accepted it.
 */
export async function authenticate(agent: ReadyAgent, error: AgentError, purpose: string, log: Logger): Promise<boolean> {
	const fromError = z.safeParse(z.looseObject({ authMethods: z.array(authMethodSchema) }), error.data);
	const methods = (fromError.success ? fromError.data.authMethods : agent.initialized.authMethods) ?? [];
	// Only methods the agent can run by itself: this client does not advertise terminal auth.
	const usable = methods.filter((m) => m.type === undefined || m.type === 'agent');
	if (usable.length === 0) {
		const hints = methods.map((m) => `${m.name}${m.description ? `: ${m.description}` : ''}`).join('; ');
		void vscode.window.showWarningMessage(`Agent Link: ${agent.name} needs you to sign in before ${purpose}, and offers no way to do it from the editor.${hints ? ` ${hints}` : ''}`);
		return false;
	}
	const pick = await vscode.window.showQuickPick<MethodItem>(
		usable.map((method) => ({ label: method.name, detail: method.description ?? undefined, method })),
		{ title: `Sign in to ${agent.name}`, placeHolder: `${agent.name} needs you to sign in before ${purpose}` },
	);
	if (!pick) {
		log.info(`Sign-in to ${agent.name} was dismissed; ${purpose} is not available.`);
		return false;
	}
	try {
		await agent.handle.connection.sendRequest(Methods.authenticate, { methodId: pick.method.id }, z.unknown());
		log.info(`Signed in to ${agent.name} with ${pick.method.name}.`);
		return true;
	} catch (authError) {
		log.error(`Signing in to ${agent.name} failed: ${errorMessage(authError)}`);
		void vscode.window.showErrorMessage(`Agent Link: signing in to ${agent.name} failed: ${errorMessage(authError)}`);
		return false;
	}
}
