// Shared by the chat-history suite's phases: what phase 1 left (facts.json in the run's scratch
// folder, which every phase shares), the scripted agents' logs, and the transcript's text.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { waitUntil } from '../util';

export const phase = Number(process.env.AGENT_LINK_TEST_PHASE ?? '1');
export const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
/** The run's scratch folder, beside the workspace: kept across the phases. */
export const scratch = () => path.join(folder(), '..');

/** What phase 1 made: each chat's history id and the agent's session id. */
export interface Facts {
	readonly listerA: Chat;
	readonly listerB: Chat;
	readonly listerC: Chat;
	readonly resumer: Chat;
	readonly plain: Chat;
	/** The tabs left open, by history id, in order. */
	readonly openTabs: readonly string[];
}

export interface Chat {
	readonly historyId: string;
	readonly sessionId: string;
	readonly title: string;
}

const factsFile = () => path.join(scratch(), 'chat-history-facts.json');

export function saveFacts(facts: Facts): void {
	fs.writeFileSync(factsFile(), JSON.stringify(facts, null, 1));
}

export function facts(): Facts {
	assert.ok(fs.existsSync(factsFile()), 'phase 1 ran and left its facts');
	return JSON.parse(fs.readFileSync(factsFile(), 'utf8')) as Facts;
}

export type AgentLog = 'lister' | 'resumer' | 'plain';

/** Every request the scripted agent got (its logFile, written by each of its processes), oldest first. */
export function requests(agent: AgentLog, method: string): { params: Record<string, unknown> }[] {
	const file = path.join(scratch(), `${agent}-messages.jsonl`);
	if (!fs.existsSync(file)) {
		return [];
	}
	return fs
		.readFileSync(file, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as { method?: string; params: Record<string, unknown> })
		.filter((m) => m.method === method);
}

/** The Lister's session store (lib.mjs `sessionStore`). */
export const listerStore = () => path.join(scratch(), 'lister-sessions.json');

export function textOf(entries: readonly Entry[], kind: 'agent' | 'user'): string[] {
	return entries.filter((e) => e.kind === kind).map((e) => ('blocks' in e ? e.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('') : ''));
}

export const entriesOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];

/** A new chat with `agent` in the workspace folder, once its session is up. */
export async function openChat(a: AgentLinkApi, agent: string): Promise<string> {
	const key = await a.chatController.newChat({ agentName: agent, cwd: folder() });
	assert.ok(key);
	await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `${agent} ready (${a.chatController.tab(key)?.state})`);
	return key;
}

export function keyOf(a: AgentLinkApi, historyId: string): string | undefined {
	return a.chatController.tabKeys.find((key) => a.chatController.tab(key)?.historyId === historyId);
}
