/**
 * What a chat asks its user on behalf of its agent: a sign-in (the agent's methods shown in the
 * chat until one is picked or the user says not now), a permission (a tool call's options,
 * answered in the chat, or cancelled with the turn), and input (elicitations: elicitationAsks.ts);
 * a notification says so while the chat is hidden. What waits is kept in the tab (`signIn`, `permissions`); what is drawn goes through the
 * host. Starts and stops no session and sends nothing to the agent itself: the promises do.
 */
import * as vscode from 'vscode';
import type { Transcript } from '../../common/chat/transcript';
import type { AuthMethod } from '../../common/protocol';
import type { SignInChooser } from '../auth';
import type { ExtensionLog } from '../log';
import type { ChatTab } from './chatTab';
import type { PermissionOutcome, PermissionRequest } from './chatSessions';
import { ElicitationAsks } from './elicitationAsks';

export interface AskHost {
	readonly log: ExtensionLog;
	/** Whether a chat page is on screen. */
	visible(): boolean;
	/** Shows the chat with this tab. */
	showTab(key: string): Promise<void>;
	/** The tabs' state changed (a sign-in shown or gone). */
	broadcastState(): void;
	/** Into the tab's transcript (a permission asked or answered). */
	apply(tab: ChatTab, event: Parameters<Transcript['apply']>[0]): void;
}

let nextRequestId = 1;

export class UserAsks {
	/** Forms and URLs the agents ask for. */
	readonly elicitations: ElicitationAsks;

	constructor(private readonly host: AskHost) {
		this.elicitations = new ElicitationAsks(host);
	}

	/**
	 * The agent asks the user to sign in (session/new or session/prompt answered -32000): its
	 * methods show in the chat until the user picks one or says not now (undefined).
	 */
	signIn(tab: ChatTab, request: Parameters<SignInChooser>[0]): Promise<AuthMethod | undefined> {
		if (tab.closed) {
			return Promise.resolve(undefined);
		}
		this.endSignIn(tab, undefined); // one question at a time
		return new Promise((resolve) => {
			tab.signIn = { methods: request.methods, resolve, previous: tab.state };
			tab.state = 'auth_required';
			this.host.log.info(`Chat ${tab.key}: ${tab.agentName} needs a sign-in before ${request.purpose} (${request.methods.map((m) => m.name).join(', ')}).`);
			this.host.broadcastState();
			if (!this.host.visible()) {
				void vscode.window.showWarningMessage(`${tab.agentName} needs you to sign in before ${request.purpose}.`, 'Open Chat').then((pick) => pick && this.host.showTab(tab.key));
			}
		});
	}

	/** The sign-in the tab waits for is answered: with a method, or not now (undefined). */
	endSignIn(tab: ChatTab, method: AuthMethod | undefined): void {
		const pending = tab.signIn;
		if (!pending) {
			return;
		}
		tab.signIn = undefined;
		if (tab.state === 'auth_required') {
			tab.state = pending.previous;
		}
		this.host.broadcastState();
		pending.resolve(method);
	}

	/** A permission request of the tab's agent, shown in the chat until answered or cancelled (`signal`). */
	permission(tab: ChatTab, request: PermissionRequest, signal: AbortSignal): Promise<PermissionOutcome> {
		const requestId = `permission-${nextRequestId++}`;
		return new Promise<PermissionOutcome>((resolve) => {
			const finish = (outcome: PermissionOutcome) => {
				if (tab.permissions.delete(requestId)) {
					this.host.apply(tab, { type: 'permission_answered', requestId, ...(outcome.outcome === 'selected' ? { optionId: outcome.optionId } : {}) });
					resolve(outcome);
				}
			};
			tab.permissions.set(requestId, { resolve: finish });
			signal.addEventListener('abort', () => finish({ outcome: 'cancelled' }), { once: true });
			this.host.apply(tab, { type: 'permission_asked', requestId, toolCall: request.toolCall, options: request.options });
			const visible = this.host.visible();
			this.host.log.debug(`Chat ${tab.key}: ${tab.agentName} asks for permission (${visible ? 'shown in the chat' : 'the chat is hidden: a notification'}).`);
			if (!visible) {
				const title = request.toolCall.title ?? 'a tool call';
				void vscode.window.showWarningMessage(`${tab.agentName} asks for permission: ${title}`, 'Open Chat').then((pick) => pick && this.host.showTab(tab.key));
			}
		});
	}

	/** The user's answer to a permission request of the tab (none when the tab is gone). */
	answerPermission(tab: ChatTab | undefined, requestId: string, optionId: string): void {
		const pending = tab?.permissions.get(requestId);
		if (!pending) {
			this.host.log.warn(`Chat: a permission answer for ${requestId}, which is no longer pending.`);
			return;
		}
		pending.resolve({ outcome: 'selected', optionId });
	}

	/** Every question the tab waits for is answered as cancelled (the tab is closing). */
	cancelAll(tab: ChatTab): void {
		for (const pending of tab.permissions.values()) {
			pending.resolve({ outcome: 'cancelled' });
		}
		this.elicitations.cancelAll(tab);
		this.endSignIn(tab, undefined);
	}
}
