/**
 * What `@` can mention in the chat's input: the workspace's files and folders by a fuzzy match of
 * their relative paths, then the workspace symbols the language extensions find. Reads the
 * workspace; keeps nothing.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Mention } from '../../common/chat/messages';

/**
 * What `@query` can mention: files and folders whose workspace-relative path holds the query's
 * characters in order (a fuzzy match), best first, then the workspace symbols the language
 * extensions find for it.
 */
export async function searchMentions(query: string): Promise<Mention[]> {
	const files = await vscode.workspace.findFiles('**/*', '**/{node_modules,.git}/**', 5000);
	const needle = query.toLowerCase();
	const scored: { score: number; mention: Mention }[] = [];
	const folders = new Map<string, string>();
	for (const uri of files) {
		const relative = vscode.workspace.asRelativePath(uri, false);
		const score = fuzzyScore(relative.toLowerCase(), needle);
		if (score !== undefined) {
			scored.push({ score, mention: { label: path.basename(uri.fsPath), detail: relative, attachment: { type: 'file', path: uri.fsPath } } });
		}
		for (let dir = path.dirname(uri.fsPath), rel = path.dirname(relative); rel !== '.' && rel !== '' && !folders.has(dir); dir = path.dirname(dir), rel = path.dirname(rel)) {
			folders.set(dir, rel);
		}
	}
	for (const [dir, relative] of folders) {
		const score = fuzzyScore(relative.toLowerCase(), needle);
		if (score !== undefined) {
			// A folder a little behind a file that matches as well.
			scored.push({ score: score + 0.5, mention: { label: `${path.basename(dir)}/`, detail: relative, attachment: { type: 'folder', path: dir } } });
		}
	}
	const mentions = scored
		.sort((a, b) => a.score - b.score)
		.slice(0, 40)
		.map((s) => s.mention);
	if (query.length >= 2) {
		const symbols = await Promise.resolve(vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', query)).catch(() => undefined);
		for (const symbol of (symbols ?? []).filter((s) => s.location.uri.scheme === 'file').slice(0, 10)) {
			const range = symbol.location.range;
			mentions.push({
				label: symbol.name,
				detail: `${vscode.SymbolKind[symbol.kind]} · ${vscode.workspace.asRelativePath(symbol.location.uri, false)}:${range.start.line + 1}`,
				attachment: { type: 'symbol', path: symbol.location.uri.fsPath, name: symbol.name, lines: { start: range.start.line + 1, end: range.end.line + 1 } },
			});
		}
	}
	return mentions;
}

/** Lower is better; undefined when `needle`'s characters do not all occur in order. */
export function fuzzyScore(haystack: string, needle: string): number | undefined {
	let at = -1;
	let gaps = 0;
	for (const char of needle) {
		const next = haystack.indexOf(char, at + 1);
		if (next < 0) {
			return undefined;
		}
		gaps += next - at - 1;
		at = next;
	}
	return gaps + haystack.length / 100;
}
