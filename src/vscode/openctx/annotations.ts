/**
 * OpenCtx annotations in the editor: a code lens on each annotated range (its item's title,
 * opening its link), the range itself marked (a dotted underline and a mark in the overview
 * ruler), and a hover with the item's text or markdown and its link. Computed for the visible
 * files only, a moment after typing pauses, and cached per document version: the lenses and
 * hovers VS Code asks for are answered from the cache, and `onDidChangeCodeLenses` fires as soon
 * as a provider's answer is in. VS Code still waits a while of its own before it asks for lenses
 * again (see bench/README.md); the marks are set directly on the visible editors, so the
 * annotations show within a frame of the answers.
 */
import * as vscode from 'vscode';
import type { Logger } from '../../common/log';
import type { Annotation } from '../../common/openctx/protocol';
import { MAX_PAUSE_MS, newPace, pauseAfterChange, PAUSE_MS, type Pace } from '../../common/openctx/pace';
import { annotationSelectors, matchSelectors } from '../../common/openctx/selectors';
import type { OpenCtxClient, ProviderOutcome } from './client';

/** Documents larger than this are not sent to providers. */
const MAX_DOCUMENT_CHARS = 4 * 1024 * 1024;

/** An annotation as shown, with the provider it came from. */
export interface ShownAnnotation {
	readonly provider: string;
	readonly providerUri: string;
	readonly annotation: Annotation;
	readonly range: vscode.Range;
}

interface DocumentAnnotations {
	readonly version: number;
	/** By provider URI, in the providers' order once complete. */
	readonly byProvider: Map<string, ShownAnnotation[]>;
	readonly outcomes: ProviderOutcome<Annotation[]>[];
	done: boolean;
	lenses?: vscode.CodeLens[];
	finished: Promise<void>;
}

export class OpenCtxAnnotations implements vscode.Disposable, vscode.CodeLensProvider, vscode.HoverProvider {
	private readonly cache = new Map<string, DocumentAnnotations>();
	/** Lens requests waiting for a document's answers, by URI: when one waits, it gets them without another round. */
	private readonly waiting = new Map<string, number>();
	private readonly timers = new Map<string, NodeJS.Timeout>();
	/** How long typing must pause before each document's providers are asked again, by URI. */
	private readonly pace = new Map<string, Pace>();
	private readonly lensEmitter = new vscode.EventEmitter<void>();
	private readonly updateEmitter = new vscode.EventEmitter<{ uri: vscode.Uri; version: number; done: boolean }>();
	private readonly disposables: vscode.Disposable[] = [];
	private readonly status: vscode.StatusBarItem;
	/** Fires once a document's providers have all answered (a lens request waiting then has its answer already). */
	readonly onDidChangeCodeLenses = this.lensEmitter.event;
	/** Fires when a document's annotations moved on (a provider answered; `done` once all have). */
	readonly onDidUpdate = this.updateEmitter.event;
	/** The annotated ranges, marked in the visible editors as soon as the answers are in. */
	readonly decoration = vscode.window.createTextEditorDecorationType({
		borderStyle: 'dotted',
		borderWidth: '0 0 1px 0',
		borderColor: new vscode.ThemeColor('editorCodeLens.foreground'),
		overviewRulerColor: new vscode.ThemeColor('editorCodeLens.foreground'),
		overviewRulerLane: vscode.OverviewRulerLane.Right,
	});
	/** When marks were last handed to an editor (`Date.now()`), for the benchmark. */
	lastMarksAt: { uri: string; version: number; count: number; at: number } | undefined;
	/** When lenses with annotations were last handed to the editor (`Date.now()`), for the benchmark. */
	lastLensesAt: { uri: string; version: number; count: number; at: number } | undefined;

	constructor(
		private readonly client: OpenCtxClient,
		private readonly enabled: () => boolean,
		private readonly log: Logger,
	) {
		this.status = vscode.window.createStatusBarItem('agentLink.openctx', vscode.StatusBarAlignment.Right, 98);
		this.status.name = 'Agent Link: OpenCtx';
		this.status.command = 'agentLink.openctx.listItems';
		const selector: vscode.DocumentSelector = [{ scheme: 'file' }, { scheme: 'untitled' }];
		this.disposables.push(
			this.decoration,
			this.status,
			vscode.languages.registerCodeLensProvider(selector, this),
			vscode.languages.registerHoverProvider(selector, this),
			vscode.window.onDidChangeVisibleTextEditors(() => this.refreshVisible()),
			vscode.workspace.onDidChangeTextDocument((e) => {
				if (e.contentChanges.length > 0 && this.isVisible(e.document)) {
					this.schedule(e.document);
				}
			}),
			vscode.workspace.onDidCloseTextDocument((d) => this.forget(d.uri)),
			client.onDidChangeProviders(() => this.reset()),
		);
		this.refreshVisible();
	}

	/** Settings or trust changed: everything is asked again. */
	reset(): void {
		this.cache.clear();
		for (const editor of vscode.window.visibleTextEditors) {
			editor.setDecorations(this.decoration, []);
		}
		this.lensEmitter.fire();
		this.refreshVisible();
	}

	/** The annotations of a document at its current version, waiting for the providers when needed. */
	async annotationsFor(document: vscode.TextDocument): Promise<ShownAnnotation[]> {
		if (!this.enabled() || this.client.providers.length === 0) {
			return [];
		}
		const entry = this.fetch(document);
		await entry.finished;
		return this.flatten(entry);
	}

	/** What is cached for a document at its current version, without asking anyone. */
	cached(document: vscode.TextDocument): ShownAnnotation[] | undefined {
		const entry = this.cache.get(document.uri.toString());
		return entry && entry.version === document.version ? this.flatten(entry) : undefined;
	}

	/**
	 * From the cache when this version's annotations are in; otherwise the answer waits for them
	 * (asked after the debounce, at once for a document not seen yet), so the editor, which keeps
	 * its lenses while it waits, draws the new ones the moment the providers have answered instead
	 * of asking again on its own schedule.
	 */
	provideCodeLenses(document: vscode.TextDocument, token?: vscode.CancellationToken): vscode.CodeLens[] | Promise<vscode.CodeLens[]> {
		if (!this.enabled() || this.client.providers.length === 0) {
			return [];
		}
		const entry = this.cache.get(document.uri.toString());
		if (!entry || entry.version !== document.version || !entry.done) {
			return this.lensesWhenDone(document, entry === undefined, token);
		}
		return this.lensesOf(document, entry);
	}

	private async lensesWhenDone(document: vscode.TextDocument, unseen: boolean, token: vscode.CancellationToken | undefined): Promise<vscode.CodeLens[]> {
		const key = document.uri.toString();
		const version = document.version;
		const ready = () => {
			const entry = this.cache.get(key);
			return entry !== undefined && entry.version === version && entry.done;
		};
		if (!ready()) {
			this.schedule(document, unseen ? 0 : PAUSE_MS);
			this.waiting.set(key, (this.waiting.get(key) ?? 0) + 1);
			await new Promise<void>((resolve) => {
				const subscriptions: vscode.Disposable[] = [];
				// Whatever happens, the editor gets an answer: a document that moves on, a cancelled
				// request, or providers that never come back (each call has its timeout; this is the backstop).
				const timer = setTimeout(finish, MAX_PAUSE_MS + this.client.timeoutMs + 1000);
				function finish(): void {
					clearTimeout(timer);
					subscriptions.forEach((d) => d.dispose());
					resolve();
				}
				subscriptions.push(this.updateEmitter.event((e) => (e.uri.toString() === key && (e.version !== version || e.done) ? finish() : undefined)));
				if (token) {
					subscriptions.push(token.onCancellationRequested(finish));
				}
				if (ready()) {
					finish();
				}
			}).finally(() => this.waiting.set(key, (this.waiting.get(key) ?? 1) - 1));
		}
		const entry = this.cache.get(key);
		if (token?.isCancellationRequested || document.version !== version || !entry || entry.version !== version) {
			return [];
		}
		return this.lensesOf(document, entry);
	}

	private lensesOf(document: vscode.TextDocument, entry: DocumentAnnotations): vscode.CodeLens[] {
		if (entry.lenses) {
			this.noteLenses(document, entry.lenses.length);
			return entry.lenses;
		}
		const lenses = this.flatten(entry).map(
			(shown) =>
				new vscode.CodeLens(shown.range, {
					title: lensTitle(shown),
					tooltip: `${shown.provider}${shown.annotation.item.url ? ` · ${shown.annotation.item.url}` : ''}`,
					command: 'agentLink.openctx.openItem',
					arguments: [{ url: shown.annotation.item.url, uri: document.uri.toString(), line: shown.range.start.line }],
				}),
		);
		if (entry.done) {
			entry.lenses = lenses;
		}
		this.noteLenses(document, lenses.length);
		return lenses;
	}

	private noteLenses(document: vscode.TextDocument, count: number): void {
		const uri = document.uri.toString();
		// The first time this version's lenses went to the editor.
		if (count > 0 && !(this.lastLensesAt?.uri === uri && this.lastLensesAt.version === document.version)) {
			this.lastLensesAt = { uri, version: document.version, count, at: Date.now() };
		}
	}

	/** Marks the annotated ranges in the editors showing `document` (cheap: drawn by the editor at once). */
	private decorate(document: vscode.TextDocument, entry: DocumentAnnotations): void {
		const ranges = this.flatten(entry).map((s) => s.range);
		for (const editor of vscode.window.visibleTextEditors) {
			if (editor.document === document) {
				editor.setDecorations(this.decoration, ranges);
				this.lastMarksAt = { uri: document.uri.toString(), version: document.version, count: ranges.length, at: Date.now() };
			}
		}
	}

	provideHover(document: vscode.TextDocument, position: vscode.Position): vscode.Hover | undefined {
		const shown = (this.cached(document) ?? []).filter((s) => s.range.contains(position) || s.range.start.line === position.line);
		if (shown.length === 0) {
			return undefined;
		}
		return new vscode.Hover(shown.map(hoverMarkdown));
	}

	private flatten(entry: DocumentAnnotations): ShownAnnotation[] {
		const order = this.client.providers.map((p) => p.uri);
		return [...entry.byProvider.entries()].sort(([a], [b]) => order.indexOf(a) - order.indexOf(b)).flatMap(([, list]) => list);
	}

	private isVisible(document: vscode.TextDocument): boolean {
		return vscode.window.visibleTextEditors.some((e) => e.document === document);
	}

	private refreshVisible(): void {
		if (!this.enabled() || this.client.providers.length === 0) {
			this.status.hide();
			vscode.window.visibleTextEditors.forEach((e) => e.setDecorations(this.decoration, []));
			return;
		}
		for (const editor of vscode.window.visibleTextEditors) {
			const entry = this.cache.get(editor.document.uri.toString());
			if (entry && entry.version === editor.document.version) {
				this.decorate(editor.document, entry);
			}
			this.schedule(editor.document, 0);
		}
		this.updateStatus();
	}

	private schedule(document: vscode.TextDocument, delay = PAUSE_MS): void {
		if (!this.enabled() || this.client.providers.length === 0 || !['file', 'untitled'].includes(document.uri.scheme)) {
			return;
		}
		const key = document.uri.toString();
		const cached = this.cache.get(key);
		if (cached && cached.version === document.version) {
			return;
		}
		const pace = this.pace.get(key) ?? newPace();
		if (delay > 0) {
			delay = Math.max(delay, pauseAfterChange(pace, Date.now()));
		}
		this.pace.set(key, pace);
		clearTimeout(this.timers.get(key));
		this.timers.set(
			key,
			setTimeout(() => {
				this.timers.delete(key);
				if (!document.isClosed) {
					pace.askedAt = Date.now();
					this.fetch(document);
				}
			}, delay),
		);
	}

	private fetch(document: vscode.TextDocument): DocumentAnnotations {
		const key = document.uri.toString();
		const cached = this.cache.get(key);
		if (cached && cached.version === document.version) {
			return cached;
		}
		const uri = key;
		const content = document.getText();
		const byProvider = new Map<string, ShownAnnotation[]>();
		const outcomes: ProviderOutcome<Annotation[]>[] = [];
		const version = document.version;
		const entry: DocumentAnnotations = { version, byProvider, outcomes, done: false, finished: Promise.resolve() };
		this.cache.set(key, entry);
		const finished = (async () => {
			if (content.length > MAX_DOCUMENT_CHARS) {
				return;
			}
			await this.client.callAll(
				'annotations',
				{ uri, content },
				(meta) => matchSelectors(annotationSelectors(meta), { uri, content }),
				(outcome) => {
					if (this.cache.get(key) !== entry) {
						return; // a newer version took over
					}
					outcomes.push(outcome);
					if (outcome.ok) {
						byProvider.set(outcome.provider.uri, toShown(outcome.provider.name, outcome.provider.uri, outcome.value, document));
						entry.lenses = undefined;
						this.decorate(document, entry);
					}
					this.updateEmitter.fire({ uri: document.uri, version, done: false });
				},
			);
		})();
		entry.finished = finished;
		void finished.then(() => {
			if (this.cache.get(key) !== entry) {
				return;
			}
			entry.done = true;
			entry.lenses = undefined;
			const answered = outcomes.filter((o) => o.ok).map((o) => `${o.provider.name} (${o.ok ? o.value.length : 0})`);
			const failed = outcomes.filter((o) => !o.ok).map((o) => o.provider.name || o.provider.uri);
			this.log.debug(`OpenCtx annotations for ${vscode.workspace.asRelativePath(document.uri)}: ${answered.join(', ') || 'none answered'}${failed.length ? `; failed: ${failed.join(', ')}` : ''}.`);
			this.lastOutcomes = outcomes;
			this.updateStatus();
			// A waiting lens request takes these answers itself; asking the editor for another round
			// would only draw the same lenses twice.
			const waited = (this.waiting.get(key) ?? 0) > 0;
			if (!waited) {
				this.lensEmitter.fire();
			}
			this.updateEmitter.fire({ uri: document.uri, version, done: true });
		});
		return entry;
	}
	private lastOutcomes: ProviderOutcome<Annotation[]>[] = [];

	private updateStatus(): void {
		const total = this.client.providers.length;
		if (total === 0 || !this.enabled()) {
			this.status.hide();
			return;
		}
		const failed = this.lastOutcomes.filter((o) => !o.ok);
		this.status.text = failed.length > 0 ? `$(warning) OpenCtx ${total - failed.length}/${total}` : `$(references) OpenCtx ${total}`;
		const tooltip = new vscode.MarkdownString(undefined, true);
		tooltip.isTrusted = false;
		tooltip.appendText('OpenCtx providers, for the last file annotated:\n\n');
		for (const provider of this.client.providers) {
			const outcome = this.lastOutcomes.find((o) => o.provider === provider);
			tooltip.appendText(`- ${provider.name || provider.uri}: ${!outcome ? 'not asked' : outcome.ok ? `${outcome.value.length} annotations in ${Math.round(outcome.ms)} ms` : `failed (${outcome.error})`}\n`);
		}
		this.status.tooltip = tooltip;
		this.status.show();
	}

	private forget(uri: vscode.Uri): void {
		const key = uri.toString();
		this.cache.delete(key);
		this.pace.delete(key);
		clearTimeout(this.timers.get(key));
		this.timers.delete(key);
	}

	dispose(): void {
		this.timers.forEach((t) => clearTimeout(t));
		this.disposables.forEach((d) => d.dispose());
		this.lensEmitter.dispose();
		this.updateEmitter.dispose();
	}
}

function toShown(provider: string, providerUri: string, annotations: readonly Annotation[], document: vscode.TextDocument): ShownAnnotation[] {
	const shown: ShownAnnotation[] = [];
	for (const annotation of annotations) {
		const range = annotation.range
			? document.validateRange(new vscode.Range(annotation.range.start.line, annotation.range.start.character, annotation.range.end.line, annotation.range.end.character))
			: new vscode.Range(0, 0, 0, 0);
		shown.push({ provider, providerUri, annotation, range });
	}
	return shown;
}

function lensTitle(shown: ShownAnnotation): string {
	// Code lens titles render codicons: a provider's `$(…)` stays text.
	return shown.annotation.item.title.replace(/\$\(/g, '$\u200b(').slice(0, 200);
}

/** Item text as the user sees it in a hover: markdown without HTML or commands, and the link. */
export function hoverMarkdown(shown: ShownAnnotation): vscode.MarkdownString {
	const { item } = shown.annotation;
	const md = new vscode.MarkdownString(undefined, false);
	md.isTrusted = false;
	md.supportHtml = false;
	md.appendMarkdown('**');
	md.appendText(item.title);
	md.appendMarkdown('**  \n');
	if (item.ui?.hover?.markdown) {
		md.appendMarkdown(`\n${item.ui.hover.markdown}\n`);
	} else if (item.ui?.hover?.text) {
		md.appendMarkdown('\n');
		md.appendText(item.ui.hover.text);
		md.appendMarkdown('\n');
	}
	const link = safeLink(item.url);
	if (link) {
		md.appendMarkdown(`\n[Open ${escapeLinkText(hostOf(link))}](${link.replace(/\)/g, '%29').replace(/ /g, '%20')})`);
	}
	md.appendMarkdown('\n\n*');
	md.appendText(shown.provider);
	md.appendMarkdown('*');
	return md;
}

/** Only web and file links open from a hover or lens. */
export function safeLink(url: string | undefined): string | undefined {
	return url && /^(https?|file):\/\//i.test(url) ? url : undefined;
}

function hostOf(url: string): string {
	try {
		const parsed = new URL(url);
		return parsed.protocol === 'file:' ? parsed.pathname.split('/').pop() || 'file' : parsed.host;
	} catch {
		return 'link';
	}
}

function escapeLinkText(s: string): string {
	return s.replace(/[\\[\]*_`<>]/g, (c) => `\\${c}`);
}
