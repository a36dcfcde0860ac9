/**
 * ACP `logout` (AgentAuthCapabilities): sent only to an agent that advertises `auth.logout` in
 * its `initialize` answer. After it succeeds, the agent asks for a sign-in before new sessions.
 */
import type { CancellationToken } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { canSignOut } from '../common/agentAbilities';
import { errorMessage } from '../common/log';
import { Methods } from '../common/protocol';
import type { AgentConnection } from './connection';

export type LogoutOutcome =
	/** The agent does not advertise `auth.logout`: nothing was sent. */
	| { readonly kind: 'not_offered' }
	| { readonly kind: 'signed_out' }
	| { readonly kind: 'failed'; readonly message: string };

/** Signs out of the agent behind `connection`, whose `initialize` answered with `agentCapabilities`. */
export async function logout(connection: AgentConnection, agentCapabilities: unknown, token?: CancellationToken): Promise<LogoutOutcome> {
	if (!canSignOut(agentCapabilities)) {
		return { kind: 'not_offered' };
	}
	try {
		await connection.sendRequest(Methods.logout, {}, z.unknown(), token);
		return { kind: 'signed_out' };
	} catch (error) {
		return { kind: 'failed', message: errorMessage(error) };
	}
}
