import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { errorMessage, type Logger } from '../common/log';
import { ErrorCodes, Methods, authMethodSchema, type AuthMethod, type ClientCapabilities } from '../common/protocol';
import { AgentError } from '../node/connection';
import type { ReadyAgent } from './agentManager';

/** True when an error from the agent means "authenticate first" (-32000). */
export function isAuthRequired(error: unknown): error is AgentError {
	return error instanceof AgentError && error.code === ErrorCodes.AuthRequired;
}

interface MethodItem extends vscode.QuickPickItem {
	readonly method: AuthMethod;
}

/** A terminal sign-in method (ACP `AuthMethodTerminal`): the agent's program run again, interactively, with these. */
const terminalMethodSchema = z.looseObject({
	args: z.optional(z.array(z.string())),
	env: z.optional(z.record(z.string(), z.string())),
});

/** What the client adds to `initialize`'s capabilities: terminal sign-in works (see {@link signInInTerminal}). */
export function fillAuthCapabilities(capabilities: ClientCapabilities): void {
	Object.assign(capabilities, { auth: { ...(capabilities as { auth?: object }).auth, terminal: true } });
}

/**
 * Asks the user to sign in with one of the agent's auth methods (from the error's
 * `data.authMethods` when it lists them, else from `initialize`): an agent method calls
 * `authenticate`; a terminal method runs the agent's program with the method's arguments in a
 * VS Code terminal, where the user signs in, and succeeds when it exits with 0. Resolves true when
 * the sign-in succeeded (the caller then tries its request again).
 */
export async function authenticate(agent: ReadyAgent, error: AgentError, purpose: string, log: Logger): Promise<boolean> {
	const fromError = z.safeParse(z.looseObject({ authMethods: z.array(authMethodSchema) }), error.data);
	const methods = (fromError.success ? fromError.data.authMethods : agent.initialized.authMethods) ?? [];
	const usable = methods.filter((m) => m.type === undefined || m.type === 'agent' || m.type === 'terminal');
	if (usable.length === 0) {
		const hints = methods.map((m) => `${m.name}${m.description ? `: ${m.description}` : ''}`).join('; ');
		void vscode.window.showWarningMessage(`Agent Link: ${agent.name} needs you to sign in before ${purpose}, and offers no way to do it from the editor.${hints ? ` ${hints}` : ''}`);
		return false;
	}
	const pick = await vscode.window.showQuickPick<MethodItem>(
		usable.map((method) => ({ label: method.type === 'terminal' ? `$(terminal) ${method.name}` : method.name, detail: method.description ?? undefined, method })),
		{ title: `Sign in to ${agent.name}`, placeHolder: `${agent.name} needs you to sign in before ${purpose}` },
	);
	if (!pick) {
		log.info(`Sign-in to ${agent.name} was dismissed; ${purpose} is not available.`);
		return false;
	}
	if (pick.method.type === 'terminal') {
		return signInInTerminal(agent, pick.method, log);
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

/**
 * Terminal sign-in: the agent's own program, with its definition's arguments and environment plus
 * the method's, in a terminal the user types into. Exit status 0 is success; anything else, or the
 * user closing the terminal, is not. `authenticate` is never called for such a method.
 */
async function signInInTerminal(agent: ReadyAgent, method: AuthMethod, log: Logger): Promise<boolean> {
	const extra = z.safeParse(terminalMethodSchema, method);
	const { command, args, cwd, env } = agent.handle.invocation;
	const shellArgs = [...args, ...(extra.success ? (extra.data.args ?? []) : [])];
	log.info(`Signing in to ${agent.name} with ${method.name} in a terminal: ${[command, ...shellArgs].join(' ')}`);
	const terminal = vscode.window.createTerminal({
		name: `Sign in: ${agent.name}`,
		shellPath: command,
		shellArgs,
		cwd,
		env: { ...env, ...(extra.success ? extra.data.env : undefined) },
		isTransient: true,
	});
	terminal.show();
	const code = await new Promise<number | undefined>((resolve) => {
		const subscription = vscode.window.onDidCloseTerminal((closed) => {
			if (closed === terminal) {
				subscription.dispose();
				resolve(closed.exitStatus?.code);
			}
		});
	});
	if (code === 0) {
		log.info(`Signed in to ${agent.name} with ${method.name}.`);
		return true;
	}
	log.error(`Signing in to ${agent.name} with ${method.name} did not succeed (the terminal ${code === undefined ? 'was closed' : `exited with ${code}`}).`);
	void vscode.window.showErrorMessage(`Agent Link: signing in to ${agent.name} did not succeed${code === undefined ? '' : ` (exit code ${code})`}.`);
	return false;
}
