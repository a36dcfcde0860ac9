/**
 * Carrying out a suggestion the user accepted: the edit (several edits to one document as a
 * single undo step), the rename's workspace edit, the jump, and the cursor the suggestion asks
 * for after its edit.
 *
 * It must not decide whether to apply (the suggestion's staleness, the Tab chain), settle the
 * suggestion's outcome or touch what shows: accept.ts does.
 */
import * as vscode from 'vscode';
import type { PositionEncoding } from '../../common/positionEncoding';
import { documentConverter } from './positionConverter';
import type { Current } from './showing';

/**
 * Applies `current` to `uri`; whether it was applied. `encoding` is the session's, asked once
 * the edit is made (undefined: the session ended, and the cursor is left where the edit put it).
 */
export async function applySuggestion(current: Current, uri: vscode.Uri, encoding: () => PositionEncoding | undefined): Promise<boolean> {
	const p = current.presentation;
	switch (p.kind) {
		case 'ghost': {
			const edit = new vscode.WorkspaceEdit();
			edit.insert(uri, new vscode.Position(p.at.line, p.at.character), p.text);
			return vscode.workspace.applyEdit(edit);
		}
		case 'preview': {
			const ok = await applyInOneStep(
				uri,
				p.edits.map((e) => ({ range: new vscode.Range(e.range.start.line, e.range.start.character, e.range.end.line, e.range.end.character), newText: e.newText })),
			);
			const agentEncoding = encoding();
			if (ok && p.cursorPosition && agentEncoding) {
				const editor = await vscode.window.showTextDocument(uri);
				// In the agent's encoding, against the text after the edit (suggestions.ts).
				const converted = documentConverter(editor.document, agentEncoding).fromAgentPosition(p.cursorPosition);
				await moveCursor(editor, converted);
			}
			return ok;
		}
		case 'jump': {
			const editor = await vscode.window.showTextDocument(uri);
			await moveCursor(editor, p.position);
			return true;
		}
		case 'rename':
			return current.renameEdit ? vscode.workspace.applyEdit(current.renameEdit, { isRefactoring: true }) : false;
		case 'searchAndReplace':
			return applyInOneStep(uri, current.replacements ?? []);
	}
}

/** Applies edits to one document as a single undo step. */
async function applyInOneStep(uri: vscode.Uri, edits: readonly { range: vscode.Range; newText: string }[]): Promise<boolean> {
	const editor = vscode.window.visibleTextEditors.find((e) => e.document.uri.toString() === uri.toString());
	if (editor) {
		return editor.edit(
			(builder) => {
				for (const e of edits) {
					builder.replace(e.range, e.newText);
				}
			},
			{ undoStopBefore: true, undoStopAfter: true },
		);
	}
	const edit = new vscode.WorkspaceEdit();
	for (const e of edits) {
		edit.replace(uri, e.range, e.newText);
	}
	return vscode.workspace.applyEdit(edit);
}

/** Puts the cursor at `position` (kept within the document) and shows it. */
async function moveCursor(editor: vscode.TextEditor, position: { line: number; character: number }): Promise<void> {
	const at = editor.document.validatePosition(new vscode.Position(position.line, position.character));
	await setSelection(editor, at);
	editor.revealRange(new vscode.Range(at, at), vscode.TextEditorRevealType.InCenterIfOutsideViewport);
}

/**
 * Moves the cursor and waits until the editor reports it: an edit's own cursor
 * update can otherwise arrive after ours and undo it.
 */
async function setSelection(editor: vscode.TextEditor, at: vscode.Position): Promise<void> {
	const target = new vscode.Selection(at, at);
	for (let attempt = 0; attempt < 3; attempt++) {
		const seen = new Promise<void>((resolve) => {
			const timer = setTimeout(() => {
				sub.dispose();
				resolve();
			}, 500);
			const sub = vscode.window.onDidChangeTextEditorSelection((e) => {
				if (e.textEditor === editor && e.selections[0]?.isEqual(target)) {
					clearTimeout(timer);
					sub.dispose();
					resolve();
				}
			});
		});
		editor.selection = target;
		await seen;
		if (editor.selection.isEqual(target)) {
			return;
		}
	}
}
