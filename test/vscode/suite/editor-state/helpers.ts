// Shared by the editor state suite: the agent that checks capabilities before it asks, the
// workspace files, and editor layout helpers.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import { pathToFileURL } from 'node:url';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { waitForState, waitUntil } from '../util';

/** The agent of test/vscode/suites.mjs: editor-state-agent.mjs with NES, so it gets a session. */
export const AGENT = 'Editor State Agent';
export const phase = Number(process.env.AGENT_LINK_TEST_PHASE || '1');

const any = z.unknown();

export interface Answer {
	readonly result?: unknown;
	readonly error?: { readonly code: number; readonly message: string };
	readonly notAdvertised?: true;
}

export function workspaceDir(): string {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'the suite opens a folder');
	return folder.uri.fsPath;
}

export const file = (name: string) => path.join(workspaceDir(), name);
/** The URI an agent expects: what Node's own pathToFileURL gives for the file. */
export const uriOf = (name: string) => pathToFileURL(file(name)).href;
export const docOf = (name: string, languageId: string) => ({ uri: uriOf(name), languageId });

/** Starts the agent if needed; resolves with the id of its NES session. */
export async function ready(a: AgentLinkApi): Promise<string> {
	if (a.agents.state.kind === 'stopped' || a.agents.state.kind === 'failed') {
		await vscode.commands.executeCommand('agentLink.selectAgent', AGENT);
	}
	await waitForState(a, (s) => s.kind === 'ready' && s.name === AGENT);
	await waitUntil(() => a.nes.current !== undefined, 15_000, 'the NES session');
	return a.nes.current!.id;
}

/** The agent asks `method` the way the RFD wants: only after checking the client advertised it. */
export async function ask(a: AgentLinkApi, method: string, params: Record<string, unknown>): Promise<Answer> {
	const agent = a.agents.readyAgent;
	assert.ok(agent, 'an agent is ready');
	const answer = (await agent.handle.connection.sendRequest('_test/editorState', { method, params }, any)) as Answer;
	assert.notEqual(answer.notAdvertised, true, `the client did not advertise ${method}`);
	return answer;
}

/**
 * Asks until the answer equals `expected` (editor events reach the extension host
 * asynchronously), then asserts it, so a failure shows the last answer.
 */
export async function expectAnswer(a: AgentLinkApi, method: string, params: Record<string, unknown>, expected: Answer, timeoutMs = 5000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	let answer = await ask(a, method, params);
	while (!isDeepStrictEqual(answer, expected) && Date.now() < deadline) {
		await new Promise((r) => setTimeout(r, 50));
		answer = await ask(a, method, params);
	}
	assert.deepEqual(answer, expected, `${method} ${JSON.stringify(params)}`);
}

function isDeepStrictEqual(x: unknown, y: unknown): boolean {
	try {
		assert.deepStrictEqual(x, y);
		return true;
	} catch {
		return false;
	}
}

/** Closes every editor and extra group; waits until one empty group is left. */
export async function closeAll(): Promise<void> {
	await vscode.commands.executeCommand('workbench.action.closeAllGroups');
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	await waitUntil(
		() => vscode.window.tabGroups.all.length === 1 && vscode.window.tabGroups.all[0]!.tabs.length === 0 && vscode.window.activeTextEditor === undefined,
		10_000,
		'all editors to close',
	);
}

/** Opens a workspace file in a tab of its own (not a preview) and focuses it. */
export async function open(name: string, viewColumn = vscode.ViewColumn.One): Promise<vscode.TextEditor> {
	const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file(name)));
	const editor = await vscode.window.showTextDocument(document, { viewColumn, preview: false, preserveFocus: false });
	await waitUntil(() => vscode.window.activeTextEditor?.document.uri.fsPath === file(name), 5000, `${name} to have focus`);
	return editor;
}
