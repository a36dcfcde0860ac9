/** What the workbench's tabs show, as text documents. */
import * as vscode from 'vscode';

/** The documents a tab shows as text: both sides of a diff (modified first), else its one document. */
export function tabUris(input: unknown): vscode.Uri[] {
	if (input instanceof vscode.TabInputText) {
		return [input.uri];
	}
	if (input instanceof vscode.TabInputTextDiff) {
		return [input.modified, input.original];
	}
	// Notebooks, custom editors, webviews and terminals are not text documents.
	return [];
}
