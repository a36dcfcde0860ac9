/**
 * Choosing what to show from an answer: each suggestion registered once (a reused id is
 * dropped), checked against the editor as it is now and prepared (the edit's ranges, the
 * rename's edit, the places a search and replace changes), the best one shown and every other
 * one refused or replaced, each with its outcome.
 *
 * It must not send requests or follow what shows once shown (showing.ts does): it hands the
 * chosen suggestion to `showing.show`.
 */
import * as vscode from 'vscode';
import { ghostHint, hintPlace, jumpHint, previewHint, replaceHint, sortAnswer } from '../../common/nes/answer';
import { classify, pickBest, type Presentation } from '../../common/nes/classify';
import type { NesSuggestion } from '../../common/nes/protocol';
import { findMatches } from '../../common/nes/searchReplace';
import type { ExtensionLog } from '../log';
import type { NesSessionManager } from './nesSession';
import { prepareRename } from './pendingRename';
import type { SessionScope } from './requests';
import type { Showing } from './showing';
import { inWorkspace } from './suggest';
import type { ShownSuggestion, Showable } from './view';

export class Presenter {
	constructor(
		private readonly nes: NesSessionManager,
		private readonly log: ExtensionLog,
		private readonly showing: Showing,
		/** The open session's scope, if any. */
		private readonly scope: () => SessionScope | undefined,
	) {}

	/** Shows the best of `converted` (the agent's `raw` suggestions in the editor's coordinates) in `editor`, if any may show. */
	async present(scope: SessionScope, raw: readonly NesSuggestion[], converted: NesSuggestion[], editor: vscode.TextEditor, request: Record<string, unknown>): Promise<void> {
		const { fresh, reused, lost } = sortAnswer(raw, converted, (id) => scope.ledger.register(id));
		for (const id of reused) {
			this.log.warn(`The agent reused suggestion id ${JSON.stringify(id)}; the duplicate is dropped.`);
		}
		for (const id of lost) {
			this.refuse(scope, id, 'its document could not be read');
		}
		const document = editor.document;
		if (vscode.window.activeTextEditor !== editor || document.version !== request.version) {
			for (const s of fresh) {
				this.refuse(scope, s.id, `the document changed since the request (version ${String(request.version)}, now ${document.version})`);
			}
			return;
		}
		const cursor = { uri: document.uri.toString(), position: { line: editor.selection.active.line, character: editor.selection.active.character } };
		const lineText = (line: number) => (line < document.lineCount ? document.lineAt(line).text : undefined);
		const presentations: Presentation[] = fresh.map((s) => classify(s, cursor, lineText, this.nes.features));
		const { candidates, kept } = await this.candidates(scope, presentations);
		if (this.scope() !== scope || vscode.window.activeTextEditor !== editor || document.version !== request.version) {
			for (const c of candidates) {
				this.refuse(scope, c.presentation.id, 'the editor changed while the suggestion was prepared');
			}
			return;
		}
		const best = pickBest(kept, cursor);
		candidates.forEach((c, i) => {
			if (i !== best) {
				scope.ledger.reject(c.presentation.id, 'replaced');
			}
		});
		const chosen = candidates[best];
		if (!chosen) {
			return;
		}
		const current = this.showing.current;
		if (current) {
			this.showing.end(current.consumed ? 'ignored' : 'replaced', current.consumed ? 'typed out' : 'a newer suggestion came');
		}
		this.showing.show(chosen, editor);
	}

	/** The presentations that may show, prepared, with their presentations alongside; the others refused. */
	private async candidates(scope: SessionScope, presentations: readonly Presentation[]): Promise<{ candidates: ShownSuggestion[]; kept: Presentation[] }> {
		const candidates: ShownSuggestion[] = [];
		const kept: Presentation[] = [];
		for (const p of presentations) {
			if (p.kind === 'invalid') {
				this.refuse(scope, p.id, p.reason);
				continue;
			}
			const prepared = await prepare(p);
			if (typeof prepared === 'string') {
				this.refuse(scope, p.id, prepared);
				continue;
			}
			candidates.push(prepared);
			kept.push(p);
		}
		return { candidates, kept };
	}

	private refuse(scope: SessionScope, id: string, why: string): void {
		this.log.info(`Suggestion ${id} is not shown: ${why}.`);
		scope.ledger.reject(id, 'ignored');
	}
}

/** Checks that a suggestion may be carried out and prepares it; a string says why not. */
async function prepare(p: Showable): Promise<ShownSuggestion | string> {
	const uri = vscode.Uri.parse(p.uri, false);
	if (uri.scheme !== 'file') {
		return `it is for ${p.uri}, not a file on disk`;
	}
	if (!inWorkspace(uri)) {
		return `${uri.fsPath} is outside the workspace folders`;
	}
	const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	const document = open ?? (await vscode.workspace.openTextDocument(uri).then((d) => d, () => undefined));
	if (!document) {
		return `${vscode.workspace.asRelativePath(uri)} cannot be opened`;
	}
	const name = vscode.workspace.asRelativePath(uri, false);
	const base = { presentation: p, version: document.version };
	const within = (pos: { line: number; character: number }) => pos.line < document.lineCount && pos.character <= document.lineAt(pos.line).text.length;
	const place = (line: number) => hintPlace(line, p.uri === vscode.window.activeTextEditor?.document.uri.toString(), name);
	switch (p.kind) {
		case 'ghost':
			return { ...base, ...ghostHint };
		case 'preview': {
			if (!p.edits.every((e) => within(e.range.start) && within(e.range.end))) {
				return 'an edit lies outside the document';
			}
			return { ...base, ...previewHint(place(p.edits[0]!.range.start.line + 1)) };
		}
		case 'jump': {
			if (!within(p.position)) {
				return 'the jump target lies outside the document';
			}
			return { ...base, ...jumpHint(place(p.position.line + 1)) };
		}
		case 'rename': {
			if (!within(p.position)) {
				return 'the rename position lies outside the document';
			}
			// Shown before the rename provider answers if it is slow (a language server loading).
			const rename = await prepareRename(document, p.position, p.newName, inWorkspace);
			return typeof rename === 'string' ? rename : { ...base, ...rename };
		}
		case 'searchAndReplace':
			return prepareSearchAndReplace(p, document, name, base);
	}
}

function prepareSearchAndReplace(p: Extract<Showable, { kind: 'searchAndReplace' }>, document: vscode.TextDocument, name: string, base: { presentation: Showable; version: number }): ShownSuggestion | string {
	const result = findMatches(document.getText(), p.search, p.replace, p.isRegex);
	if (!result.ok) {
		return result.reason;
	}
	if (result.matches.length === 0) {
		return `${JSON.stringify(p.search)} is not found in ${name}`;
	}
	const replacements = result.matches.map((m) => ({ range: new vscode.Range(document.positionAt(m.start), document.positionAt(m.end)), newText: m.newText }));
	return { ...base, replacements, ...replaceHint(replacements.length, name) };
}
