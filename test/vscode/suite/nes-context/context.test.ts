// nes/suggest and its context, end to end: agents that declare one context key each (both
// revisions, with maxCount), real edits through the editor (typing, paste, undo, redo, cursor and
// selection moves), diagnostics from a collection of the test's own, then the
// `agentLink.nes.suggest` command. Every assertion is on what the scripted agent received.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import type { SuggestOutcome } from '../../../../src/vscode/nes/suggest';
import { behindAnotherPageThroughout } from '../browser';
import { api, waitForState, waitUntil } from '../util';

const any = z.unknown();
type Json = Record<string, unknown>;
type Revision = 'merged' | 'seed';

// As the agents in test/vscode/suites.mjs declare them.
const MAX_COUNTS = { recentFiles: 2, relatedSnippets: 3, editHistory: 3, userActions: 40, openFiles: 3, diagnostics: 4 } as const;
type Key = keyof typeof MAX_COUNTS;
const KEYS = Object.keys(MAX_COUNTS) as Key[];

const folder = () => vscode.workspace.workspaceFolders![0]!.uri;
const file = (name: string) => vscode.Uri.joinPath(folder(), 'src', name);
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function select(a: AgentLinkApi, name: string): Promise<void> {
	await vscode.commands.executeCommand('agentLink.selectAgent', name);
	await waitForState(a, (s) => s.kind === 'ready' && s.name === name);
	await waitUntil(() => a.nes.current !== undefined, 10_000, 'the NES session');
}

async function suggestRequests(a: AgentLinkApi): Promise<Json[]> {
	const received = (await a.agents.readyAgent!.handle.connection.sendRequest('_test/received', {}, any)) as { method: string; params: Json }[];
	return received.filter((r) => r.method === 'nes/suggest').map((r) => r.params);
}

/**
 * Moves the cursor (or selects) and waits for the selection event: setting `editor.selection`
 * updates the extension host's copy at once, the event comes back from the editor later.
 */
async function moveTo(editor: vscode.TextEditor, anchor: vscode.Position, active = anchor): Promise<void> {
	const target = new vscode.Selection(anchor, active);
	if (editor.selection.isEqual(target) && editor.selection.anchor.isEqual(anchor)) {
		return;
	}
	let sub: vscode.Disposable | undefined;
	const seen = new Promise<void>((resolve) => {
		sub = vscode.window.onDidChangeTextEditorSelection((e) => {
			if (e.textEditor.document === editor.document && e.selections[0]?.isEqual(target) && e.selections[0].anchor.isEqual(anchor)) {
				resolve();
			}
		});
	});
	editor.selection = target;
	try {
		await Promise.race([seen, sleep(5000).then(() => Promise.reject(new Error('timed out waiting for the selection event')))]);
	} finally {
		sub?.dispose();
	}
}

async function typeKeys(editor: vscode.TextEditor, text: string): Promise<void> {
	for (const ch of text) {
		const before = editor.document.version;
		await vscode.commands.executeCommand('type', { text: ch });
		await waitUntil(() => editor.document.version > before, 5000, `typing ${JSON.stringify(ch)}`);
	}
}

async function command(editor: vscode.TextEditor, id: string): Promise<void> {
	const before = editor.document.version;
	await vscode.commands.executeCommand(id);
	await waitUntil(() => editor.document.version !== before, 5000, id);
}

interface Scenario {
	readonly main: vscode.TextEditor;
	readonly started: number;
	readonly typedLine: number;
	/** Where the cursor ends: on `makeConfig` in `const config: Config = makeConfig('demo');`. */
	readonly cursor: vscode.Position;
}

const diagnosticsCollection = vscode.languages.createDiagnosticCollection('nes-context-test');

/**
 * What every test does once its agent is ready: other.ts then main.ts opened (other.ts stays
 * open in a hidden tab), a line typed key by key, a paste, Backspace, undo, redo, a cursor move, a
 * selection and a final cursor move, and the test's diagnostics.
 */
async function scenario(): Promise<Scenario> {
	const started = Date.now();
	await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('other.ts')), { preview: false });
	const main = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('main.ts')), { preview: false });
	const returnLine = 5;
	assert.equal(main.document.lineAt(returnLine).text, '\treturn config.name;');
	await moveTo(main, main.document.lineAt(returnLine).range.end);
	await typeKeys(main, '\nconst total = 42;');
	const typedLine = returnLine + 1;
	await vscode.env.clipboard.writeText(' // pasted');
	await command(main, 'editor.action.clipboardPasteAction');
	assert.equal(main.document.lineAt(typedLine).text, '\tconst total = 42; // pasted', 'the paste landed');
	await command(main, 'deleteLeft');
	await command(main, 'undo');
	await command(main, 'redo');
	assert.equal(main.document.lineAt(typedLine).text, '\tconst total = 42; // paste');
	// Beyond the window in which a selection change is taken for the edit's own cursor move.
	await sleep(300);
	await moveTo(main, new vscode.Position(2, 0));
	await sleep(200);
	await moveTo(main, new vscode.Position(3, 7), new vscode.Position(3, 15));
	await sleep(200);
	const cursor = new vscode.Position(4, main.document.lineAt(4).text.indexOf('makeConfig') + 2);
	await moveTo(main, cursor);
	diagnosticsCollection.clear();
	diagnosticsCollection.set(main.document.uri, [
		new vscode.Diagnostic(new vscode.Range(0, 0, 0, 6), 'far warning', vscode.DiagnosticSeverity.Warning),
		new vscode.Diagnostic(new vscode.Range(typedLine, 7, typedLine, 12), 'nearby hint', vscode.DiagnosticSeverity.Hint),
		new vscode.Diagnostic(new vscode.Range(4, 24, 4, 34), 'error at the cursor', vscode.DiagnosticSeverity.Error),
	]);
	diagnosticsCollection.set(file('other.ts'), [
		new vscode.Diagnostic(new vscode.Range(0, 0, 0, 1), 'other information', vscode.DiagnosticSeverity.Information),
		new vscode.Diagnostic(new vscode.Range(0, 13, 0, 18), 'other error', vscode.DiagnosticSeverity.Error),
	]);
	await waitUntil(() => vscode.languages.getDiagnostics(file('other.ts')).length === 2, 5000, 'the diagnostics');
	return { main, started, typedLine, cursor };
}

async function suggest(a: AgentLinkApi): Promise<{ outcome: SuggestOutcome; params: Json }> {
	const outcome = (await vscode.commands.executeCommand<SuggestOutcome>('agentLink.nes.suggest'))!;
	assert.equal(outcome.error, undefined, outcome.error);
	const requests = await suggestRequests(a);
	assert.equal(requests.length, 1, 'one nes/suggest');
	return { outcome, params: requests[0]! };
}

/** Waits until the TypeScript extension finds `makeConfig`'s definition from `at`. */
async function definitionsReady(document: vscode.TextDocument, at: vscode.Position): Promise<void> {
	await waitUntil(
		async () => {
			const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[]>('vscode.executeDefinitionProvider', document.uri, at);
			return (found ?? []).some((d) => ('targetUri' in d ? d.targetUri : d.uri).path.endsWith('/util.ts'));
		},
		90_000,
		'TypeScript definitions',
	);
}

const position = (revision: Revision, action: Json) => (revision === 'merged' ? (action.position as { line: number; character: number }) : { line: action.line as number, character: action.offset as number });

/** Checks what one declared key carried. */
function checkKey(key: Key, revision: Revision, value: unknown, s: Scenario): void {
	assert.ok(Array.isArray(value), `${key} is a list`);
	const list = value as Json[];
	assert.ok(list.length <= MAX_COUNTS[key], `${key}: ${list.length} items, maxCount ${MAX_COUNTS[key]}`);
	const mainUri = s.main.document.uri.toString();
	switch (key) {
		case 'recentFiles':
			assert.deepEqual(list, [
				{ uri: mainUri, languageId: 'typescript', text: s.main.document.getText() },
				{ uri: file('other.ts').toString(), languageId: 'typescript', text: "export const other = 'other';\n" },
			]);
			break;
		case 'relatedSnippets': {
			const byUri = new Map(list.map((snippet) => [snippet.uri as string, snippet.excerpts as { startLine: number; endLine: number; text: string }[]]));
			assert.deepEqual(byUri.get(file('util.ts').toString())?.[0], {
				startLine: 2,
				endLine: 4,
				text: 'export function makeConfig(name: string): Config {\n\treturn { name, retries: 3 };\n}',
			});
			assert.ok(
				byUri.get(file('types.ts').toString())?.some((e) => e.text.startsWith('export interface Config {')),
				`types.ts has Config: ${JSON.stringify(list)}`,
			);
			break;
		}
		case 'editHistory': {
			const last = list.at(-1)!;
			assert.equal(last.uri, mainUri);
			assert.equal(
				last.diff,
				[
					'--- a/src/main.ts',
					'+++ b/src/main.ts',
					'@@ -4,6 +4,7 @@',
					' export function run(): string {',
					" \tconst config: Config = makeConfig('demo');",
					' \treturn config.name;',
					'+\tconst total = 42; // paste',
					' }',
					' ',
					" export const greeting = 'café 😀!';",
				].join('\n'),
			);
			break;
		}
		case 'userActions': {
			const keys = revision === 'merged' ? ['action', 'position', 'timestampMs', 'uri'] : ['action', 'line', 'offset', 'timestampMs', 'uri'];
			for (const action of list) {
				assert.deepEqual(Object.keys(action).sort(), keys);
				assert.equal(action.uri, mainUri);
				assert.ok((action.timestampMs as number) >= s.started && (action.timestampMs as number) <= Date.now());
			}
			const times = list.map((x) => x.timestampMs as number);
			assert.deepEqual(times, [...times].sort((x, y) => x - y), 'oldest first');
			const actions = list.map((x) => x.action);
			const firstInsert = list.find((x) => x.action === 'insertChar')!;
			assert.deepEqual(position(revision, firstInsert), { line: 5, character: 20 }, 'Enter at the end of the return line');
			assert.ok(actions.filter((x) => x === 'insertChar').length >= 'const total = 42;'.length);
			const lineLength = '\tconst total = 42; // paste'.length;
			assert.deepEqual(
				list.slice(-7).map((x) => [x.action, position(revision, x)]),
				[
					['insertText', { line: s.typedLine, character: '\tconst total = 42;'.length }],
					['deleteChar', { line: s.typedLine, character: lineLength }],
					['undo', { line: s.typedLine, character: lineLength }],
					['redo', { line: s.typedLine, character: lineLength }],
					['cursorMovement', { line: 2, character: 0 }],
					['selectionChange', { line: 3, character: 15 }],
					['cursorMovement', { line: s.cursor.line, character: s.cursor.character }],
				],
				JSON.stringify(list.map((x) => [x.action, position(revision, x), x.timestampMs])),
			);
			break;
		}
		case 'openFiles': {
			const visible = s.main.visibleRanges;
			assert.deepEqual(
				list.map((f) => [f.uri, f.languageId, f.visibleRange]),
				[
					[mainUri, 'typescript', { start: { line: visible[0]!.start.line, character: visible[0]!.start.character }, end: { line: visible.at(-1)!.end.line, character: visible.at(-1)!.end.character } }],
					[file('other.ts').toString(), 'typescript', null],
				],
			);
			assert.ok((list[0]!.lastFocusedMs as number) >= (list[1]!.lastFocusedMs as number));
			assert.ok((list[1]!.lastFocusedMs as number) >= s.started);
			break;
		}
		case 'diagnostics':
			assert.deepEqual(list, [
				{ uri: mainUri, range: { start: { line: 4, character: 24 }, end: { line: 4, character: 34 } }, severity: 'error', message: 'error at the cursor' },
				{ uri: mainUri, range: { start: { line: s.typedLine, character: 7 }, end: { line: s.typedLine, character: 12 } }, severity: 'hint', message: 'nearby hint' },
				{ uri: mainUri, range: { start: { line: 0, character: 0 }, end: { line: 0, character: 6 } }, severity: 'warning', message: 'far warning' },
				{ uri: file('other.ts').toString(), range: { start: { line: 0, character: 13 }, end: { line: 0, character: 18 } }, severity: 'error', message: 'other error' },
			]);
			break;
	}
}

describe('Agent Link: nes/suggest context', function () {
	behindAnotherPageThroughout(); // nothing drawn is looked at
	this.timeout(120_000);
	let a: AgentLinkApi;

	before(async function () {
		a = await api();
		// The TypeScript extension needs its server up before definitions come back within the budget.
		const main = await vscode.workspace.openTextDocument(file('main.ts'));
		await vscode.window.showTextDocument(main);
		await definitionsReady(main, new vscode.Position(4, main.lineAt(4).text.indexOf('makeConfig') + 2));
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('agentLink.stopAgent');
		// Back to the files as written, for the next agent (and no "save changes?" prompt).
		for (const document of vscode.workspace.textDocuments.filter((d) => d.isDirty)) {
			await vscode.window.showTextDocument(document);
			await vscode.commands.executeCommand('workbench.action.files.revert');
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
		diagnosticsCollection.clear();
	});

	after(() => diagnosticsCollection.dispose());

	for (const revision of ['merged', 'seed'] as const) {
		for (const key of KEYS) {
			it(`${revision}: an agent declaring only ${key} gets only ${key}, bounded by its maxCount`, async () => {
				await select(a, `NES ${revision} ${key}`);
				const s = await scenario();
				if (key === 'relatedSnippets') {
					// The TypeScript server catches up with the typing first; the command's lookups have a time budget.
					await definitionsReady(s.main.document, s.cursor);
				}
				const { outcome, params } = await suggest(a);
				assert.deepEqual(Object.keys(params).sort(), [...(revision === 'merged' ? ['sessionId'] : []), 'context', 'position', 'triggerKind', 'uri', 'version'].sort());
				assert.equal(params.uri, s.main.document.uri.toString());
				assert.equal(params.version, s.main.document.version);
				assert.deepEqual(params.position, { line: s.cursor.line, character: s.cursor.character });
				assert.equal(params.triggerKind, 'manual');
				if (revision === 'merged') {
					assert.equal(params.sessionId, a.nes.current!.id);
				}
				const context = params.context as Json;
				assert.deepEqual(Object.keys(context), [key], 'only the declared key');
				checkKey(key, revision, context[key], s);
				assert.deepEqual(outcome.response?.suggestions.map((x) => x.kind), ['edit']);
			});
		}

		it(`${revision}: all keys for a utf-8 agent, every position in UTF-8 bytes`, async () => {
			await select(a, `NES ${revision} all utf-8`);
			assert.equal(a.nes.current!.profile.encoding, 'utf-8');
			const s = await scenario();
			const greeting = s.main.document.lineAt(s.typedLine + 3);
			assert.equal(greeting.text, "export const greeting = 'café 😀!';");
			const utf16 = greeting.text.indexOf('😀') + 2;
			const utf8 = Buffer.byteLength(greeting.text.slice(0, utf16));
			assert.equal(utf8, utf16 + 1 + 2, 'é is one more byte, the emoji two more');
			await sleep(200);
			await moveTo(s.main, new vscode.Position(greeting.lineNumber, utf16 - 2), new vscode.Position(greeting.lineNumber, utf16));
			diagnosticsCollection.set(s.main.document.uri, [new vscode.Diagnostic(new vscode.Range(greeting.lineNumber, utf16 - 2, greeting.lineNumber, utf16), 'emoji', vscode.DiagnosticSeverity.Error)]);
			await waitUntil(() => vscode.languages.getDiagnostics(s.main.document.uri).length === 1, 5000, 'the diagnostic');
			const { params, outcome } = await suggest(a);
			const line = greeting.lineNumber;
			assert.deepEqual(params.position, { line, character: utf8 });
			// The fixture answers with an edit at the position it was sent (UTF-8 bytes); the command
			// hands it back in the editor's UTF-16 coordinates.
			const edit = outcome.suggestions?.[0];
			assert.ok(edit?.kind === 'edit', JSON.stringify(outcome.suggestions));
			assert.deepEqual(edit.edits[0]?.range.start, { line, character: utf16 });
			assert.deepEqual(params.selection, { start: { line, character: utf8 - 4 }, end: { line, character: utf8 } });
			const context = params.context as Record<Key, Json[]>;
			assert.deepEqual(Object.keys(context).sort(), [...KEYS].sort());
			for (const key of KEYS) {
				assert.ok(context[key].length <= MAX_COUNTS[key], key);
			}
			assert.deepEqual(position(revision, context.userActions.at(-1)!), { line, character: utf8 });
			assert.equal(context.userActions.at(-1)!.action, 'selectionChange');
			assert.deepEqual(context.diagnostics[0]!.range, { start: { line, character: utf8 - 4 }, end: { line, character: utf8 } });
			const visible = context.openFiles[0]!.visibleRange as { end: { line: number; character: number } };
			if (visible.end.line === line) {
				assert.equal(visible.end.character, Buffer.byteLength(greeting.text));
			}
		});
	}

	it('sends no context to an agent that declared none', async () => {
		await select(a, 'NES merged no context');
		await scenario();
		const { params } = await suggest(a);
		assert.equal(params.context, undefined);
	});

	it('turns an invalid answer into a clear message, not an exception', async () => {
		await select(a, 'NES merged invalid answer');
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('other.ts')));
		const outcome = (await vscode.commands.executeCommand<SuggestOutcome>('agentLink.nes.suggest'))!;
		assert.match(outcome.error ?? '', /^The agent could not suggest an edit: The agent's reply to nes\/suggest is invalid: /);
		assert.equal(outcome.response, undefined);
		assert.equal((await suggestRequests(a)).length, 1, 'the request was sent');
		assert.ok(a.recentLog().some((l) => l.includes("[error] The agent could not suggest an edit: The agent's reply to nes/suggest is invalid")));
	});

	it('says so when no NES session is open', async () => {
		await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(file('other.ts')));
		const outcome = (await vscode.commands.executeCommand<SuggestOutcome>('agentLink.nes.suggest'))!;
		assert.match(outcome.error ?? '', /^No next edit suggestion session is open/);
	});
});
