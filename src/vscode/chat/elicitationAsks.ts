/**
 * Elicitations asked in the chat: the form or URL drawn in the tab's transcript (in the tool call
 * it names, else as its own entry) until the user submits, declines or cancels it, or the turn is
 * cancelled. A URL opens only when the user clicks (then `accept`), and `elicitation/complete`
 * marks it done. While the chat is out of sight a notification says so, with **Open Chat** and
 * **Answer Here** (quick input). The page's answer is checked again here before it is sent.
 */
import * as vscode from 'vscode';
import { checkForm, type ElicitationValue } from '../../common/chat/elicitationForm';
import type { ElicitationResponse, ReadElicitation } from '../../common/chat/elicitationRequest';
import type { Elicitation } from '../../common/chat/transcriptModel';
import { errorMessage } from '../../common/log';
import type { ChatTab } from './chatTab';
import type { ElicitationHandler } from './chatSessions';
import { askInQuickInput } from './elicitationQuickInput';
import type { AskHost } from './userAsks';

type Settled = Exclude<Elicitation['state'], 'pending'>;

interface Pending {
	readonly tab: ChatTab;
	readonly read: ReadElicitation;
	readonly finish: (response: ElicitationResponse, state: Settled) => void;
	/** Aborted once it is answered, cancelled or done (a notification still up then opens nothing). */
	readonly settled: AbortSignal;
}

let nextRequestId = 1;

export class ElicitationAsks {
	private readonly pending = new Map<string, Pending>();
	/** URL elicitations whose address is being opened. */
	private readonly opening = new Set<string>();

	constructor(private readonly host: AskHost) {}

	/** An elicitation of the tab's agent, drawn in the chat until answered or cancelled (`signal`). */
	ask(tab: ChatTab, read: ReadElicitation, signal: AbortSignal, watchCompletion: Parameters<ElicitationHandler>[2]): Promise<ElicitationResponse> {
		const requestId = `elicitation-${nextRequestId++}`;
		return new Promise<ElicitationResponse>((resolve) => {
			let watching: vscode.Disposable | undefined;
			const settled = new AbortController();
			const finish = (response: ElicitationResponse, state: Settled) => {
				if (!this.pending.delete(requestId)) {
					return;
				}
				settled.abort();
				this.host.apply(tab, { type: 'elicitation_settled', requestId, state });
				if (!(state === 'accepted' && read.elicitation.mode === 'url')) {
					watching?.dispose();
				}
				resolve(response);
			};
			this.pending.set(requestId, { tab, read, finish, settled: settled.signal });
			signal.addEventListener('abort', () => finish({ action: 'cancel' }, 'cancelled'), { once: true });
			if (read.elicitation.mode === 'url') {
				// Done before the user clicked: nothing to open any more.
				watching = watchCompletion(() => (this.pending.has(requestId) ? finish({ action: 'cancel' }, 'completed') : this.host.apply(tab, { type: 'elicitation_settled', requestId, state: 'completed' })));
				tab.disposables.push(watching);
			}
			this.host.apply(tab, { type: 'elicitation_asked', elicitation: { ...read.elicitation, requestId }, ...(read.toolCallId !== undefined ? { toolCallId: read.toolCallId } : {}) });
			const visible = this.host.visible();
			this.host.log.debug(`Chat ${tab.key}: ${tab.agentName} asks for input (${read.elicitation.mode}; ${visible ? 'shown in the chat' : 'the chat is hidden: a notification'}).`);
			if (!visible) {
				this.notify(tab, requestId);
			}
		});
	}

	/** The chat is out of sight: a notification that opens it, or asks here (quick input). */
	private notify(tab: ChatTab, requestId: string): void {
		const pending = this.pending.get(requestId);
		if (!pending) {
			return;
		}
		void vscode.window.showWarningMessage(`${tab.agentName} asks for your input: ${pending.read.elicitation.message}`, 'Open Chat', 'Answer Here').then(async (pick) => {
			if (pick === 'Open Chat') {
				await this.host.showTab(tab.key);
			} else if (pick === 'Answer Here' && this.pending.has(requestId)) {
				const response = await askInQuickInput(tab.agentName, pending.read, pending.settled, true);
				pending.finish(response, response.action === 'accept' ? 'accepted' : response.action === 'decline' ? 'declined' : 'cancelled');
			}
		});
	}

	/** The user's answer in the chat; a form's content is checked again (a page that sends a wrong one is not believed). */
	answer(tab: ChatTab | undefined, requestId: string, action: 'accept' | 'decline' | 'cancel', content: Readonly<Record<string, ElicitationValue>> | undefined): void {
		const pending = this.pending.get(requestId);
		if (!pending || pending.tab !== tab) {
			this.host.log.warn(`Chat: an answer to ${requestId}, which is no longer pending.`);
			return;
		}
		if (action !== 'accept') {
			pending.finish({ action }, action === 'decline' ? 'declined' : 'cancelled');
			return;
		}
		const elicitation = pending.read.elicitation;
		if (elicitation.mode === 'url') {
			if (!this.opening.has(requestId)) {
				this.opening.add(requestId); // a second click while the browser opens does not open it again
				void this.open(pending, elicitation.url ?? '').finally(() => this.opening.delete(requestId));
			}
			return;
		}
		const checked = checkForm(elicitation.fields, content ?? {});
		if (!checked.ok) {
			this.host.log.warn(`Chat ${pending.tab.key}: the form's answer was not sent, it does not pass its check: ${JSON.stringify(checked.errors)}`);
			return;
		}
		pending.finish({ action: 'accept', content: checked.content }, 'accepted');
	}

	/** Opens a URL elicitation's address in the browser (the user clicked), then accepts it. */
	private async open(pending: Pending, url: string): Promise<void> {
		try {
			const opened = await vscode.env.openExternal(vscode.Uri.parse(url, true));
			this.host.log.info(`Chat ${pending.tab.key}: opened ${pending.read.elicitation.host ?? 'a URL'} for ${pending.tab.agentName} (${opened ? 'accepted' : 'the editor did not open it'}).`);
			pending.finish(opened ? { action: 'accept' } : { action: 'cancel' }, opened ? 'accepted' : 'cancelled');
		} catch (error) {
			this.host.log.warn(`Chat ${pending.tab.key}: opening ${url} failed: ${errorMessage(error)}`);
			pending.finish({ action: 'cancel' }, 'cancelled');
		}
	}

	/** Every elicitation the tab waits for is cancelled (the tab is closing). */
	cancelAll(tab: ChatTab): void {
		for (const pending of [...this.pending.values()]) {
			if (pending.tab === tab) {
				pending.finish({ action: 'cancel' }, 'cancelled');
			}
		}
	}
}
