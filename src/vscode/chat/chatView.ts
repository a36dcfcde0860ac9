/**
 * Where the chat page lives: a webview view in Agent Link's own view container (which the user can
 * move to the secondary side bar), and chats opened in editor tabs (**Open Chat in Editor**). Each
 * page is the same bundle (`dist/webview/chat.js`), under a strict content security policy: scripts
 * only with this load's nonce or from the extension's own files, no remote resources, and local
 * resources limited to the extension's `media/` and `dist/` folders. Pages are not kept alive while
 * hidden: they ask the host for the state again when they come back.
 */
import { randomBytes } from 'node:crypto';
import * as vscode from 'vscode';
import { missingFilesProblem, notStartedProblem, problemText, type PageOrigin } from '../../common/chatPageProblem';
import { PageLifecycle, encodeCommand } from '../../common/chat/messages';
import type { Logger } from '../../common/log';
import type { ChatController } from './chatController';
import { missingPageFiles, pageDocument, problemHtml, problemPage } from './chatPage';

export const CHAT_VIEW_ID = 'agentLink.chatView';
const CHAT_PANEL_TYPE = 'agentLink.chatEditor';

export class ChatViewProvider implements vscode.WebviewViewProvider, vscode.Disposable {
	private view: vscode.WebviewView | undefined;
	private readonly panels = new Set<vscode.WebviewPanel>();
	private readonly viewReady: { promise: Promise<void>; resolve: () => void };
	/** Pages showing that the page's files are missing: loaded again (the files checked again) when shown again. */
	private readonly broken = new WeakSet<vscode.Webview>();
	/** The last missing-files problem logged, so a page loaded again does not repeat it. */
	private loggedProblem: string | undefined;
	private readonly origin: PageOrigin;
	/**
	 * Each page's current load: a new id each time its html is set, written into the page, which
	 * sends it with its first request; a request from a document replaced since is known by it.
	 */
	private readonly loads = new WeakMap<vscode.Webview, string>();

	constructor(
		private readonly extensionUri: vscode.Uri,
		private readonly controller: () => ChatController,
		private readonly log: Logger,
		fromSource: boolean,
	) {
		this.origin = { fromSource, folder: extensionUri.scheme === 'file' ? extensionUri.fsPath : extensionUri.toString() };
		let resolve!: () => void;
		this.viewReady = { promise: new Promise<void>((r) => (resolve = r)), resolve };
	}

	resolveWebviewView(view: vscode.WebviewView): void {
		this.view = view;
		const connection = this.connect(view.webview, 'view', () => view.visible, view.onDidChangeVisibility);
		view.onDidDispose(() => {
			connection.dispose();
			if (this.view === view) {
				this.view = undefined;
			}
		});
		this.viewReady.resolve();
	}

	/** A chat in an editor tab, beside the active editor. */
	openInEditor(): vscode.WebviewPanel {
		const panel = vscode.window.createWebviewPanel(CHAT_PANEL_TYPE, 'Agent Link Chat', { viewColumn: vscode.ViewColumn.Beside, preserveFocus: false }, this.options());
		panel.iconPath = vscode.Uri.joinPath(this.extensionUri, 'media', 'chat.svg');
		const connection = this.connect(panel.webview, 'editor', () => panel.visible, panel.onDidChangeViewState);
		this.panels.add(panel);
		panel.onDidDispose(() => {
			connection.dispose();
			this.panels.delete(panel);
		});
		return panel;
	}

	/**
	 * Shows the chat: a chat editor if one is open, else the view. Resolves once a page exists.
	 * `preserveFocus`: the keyboard stays where it is (a question is, or may soon be, asked).
	 */
	async reveal(preserveFocus = false): Promise<void> {
		const panel = [...this.panels].pop();
		if (panel) {
			panel.reveal(undefined, preserveFocus);
			return;
		}
		if (this.view) {
			this.view.show(preserveFocus);
			return;
		}
		await vscode.commands.executeCommand(`${CHAT_VIEW_ID}.focus`, { preserveFocus });
		await this.viewReady.promise;
	}

	private options(): vscode.WebviewOptions & vscode.WebviewPanelOptions {
		return {
			enableScripts: true,
			enableCommandUris: false,
			localResourceRoots: [vscode.Uri.joinPath(this.extensionUri, 'media'), vscode.Uri.joinPath(this.extensionUri, 'dist')],
		};
	}

	private setUp(webview: vscode.Webview, where: 'view' | 'editor'): void {
		webview.options = this.options();
		this.load(webview, where);
	}

	/**
	 * Loads a page into `webview` and hands it to the controller; a page that said its files were
	 * missing is loaded again when shown again. Disposing ends both.
	 */
	private connect(webview: vscode.Webview, where: 'view' | 'editor', visible: () => boolean, onDidChangeVisibility: vscode.Event<unknown>): vscode.Disposable {
		this.setUp(webview, where);
		const connection = this.controller().attach({
			webview,
			isVisible: visible,
			onDidChangeVisibility,
			reload: () => this.load(webview, where),
			currentLoad: () => this.loads.get(webview),
		});
		const recheck = onDidChangeVisibility(() => this.loadIfBroken(webview, visible(), where));
		return vscode.Disposable.from(connection, recheck);
	}

	/** A page shown again that said its files were missing: they may have been built since. */
	private loadIfBroken(webview: vscode.Webview, visible: boolean, where: 'view' | 'editor'): void {
		if (visible && this.broken.has(webview)) {
			this.load(webview, where);
		}
	}

	/**
	 * Loads the page (again): the html differs each time (its nonce), so the webview reloads it. A
	 * page whose files are missing says so instead, and what brings them back.
	 */
	private load(webview: vscode.Webview, where: 'view' | 'editor'): void {
		const load = randomBytes(9).toString('base64url');
		this.loads.set(webview, load);
		const missing = missingPageFiles(this.extensionUri);
		if (missing.length === 0) {
			this.broken.delete(webview);
			this.loggedProblem = undefined;
			webview.html = chatHtml(webview, this.extensionUri, where, this.origin, load);
			return;
		}
		const problem = missingFilesProblem(missing, this.origin);
		const text = problemText(problem);
		if (text !== this.loggedProblem) {
			this.log.error(`Chat: ${text}`);
			this.loggedProblem = text;
		}
		this.broken.add(webview);
		webview.html = problemPage(webview, this.extensionUri, problem, where);
	}

	dispose(): void {
		for (const panel of this.panels) {
			panel.dispose();
		}
	}
}

/**
 * The page: its styles, its script, and nothing else; everything it shows is built by the script,
 * which first removes the notice that it did not start (shown only if it is still there after a
 * moment). `load` names this load of the page (it sends it when it asks for the state).
 */
export function chatHtml(webview: vscode.Webview, extensionUri: vscode.Uri, where: 'view' | 'editor', origin: PageOrigin, load: string): string {
	const nonce = randomBytes(18).toString('base64');
	const asset = (...segments: string[]) => webview.asWebviewUri(vscode.Uri.joinPath(extensionUri, ...segments)).toString();
	const csp = [
		"default-src 'none'",
		`img-src ${webview.cspSource} data:`,
		`font-src ${webview.cspSource}`,
		`style-src ${webview.cspSource}`,
		// The nonce admits the entry; the highlighter's chunk is imported from the extension's own files.
		`script-src 'nonce-${nonce}' ${webview.cspSource}`,
		"connect-src 'none'",
		"frame-src 'none'",
		"form-action 'none'",
		"base-uri 'none'",
	].join('; ');
	// The document's first word to the host, before its script has loaded: the webview is there
	// (chatPages.ts then waits longer for the script on a busy machine). The line removes itself, so
	// the page holds only its entry script; the script takes the API from here (it can be acquired
	// once) and removes it too.
	const started = JSON.stringify(encodeCommand(PageLifecycle.started, { load })).replace(/</g, '\\u003c');
	const body = `<script nonce="${nonce}">globalThis.agentLinkVsCodeApi = acquireVsCodeApi(); globalThis.agentLinkVsCodeApi.postMessage(${started}); document.currentScript.remove();</script>
${problemHtml(notStartedProblem(origin), true)}
<div id="app" data-load="${load}"></div>
<script type="module" nonce="${nonce}" src="${asset('dist', 'webview', 'chat.js')}"></script>`;
	return pageDocument(where, csp, [asset('dist', 'webview', 'codicon.css'), asset('media', 'chat', 'chat.css')], body);
}
