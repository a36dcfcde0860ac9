import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { ACP_V1_CLIENT_CAPABILITIES } from '../common/clientCapabilities';
import { errorMessage, type Logger } from '../common/log';
import { ErrorCodes, Methods, authMethodSchema, type AuthMethod, type ClientCapabilities } from '../common/protocol';
import { AgentError } from '../node/connection';
import type { ReadyAgent } from './agentManager';
import { ENV_NAME, type AgentCredentials } from './credentials';

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

/**
 * An `env_var` sign-in method: values the user gives, passed to the agent as environment
 * variables (`vars`; agents of an earlier draft name one variable as `varName`), with a page where
 * the user gets them (`link`).
 */
const envVarSchema = z.looseObject({ name: z.string().check(z.regex(ENV_NAME)), label: z.nullish(z.string()), optional: z.nullish(z.boolean()), secret: z.nullish(z.boolean()) });
const envVarMethodSchema = z.looseObject({
	vars: z.optional(z.array(envVarSchema)),
	varName: z.optional(z.string().check(z.regex(ENV_NAME))),
	var_name: z.optional(z.string().check(z.regex(ENV_NAME))),
	link: z.nullish(z.string()),
});
export type EnvVar = z.infer<typeof envVarSchema>;

/** The variables an `env_var` method asks for; empty when it names none (or none that can be a variable). */
export function envVarsOf(method: AuthMethod): EnvVar[] {
	const parsed = z.safeParse(envVarMethodSchema, method);
	if (!parsed.success) {
		return [];
	}
	const single = parsed.data.varName ?? parsed.data.var_name;
	return parsed.data.vars ?? (single ? [{ name: single }] : []);
}

/** Whether Agent Link can carry out `method`: the agent's own (`agent`, the default), `terminal`, or `env_var` naming its variables. */
export function canSignInWith(method: AuthMethod): boolean {
	return method.type === undefined || method.type === 'agent' || method.type === 'terminal' || (method.type === 'env_var' && envVarsOf(method).length > 0);
}

/** The methods of an auth-required error (`data.authMethods` when it lists them, else `initialize`'s). */
export function authMethodsOf(agent: ReadyAgent, error: AgentError): AuthMethod[] {
	const fromError = z.safeParse(z.looseObject({ authMethods: z.array(authMethodSchema) }), error.data);
	return (fromError.success ? fromError.data.authMethods : agent.initialized.authMethods) ?? [];
}

/** What the client adds to `initialize`'s capabilities: terminal sign-in works (see {@link signInInTerminal}). */
export function fillAuthCapabilities(capabilities: ClientCapabilities): void {
	Object.assign(capabilities, { auth: { ...(capabilities as { auth?: object }).auth, ...ACP_V1_CLIENT_CAPABILITIES.auth } });
}

/**
 * Where the user picks how to sign in: a quick pick unless the caller has a better place (the
 * chat panel shows the methods in the chat). Resolves with the method, or undefined when the user
 * declined.
 */
export type SignInChooser = (request: { readonly agentName: string; readonly purpose: string; readonly methods: readonly AuthMethod[] }) => Promise<AuthMethod | undefined>;

export interface SignInOptions {
	readonly log: Logger;
	/** Where values of `env_var` methods are kept (without it, such methods are not offered). */
	readonly credentials?: AgentCredentials;
	/**
	 * Starts the agent again and resolves with it once ready (undefined if it did not come up):
	 * after a terminal sign-in (ACP v1 reconnects then) and after `env_var` values were given (the
	 * new process gets them).
	 */
	readonly restart: () => Promise<ReadyAgent | undefined>;
	readonly choose?: SignInChooser;
}

/** Runs `request`; an auth-required answer (-32000) lets the user sign in, then it is tried once more (on the agent the sign-in left running). */
export async function withSignIn<T>(agent: ReadyAgent, purpose: string, options: SignInOptions, request: (agent: ReadyAgent) => Promise<T>): Promise<T> {
	try {
		return await request(agent);
	} catch (error) {
		if (!isAuthRequired(error)) {
			throw error;
		}
		const signedIn = await signIn(agent, error, purpose, options);
		if (!signedIn) {
			throw error;
		}
		return request(signedIn);
	}
}

/**
 * Asks the user to sign in with one of the agent's auth methods: an agent method calls
 * `authenticate`; a terminal method runs the agent's program with the method's arguments in a
 * VS Code terminal, where the user signs in, and succeeds when it exits with 0; an `env_var`
 * method asks for its values, keeps them in secret storage and starts the agent again with them.
 * Resolves with the agent to try the request on again, or undefined when the user did not sign in.
 */
export async function signIn(agent: ReadyAgent, error: AgentError, purpose: string, options: SignInOptions): Promise<ReadyAgent | undefined> {
	const { log } = options;
	const methods = authMethodsOf(agent, error);
	const usable = methods.filter((m) => canSignInWith(m) && (m.type !== 'env_var' || options.credentials !== undefined));
	if (usable.length === 0) {
		const hints = methods.map((m) => `${m.name}${m.description ? `: ${m.description}` : ''}`).join('; ');
		void vscode.window.showWarningMessage(`Agent Link: ${agent.name} needs you to sign in before ${purpose}, and offers no way to do it from the editor.${hints ? ` ${hints}` : ''}`);
		return undefined;
	}
	const method = await (options.choose ?? pickMethod)({ agentName: agent.name, purpose, methods: usable });
	if (!method) {
		log.info(`Sign-in to ${agent.name} was dismissed; ${purpose} is not available.`);
		return undefined;
	}
	if (method.type === 'terminal') {
		return (await signInInTerminal(agent, method, log)) ? restarted(agent, method, options) : undefined;
	}
	if (method.type === 'env_var') {
		return (await askForValues(agent, method, options)) ? restarted(agent, method, options) : undefined;
	}
	try {
		await agent.handle.connection.sendRequest(Methods.authenticate, { methodId: method.id }, z.unknown());
		log.info(`Signed in to ${agent.name} with ${method.name}.`);
		return agent;
	} catch (authError) {
		log.error(`Signing in to ${agent.name} failed: ${errorMessage(authError)}`);
		void vscode.window.showErrorMessage(`Agent Link: signing in to ${agent.name} failed: ${errorMessage(authError)}`);
		return undefined;
	}
}

/** The default chooser: a quick pick of the methods. */
async function pickMethod(request: Parameters<SignInChooser>[0]): Promise<AuthMethod | undefined> {
	const pick = await vscode.window.showQuickPick<MethodItem>(
		request.methods.map((method) => ({ label: `${method.type === 'terminal' ? '$(terminal) ' : method.type === 'env_var' ? '$(key) ' : ''}${method.name}`, detail: method.description ?? undefined, method })),
		{ title: `Sign in to ${request.agentName}`, placeHolder: `${request.agentName} needs you to sign in before ${request.purpose}` },
	);
	return pick?.method;
}

async function restarted(agent: ReadyAgent, method: AuthMethod, options: SignInOptions): Promise<ReadyAgent | undefined> {
	options.log.info(`Starting ${agent.name} again after signing in with ${method.name}.`);
	const ready = await options.restart();
	if (!ready) {
		options.log.error(`${agent.name} did not start again after signing in with ${method.name}.`);
	}
	return ready;
}

/**
 * Asks for each variable of an `env_var` method (a password box for secrets, which they are
 * unless the agent says otherwise), then stores them for the agent. False when the user gave up.
 */
async function askForValues(agent: ReadyAgent, method: AuthMethod, options: SignInOptions): Promise<boolean> {
	const vars = envVarsOf(method);
	const link = z.safeParse(envVarMethodSchema, method).data?.link ?? undefined;
	const values: Record<string, string> = {};
	for (const [index, variable] of vars.entries()) {
		const value = await vscode.window.showInputBox({
			title: `Sign in to ${agent.name}: ${method.name}${vars.length > 1 ? ` (${index + 1}/${vars.length})` : ''}`,
			prompt: `${variable.label ?? variable.name}${variable.optional ? ' (optional)' : ''}, kept in the editor's secret storage and given to ${agent.name} as ${variable.name}.${link ? ` Get it at ${link}` : ''}`,
			placeHolder: variable.name,
			password: variable.secret !== false,
			ignoreFocusOut: true,
			validateInput: (text) => (text.trim() === '' && !variable.optional ? `${variable.label ?? variable.name} is needed to sign in.` : undefined),
		});
		if (value === undefined) {
			options.log.info(`Sign-in to ${agent.name} with ${method.name} was dismissed.`);
			return false;
		}
		if (value.trim() !== '') {
			values[variable.name] = value.trim();
		}
	}
	try {
		await options.credentials!.store(agent.name, values);
	} catch (storeError) {
		options.log.error(`Keeping the sign-in values for ${agent.name} failed: ${errorMessage(storeError)}`);
		void vscode.window.showErrorMessage(`Agent Link: keeping the sign-in values for ${agent.name} failed: ${errorMessage(storeError)}`);
		return false;
	}
	options.log.info(`Kept ${Object.keys(values).join(', ') || 'no value'} for ${agent.name} (secret storage).`);
	return true;
}

/**
 * Terminal sign-in: the agent's own program, with its definition's arguments and environment plus
 * the method's, in a terminal the user types into. Exit status 0 is success; anything else, or the
 * user closing the terminal, is not. `authenticate` is never called for such a method.
 */
async function signInInTerminal(agent: ReadyAgent, method: AuthMethod, log: Logger): Promise<boolean> {
	const extra = z.safeParse(terminalMethodSchema, method);
	if (!agent.handle.invocation) {
		log.warn(`${agent.name} is on another machine: a sign-in in a terminal here cannot run its program.`);
		return false;
	}
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
