// Rename suggestions while the rename provider is not ready, as with a language server still loading
// its project: a test rename provider for *.held files holds its answer until the test releases it.
// The hint must show at once and say it waits, Tab must wait for the provider (never indent), and a
// provider that never answers must leave the document as the user wrote it. Real key presses through
// the browser; display.test.ts's root hooks (cleaning up after each test) run for these tests too.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { DECORATION_TEXT, press, pseudoTexts, type } from '../browser';
import { notificationShown } from '../notifications';
import { api, waitUntil } from '../util';
import { at, onlyOutcome, openFile, script, select, shownKind, type Revision } from './kit';

const HELD = { scheme: 'file', pattern: '**/*.held' };
const ORIGINAL = 'let count = 1;\ncount = count + 1;\n\nlog(count);\n';
const RENAMED = ORIGINAL.replace(/count/g, 'total');
// The empty third line: a Tab there that indents shows in the text.
const CURSOR = at(2, 0);

/** A rename provider whose answer waits (in `prepareRename` or `provideRenameEdits`) until {@link release}. */
class HeldRenames implements vscode.RenameProvider {
	/** Asks that reached the held step, and answers given. */
	asked = 0;
	answered = 0;
	private open!: () => void;
	private readonly gate = new Promise<void>((resolve) => (this.open = resolve));

	constructor(private readonly holdIn: 'prepareRename' | 'provideRenameEdits') {}

	release(): void {
		this.open();
	}

	async prepareRename(document: vscode.TextDocument, position: vscode.Position): Promise<vscode.Range> {
		await this.hold('prepareRename');
		const word = document.getWordRangeAtPosition(position);
		if (!word) {
			throw new Error('nothing to rename here');
		}
		return word;
	}

	async provideRenameEdits(document: vscode.TextDocument, position: vscode.Position, newName: string): Promise<vscode.WorkspaceEdit> {
		await this.hold('provideRenameEdits');
		const old = document.getText(document.getWordRangeAtPosition(position));
		const edit = new vscode.WorkspaceEdit();
		for (const m of document.getText().matchAll(new RegExp(`\\b${old}\\b`, 'g'))) {
			edit.replace(document.uri, new vscode.Range(document.positionAt(m.index), document.positionAt(m.index + old.length)), newName);
		}
		this.answered++;
		return edit;
	}

	private async hold(step: 'prepareRename' | 'provideRenameEdits'): Promise<void> {
		if (step === this.holdIn) {
			this.asked++;
			await this.gate;
		}
	}
}

let a: AgentLinkApi;

/** Waits until the editor draws a hint matching `pattern` (the decoration's text on the page). */
async function hintOnPage(pattern: RegExp): Promise<void> {
	let texts: string[] = [];
	await waitUntil(
		async () => {
			texts = await pseudoTexts(DECORATION_TEXT);
			return texts.some((t) => pattern.test(t));
		},
		10_000,
		`a hint matching ${pattern} on the page`,
	).catch((error: Error) => {
		throw new Error(`${error.message}; drawn: ${JSON.stringify(texts)}`);
	});
}

/**
 * Once the provider has answered, the answer has reached Agent Link too: an ask of our own goes
 * through the same channels after it, so its result comes back after the earlier one.
 */
async function afterAnswer(held: HeldRenames, uri: vscode.Uri): Promise<void> {
	await waitUntil(() => held.answered > 0, 10_000, 'the provider to answer');
	await vscode.commands.executeCommand('vscode.executeDocumentRenameProvider', uri, new vscode.Position(0, 5), 'other');
}

for (const revision of ['merged', 'seed'] as Revision[]) {
	const id = (name: string) => `${revision}-held-${name}`;
	const rename = (name: string, uri: vscode.Uri) =>
		revision === 'merged'
			? { kind: 'rename', id: id(name), uri: uri.toString(), position: at(0, 5), newName: 'total' }
			: { kind: 'action', id: id(name), actionId: 'rename', arguments: { uri: uri.toString(), position: at(0, 5), newName: 'total' } };

	describe(`NES display: a rename while the rename provider is not ready (${revision} revision)`, () => {
		let cleanup: (() => void) | undefined;

		before(async () => {
			a = await api();
			await select(`NES Display ${revision}`);
		});

		afterEach(() => {
			cleanup?.();
			cleanup = undefined;
		});

		/** A *.held file open with the cursor on its empty line, and the agent's rename of `count` showing. */
		async function renameShowing(name: string, holdIn: 'prepareRename' | 'provideRenameEdits'): Promise<{ editor: vscode.TextEditor; held: HeldRenames }> {
			const held = new HeldRenames(holdIn);
			const registration = vscode.languages.registerRenameProvider(HELD, held);
			cleanup = () => {
				held.release();
				registration.dispose();
			};
			const editor = await openFile(ORIGINAL, CURSOR, 'held', 'held');
			await script({ triggerKind: 'manual', suggestions: [rename(name, editor.document.uri)] });
			await press('Alt+Backslash');
			await shownKind('rename', id(name));
			assert.equal(held.answered, 0, 'shown before the provider answered');
			await waitUntil(() => held.asked > 0, 10_000, 'the provider to be asked');
			return { editor, held };
		}

		async function tabWaits(): Promise<void> {
			await press('Tab');
			await waitUntil(() => /^Renaming count → total when the language server answers/.test(a.nesController.shown?.hint ?? ''), 10_000, 'the hint saying Tab waits');
			await hintOnPage(/^Renaming count → total when the language server answers/);
		}

		it('the hint shows at once and says it waits; Tab waits without indenting, and the rename is applied when the provider answers', async () => {
			const { editor, held } = await renameShowing('released', 'prepareRename');
			assert.match(a.nesController.shown!.hint, /^⇥ Tab: rename count → total \(waiting for the language server\)$/);
			await hintOnPage(/^⇥ Tab: rename count → total \(waiting for the language server\)$/);
			await tabWaits();
			await press('Tab'); // a second Tab while waiting
			assert.equal(editor.document.getText(), ORIGINAL, 'no Tab changed the document');
			held.release();
			await waitUntil(() => editor.document.getText() === RENAMED, 10_000, 'the rename applied');
			assert.equal(await onlyOutcome(id('released')), 'accept');
			// The second Tab did nothing either: what is typed now lands at the cursor, with no tab before it.
			await type('x');
			await waitUntil(() => editor.document.getText().includes('x'), 5000, 'the typed x');
			assert.equal(editor.document.getText(), RENAMED.replace('\n\n', '\nx\n'));
		});

		it('a provider that answers while the hint shows turns it into the usual hint', async () => {
			const { editor, held } = await renameShowing('ready', 'provideRenameEdits');
			held.release();
			await waitUntil(() => a.nesController.shown?.hint === '⇥ Tab: rename count → total', 10_000, 'the usual hint');
			await hintOnPage(/^⇥ Tab: rename count → total$/);
			await press('Tab');
			await waitUntil(() => editor.document.getText() === RENAMED, 10_000, 'the rename applied');
			assert.equal(await onlyOutcome(id('ready')), 'accept');
		});

		it('a provider that never answers: Tab gives up after the bound, says it could not rename, and nothing changes', async function () {
			this.timeout(60_000);
			// Only this test's message in the notification center (in a shared window, another suite's may fill it).
			await vscode.commands.executeCommand('notifications.clearAll');
			await vscode.commands.executeCommand('notifications.hideList');
			const { editor, held } = await renameShowing('never', 'provideRenameEdits');
			await tabWaits();
			await press('Tab');
			const message = /Could not rename count → total: the language server did not answer within 10 s.*Nothing was changed/;
			await waitUntil(() => notificationShown(message), 30_000, 'the message that it could not rename');
			assert.equal(await onlyOutcome(id('never')), 'reject ignored');
			assert.equal(a.nesController.shown, undefined);
			assert.equal(editor.document.getText(), ORIGINAL, 'the document as the user left it');
			// An answer that comes after all changes nothing either.
			held.release();
			await afterAnswer(held, editor.document.uri);
			assert.equal(editor.document.getText(), ORIGINAL);
			await vscode.commands.executeCommand('notifications.clearAll');
			await vscode.commands.executeCommand('notifications.hideList');
		});

		it('typing while Tab waits keeps what was typed, and the rename is dropped', async () => {
			const { editor, held } = await renameShowing('typed', 'prepareRename');
			await tabWaits();
			await type('y');
			await waitUntil(() => editor.document.getText().includes('y'), 5000, 'the typed y');
			assert.equal(await onlyOutcome(id('typed')), 'reject ignored');
			held.release();
			await afterAnswer(held, editor.document.uri);
			assert.equal(editor.document.getText(), ORIGINAL.replace('\n\n', '\ny\n'));
		});

		it('Escape while Tab waits cancels: rejected, and nothing changes', async () => {
			const { editor, held } = await renameShowing('escaped', 'prepareRename');
			await tabWaits();
			await press('Escape');
			assert.equal(await onlyOutcome(id('escaped')), 'reject rejected');
			assert.equal(a.nesController.shown, undefined);
			held.release();
			await afterAnswer(held, editor.document.uri);
			assert.equal(editor.document.getText(), ORIGINAL);
		});
	});
}

describe('NES display: several cursors', () => {
	it('a second cursor takes the hint away (Tab is the editor\'s then) and the suggestion is ignored', async () => {
		a = await api();
		await select('NES Display merged');
		const editor = await openFile('a = 1\nb = 1\nc = 1\n', at(0, 0), 'txt', 'cursors');
		await script({ triggerKind: 'manual', suggestions: [{ kind: 'edit', id: 'cursors-1', uri: editor.document.uri.toString(), edits: [{ range: { start: at(2, 4), end: at(2, 5) }, newText: '3' }] }] });
		await press('Alt+Backslash');
		await shownKind('preview', 'cursors-1');
		await press('Shift+Alt+ArrowDown'); // Add Cursor Below
		await waitUntil(() => editor.selections.length === 2, 5000, 'a second cursor');
		assert.equal(await onlyOutcome('cursors-1'), 'reject ignored');
		assert.equal(a.nesController.shown, undefined);
		await waitUntil(async () => !(await pseudoTexts(DECORATION_TEXT)).some((t) => t.includes('Tab')), 5000, 'the hint gone from the page');
		await press('Tab');
		await waitUntil(() => editor.document.getText() === '\ta = 1\n\tb = 1\nc = 1\n', 5000, 'both lines indented');
	});
});
