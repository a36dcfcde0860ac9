/**
 * What dist/openctx.js holds: the OpenCtx providers at work, with the client (client.ts), their
 * annotations in the editor (annotations.ts, with the selectors and picomatch), their mentions and
 * items for the chat, and their links to workspace code as related snippets for next edit
 * suggestions. The extension's OpenCtxFeature (feature.ts) loads it once a provider is configured
 * in a trusted workspace, so none of it weighs on start-up otherwise.
 */
import * as vscode from 'vscode';
import type { Attachment, Mention } from '../../common/chat/messages';
import type { ContentBlock } from '../../common/chat/updates';
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

export class OpenCtxProviders implements vscode.Disposable {
	readonly client: OpenCtxClient;
	readonly annotations: OpenCtxAnnotations;
	private annotationsOn: boolean;

	constructor(
		private readonly config: ConfigService,
		private readonly log: Logger,
		importFn: ImportFunction = nodeImport,
	) {
		const settings = () => ({ providers: config.current.openctx.providers, timeoutMs: config.current.openctx.timeoutMs });
		this.client = new OpenCtxClient(settings, log, importFn);
		this.annotations = new OpenCtxAnnotations(this.client, () => config.current.openctx.annotations, log);
		this.annotationsOn = config.current.openctx.annotations;
	}

	/** The settings or the workspace's trust changed. */
	reload(): void {
		this.client.reload();
		if (this.config.current.openctx.annotations !== this.annotationsOn) {
			this.annotationsOn = this.config.current.openctx.annotations;
			this.annotations.reset();
		}
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

	/** The providers' mentions matching `query` as the chat's @-picker lists them, grouped by provider. */
	async chatMentions(query: string): Promise<Mention[]> {
		return (await this.searchMentions(query)).map(toChatMention);
	}

	/** The mentions offered for a message being written, as the chat shows them: chips marked as for the message. */
	async chatSuggestions(message: string): Promise<Mention[]> {
		return (await this.suggestionsFor(message)).map((m) => {
			const mention = toChatMention(m);
			return { ...mention, attachment: { ...mention.attachment, message: true } };
		});
	}

	/**
	 * An OpenCtx mention's items (or, for a message suggestion the user kept, the items for the
	 * message) for a prompt: embedded resources (the item's URL, else the mention's URI, with
	 * `ai.content` as text) for agents that take them (`embedded`), text otherwise. A failing
	 * provider is thrown with its name.
	 */
	async promptBlocks(attachment: Extract<Attachment, { type: 'openctx' }>, message: string, embedded: boolean): Promise<ContentBlock[]> {
		const mention = { title: attachment.title, uri: attachment.uri, ...(attachment.description !== undefined ? { description: attachment.description } : {}), ...(attachment.data ? { data: attachment.data } : {}) };
		const items = attachment.message ? await this.itemsForMessage(attachment.provider, message) : await this.itemsForMention(attachment.provider, mention);
		return items.map(({ item }) => {
			const uri = item.url ?? attachment.uri;
			const content = item.ai?.content ?? item.ui?.hover?.text ?? item.ui?.hover?.markdown ?? '';
			if (embedded) {
				return { type: 'resource', resource: { uri, text: content, mimeType: 'text/plain' } } satisfies ContentBlock;
			}
			return { type: 'text', text: `${item.title} (${uri}, from ${attachment.providerName}):\n\n${content}` } satisfies ContentBlock;
		});
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

	/** A lens or hover link: the item's link opened. */
	openItem(target: { url?: string; uri?: string; line?: number } | undefined): Promise<void> {
		return openItem(target);
	}

	dispose(): void {
		this.annotations.dispose();
		this.client.dispose();
	}
}

/** A provider's mention as the @-picker lists it, grouped under its provider. */
function toChatMention({ providerUri, providerName, mention }: ProviderMention): Mention {
	return {
		label: mention.title,
		...(mention.description !== undefined ? { detail: mention.description } : {}),
		group: providerName,
		attachment: {
			type: 'openctx',
			provider: providerUri,
			providerName,
			title: mention.title,
			uri: mention.uri,
			...(mention.description !== undefined ? { description: mention.description } : {}),
			...(mention.data ? { data: mention.data } : {}),
		},
	};
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
