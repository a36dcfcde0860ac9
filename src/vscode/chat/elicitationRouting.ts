/**
 * `elicitation/create` and `elicitation/complete` from one agent, routed: the request checked
 * (zod; malformed is -32602), read into a form or URL (what cannot be drawn is declined, with the
 * reason in the log), then asked in the chat of the session it names, or, tied to a request
 * before any session, through a notification and quick input (a URL one until the user answers or
 * the agent's `elicitation/complete` says it is done), the agent's `initialize` time limit stopped
 * meanwhile. Never opens a URL itself.
 */
import type * as vscode from 'vscode';
import { completeElicitationParamsSchema, createElicitationParamsSchema, readElicitation, type ElicitationResponse, type ReadElicitation } from '../../common/chat/elicitationRequest';
import { errorMessage } from '../../common/log';
import { Methods } from '../../common/protocol';
import type { RunningAgent } from '../agentManager';
import type { ExtensionLog } from '../log';
import type { ChatSession } from './chatSessions';
import type { ElicitationCompletions } from './elicitationCompletions';
import { askInQuickInput } from './elicitationQuickInput';

export interface ElicitationRoutes {
	readonly log: ExtensionLog;
	readonly completions: ElicitationCompletions;
	/** The open chat of the agent's session id, if any. */
	session(sessionId: string): ChatSession | undefined;
}

/** The handlers of `agent`'s elicitations, to dispose with the agent. */
export function routeElicitations(agent: RunningAgent, routes: ElicitationRoutes): vscode.Disposable[] {
	const connection = agent.handle.connection;
	return [
		connection.onRequest(Methods.elicitation.create, createElicitationParamsSchema, async (params): Promise<ElicitationResponse> => {
			const read = readElicitation(params);
			if (!read.ok) {
				routes.log.warn(`${agent.name} asked for input (elicitation/create) that Agent Link cannot draw, so it was declined: ${read.reason}.`);
				return { action: 'decline' };
			}
			const { sessionId } = read.read;
			if (sessionId === undefined) {
				// The agent's time limits (initialize's) stop while the user answers.
				const answered = agent.userWaits.begin();
				try {
					return await askBeforeSession(agent.name, read.read, routes);
				} finally {
					answered();
				}
			}
			const session = routes.session(sessionId);
			if (!session) {
				routes.log.warn(`${agent.name} asked for input in session ${sessionId}, which is not an open chat: declined.`);
				return { action: 'decline' };
			}
			return session.askElicitation(read.read);
		}),
		connection.onNotification(Methods.elicitation.complete, completeElicitationParamsSchema, (params) => {
			if (!routes.completions.complete(agent.name, params.elicitationId)) {
				routes.log.debug(`${agent.name} completed elicitation ${params.elicitationId}, which nothing waits for.`);
			}
		}),
	];
}

/**
 * An elicitation tied to a request before any session: asked in a notification and quick input. A
 * URL one the agent says is done (`elicitation/complete`) before the user answered is answered
 * `cancel`, and its notification then opens nothing.
 */
async function askBeforeSession(agentName: string, read: ReadElicitation, routes: ElicitationRoutes): Promise<ElicitationResponse> {
	routes.log.info(`${agentName} asks for input before any session (${read.elicitation.mode}): asked in a notification.`);
	const controller = new AbortController();
	const done = new Promise<ElicitationResponse>((resolve) => controller.signal.addEventListener('abort', () => resolve({ action: 'cancel' }), { once: true }));
	const watching =
		read.elicitationId !== undefined
			? routes.completions.watch(agentName, read.elicitationId, () => {
					routes.log.info(`${agentName} says ${read.elicitation.host ?? 'its link'} is done before it was opened: nothing left to open.`);
					controller.abort();
				})
			: undefined;
	try {
		return await Promise.race([askInQuickInput(agentName, read, controller.signal), done]);
	} catch (error) {
		routes.log.warn(`Asking for ${agentName}'s input failed: ${errorMessage(error)}`);
		return { action: 'cancel' };
	} finally {
		watching?.dispose();
	}
}
