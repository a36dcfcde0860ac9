// Recent documents across an extension host restart: phase 1 leaves a known history and tabs open;
// phase 2 (a new VS Code run on the same profile) asks again. Restored tabs VS Code has not loaded
// yet are answered too, with the language VS Code gives them once loaded.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { EditorStateMethods, MAX_RECENT_DOCUMENTS } from '../../../../src/common/editorStateProtocol';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { behindAnotherPageThroughout } from '../browser';
import { api, waitUntil } from '../util';
import { ask, closeAll, docOf, expectAnswer, file, open, phase, ready, uriOf, workspaceDir, type Answer } from './helpers';

const { openDocuments, recentDocuments, activeDocument } = EditorStateMethods;

// Outside the workspace folder, in the run's scratch folder that both phases share.
const savedAnswers = () => path.join(workspaceDir(), '..', 'editor-state-phase-1.json');

/** Left open by phase 1, in this order; a.ts last, with focus. */
const OPEN = [
	['script', 'shellscript', vscode.ViewColumn.One], // no extension: its shebang says
	['data.special', 'json', vscode.ViewColumn.One], // files.associations of the suite
	['tsconfig.json', 'jsonc', vscode.ViewColumn.One], // a file name contributed by an extension
	['b.md', 'markdown', vscode.ViewColumn.Two],
	['a.ts', 'typescript', vscode.ViewColumn.One],
] as const;
/** Most recently focused first: a.ts, then the other group's b.md, then group one's background tabs. */
const EXPECTED_OPEN = ['a.ts', 'b.md', 'tsconfig.json', 'data.special', 'script'].map((name) => docOf(name, OPEN.find(([n]) => n === name)![1]));

interface Saved {
	readonly recent: Answer;
}

describe(`Agent Link: editor state across a restart (phase ${phase})`, function () {
	behindAnotherPageThroughout(); // nothing drawn is looked at
	let a: AgentLinkApi;
	let sessionId: string;

	before(async () => {
		a = await api();
		sessionId = await ready(a);
	});

	if (phase === 1) {
		it('leaves a history and open tabs behind', async function () {
			this.timeout(60_000);
			await closeAll();
			for (const [name, , column] of OPEN) {
				await open(name, column);
			}
			await expectAnswer(a, openDocuments, { sessionId }, { result: { documents: EXPECTED_OPEN } });
			const recent = await ask(a, recentDocuments, { sessionId, limit: MAX_RECENT_DOCUMENTS });
			const uris = (recent.result as { documents: { uri: string }[] }).documents.map((d) => d.uri);
			assert.deepEqual(uris.slice(0, 5), EXPECTED_OPEN.map((d) => d.uri));
			fs.writeFileSync(savedAnswers(), JSON.stringify({ recent } satisfies Saved));
			await a.editorState.flush();
			// The one wait on time in this suite, for the workbench rather than the extension: VS Code
			// web saves its open editors (onWillSaveState) only on its periodic flush, every 5 s while
			// the page has focus and is idle, or when the window loses focus. Its shutdown save does
			// not reach IndexedDB before the harness closes the page, so without this phase 2 would
			// restore no tabs. (Workspace state written by extensions is stored at once and needs none.)
			await new Promise((r) => setTimeout(r, 8000));
		});
	}

	if (phase === 2) {
		it('recent documents are the same after the restart', async () => {
			assert.ok(fs.existsSync(savedAnswers()), 'phase 1 ran and saved its answers');
			const saved = JSON.parse(fs.readFileSync(savedAnswers(), 'utf8')) as Saved;
			const uris = (saved.recent.result as { documents: { uri: string }[] }).documents.map((d) => d.uri);
			// Phase 1's history: the restart files, the odd names, and not the file deleted on disk.
			assert.ok(uris.includes(uriOf('percent%41.ts')) && uris.includes(uriOf('left.txt')), JSON.stringify(uris));
			assert.ok(!uris.includes(uriOf('doomed.ts')));
			await expectAnswer(a, recentDocuments, { sessionId, limit: MAX_RECENT_DOCUMENTS }, saved.recent);
		});

		it('restored tabs are answered, including ones VS Code has not loaded, with the language VS Code gives them', async () => {
			await waitUntil(
				() => vscode.window.tabGroups.all.flatMap((g) => g.tabs).filter((t) => t.input instanceof vscode.TabInputText).length === OPEN.length,
				15_000,
				'VS Code to restore the tabs of phase 1',
			);
			const loaded = new Set(vscode.workspace.textDocuments.map((d) => d.uri.fsPath));
			const notLoaded = OPEN.map(([name]) => name).filter((name) => !loaded.has(file(name)));
			console.log(`    restored tabs not loaded yet: ${notLoaded.join(', ') || 'none'}`);
			assert.ok(notLoaded.length > 0, 'some restored tabs are not loaded (else this test shows nothing)');

			await expectAnswer(a, openDocuments, { sessionId }, { result: { documents: EXPECTED_OPEN } });
			await expectAnswer(a, activeDocument, { sessionId }, { result: { document: EXPECTED_OPEN[0] } });
			// The languages agree with what VS Code says once it loads each file.
			for (const [name, languageId] of OPEN) {
				const document = await vscode.workspace.openTextDocument(vscode.Uri.file(file(name)));
				assert.equal(document.languageId, languageId, name);
			}
		});
	}
});
