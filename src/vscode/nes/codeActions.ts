/**
 * "Apply next edit suggestion" as a quick fix for the suggestion that shows in the active
 * editor, for keyboard and screen-reader users. It only offers the accept command: it must not
 * apply anything or change what shows.
 */
import * as vscode from 'vscode';
import type { ShownSuggestion } from './view';

export class SuggestionCodeActions implements vscode.CodeActionProvider {
	constructor(
		private readonly shown: () => ShownSuggestion | undefined,
		private readonly acceptCommand: string,
	) {}

	provideCodeActions(document: vscode.TextDocument): vscode.CodeAction[] {
		const shown = this.shown();
		if (!shown || vscode.window.activeTextEditor?.document !== document) {
			return [];
		}
		const action = new vscode.CodeAction('Apply next edit suggestion', vscode.CodeActionKind.QuickFix);
		action.command = { title: 'Apply next edit suggestion', command: this.acceptCommand, tooltip: shown.hint };
		return [action];
	}
}
