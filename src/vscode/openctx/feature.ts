/**
 * OpenCtx in Agent Link: the providers (client.ts), their annotations in the editor
 * (annotations.ts), their mentions and items for the chat, and their links to workspace code as
 * related snippets for next edit suggestions. Commands: **OpenCtx Items in This File…** and
 * **Toggle OpenCtx Annotations**.
 */
import * as vscode from 'vscode';
import { errorMessage, type Logger } from '../../common/log';
import type { RelatedSnippetInput } from '../../common/nes/context';
import type { Item, Mention as OpenCtxMention } from '../../common/openctx/protocol';
import { matchMessageSelectors } from '../../common/openctx/selectors';
import type { ConfigService } from '../config';
import { OpenCtxAnnotations, safeLink, type ShownAnnotation } from './annotations';
import { nodeImport, OpenCtxClient, type ImportFunction } from './client';

/** A provider's mention, as the chat offers it. */
export interface ProviderMention {
	readonly providerUri: string;
	readonly providerName: string;
	readonly mention: OpenCtxMention;
}

/** An item fetched for a prompt, with the provider it came from. */
export interface ProviderItem {
	readonly providerName: string;
	readonly item: Item;
	/** The mention it was fetched for, when it was. */
	readonly mention?: OpenCtxMention;
}

/** Lines of a file an annotation links to, when its URL gives none. */
const SNIPPET_LINES = 20;

export class OpenCtxFeature implements vscode.Disposable {
	readonly client: OpenCtxClient;
	readonly annotations: OpenCtxAnnotations;
	private readonly disposables: vscode.Disposable[] = [];

	constructor(
		private readonly config: ConfigService,
		private readonly log: Logger,
		importFn: ImportFunction = nodeImport,
	) {
		const settings = () => ({ providers: config.current.openctx.providers, timeoutMs: config.current.openctx.timeoutMs });
		this.client = new OpenCtxClient(settings, log, importFn);
		this.annotations = new OpenCtxAnnotations(this.client, () => config.current.openctx.annotations, log);
		let annotationsOn = config.current.openctx.annotations;
		this.disposables.push(
			this.annotations,
			this.client,
			config.onDidChange((current) => {
				this.client.reload();
				if (current.openctx.annotations !== annotationsOn) {
					annotationsOn = current.openctx.annotations;
					this.annotations.reset();
				}
			}),
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.client.reload()),
			vscode.commands.registerCommand('agentLink.openctx.listItems', () => this.listItems()),
			vscode.commands.registerCommand('agentLink.openctx.toggleAnnotations', () => this.toggleAnnotations()),
			vscode.commands.registerCommand('agentLink.openctx.openItem', (target?: { url?: string; uri?: string; line?: number }) => openItem(target)),
		);
	}

	/** Mentions matching `query` from every provider that offers mentions, grouped by provider in their order. */
	async searchMentions(query: string): Promise<ProviderMention[]> {
		const active = vscode.window.activeTextEditor?.document.uri.toString();
		const outcomes = await this.client.callAll('mentions', { query, ...(active ? { uri: active } : {}) }, async (meta, provider) => meta.mentions !== undefined || (provider.config.kind === 'module' && (await provider.implements('mentions'))));
		const order = this.client.providers.map((p) => p.uri);
		return outcomes
			.sort((a, b) => order.indexOf(a.provider.uri) - order.indexOf(b.provider.uri))
			.flatMap((o) => (o.ok ? o.value.map((mention) => ({ providerUri: o.provider.uri, providerName: o.provider.name, mention })) : []));
	}

	/** The items of a mention, from the provider that offered it; a failure is thrown with the provider's name. */
	async itemsForMention(providerUri: string, mention: OpenCtxMention): Promise<ProviderItem[]> {
		return (await this.items(providerUri, { mention }, `items for "${mention.title}"`)).map((item) => ({ ...item, mention }));
	}

	/**
	 * Mentions to offer for a message being written: one per provider whose `items.messageSelectors`
	 * match it. The chat shows them as chips the user may keep or remove; nothing is added unasked.
	 */
	async suggestionsFor(message: string): Promise<ProviderMention[]> {
		if (message.trim() === '') {
			return [];
		}
		const suggestions: ProviderMention[] = [];
		await Promise.all(
			this.client.providers.map(async (provider) => {
				try {
					const meta = await provider.meta();
					if (matchMessageSelectors(meta.items?.messageSelectors, message)) {
						suggestions.push({ providerUri: provider.uri, providerName: provider.name, mention: { title: provider.name, uri: provider.uri, data: { message } } });
					}
				} catch {
					// meta failures are logged by the provider's first caller
				}
			}),
		);
		const order = this.client.providers.map((p) => p.uri);
		return suggestions.sort((a, b) => order.indexOf(a.providerUri) - order.indexOf(b.providerUri));
	}

	/** Items for a message (a suggestion the user kept): `items` called with the message. */
	itemsForMessage(providerUri: string, message: string): Promise<ProviderItem[]> {
		return this.items(providerUri, { message }, 'items for a message');
	}

	/** `items` of one configured provider, after its meta; a failure is logged and thrown with the provider's name. */
	private async items(providerUri: string, params: { mention: OpenCtxMention } | { message: string }, what: string): Promise<ProviderItem[]> {
		const provider = this.client.providers.find((p) => p.uri === providerUri);
		if (!provider) {
			throw new Error(`the OpenCtx provider ${providerUri} is not configured (any more)`);
		}
		try {
			await provider.meta();
			return (await provider.call('items', params)).map((item) => ({ providerName: provider.name, item }));
		} catch (error) {
			this.log.warn(`OpenCtx provider ${provider.name || provider.uri}: ${what} failed: ${errorMessage(error)}`);
			throw new Error(`${provider.name || provider.uri}: ${errorMessage(error)}`);
		}
	}

	/**
	 * Related snippets for next edit suggestions: the annotations of `document` (as cached for its
	 * current version; nothing is waited for) whose links point at files of the workspace, as
	 * excerpts of the lines they name (`#L10` or `#L10-L20`), else of the file's first lines.
	 */
	async relatedSnippets(document: vscode.TextDocument, maxFileBytes: number): Promise<RelatedSnippetInput[]> {
		const shown = this.annotations.cached(document) ?? [];
		const byFile = new Map<string, { uri: vscode.Uri; ranges: { start: number; end: number }[] }>();
		for (const { annotation } of shown) {
			const target = workspaceTarget(annotation.item.url);
			if (!target || target.uri.toString() === document.uri.toString()) {
				continue;
			}
			const key = target.uri.toString();
			const entry = byFile.get(key) ?? { uri: target.uri, ranges: [] };
			byFile.set(key, entry);
			if (!entry.ranges.some((r) => r.start === target.start && r.end === target.end)) {
				entry.ranges.push({ start: target.start, end: target.end });
			}
		}
		const snippets: RelatedSnippetInput[] = [];
		for (const { uri, ranges } of byFile.values()) {
			const lines = await readLines(uri, maxFileBytes);
			if (!lines) {
				continue;
			}
			const excerpts = ranges
				.map(({ start, end }) => {
					const first = Math.min(start, lines.length - 1);
					const last = Math.min(end, lines.length - 1);
					return { startLine: first, endLine: last, text: lines.slice(first, last + 1).join('\n') };
				})
				.sort((a, b) => a.startLine - b.startLine);
			snippets.push({ uri: uri.toString(), excerpts });
		}
		return snippets;
	}

	/** **OpenCtx Items in This File…**: the active file's annotations in a quick pick, by provider. */
	async listItems(): Promise<void> {
		const editor = vscode.window.activeTextEditor;
		if (!editor) {
			void vscode.window.showInformationMessage('Agent Link: open a file to see its OpenCtx items.');
			return;
		}
		if (this.client.providers.length === 0) {
			void vscode.window.showInformationMessage(vscode.workspace.isTrusted ? 'Agent Link: no OpenCtx provider is configured (agentLink.openctx.providers).' : 'Agent Link: OpenCtx providers do not run in an untrusted workspace.');
			return;
		}
		const shown = await this.annotations.annotationsFor(editor.document);
		type Pick = vscode.QuickPickItem & { shown?: ShownAnnotation };
		const picks: Pick[] = [];
		let provider: string | undefined;
		for (const s of shown) {
			if (s.provider !== provider) {
				provider = s.provider;
				picks.push({ label: s.provider, kind: vscode.QuickPickItemKind.Separator });
			}
			picks.push({ label: s.annotation.item.title, description: `line ${s.range.start.line + 1}`, detail: s.annotation.item.url, shown: s });
		}
		if (picks.length === 0) {
			picks.push({ label: 'No OpenCtx items in this file', description: '' });
		}
		const pick = await vscode.window.showQuickPick(picks, { title: 'Agent Link: OpenCtx Items in This File', matchOnDetail: true, placeHolder: 'Go to an annotated line' });
		if (pick?.shown) {
			editor.selection = new vscode.Selection(pick.shown.range.start, pick.shown.range.start);
			editor.revealRange(pick.shown.range, vscode.TextEditorRevealType.InCenterIfOutsideViewport);
		}
	}

	/** **Toggle OpenCtx Annotations**, kept in the user settings. */
	async toggleAnnotations(): Promise<void> {
		const on = !this.config.current.openctx.annotations;
		await vscode.workspace.getConfiguration('agentLink').update('openctx.annotations', on, vscode.ConfigurationTarget.Global);
		vscode.window.setStatusBarMessage(`OpenCtx annotations ${on ? 'on' : 'off'}`, 3000);
	}

	dispose(): void {
		this.disposables.forEach((d) => d.dispose());
	}
}

/** A `file:` URL inside the workspace with its lines (0-based, inclusive) from a `#L10` or `#L10-L20` fragment. */
export function workspaceTarget(url: string | undefined): { uri: vscode.Uri; start: number; end: number } | undefined {
	if (!url || !/^file:\/\//i.test(url)) {
		return undefined;
	}
	let uri: vscode.Uri;
	try {
		uri = vscode.Uri.parse(url, true);
	} catch {
		return undefined;
	}
	if (!vscode.workspace.getWorkspaceFolder(uri)) {
		return undefined;
	}
	const lines = /^L(\d+)(?:-L?(\d+))?$/.exec(uri.fragment);
	const start = lines ? Math.max(0, Number(lines[1]) - 1) : 0;
	const end = lines ? Math.max(start, Number(lines[2] ?? lines[1]) - 1) : SNIPPET_LINES - 1;
	return { uri: uri.with({ fragment: '' }), start, end: Math.min(end, start + 200) };
}

async function readLines(uri: vscode.Uri, maxFileBytes: number): Promise<string[] | undefined> {
	const loaded = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	if (loaded) {
		return loaded.getText().split(/\r\n|\r|\n/);
	}
	try {
		if ((await vscode.workspace.fs.stat(uri)).size > maxFileBytes) {
			return undefined;
		}
		return new TextDecoder().decode(await vscode.workspace.fs.readFile(uri)).split(/\r\n|\r|\n/);
	} catch {
		return undefined;
	}
}

/** A lens or pick opens the item's link: a workspace file at its line, a web page outside. */
async function openItem(target: { url?: string; uri?: string; line?: number } | undefined): Promise<void> {
	const link = safeLink(target?.url);
	if (!link) {
		return;
	}
	if (/^file:/i.test(link)) {
		const parsed = vscode.Uri.parse(link, true);
		const lines = /^L(\d+)/.exec(parsed.fragment);
		const position = new vscode.Position(lines ? Math.max(0, Number(lines[1]) - 1) : 0, 0);
		await vscode.window.showTextDocument(parsed.with({ fragment: '' }), { selection: new vscode.Range(position, position) });
		return;
	}
	await vscode.env.openExternal(vscode.Uri.parse(link, true));
}
