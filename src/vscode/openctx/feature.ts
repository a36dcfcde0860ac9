/**
 * OpenCtx in Agent Link: the providers' annotations in the editor, their mentions and items for the
 * chat, and their links to workspace code as related snippets for next edit suggestions. Commands:
 * **OpenCtx Items in This File…** and **Toggle OpenCtx Annotations**.
 *
 * This is what the extension holds from the start: the commands and the settings and trust
 * listeners. The providers' code (the client, the annotations, the selectors with picomatch;
 * lazy.ts) is dist/openctx.js, loaded once `agentLink.openctx.providers` has an enabled provider in
 * a trusted workspace (a later change of the setting loads it then), or when a command needs it.
 * With no provider configured none of it is loaded.
 */
import * as vscode from 'vscode';
import type { Attachment, Mention } from '../../common/chat/messages';
import type { ContentBlock } from '../../common/chat/updates';
import type { Logger } from '../../common/log';
import type { RelatedSnippetInput } from '../../common/nes/context';
import { parseProviders, readProviders } from '../../common/openctx/providers';
import type { ConfigService } from '../config';
import type * as lazyModule from './lazy';

type LazyModule = typeof lazyModule;

export class OpenCtxFeature implements vscode.Disposable {
	/** The providers' module, once loaded: while it is not, no provider runs. */
	private loaded?: lazyModule.OpenCtxProviders;
	private readonly disposables: vscode.Disposable[];

	constructor(
		private readonly config: ConfigService,
		private readonly log: Logger,
	) {
		this.disposables = [
			config.onDidChange(() => this.reload()),
			vscode.workspace.onDidGrantWorkspaceTrust(() => this.reload()),
			// Listing the file's items and opening one (a lens's or a hover's link, shown only once it is loaded) need the module.
			vscode.commands.registerCommand('agentLink.openctx.listItems', () => this.load().listItems()),
			vscode.commands.registerCommand('agentLink.openctx.toggleAnnotations', () => this.toggleAnnotations()),
			vscode.commands.registerCommand('agentLink.openctx.openItem', (target?: { url?: string; uri?: string; line?: number }) => this.load().openItem(target)),
		];
		this.reload();
	}

	/** The annotations in the editor (loading the providers' module if it is not yet). */
	get annotations(): lazyModule.OpenCtxProviders['annotations'] {
		return this.load().annotations;
	}

	/** The providers' mentions matching `query` as the chat's @-picker lists them, grouped by provider. */
	async chatMentions(query: string): Promise<Mention[]> {
		return (await this.loaded?.chatMentions(query)) ?? [];
	}

	/**
	 * Mentions to offer for a message being written, as chips: one per provider whose
	 * `items.messageSelectors` match it. The user may keep or remove them; nothing is added unasked.
	 */
	async chatSuggestions(message: string): Promise<Mention[]> {
		return (await this.loaded?.chatSuggestions(message)) ?? [];
	}

	/** An OpenCtx attachment's items as a prompt's content blocks; a failing provider is thrown with its name. */
	promptBlocks(attachment: Extract<Attachment, { type: 'openctx' }>, message: string, embedded: boolean): Promise<ContentBlock[]> {
		return this.load().promptBlocks(attachment, message, embedded);
	}

	/**
	 * Related snippets for next edit suggestions: the annotations of `document` (as cached for its
	 * current version; nothing is waited for) whose links point at files of the workspace, as
	 * excerpts of the lines they name (`#L10` or `#L10-L20`), else of the file's first lines.
	 * Nothing is cached before the module is loaded.
	 */
	async relatedSnippets(document: vscode.TextDocument, maxFileBytes: number): Promise<RelatedSnippetInput[]> {
		return (await this.loaded?.relatedSnippets(document, maxFileBytes)) ?? [];
	}

	/** **Toggle OpenCtx Annotations**, kept in the user settings. */
	async toggleAnnotations(): Promise<void> {
		const on = !this.config.current.openctx.annotations;
		await vscode.workspace.getConfiguration('agentLink').update('openctx.annotations', on, vscode.ConfigurationTarget.Global);
		vscode.window.setStatusBarMessage(`OpenCtx annotations ${on ? 'on' : 'off'}`, 3000);
	}

	dispose(): void {
		this.disposables.forEach((d) => d.dispose());
		this.loaded?.dispose();
	}

	/**
	 * The settings or the workspace's trust changed: the providers follow, loaded now if one is
	 * wanted. Each change comes here first, so the module is loaded whenever a provider runs.
	 */
	private reload(): void {
		if (this.loaded) {
			return this.loaded.reload();
		}
		const { providers } = parseProviders(this.config.current.openctx.providers);
		if (providers.length > 0 && vscode.workspace.isTrusted) {
			// The module reads the settings (and says what is wrong with them) as it starts.
			return void this.load();
		}
		// What the client says of the setting when it reads it, said without loading it.
		readProviders(this.config.current.openctx.providers, vscode.workspace.isTrusted, this.log);
	}

	/** The providers' module, loaded (and started with the current settings) on first use. */
	private load(): lazyModule.OpenCtxProviders {
		// Loaded here, on first use: the build keeps the client, the annotations and picomatch in a bundle of their own (dist/openctx.js).
		// eslint-disable-next-line @typescript-eslint/no-require-imports
		return (this.loaded ??= new (require('./lazy') as LazyModule).OpenCtxProviders(this.config, this.log));
	}
}
