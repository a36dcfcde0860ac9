/**
 * What the chat page asks of the editor: the active editor's file or selection as an attachment,
 * code inserted at the cursor, what `@` can mention (the workspace's files, mentions.ts, and
 * OpenCtx providers' items) and the context OpenCtx offers for what is being written. Remembers
 * the last text editor (the chat's own page takes the active editor away). Touches no tab, page
 * or session.
 */
import * as vscode from 'vscode';
import type { Attachment, Mention } from '../../common/chat/messages';
import type { OpenCtxFeature } from '../openctx/feature';
import { searchMentions } from './mentions';

export class EditorRequests implements vscode.Disposable {
	private lastTextEditor: vscode.TextEditor | undefined = vscode.window.activeTextEditor;
	private readonly subscription: vscode.Disposable;

	constructor(private readonly openctx: OpenCtxFeature | undefined) {
		this.subscription = vscode.window.onDidChangeActiveTextEditor((editor) => {
			if (editor && editor.document.uri.scheme !== 'output') {
				this.lastTextEditor = editor;
			}
		});
	}

	/** The active editor's selection (whole lines, from 1), or its file when nothing is selected; null without a file editor. */
	activeEditorAttachment(): Attachment | null {
		const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
		if (!editor || editor.document.uri.scheme !== 'file') {
			return null;
		}
		const file = editor.document.uri.fsPath;
		const selection = editor.selection;
		if (selection.isEmpty) {
			return { type: 'file', path: file };
		}
		const end = selection.end.character === 0 && selection.end.line > selection.start.line ? selection.end.line : selection.end.line + 1;
		return { type: 'file', path: file, lines: { start: selection.start.line + 1, end } };
	}

	/** Replaces each selection of the last text editor with `code`. */
	async insertAtCursor(code: string): Promise<void> {
		const editor = vscode.window.activeTextEditor ?? this.lastTextEditor;
		if (!editor || editor.document.isClosed) {
			throw new Error('Open a file to insert the code into.');
		}
		await vscode.window.showTextDocument(editor.document, editor.viewColumn);
		await editor.edit((edit) => editor.selections.forEach((s) => edit.replace(s, code)));
	}

	/** What `@query` can mention: the workspace's files, then the OpenCtx providers' items. */
	async searchMentions(query: string): Promise<Mention[]> {
		const [files, provided] = await Promise.all([searchMentions(query), this.openctx?.chatMentions(query).catch(() => []) ?? []]);
		return [...files, ...provided];
	}

	/** The context OpenCtx providers offer for `text`. */
	async suggestContext(text: string): Promise<Mention[]> {
		return (await this.openctx?.chatSuggestions(text).catch(() => [])) ?? [];
	}

	dispose(): void {
		this.subscription.dispose();
	}
}
