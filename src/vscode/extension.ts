/**
 * Agent Link's entry point. Activation wires the features together; every piece
 * is a small class with `dispose()`, owned by the extension's subscriptions.
 */
import * as vscode from 'vscode';
import { errorMessage } from '../common/log';
import type { AgentState } from './agentManager';
import { AgentPool, AgentRole } from './agentPool';
import { registerCommands } from './commands';
import { ConfigService } from './config';
import { fillAuthCapabilities } from './auth';
import { ChatController } from './chat/chatController';
import { ChatHistory } from './chat/chatHistory';
import type * as historyPickerModule from './chat/historyPicker';
import type { HistoryPicker } from './chat/historyPicker';
import { AgentCredentials } from './credentials';
import { EditorRemoteAccess } from './remoteAccess';
import { ChatSessionManager } from './chat/chatSessionManager';
import { EditorTools } from './editorTools/editorTools';
import { CHAT_VIEW_ID, ChatViewProvider } from './chat/chatView';
import { runsFromSource } from './chat/chatPage';
import { FileAccessFeature } from './chat/fileAccess';
import { AgentChanges } from './chat/review';
import { Checkpoints } from './chat/checkpoints';
import { FileSnapshots } from './chat/fileSnapshots';
import { TurnChanges } from './chat/turnChanges';
import { ChatTerminals } from './chat/terminals';
import { EditorStateFeature } from './editorState';
import { ExtensionLog } from './log';
import { ContextRecorder } from './nes/contextRecorder';
import { DocumentSync } from './nes/documentSync';
import { BuiltInNesAgent } from './nes/builtInAgent';
import { NesAgentSelector } from './nes/nesAgent';
import { NesSessionManager } from './nes/nesSession';
import { NesController } from './nes/controller';
import { StableApiView } from './nes/view';
import { OpenCtxFeature } from './openctx/feature';
import { RegistryFeature } from './registry';
import { registerSignOutCommand } from './signOut';
import { AgentStatusBar } from './statusBar';

/** What `activate` returns: the extension's public surface, used by tests and other extensions. */
export interface AgentLinkApi {
	/** Every running agent, one process per agent. */
	readonly pool: AgentPool;
	/** The chat agent's role: the agent **Select Agent** chose, shown in the status bar. */
	readonly agents: AgentRole;
	/** The NES agent's role (agentLink.nes.agent): the same pooled agent when both name one. */
	readonly nesAgents: AgentRole;
	/** Which of the two serves next edit suggestions. */
	readonly nesAgentSelector: NesAgentSelector;
	readonly nes: NesSessionManager;
	/** NES document events of the current session: what the agent was told is open. */
	readonly documentSync: DocumentSync;
	/** Client editor state (`workspace/open_documents` …) as agents see it. */
	readonly editorState: EditorStateFeature;
	/** ACP chat sessions, each holding the agent it was made with. */
	readonly chat: ChatSessionManager;
	/** Commands agents run for chat sessions (terminal/*). */
	readonly terminals: ChatTerminals;
	/** The chat panel's host: its tabs and what the pages draw. */
	readonly chatController: ChatController;
	/** The agents' file changes awaiting review. */
	readonly agentChanges: AgentChanges;
	/** What each chat turn changed in the workspace, whoever wrote it, and the checkpoints Undo this turn goes back to. */
	readonly turnChanges: TurnChanges;
	readonly checkpoints: Checkpoints;
	/** Chats kept in the workspace's storage. */
	readonly chatHistory: ChatHistory;
	/** **Chat History…**. */
	readonly historyPicker: HistoryPicker;
	/** The chat view and chats in editors. */
	readonly chatView: ChatViewProvider;
	/** Agents from the ACP Registry. */
	readonly registry: RegistryFeature;
	/** Next edit suggestions as shown in the editor. */
	readonly nesController: NesController;
	/** OpenCtx providers: annotations, chat mentions and items, NES related snippets. */
	readonly openctx: OpenCtxFeature;
	readonly statusBarText: () => string;
	/** Recent log lines, newest last. */
	readonly recentLog: () => readonly string[];
	/** How long `activate` took, in milliseconds. */
	readonly activationMs: number;
}

let pool: AgentPool | undefined;
let chatControllerRef: ChatController | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<AgentLinkApi> {
	const started = performance.now();
	const log = new ExtensionLog();
	context.subscriptions.push(log);
	try {
		let activationMs = 0;
		const api = await setUp(context, log, () => activationMs);
		activationMs = performance.now() - started;
		log.debug(`Activated in ${activationMs.toFixed(1)} ms.`);
		return api;
	} catch (error) {
		// VS Code does not show activation failures itself.
		log.error(`Activation failed: ${errorMessage(error)}`);
		void vscode.window.showErrorMessage(`Agent Link could not start: ${errorMessage(error)}`, 'Show Log').then((pick) => {
			if (pick) {
				log.show();
			}
		});
		throw error;
	}
}

/** What every part of the extension is built on: settings, the agent pool and its two roles, OpenCtx. */
interface Core {
	readonly context: vscode.ExtensionContext;
	readonly log: ExtensionLog;
	readonly config: ConfigService;
	readonly version: string;
	readonly credentials: AgentCredentials;
	readonly remoteAccess: EditorRemoteAccess;
	readonly agentPool: AgentPool;
	/** The chat agent's role and the NES agent's: one process when both name the same agent. */
	readonly agents: AgentRole;
	readonly nesAgents: AgentRole;
	readonly openctx: OpenCtxFeature;
}

/** The composition root: the core, then next edit suggestions, editor state and the chat, each wired to the pool. */
async function setUp(context: vscode.ExtensionContext, log: ExtensionLog, activationMs: () => number): Promise<AgentLinkApi> {
	const config = new ConfigService(log);
	const version = String((context.extension.packageJSON as { version?: unknown }).version ?? '0.0.0');
	const clientInfo = { name: 'agent-link', title: 'Agent Link', version };
	const credentials = new AgentCredentials(context.secrets, context.globalState);
	const remoteAccess = new EditorRemoteAccess(context.secrets, context.globalState, log);
	const agentPool = new AgentPool(config, log, clientInfo, credentials, remoteAccess);
	pool = agentPool;
	context.subscriptions.push(remoteAccess);
	// Two roles hold agents of the pool: the chat agent and the NES agent (nes/nesAgent.ts); one
	// process when both name the same agent.
	const agents = new AgentRole('chat', agentPool);
	const nesAgents = new AgentRole('NES', agentPool);
	context.subscriptions.push(await BuiltInNesAgent.create(context, config, agentPool, log));
	const openctx = new OpenCtxFeature(config, log);
	const core: Core = { context, log, config, version, credentials, remoteAccess, agentPool, agents, nesAgents, openctx };
	const nes = setUpNes(core);
	// Editor state answers whichever agent asks, for the sessions it created.
	const editorState = new EditorStateFeature(agentPool, context.workspaceState, log);
	context.subscriptions.push(editorState);
	const chat = setUpChat(core);
	const registry = new RegistryFeature(context, agents, config, log);
	context.subscriptions.push(config, agentPool, agents, nesAgents, nes.statusBar, nes.nesStatusBar, nes.nesAgentSelector, nes.sessions, registry, ...registerCommands(agents, log, registry));
	context.subscriptions.push(agents.onDidChangeState((state: AgentState) => log.debug(`Agent state: ${state.kind}`)));
	log.info(`Agent Link ${version} activated in VS Code ${vscode.version}.`);

	startDefaultAgent(agents, config, log);
	context.subscriptions.push(vscode.workspace.onDidGrantWorkspaceTrust(() => startDefaultAgent(agents, config, log)));
	nes.nesAgentSelector.reconcile();

	return {
		pool: agentPool,
		agents,
		nesAgents,
		nesAgentSelector: nes.nesAgentSelector,
		nes: nes.sessions,
		documentSync: nes.documentSync,
		editorState,
		chat: chat.sessions,
		terminals: chat.terminals,
		chatController: chat.controller,
		agentChanges: chat.agentChanges,
		turnChanges: chat.turnChanges,
		checkpoints: chat.checkpoints,
		chatHistory: chat.history,
		get historyPicker() {
			return chat.historyPicker();
		},
		chatView: chat.view,
		registry,
		nesController: nes.controller,
		openctx,
		statusBarText: () => nes.statusBar.text,
		recentLog: () => log.recent.snapshot(),
		// Getters, not copies: the API is handed over as it is (a spread would load the history picker).
		get activationMs() {
			return activationMs();
		},
	};
}

/** Next edit suggestions: the NES agent's choice and session, document sync, context, the display, and both status bar items. */
function setUpNes({ context, log, config, credentials, agents, nesAgents, openctx }: Core) {
	const statusBar = new AgentStatusBar(agents);
	const nesStatusBar = new AgentStatusBar(nesAgents, {
		id: 'agentLink.nesStatus',
		name: 'Agent Link: NES agent',
		command: 'agentLink.nes.selectAgent',
		priority: 99,
		hideWhenStopped: true,
		// The chat agent's item says it all when its process serves both roles.
		hiddenWhen: () => nesAgents.sharesWith(agents),
		refreshOn: [agents.onDidChangeState],
		role: 'NES agent',
	});
	const nesAgentSelector = new NesAgentSelector(agents, nesAgents, config, log);
	const sessions = new NesSessionManager(nesAgentSelector, config, log, credentials);
	const documentSync = new DocumentSync(sessions, config, log);
	context.subscriptions.push(documentSync, openctx);
	const contextRecorder = new ContextRecorder(sessions, config, log);
	// Annotations linking to workspace code join the definitions as related snippets.
	contextRecorder.extraSnippets = (document, maxFileBytes) => openctx.relatedSnippets(document, maxFileBytes);
	const view = new StableApiView(context.extensionUri);
	const controller = new NesController(sessions, contextRecorder, config, log, view);
	statusBar.trackNes(controller, () => nesAgentSelector.shared, nesAgentSelector.onDidChangeSource);
	nesStatusBar.trackNes(controller, () => nesAgentSelector.source === nesAgents, nesAgentSelector.onDidChangeSource);
	context.subscriptions.push(contextRecorder, controller, view);
	return { statusBar, nesStatusBar, nesAgentSelector, sessions, documentSync, controller };
}

/** The chat: file access and what turns change, editor tools, sessions, terminals, history, the view, its host and commands. */
function setUpChat({ context, log, config, version, credentials, remoteAccess, agentPool, agents, openctx }: Core) {
	// Files read through the editor's buffers, for chat sessions.
	const fileAccess = new FileAccessFeature(log);
	agentPool.registerFeature(fileAccess);
	const agentChanges = new AgentChanges(log);
	// What a turn changes on disk, with the agent's own tools or a shell command, and a checkpoint per turn.
	const turnChanges = new TurnChanges(new FileSnapshots(), agentChanges, log);
	const checkpoints = new Checkpoints(agentChanges, log);
	context.subscriptions.push(fileAccess, agentChanges, turnChanges, checkpoints);
	// Sign-in methods run in a terminal (auth.terminal).
	agentPool.registerFeature({ fillClientCapabilities: fillAuthCapabilities });
	// Agent Link's own MCP server of editor tools, offered in every chat session; loaded on first use.
	const editorTools = new EditorTools(context.extensionPath, () => config.current.editorTools, log, version);
	const sessions = new ChatSessionManager(agentPool, log, () => config.current.mcpServers, (agent) => editorTools.serverFor(agent));
	context.subscriptions.push(sessions, editorTools);
	// Commands the agent runs for chat sessions (terminal/*), shown in the tool calls.
	const terminals = new ChatTerminals(sessions, log);
	agentPool.registerFeature(terminals);
	context.subscriptions.push(terminals);
	// A window without a folder keeps its chats in the extension's global storage.
	const historyFolder = context.storageUri ? vscode.Uri.joinPath(context.storageUri, 'chat-history') : vscode.Uri.joinPath(context.globalStorageUri, 'chat-history-no-folder');
	const history = new ChatHistory(historyFolder, context.workspaceState, () => ({ maxBytes: config.current.history.maxBytes }), log);
	// Running from its source (a development host, tests), the chat view tells how to build a page that is missing.
	const view = new ChatViewProvider(context.extensionUri, () => controller, log, runsFromSource(context.extensionUri, context.extensionMode));
	const controller: ChatController = new ChatController(sessions, agents, agentPool, log, (preserveFocus) => view.reveal(preserveFocus), terminals, history, { access: fileAccess, changes: agentChanges, turns: turnChanges, checkpoints }, openctx);
	chatControllerRef = controller;
	// The history picker is loaded from dist/history-picker.js the first time it is shown.
	let picker: HistoryPicker | undefined;
	// eslint-disable-next-line @typescript-eslint/no-require-imports
	const historyPicker = (): HistoryPicker => (picker ??= new (require('./chat/historyPicker') as typeof historyPickerModule).HistoryPicker(history, controller, sessions, agentPool, log));
	context.subscriptions.push(
		controller,
		history,
		view,
		vscode.window.registerWebviewViewProvider(CHAT_VIEW_ID, view),
		...registerChatCommands(controller, view, historyPicker, log),
		...registerCredentialCommands(credentials, remoteAccess, log),
		registerSignOutCommand(agentPool, agents, credentials, log),
	);
	return { sessions, terminals, controller, agentChanges, turnChanges, checkpoints, history, historyPicker, view };
}

/** **New Chat**, **New Chat with Another Agent…**, **Focus Chat**, **Undo Last Turn**, **Open Chat in Editor**, **Chat History…**. */
function registerChatCommands(controller: ChatController, view: ChatViewProvider, historyPicker: () => HistoryPicker, log: ExtensionLog): vscode.Disposable[] {
	// The questions (agent, folder) come first and the chat after: a chat shown meanwhile takes
	// the focus, which closes the question.
	const newChat = async (options: { agentName?: string; pick?: boolean }) => {
		try {
			const key = await controller.newChat(options);
			if (key !== undefined) {
				await controller.showTab(key);
			}
			return key;
		} catch (error) {
			log.error(`New Chat: ${errorMessage(error)}`);
			void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
			return undefined;
		}
	};
	return [
		// Tests may pass an agent's name; the palette uses the chat role's agent, or asks. From a
		// title bar VS Code passes what the bar belongs to, which is not a name.
		vscode.commands.registerCommand('agentLink.chat.new', (agentName?: unknown) => newChat(typeof agentName === 'string' ? { agentName } : {})),
		vscode.commands.registerCommand('agentLink.chat.newWithAgent', () => newChat({ pick: true })),
		vscode.commands.registerCommand('agentLink.chat.focus', () => controller.showTab(controller.selectedKey)),
		vscode.commands.registerCommand('agentLink.chat.undoLastTurn', async () => {
			try {
				await controller.undoLastTurn();
			} catch (error) {
				log.error(`Undo Last Turn: ${errorMessage(error)}`);
				void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
			}
		}),
		vscode.commands.registerCommand('agentLink.chat.openInEditor', () => {
			view.openInEditor();
		}),
		vscode.commands.registerCommand('agentLink.chat.history', async () => {
			try {
				return await historyPicker().show();
			} catch (error) {
				log.error(`Chat History: ${errorMessage(error)}`);
				void vscode.window.showErrorMessage(`Agent Link: ${errorMessage(error)}`);
				return undefined;
			}
		}),
	];
}

/** **Forget Sign-in Values**: removes what the user gave an agent's env_var sign-in (tests may pass the agent's name). */
function registerCredentialCommands(credentials: AgentCredentials, remoteAccess: EditorRemoteAccess, log: ExtensionLog): vscode.Disposable[] {
	return [
		vscode.commands.registerCommand('agentLink.forgetSignIn', async (agentName?: unknown) => {
			const names = [...new Set([...credentials.agents(), ...remoteAccess.agents()])].sort();
			const name =
				typeof agentName === 'string'
					? agentName
					: names.length === 0
						? undefined
						: await vscode.window.showQuickPick(names, { title: 'Agent Link: Forget Sign-in Values', placeHolder: 'The agent whose sign-in values (API keys) to remove from secret storage' });
			if (typeof agentName !== 'string' && names.length === 0) {
				void vscode.window.showInformationMessage('Agent Link keeps no sign-in values for any agent.');
				return;
			}
			if (name === undefined) {
				return;
			}
			await credentials.forget(name);
			await remoteAccess.forget(name);
			log.info(`Forgot the sign-in values kept for ${name}; they stay in a running ${name} until it stops.`);
			void vscode.window.showInformationMessage(`Agent Link forgot the sign-in values of ${name}. A running ${name} keeps them until it is restarted.`);
		}),
	];
}

/** `agentLink.defaultAgent` starts on activation, in a trusted workspace only. */
function startDefaultAgent(agents: AgentRole, config: ConfigService, log: ExtensionLog): void {
	const name = config.current.defaultAgent;
	if (!name || agents.state.kind !== 'stopped') {
		return;
	}
	if (!vscode.workspace.isTrusted) {
		log.info(`Not starting the default agent "${name}": the workspace is not trusted. Use "Agent Link: Select Agent" to start it anyway.`);
		return;
	}
	const choice = agents.findChoice(name);
	if (!choice) {
		log.warn(`agentLink.defaultAgent is "${name}", but no configured agent or preset has that name.`);
		return;
	}
	void agents.start(choice);
}

export async function deactivate(): Promise<void> {
	// What the chats said last goes to the history before the agents stop.
	await chatControllerRef?.flushHistory().catch(() => {});
	chatControllerRef = undefined;
	await pool?.shutdown();
	pool = undefined;
}
