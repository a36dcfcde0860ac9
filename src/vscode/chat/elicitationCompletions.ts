/**
 * `elicitation/complete` routed: whoever shows a URL elicitation (the chat, or a notification)
 * watches its id, and the agent's notification that it is done reaches that watcher. Ids are per
 * agent; a notification nobody watches is ignored (logged by the caller).
 */
import type * as vscode from 'vscode';

export class ElicitationCompletions {
	private readonly watchers = new Map<string, () => void>();

	/** Calls `done` once when `agentName` says `elicitationId` is complete; dispose to stop watching. */
	watch(agentName: string, elicitationId: string, done: () => void): vscode.Disposable {
		const id = key(agentName, elicitationId);
		const watcher = () => {
			this.watchers.delete(id);
			done();
		};
		this.watchers.set(id, watcher);
		return { dispose: () => this.watchers.get(id) === watcher && this.watchers.delete(id) };
	}

	/** The agent says `elicitationId` is done; false when nothing watched it. */
	complete(agentName: string, elicitationId: string): boolean {
		const watcher = this.watchers.get(key(agentName, elicitationId));
		watcher?.();
		return watcher !== undefined;
	}
}

function key(agentName: string, elicitationId: string): string {
	return `${agentName}\u0000${elicitationId}`;
}
