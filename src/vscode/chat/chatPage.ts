/**
 * The chat page's problems, shown in the view itself: the host checks the page's files before it
 * sets the html and shows what is missing instead of a blank page; and every page carries a notice
 * that its script did not start, which shows only if the script has not removed it after a moment
 * (a script that failed to load or stopped with an error). Both say what to do (chatPageProblem).
 */
import { existsSync } from 'node:fs';
import * as vscode from 'vscode';
import { CHAT_PAGE_FILES, type PageProblem, type ProblemText } from '../../common/chatPageProblem';

/** The id the page's script removes once it runs (src/webview/chat/main.ts). */
export const PAGE_PROBLEM_ID = 'page-problem';

/** The page's files missing from the extension's folder (none when it is not on this machine's disk). */
export function missingPageFiles(extensionUri: vscode.Uri): string[] {
	if (extensionUri.scheme !== 'file') {
		return [];
	}
	return CHAT_PAGE_FILES.filter((file) => !existsSync(vscode.Uri.joinPath(extensionUri, ...file.split('/')).fsPath));
}

/**
 * Whether Agent Link runs from its source rather than from an installed package: an extension
 * development host, or a folder that holds its build script (`npm start` links this repository
 * into its profile's extensions; a package never ships `scripts/`).
 */
export function runsFromSource(extensionUri: vscode.Uri, mode: vscode.ExtensionMode): boolean {
	if (mode !== vscode.ExtensionMode.Production) {
		return true;
	}
	return extensionUri.scheme === 'file' && existsSync(vscode.Uri.joinPath(extensionUri, 'scripts', 'build.mjs').fsPath);
}

function escapeHtml(text: string): string {
	return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/**
 * The problem as html: a heading and its paragraphs. `delayed`: shown only after a moment (the
 * page's stylesheet), for the notice every page carries.
 */
export function problemHtml(problem: PageProblem, delayed: boolean): string {
	const part = (p: ProblemText) => (typeof p === 'string' ? escapeHtml(p) : `<code>${escapeHtml(p.code)}</code>`);
	const paragraphs = problem.paragraphs.map((parts) => `<p>${parts.map(part).join('')}</p>`).join('\n');
	return `<div id="${PAGE_PROBLEM_ID}" class="page-problem${delayed ? ' delayed' : ''}" role="alert">
<h2>${escapeHtml(problem.title)}</h2>
${paragraphs}
</div>`;
}

/** A page that only says what is wrong: no script, only the chat's stylesheet. */
export function problemPage(webview: vscode.Webview, extensionUri: vscode.Uri, problem: PageProblem, where: 'view' | 'editor'): string {
	const css = webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, 'media', 'chat', 'chat.css')).toString();
	return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src ${webview.cspSource}; base-uri 'none'; form-action 'none'">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${css}">
<title>Agent Link Chat</title>
</head>
<body data-where="${where}">
${problemHtml(problem, false)}
</body>
</html>`;
}
