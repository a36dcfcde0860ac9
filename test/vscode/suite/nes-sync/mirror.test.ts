// The mirror test: for each protocol revision × sync kind × position encoding, a scripted NES agent
// applies every document event it receives to its own copy of each document; after hundreds of
// seeded random edits through the real editor its copies must equal the editor's text exactly,
// and it must have seen no protocol violation (an event before didOpen or after didClose, a version
// that did not increase, a position off a character, an undeclared or wrong-revision method).
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { behindAnotherPageThroughout } from '../browser';
import { api } from '../util';
import { assertMirrors, clipboardWorks, random, randomEdits, seedOf, selectNesAgent, waitForVersions, workspaceFile, type RandomSession } from './mirror';

/** Random operations per combination, in rounds; the agent is checked after each round. */
const ROUNDS = 4;
const PER_ROUND = 50;
const FILES = ['main.py', 'crlf.txt', 'unicode.md'];

describe('Agent Link: NES document sync mirrors the editor', function () {
	let a: AgentLinkApi;
	let canPaste = false;
	const documents: vscode.TextDocument[] = [];

	before(async function () {
		this.timeout(60_000);
		a = await api();
		// The real paste command when the web workbench may use the clipboard; otherwise an edit of
		// the selections, which is what paste does. Probed in an untitled document, which is never synced.
		if (await clipboardWorks()) {
			const scratch = await vscode.workspace.openTextDocument({ content: '' });
			await vscode.window.showTextDocument(scratch);
			await vscode.env.clipboard.writeText('pasted\ntext');
			await vscode.commands.executeCommand('editor.action.clipboardPasteAction');
			canPaste = scratch.getText() === 'pasted\ntext';
			await vscode.commands.executeCommand('workbench.action.revertAndCloseActiveEditor');
		}
		console.log(`      (paste: ${canPaste ? 'editor.action.clipboardPasteAction' : 'an edit of the selections: the clipboard is not available'})`);
	});

	// After the paste probe above: the 2 400 edits act on the editors' models through commands and
	// are checked against the agents' copies; nothing drawn is looked at. With a blank page in front,
	// the browser draws the workbench far less (the window's pages used 47 to 56 s of processor time on
	// 1.139, nes-sync alone, against 60 to 66 s), and every command works as before (the 128 pastes of
	// a run all pasted, behind as in front). Its `after` brings the workbench back before the one below.
	behindAnotherPageThroughout();

	after(async () => {
		await vscode.commands.executeCommand('agentLink.stopAgent');
	});

	for (const revision of ['merged', 'seed'] as const) {
		for (const syncKind of ['incremental', 'full'] as const) {
			for (const encoding of ['utf-16', 'utf-8', 'utf-32'] as const) {
				const name = `Mirror ${revision} ${syncKind} ${encoding}`;
				it(`${syncKind} sync, ${encoding}, ${revision} revision`, async function () {
					this.timeout(180_000);
					const session = await selectNesAgent(a, name);
					assert.deepEqual(
						{ revision: session.profile.revision, encoding: session.profile.encoding, syncKind: session.profile.events.didChange },
						{ revision, encoding, syncKind },
					);
					// The first combination opens the files after its session started; the others find
					// them open already and must get didOpen for them at session start.
					const wasOpen = documents.length > 0;
					if (!wasOpen) {
						for (const file of FILES) {
							const document = await vscode.workspace.openTextDocument(workspaceFile(file));
							await vscode.window.showTextDocument(document, { preview: false });
							documents.push(document);
						}
					}
					const crlf = documents[1]!;
					assert.equal(crlf.eol, vscode.EndOfLine.CRLF, 'crlf.txt keeps CRLF line endings at the start of each combination');
					const run: RandomSession = { documents, recent: [], operations: 0, focusSwitches: 0 };
					assertMirrors(await waitForVersions(a, documents), documents, ['(initial didOpen)']);
					const next = random(seedOf(name));
					for (let round = 0; round < ROUNDS; round++) {
						await randomEdits(run, PER_ROUND, next, canPaste);
						assertMirrors(await waitForVersions(a, documents), documents, run.recent);
					}
					// Leave crlf.txt with CRLF endings for the next combination.
					if (crlf.eol !== vscode.EndOfLine.CRLF) {
						const editor = await vscode.window.showTextDocument(crlf, { preview: false });
						await editor.edit((builder) => builder.setEndOfLine(vscode.EndOfLine.CRLF));
					}
					const view = await waitForVersions(a, documents);
					assertMirrors(view, documents, run.recent);
					const prefix = revision === 'merged' ? 'document/' : 'nes/';
					assert.ok((view.counts[`${prefix}didChange`] ?? 0) > 50, `didChange sent: ${JSON.stringify(view.counts)}`);
					assert.ok((view.counts[`${prefix}didFocus`] ?? 0) >= run.focusSwitches, `didFocus on every switch: ${JSON.stringify(view.counts)}`);
					assert.ok((view.counts[`${prefix}didOpen`] ?? 0) >= documents.length, 'didOpen for each document');
					for (const document of documents) {
						assert.equal(
							a.documentSync.hasShadowCopy(document.uri.toString()),
							syncKind === 'incremental' && encoding !== 'utf-16',
							'a shadow copy only for incremental sync in utf-8/utf-32',
						);
					}
					console.log(`      (${run.operations} operations, ${view.counts[`${prefix}didChange`]} didChange, ${view.counts[`${prefix}didFocus`] ?? 0} didFocus, ${view.saves} didSave)`);
				});
			}
		}
	}
});
