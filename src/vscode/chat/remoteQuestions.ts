/**
 * The chat and the questions asked before talking to an agent on another machine (remoteAccess.ts):
 * a plain-text host is confirmed before a chat with it opens; while a question (that one, or the
 * password box of a server answering 401/403) is open, or may open because a chat with a remote
 * agent is still connecting, the chat is shown without taking the keyboard: VS Code focusing the
 * chat's page would take it from the question. Once the question is answered, or the chat has
 * connected (or failed), the selected chat gets the keyboard.
 */
import type * as vscode from 'vscode';
import type { AgentDefinition } from '../../common/config';
import type { AgentChoice } from '../../common/presets';
import { isRemoteDefinition } from '../../common/remoteAgent';
import type { RemoteAccess } from '../remoteAccess';

export interface RemoteQuestionsHost {
	/** The agent of the selected chat. */
	selectedAgent(): string | undefined;
	/** Whether `tab` is the selected chat. */
	isSelected(tab: StartingTab): boolean;
	/** The definition of the agent `name`, if there is one. */
	definition(name: string): AgentDefinition | undefined;
	/** Shows the selected chat, the keyboard in its input. */
	showSelected(): void;
}

/** What {@link RemoteQuestions.holdKeyboard} looks at in a chat tab. */
export interface StartingTab {
	readonly agentName: string;
	readonly state: string;
	readonly started: Promise<void>;
}

export class RemoteQuestions implements vscode.Disposable {
	private waiting = false;
	private readonly waitingFor = new WeakSet<StartingTab>();
	private readonly subscription: vscode.Disposable | undefined;

	constructor(
		private readonly access: RemoteAccess | undefined,
		private readonly host: RemoteQuestionsHost,
	) {
		this.subscription = access?.onDidAsk(({ name, open }) => {
			if (open || access.asking) {
				return;
			}
			const wanted = this.waiting || host.selectedAgent() === name;
			this.waiting = false;
			if (wanted) {
				host.showSelected();
			}
		});
	}

	/** Whether a chat with `choice` may open: a plain-text host off this machine is confirmed first. */
	confirm(choice: AgentChoice): Promise<boolean> {
		return this.access && isRemoteDefinition(choice.definition) ? this.access.confirm(choice.name, choice.definition) : Promise.resolve(true);
	}

	/**
	 * True when the chat must not take the keyboard now: a question is open (the chat gets it once
	 * answered), or `tab` is still connecting to a remote agent (it gets it once connected or failed).
	 */
	holdKeyboard(tab: StartingTab | undefined): boolean {
		if (this.access?.asking) {
			this.waiting = true;
			return true;
		}
		if (!tab || tab.state !== 'starting' || !this.remote(tab.agentName)) {
			return false;
		}
		if (!this.waitingFor.has(tab)) {
			this.waitingFor.add(tab);
			void tab.started.finally(() => {
				this.waitingFor.delete(tab);
				if (this.host.isSelected(tab) && !this.access?.asking) {
					this.host.showSelected();
				}
			});
		}
		return true;
	}

	dispose(): void {
		this.subscription?.dispose();
	}

	private remote(name: string): boolean {
		const definition = this.host.definition(name);
		return definition !== undefined && isRemoteDefinition(definition);
	}
}
