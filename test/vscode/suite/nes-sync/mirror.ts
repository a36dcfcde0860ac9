// Helpers of the nes-sync suite: talking to the nes-mirror-agent fixture, and a seeded random editor
// session that edits through the real editor (typing, deleting, multi-cursor edits, paste, snippets,
// line commands, undo/redo, saving, switching files, switching line endings).
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { NesSession } from '../../../../src/vscode/nes/nesSession';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { waitUntil } from '../util';

export interface AgentDocument {
	readonly text: string;
	readonly version: number;
	readonly languageId: string;
}

/** What the mirror agent holds and saw (`_test/documents`). */
export interface AgentView {
	readonly documents: Readonly<Record<string, AgentDocument>>;
	readonly violations: readonly string[];
	readonly counts: Readonly<Record<string, number>>;
	readonly focus: readonly { uri: string; version: number; position: { line: number; character: number } }[];
	readonly saves: number;
	readonly closed: readonly string[];
	/** didOpen and didClose of each document, by URI. */
	readonly opens: Readonly<Record<string, number>>;
	readonly closes: Readonly<Record<string, number>>;
}

export async function agentView(a: AgentLinkApi): Promise<AgentView> {
	const agent = a.agents.readyAgent;
	assert.ok(agent, 'an agent is running');
	return (await agent.handle.connection.sendRequest('_test/documents', {}, z.unknown())) as AgentView;
}

/** Selects an agent and waits for its NES session. */
export async function selectNesAgent(a: AgentLinkApi, name: string): Promise<NesSession> {
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitUntil(() => a.nes.current?.agent.name === name, 30_000, `the NES session with ${name}`);
	return a.nes.current!;
}

export function workspaceFile(name: string): vscode.Uri {
	const folder = vscode.workspace.workspaceFolders?.[0];
	assert.ok(folder, 'the suite opens a folder');
	return vscode.Uri.file(path.join(folder.uri.fsPath, name));
}

/** Waits until the agent has each document at the editor's version. */
export async function waitForVersions(a: AgentLinkApi, documents: readonly vscode.TextDocument[]): Promise<AgentView> {
	let view: AgentView | undefined;
	await waitUntil(
		async () => {
			view = await agentView(a);
			return documents.every((d) => view!.documents[d.uri.toString()]?.version === d.version);
		},
		15_000,
		'the agent to reach the editor versions',
	).catch((error: unknown) => {
		const have = documents.map((d) => `${path.basename(d.uri.fsPath)}: editor ${d.version}, agent ${String(view?.documents[d.uri.toString()]?.version)}`);
		throw new Error(`${String(error)} (${have.join('; ')}; violations: ${JSON.stringify(view?.violations ?? [])})`);
	});
	return view!;
}

/** Asserts that the agent's copy of each document is the editor's text, exactly. */
export function assertMirrors(view: AgentView, documents: readonly vscode.TextDocument[], recent: readonly string[]): void {
	assert.deepEqual(view.violations, [], 'the agent saw no protocol violation');
	for (const document of documents) {
		const copy = view.documents[document.uri.toString()];
		assert.ok(copy, `the agent has ${document.uri.toString()}`);
		const text = document.getText();
		if (copy.text !== text) {
			let at = 0;
			while (at < text.length && text[at] === copy.text[at]) {
				at++;
			}
			assert.fail(
				`${path.basename(document.uri.fsPath)} differs at offset ${at} (version ${document.version}):\n` +
					`editor: ${JSON.stringify(text.slice(Math.max(0, at - 30), at + 30))}\n` +
					`agent:  ${JSON.stringify(copy.text.slice(Math.max(0, at - 30), at + 30))}\n` +
					`last operations: ${recent.join(' | ')}`,
			);
		}
		assert.equal(copy.version, document.version);
		assert.equal(copy.languageId, document.languageId);
	}
}

export { random } from '../../../shared/random';

export function seedOf(text: string): number {
	let h = 2166136261;
	for (let i = 0; i < text.length; i++) {
		h = Math.imul(h ^ text.charCodeAt(i), 16777619);
	}
	return h >>> 0;
}

const TYPED = ['a', 'x', 'hello', ' ', '\n', '\t', '😀', '👍🏽', 'e\u0301', '\u0308', '中文', '(', '"', '{', 'é', '𝄞', 'ü'];
const INSERTED = [...TYPED, 'foo\nbar', 'one\r\ntwo', '\n\n', '👨‍👩‍👧\n', 'x\u0301\u0302', '', '', 'tail\n'];
const LINE_COMMANDS = [
	'editor.action.copyLinesDownAction',
	'editor.action.moveLinesUpAction',
	'editor.action.moveLinesDownAction',
	'editor.action.indentLines',
	'editor.action.outdentLines',
	'editor.action.deleteLines',
	'editor.action.insertLineAfter',
	'editor.action.joinLines',
	'editor.action.commentLine',
	'editor.action.transposeLetters',
];

export interface RandomSession {
	/** The documents edited, each open in an editor. */
	readonly documents: vscode.TextDocument[];
	/** The last operations, for failure messages. */
	readonly recent: string[];
	/** How many operations changed a document or moved focus. */
	operations: number;
	focusSwitches: number;
}

/**
 * Runs `count` random operations on `documents` through the real editor. Returns after the last
 * one; the agent may still be processing events.
 */
export async function randomEdits(session: RandomSession, count: number, next: () => number, canPaste: boolean): Promise<void> {
	const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)]!;
	const offset = (document: vscode.TextDocument) => Math.floor(next() * (document.getText().length + 1));
	const randomRange = (document: vscode.TextDocument, maxLength = 12) => {
		const start = offset(document);
		return new vscode.Range(document.positionAt(start), document.positionAt(start + Math.floor(next() * maxLength)));
	};
	const active = vscode.window.activeTextEditor;
	let editor = active && session.documents.includes(active.document) ? active : await vscode.window.showTextDocument(session.documents[0]!, { preview: false });
	const log = (what: string) => {
		session.recent.push(`${path.basename(editor.document.uri.fsPath)}: ${what}`);
		if (session.recent.length > 12) {
			session.recent.shift();
		}
	};
	for (let i = 0; i < count; i++) {
		const document = editor.document;
		const roll = next();
		if (roll < 0.22) {
			const text = pick(TYPED);
			log(`type ${JSON.stringify(text)}`);
			await vscode.commands.executeCommand('type', { text });
		} else if (roll < 0.34) {
			const command = pick(['deleteLeft', 'deleteRight', 'deleteWordLeft', 'deleteRight']);
			log(command);
			await vscode.commands.executeCommand(command);
		} else if (roll < 0.44) {
			const r = randomRange(document, 6);
			log(`select ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`);
			editor.selection = new vscode.Selection(r.start, r.end);
		} else if (roll < 0.54) {
			// Multi-cursor: several selections, then one action applied at each.
			const selections = Array.from({ length: 2 + Math.floor(next() * 3) }, () => {
				const r = randomRange(document, 4);
				return new vscode.Selection(r.start, r.end);
			});
			editor.selections = selections;
			const action = pick(['type', 'type', 'deleteLeft', 'line']);
			const text = pick(TYPED);
			const command = action === 'line' ? pick(LINE_COMMANDS) : action;
			log(`${selections.length} cursors: ${command}${action === 'type' ? ` ${JSON.stringify(text)}` : ''}`);
			await vscode.commands.executeCommand(command, action === 'type' ? { text } : undefined);
		} else if (roll < 0.62) {
			// Several ranges replaced in one edit: one change event with several changes.
			const offsets = Array.from({ length: 2 * (2 + Math.floor(next() * 3)) }, () => offset(document)).sort((x, y) => x - y);
			const replacements: [vscode.Range, string][] = [];
			for (let k = 0; k + 1 < offsets.length; k += 2) {
				const end = Math.min(offsets[k + 1]!, offsets[k]! + 10);
				replacements.push([new vscode.Range(document.positionAt(offsets[k]!), document.positionAt(end)), pick(INSERTED)]);
			}
			log(`edit ${replacements.map(([r, t]) => `${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}=${JSON.stringify(t)}`).join(',')}`);
			await editor.edit((builder) => replacements.forEach(([r, t]) => builder.replace(r, t))).then(
				() => undefined,
				() => undefined, // ranges that VS Code finds overlapping after validation: no edit
			);
		} else if (roll < 0.68) {
			const text = Array.from({ length: 1 + Math.floor(next() * 3) }, () => pick(INSERTED)).join('');
			log(`paste ${JSON.stringify(text)}`);
			if (canPaste) {
				await vscode.env.clipboard.writeText(text);
				await vscode.commands.executeCommand('editor.action.clipboardPasteAction');
			} else {
				await editor.edit((builder) => editor.selections.forEach((s) => builder.replace(s, text)));
			}
		} else if (roll < 0.71) {
			log('snippet');
			await editor.insertSnippet(new vscode.SnippetString('for ${1:i} in ${2:items}:\n\t${3:pass} # 😀\n$0'));
		} else if (roll < 0.79) {
			const command = pick(['undo', 'undo', 'redo']);
			log(command);
			await vscode.commands.executeCommand(command);
		} else if (roll < 0.87) {
			const command = pick(LINE_COMMANDS);
			log(command);
			await vscode.commands.executeCommand(command);
		} else if (roll < 0.95) {
			const target = pick(session.documents.filter((d) => d !== document));
			editor = await vscode.window.showTextDocument(target, { preview: false });
			session.focusSwitches++;
			log('focus');
		} else if (roll < 0.98) {
			log('save');
			await document.save();
		} else if (roll < 0.99) {
			const eol = document.eol === vscode.EndOfLine.CRLF ? vscode.EndOfLine.LF : vscode.EndOfLine.CRLF;
			log(`line endings ${eol === vscode.EndOfLine.CRLF ? 'CRLF' : 'LF'}`);
			await editor.edit((builder) => builder.setEndOfLine(eol));
		} else {
			// A large deletion keeps files from growing without bound.
			const r = randomRange(document, 200);
			log(`delete ${r.start.line}:${r.start.character}-${r.end.line}:${r.end.character}`);
			await editor.edit((builder) => builder.delete(r));
		}
		session.operations++;
	}
}

/** Whether the clipboard works in this editor (the web workbench may not be allowed to read it). */
export async function clipboardWorks(): Promise<boolean> {
	const probe = `agent-link ${Date.now()}`;
	try {
		await vscode.env.clipboard.writeText(probe);
		return (await vscode.env.clipboard.readText()) === probe;
	} catch {
		return false;
	}
}
