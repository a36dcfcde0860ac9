// What the nes-display tests share: choosing the scripted agent (test/fixtures/agents/nes-scripted-agent.mjs),
// scripting its answers and reading what it was told, opening a file with the keyboard in it, and
// waiting for a suggestion to show with its keys in place.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { api, waitForState, waitUntil } from '../util';

export type Json = Record<string, unknown>;
export type Revision = 'merged' | 'seed';
const any = z.unknown();

export const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
export const at = (line: number, character: number) => ({ line, character });
export const range = (sl: number, sc: number, el: number, ec: number) => ({ start: at(sl, sc), end: at(el, ec) });
export const edit = (id: string, uri: vscode.Uri, edits: { range: ReturnType<typeof range>; newText: string }[], extra: Json = {}) => ({ kind: 'edit', id, uri: uri.toString(), edits, ...extra });

/** Makes `name` the agent and waits for its NES session. */
export async function select(name: string): Promise<void> {
	const a = await api();
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === name);
	await waitUntil(() => a.nes.current !== undefined && a.nesController.state !== 'off', 10_000, 'the NES session');
}

export async function agent<T = unknown>(method: string, params: Json = {}): Promise<T> {
	return (await (await api()).agents.readyAgent!.handle.connection.sendRequest(method, params, any)) as T;
}

export interface Entry {
	suggestions: Json[];
	at?: { line: number; character: number };
	uri?: string;
	triggerKind?: string;
	delayMs?: number;
}
export const script = (...entries: Entry[]) => agent('_test/script', { entries });

export async function received(): Promise<{ method: string; params: Json }[]> {
	return agent('_test/received');
}

/** Waits until the agent got the outcome of `id` and returns every outcome it got for it. */
export async function outcomesOf(id: string, what = `the outcome of ${id}`, timeoutMs = 10_000): Promise<string[]> {
	let outcomes: string[] = [];
	await waitUntil(
		async () => {
			outcomes = (await received())
				.filter((r) => (r.method === 'nes/accept' || r.method === 'nes/reject') && r.params.id === id)
				.map((r) => (r.method === 'nes/accept' ? 'accept' : `reject ${String(r.params.reason ?? 'rejected')}`));
			return outcomes.length > 0;
		},
		timeoutMs,
		what,
	);
	return outcomes;
}

/** The one outcome of `id`, checked to be the only one (after the rest of the test settled). */
export async function onlyOutcome(id: string, timeoutMs = 10_000): Promise<string> {
	const outcomes = await outcomesOf(id, undefined, timeoutMs);
	assert.equal(outcomes.length, 1, `exactly one outcome for ${id}: ${outcomes.join(', ')}`);
	return outcomes[0]!;
}

let fileCounter = 0;

/** A new file `src/<name><n>.<ext>` in the workspace with `text`, open and focused, the cursor at `cursor`. */
export async function openFile(text: string, cursor: { line: number; character: number }, ext = 'txt', name = 'file'): Promise<vscode.TextEditor> {
	const file = vscode.Uri.joinPath(folder(), 'src', `${name}${++fileCounter}.${ext}`);
	fs.writeFileSync(file.fsPath, text);
	const document = await vscode.workspace.openTextDocument(file);
	const editor = await vscode.window.showTextDocument(document, { preview: false });
	const position = new vscode.Position(cursor.line, cursor.character);
	editor.selection = new vscode.Selection(position, position);
	await waitUntil(() => vscode.window.activeTextEditor?.selection.active.isEqual(position) === true, 5000, 'the cursor');
	// Clicking would move the cursor; the editor already has the keyboard focus after showTextDocument.
	await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
	return editor;
}

/** Waits until suggestion `id` of `kind` shows and the context key the Tab and Escape keybindings test has reached the editor. */
export async function shownKind(kind: string, id: string, timeoutMs = 10_000): Promise<void> {
	const a = await api();
	await waitUntil(
		() => a.nesController.shown?.presentation.kind === kind && a.nesController.shown.presentation.id === id && a.nesController.keysReady,
		timeoutMs,
		`${kind} suggestion ${id} to show`,
	);
}
