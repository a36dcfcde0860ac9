/**
 * What each command of the chat page does in the editor: one handler per command, each a line or
 * two over the chats (the controller, through {@link ChatCommandHost}) and the editor. Routing and
 * the commands' checks are elsewhere (`common/chat/pageCommands.ts`, `common/chat/messages.ts`);
 * this file holds no state and never touches a tab's transcript itself.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { PageCommandHandlers } from '../../common/chat/pageCommands';
import type { ElicitationValue } from '../../common/chat/elicitationForm';
import type { Attachment } from '../../common/chat/messages';

/** What the page's commands ask of the chats, by tab key. */
export interface ChatCommandHost {
	newChat(options: { agentName?: string; pick?: boolean }): Promise<string | undefined>;
	continueInNewChat(key: string): Promise<string | undefined>;
	/** The chat shown, with the keyboard in the shown tab's input. */
	showChat(): Promise<void>;
	focusInput(): void;
	sendPrompt(key: string, text: string, attachments: readonly Attachment[]): Promise<void>;
	cancel(key: string): void;
	answerPermission(key: string, requestId: string, optionId: string): void;
	answerElicitation(key: string, requestId: string, action: 'accept' | 'decline' | 'cancel', content: Readonly<Record<string, ElicitationValue>> | undefined): void;
	setConfigOption(key: string, configId: string, value: string | boolean): Promise<void>;
	setMode(key: string, modeId: string): Promise<void>;
	authenticate(key: string, methodId: string): void;
	dismissSignIn(key: string): void;
	select(key: string): void;
	closeTab(key: string): Promise<void>;
	reviewFile(key: string, path: string): Promise<void>;
	/** Keeps (`keep`) or undoes the agent's changes of a tab: to one file, or all of them. */
	settleChanges(key: string, path: string | undefined, keep: boolean): Promise<void>;
	askUndoTurn(key: string, turnId: number): Promise<void>;
	answerUndoTurn(key: string, turnId: number, undo: boolean): Promise<void>;
	setFollow(key: string, on: boolean): void;
	insertAtCursor(code: string): Promise<void>;
	openTerminal(key: string, terminalId: string): void;
}

/** The handlers of the page's commands over `chats`. */
export function pageCommandHandlers(chats: ChatCommandHost): PageCommandHandlers {
	/** A new chat (or its picker dismissed): the keyboard goes to it. */
	const focusNew = (key: string | undefined) => key !== undefined && chats.focusInput();
	return {
		newChat: async (p) => focusNew(await chats.newChat(p.agentId !== undefined ? { agentName: p.agentId } : { pick: p.pick === true })),
		continueInNewChat: async (p) => focusNew(await chats.continueInNewChat(p.sessionKey)),
		showChat: () => chats.showChat(),
		sendPrompt: (p) => chats.sendPrompt(p.sessionKey, p.text, p.attachments),
		cancel: (p) => chats.cancel(p.sessionKey),
		answerPermission: (p) => chats.answerPermission(p.sessionKey, p.requestId, p.optionId),
		answerElicitation: (p) => chats.answerElicitation(p.sessionKey, p.requestId, p.action, p.content),
		setConfigOption: (p) => chats.setConfigOption(p.sessionKey, p.configId, p.value),
		setMode: (p) => chats.setMode(p.sessionKey, p.modeId),
		authenticate: (p) => chats.authenticate(p.sessionKey, p.methodId),
		dismissSignIn: (p) => chats.dismissSignIn(p.sessionKey),
		selectTab: (p) => chats.select(p.sessionKey),
		closeTab: (p) => chats.closeTab(p.sessionKey),
		reviewFile: (p) => chats.reviewFile(p.sessionKey, p.path),
		keepChanges: (p) => chats.settleChanges(p.sessionKey, p.path, true),
		undoChanges: (p) => chats.settleChanges(p.sessionKey, p.path, false),
		undoTurn: (p) => chats.askUndoTurn(p.sessionKey, p.turnId),
		answerUndoTurn: (p) => chats.answerUndoTurn(p.sessionKey, p.turnId, p.undo),
		setFollow: (p) => chats.setFollow(p.sessionKey, p.on),
		openHistory: () => vscode.commands.executeCommand('agentLink.chat.history'),
		openLocation: (p) => openLocation(p.path, p.line),
		copy: (p) => vscode.env.clipboard.writeText(p.code),
		insertAtCursor: (p) => chats.insertAtCursor(p.code),
		openTerminal: (p) => chats.openTerminal(p.sessionKey, p.terminalId),
	};
}

/** Opens `file` (an absolute path) in a preview editor, at `line` (from 1) when given. */
export async function openLocation(file: string, line: number | undefined): Promise<void> {
	if (!path.isAbsolute(file)) {
		throw new Error(`${file} is not an absolute path.`);
	}
	const position = new vscode.Position(Math.max(0, (line ?? 1) - 1), 0);
	await vscode.window.showTextDocument(vscode.Uri.file(file), { selection: new vscode.Range(position, position), preview: true });
}
