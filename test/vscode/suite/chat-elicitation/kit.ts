// What the chat-elicitation tests share: where a pending form is drawn, the notification's buttons,
// the fixture's folder beside the workspace, and the answers the agent reports in its messages.
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { NOTIFICATIONS } from '../notifications';

/** A pending form drawn in a tool call. */
export const FORM = '.tool-call .elicitation.pending.form';
/** A button of a notification on screen or in the notification centre. */
export const BUTTON = `:is(${NOTIFICATIONS}) .monaco-button`;
/** The folder beside the workspace where the agent's log and go-ahead live (suites.mjs). */
export const scratch = (): string => path.dirname(vscode.workspace.workspaceFolders![0]!.uri.fsPath);
/** Waits `ms`: for checks that something does not happen within that time. */
export const settle = (ms: number): Promise<unknown> => new Promise((r) => setTimeout(r, ms));

const entriesOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];

/** What the agent reported of its elicitation/create answers (one agent message per answer). */
export function answers(a: AgentLinkApi, key: string): unknown[] {
	return entriesOf(a, key)
		.filter((e) => e.kind === 'agent')
		.flatMap((e) => ('blocks' in e ? e.blocks : []))
		.map((b) => (b.type === 'text' ? b.text : ''))
		.join('')
		.split('elicitation/create: ')
		.filter(Boolean)
		.map((text) => JSON.parse(text) as unknown);
}
