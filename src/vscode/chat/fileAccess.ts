/**
 * `fs/read_text_file` and `fs/write_text_file` (fsProtocol.ts, fsWrite.ts): the agent reads and
 * writes files through the editor, so it sees what the user sees, unsaved edits included, and
 * never writes over them.
 *
 * Reads:
 * - the text of the editor's buffer when it has unsaved edits, else the file on disk (a document
 *   without unsaved edits is the disk's text, even before VS Code has loaded the disk's latest);
 * - `line` (1-based) and `limit` honoured.
 *
 * Writes:
 * - into a document without unsaved edits (or a file not open): written to the disk, and answered
 *   once the open document holds the new text (VS Code's reload of it is one undo step;
 *   fileText.ts); no tab opened, and no save that could meet a disk changed under the buffer (an
 *   agent's own tools may write the same file at the same moment);
 * - into a document with unsaved edits: applied to the buffer with a `WorkspaceEdit` (one undo
 *   step), left unsaved; no tab opened, not even the one VS Code opens on its own for a file
 *   left unsaved without an editor (`withoutTabsOpenedFor`);
 * - the text the agent wrote from is what it last read or wrote in the session (the disk's text
 *   when it read nothing); what the user typed since is merged line by line with the agent's
 *   change, and a write touching the same lines is refused (-32603, saying where), never applied
 *   over the user's text; a write is either applied or refused, never answered done and dropped;
 * - a new file is created with its folders.
 *
 * Both:
 * - only for chat sessions this client created with that agent;
 * - a relative path is refused (-32602), a missing file is -32002 (reads);
 * - a file outside the workspace folders (symbolic links resolved) only if the user allows it,
 *   asked once per path, per session and per reading or writing.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { ACP_V1_CLIENT_CAPABILITIES } from '../../common/clientCapabilities';
import { readTextFileParamsSchema, sliceLines, type ReadTextFileResponse } from '../../common/fsProtocol';
import { mergeWrite, writeTextFileParamsSchema } from '../../common/fsWrite';
import { ErrorCodes, Methods, type ClientCapabilities } from '../../common/protocol';
import type { AgentFeature, RunningAgent } from '../agentManager';
import type { ExtensionLog } from '../log';
import { tabUris } from '../tabs';
import { editBuffer, findOpen, readDisk, writeThroughDisk } from './fileText';

/** What the user answered for a path outside the workspace, per session: allowed or not. */
type Answers = Map<string, Promise<boolean>>;

/** A file the agent of a chat session read or wrote. */
export interface AgentFileEvent {
	readonly agentName: string;
	readonly sessionId: string;
	readonly uri: vscode.Uri;
	readonly kind: 'read' | 'write';
	/** 1-based, for reads from a line. */
	readonly line?: number;
}

/** A write the agent made: the text before (undefined for a new file) and after, on disk or (a document with unsaved edits) only in the buffer. */
export interface AgentWrite extends AgentFileEvent {
	readonly kind: 'write';
	readonly before: string | undefined;
	readonly after: string;
	readonly where: 'disk' | 'buffer';
}

export class FileAccessFeature implements AgentFeature, vscode.Disposable {
	/** Answers by session id; a session's answers go with its agent process. */
	private readonly answers = new Map<string, Answers>();
	/** What each session's agent last read or wrote, per file (resolved path): the text its next write was made from. */
	private readonly bases = new Map<string, Map<string, string>>();
	private readonly touchEmitter = new vscode.EventEmitter<AgentFileEvent>();
	private readonly writeEmitter = new vscode.EventEmitter<AgentWrite>();
	/** Every read and write, as it happens (follow mode). */
	readonly onDidTouch = this.touchEmitter.event;
	/** Every write applied (review). */
	readonly onDidWrite = this.writeEmitter.event;

	/** When Agent Link last showed each file on purpose (follow mode), by path. */
	private readonly shown = new Map<string, number>();

	constructor(private readonly log: ExtensionLog) {}

	/**
	 * Says that Agent Link is showing `uri` on purpose (follow mode shows the file an agent reads or
	 * writes): a tab of it that opens while a write runs is then not taken for one VS Code opened.
	 */
	showing(uri: vscode.Uri): void {
		const now = Date.now();
		for (const [file, at] of this.shown) {
			if (now - at >= SHOWN_MS) {
				this.shown.delete(file);
			}
		}
		this.shown.set(uri.fsPath, now);
	}

	private shownLately(...files: string[]): boolean {
		return files.some((file) => Date.now() - (this.shown.get(file) ?? -Infinity) < SHOWN_MS);
	}

	fillClientCapabilities(capabilities: ClientCapabilities): void {
		capabilities.fs = { ...capabilities.fs, ...ACP_V1_CLIENT_CAPABILITIES.fs };
	}

	dispose(): void {
		this.touchEmitter.dispose();
		this.writeEmitter.dispose();
	}

	attach(agent: RunningAgent): void {
		/** Sessions whose answers to forget when this agent process goes. */
		const sessions = new Set<string>();
		agent.disposables.push(
			agent.handle.connection.onRequest(Methods.fs.readTextFile, readTextFileParamsSchema, async (params): Promise<ReadTextFileResponse> => {
				if (agent.sessions.kindOf(params.sessionId) !== 'chat') {
					throw invalid(`sessionId: ${JSON.stringify(params.sessionId.slice(0, 100))} is not a chat session this client created (session/new)`);
				}
				sessions.add(params.sessionId);
				const text = await this.read(agent.name, params.sessionId, params.path);
				this.touchEmitter.fire({ agentName: agent.name, sessionId: params.sessionId, uri: vscode.Uri.file(params.path), kind: 'read', ...(params.line ? { line: params.line } : {}) });
				return { content: sliceLines(text, params.line, params.limit) };
			}),
			agent.handle.connection.onRequest(Methods.fs.writeTextFile, writeTextFileParamsSchema, async (params) => {
				if (agent.sessions.kindOf(params.sessionId) !== 'chat') {
					throw invalid(`sessionId: ${JSON.stringify(params.sessionId.slice(0, 100))} is not a chat session this client created (session/new)`);
				}
				sessions.add(params.sessionId);
				await this.write(agent.name, params.sessionId, params.path, params.content);
				return {};
			}),
			new vscode.Disposable(() =>
				sessions.forEach((id) => {
					this.answers.delete(id);
					this.bases.delete(id);
				}),
			),
		);
	}

	private base(sessionId: string): Map<string, string> {
		let bases = this.bases.get(sessionId);
		if (!bases) {
			bases = new Map();
			this.bases.set(sessionId, bases);
		}
		return bases;
	}

	private async write(agentName: string, sessionId: string, file: string, content: string): Promise<void> {
		if (!path.isAbsolute(file)) {
			throw invalid(`path: ${JSON.stringify(file)} is not absolute; send the file's absolute path`);
		}
		const real = await resolveForWrite(file);
		if (!(await insideWorkspace(real)) && !(await this.allowed(agentName, sessionId, real, 'write'))) {
			throw invalid(`path: ${file} is outside the workspace folders, and the user did not allow ${agentName} to write it`);
		}
		const stat = await fs.stat(real).catch(() => undefined);
		if (stat?.isDirectory()) {
			throw invalid(`path: ${file} is a folder, not a file`);
		}
		// The user may start typing while the disk is read: then the buffer is what the write goes into.
		for (let attempt = 1; ; attempt++) {
			const open = findOpen(file, real);
			const wasDirty = open?.isDirty ?? false;
			const disk = await readDisk(real);
			if ((findOpen(file, real)?.isDirty ?? false) !== wasDirty && attempt < ATTEMPTS) {
				continue;
			}
			// A document without unsaved edits is the disk's text (VS Code may not have loaded the disk's latest yet).
			const current = wasDirty ? open!.getText() : disk?.text;
			let text: string;
			try {
				text = this.merged(agentName, sessionId, file, real, current, disk?.text, content, !wasDirty && attempt < ATTEMPTS);
			} catch (error) {
				if (error === RETRY) {
					// The disk changed under the agent's reading: its own tools may be writing the file right now.
					await new Promise((resolve) => setTimeout(resolve, RETRY_MS));
					continue;
				}
				throw error;
			}
			const uri = open?.uri ?? vscode.Uri.file(real);
			if (wasDirty) {
				await withoutTabsOpenedFor(uri, async () => {
					if (!(await editBuffer(open!, text))) {
						throw new ResponseError(ErrorCodes.InternalError, `Not written: the editor could not apply the change to ${file}.`);
					}
				}, () => this.shownLately(file, real));
			} else {
				await writeThroughDisk(real, text, disk?.bom ?? false);
			}
			this.base(sessionId).set(real, text);
			this.log.info(`${agentName} ${current === undefined ? 'created' : 'wrote'} ${real}${current !== undefined && text !== content ? ' (merged with your unsaved edits)' : ''}.`);
			this.touchEmitter.fire({ agentName, sessionId, uri, kind: 'write' });
			this.writeEmitter.fire({ agentName, sessionId, uri, kind: 'write', before: current, after: text, where: wasDirty ? 'buffer' : 'disk' });
			return;
		}
	}

	/**
	 * What to write: the agent's `content`, with what the user typed since the agent last read or
	 * wrote the file merged in (the base is that text; else the disk, what its own tools would
	 * have read). Refused (-32603, saying where) when both changed the same lines.
	 */
	private merged(agentName: string, sessionId: string, file: string, real: string, current: string | undefined, disk: string | undefined, content: string, retry: boolean): string {
		if (current === undefined) {
			return content;
		}
		const base = this.base(sessionId).get(real) ?? disk ?? current;
		const merged = mergeWrite(base, current, content);
		if (!merged.ok && retry) {
			throw RETRY;
		}
		if (!merged.ok) {
			this.log.warn(`Refused ${agentName}'s write to ${real}: it changed ${merged.conflicts} place(s) that changed in the editor since it read the file (first at line ${merged.firstConflictLine}).`);
			throw new ResponseError(
				ErrorCodes.InternalError,
				`Not written: ${file} changed in the editor since you read it, on the lines you changed (${merged.conflicts} place(s), the first at line ${merged.firstConflictLine}). Read the file again and make your change on what it holds now.`,
				{ reason: 'conflict', line: merged.firstConflictLine },
			);
		}
		return merged.text;
	}

	private async read(agentName: string, sessionId: string, file: string): Promise<string> {
		if (!path.isAbsolute(file)) {
			throw invalid(`path: ${JSON.stringify(file)} is not absolute; send the file's absolute path`);
		}
		const real = await fs.realpath(file).catch((error: NodeJS.ErrnoException) => {
			if (error.code === 'ENOENT' || error.code === 'ENOTDIR') {
				throw new ResponseError(ErrorCodes.ResourceNotFound, `Resource not found: ${file}`, { uri: vscode.Uri.file(file).toString() });
			}
			throw error;
		});
		if (!(await insideWorkspace(real)) && !(await this.allowed(agentName, sessionId, real, 'read'))) {
			throw invalid(`path: ${file} is outside the workspace folders, and the user did not allow ${agentName} to read it`);
		}
		const open = findOpen(file, real);
		let text: string;
		if (open?.isDirty) {
			text = open.getText();
		} else {
			const stat = await fs.stat(real);
			if (stat.isDirectory()) {
				throw invalid(`path: ${file} is a folder, not a file`);
			}
			text = new TextDecoder('utf-8').decode(await fs.readFile(real));
		}
		this.base(sessionId).set(real, text);
		return text;
	}

	/** Asks once per path per session (concurrent reads of the same path share the question). */
	private allowed(agentName: string, sessionId: string, real: string, verb: 'read' | 'write'): Promise<boolean> {
		let answers = this.answers.get(sessionId);
		if (!answers) {
			answers = new Map();
			this.answers.set(sessionId, answers);
		}
		let answer = answers.get(`${verb}:${real}`);
		if (!answer) {
			// A quick pick rather than a modal dialog: it never blocks the window, works in the
			// browser, and Escape (or closing it) answers no. The refusal comes first, so a stray
			// Enter cannot allow.
			const items: (vscode.QuickPickItem & { allow: boolean })[] = [
				{ label: '$(close) Don’t allow', allow: false },
				{ label: `$(check) Allow ${verb === 'read' ? 'reading' : 'writing'} it in this chat`, detail: real, allow: true },
			];
			answer = Promise.resolve(
				vscode.window.showQuickPick(items, {
					title: `${agentName} wants to ${verb} a file outside the workspace`,
					placeHolder: real,
					ignoreFocusOut: true,
				}),
			).then((pick) => {
				const allowed = pick?.allow === true;
				this.log.info(`${allowed ? 'Allowed' : 'Did not allow'} ${agentName} to ${verb} ${real} (outside the workspace) in session ${sessionId}.`);
				return allowed;
			});
			answers.set(`${verb}:${real}`, answer);
		}
		return answer;
	}
}

function invalid(message: string): ResponseError<void> {
	return new ResponseError(ErrorCodes.InvalidParams, `Invalid params: ${message}`);
}

/** Whether `real` (a resolved path) is inside one of the workspace's file folders (theirs resolved too). */
async function insideWorkspace(real: string): Promise<boolean> {
	for (const folder of vscode.workspace.workspaceFolders ?? []) {
		if (folder.uri.scheme !== 'file') {
			continue;
		}
		const root = await fs.realpath(folder.uri.fsPath).catch(() => folder.uri.fsPath);
		const relative = path.relative(root, real);
		if (relative === '' || (relative.split(path.sep)[0] !== '..' && !path.isAbsolute(relative))) {
			return true;
		}
	}
	return false;
}

/** How often a write is tried when the file changes under it (the user starts typing, the agent's own tools write the file). */
const ATTEMPTS = 3;
/** How long a write waits before it looks at a file that changed on disk under it again. */
const RETRY_MS = 50;
/** Thrown by `merged` when the disk changed on the lines the agent wrote: looked at again a moment later. */
const RETRY = new Error('retry');

/** How long a file Agent Link showed on purpose counts as shown by it (a show takes a moment under load). */
const SHOWN_MS = 5000;

/** How long after a write a tab VS Code opens for the file on its own is still taken for its doing. */
const STRAY_TAB_GRACE_MS = 1000;

/**
 * Runs `work` (an edit of `uri` and its save) without leaving a tab opened for it. VS Code opens,
 * pinned and in the background, every file that stays unsaved without an editor: its dirty-file
 * tracker looks 800 ms after the first file of the window turned unsaved or saved, at every file
 * that did since. So when the user typed or saved in another file just before the agent's write,
 * or the machine is slow, the file can be opened between the edit and the save. A tab of `uri`
 * that opens while `work` runs, or shortly after (opening is asynchronous), is closed again once
 * the file is saved, unless it is a preview (the user's single click) or Agent Link itself is
 * showing the file (`shownOnPurpose`: follow mode, whose tab is pinned when previews are off);
 * one whose save failed keeps the change and stays. Nothing is done when a tab showed the file
 * before.
 */
async function withoutTabsOpenedFor<T>(uri: vscode.Uri, work: () => Promise<T>, shownOnPurpose: () => boolean): Promise<T> {
	const shows = (tab: vscode.Tab) => tabUris(tab.input)[0]?.toString() === uri.toString();
	if (vscode.window.tabGroups.all.some((g) => g.tabs.some(shows))) {
		return work();
	}
	// The groups in which a pinned tab of the file opened since the write began. Tabs are found
	// again by group and file when closed: a tab's object can be replaced when its state changes.
	const stray = new Set<vscode.ViewColumn>();
	let done = false;
	const closeSaved = () => {
		if (shownOnPurpose()) {
			stray.clear();
			return;
		}
		const saved = vscode.window.tabGroups.all
			.filter((g) => stray.has(g.viewColumn))
			.flatMap((g) => g.tabs.filter((t) => shows(t) && !t.isPreview && !t.isDirty));
		saved.forEach((t) => stray.delete(t.group.viewColumn));
		if (saved.length) {
			void vscode.window.tabGroups.close(saved, true).then(undefined, () => undefined);
		}
	};
	const listener = vscode.window.tabGroups.onDidChangeTabs((event) => {
		for (const tab of event.opened.filter(shows)) {
			// A preview is the user's single click: that group's tab of the file is theirs.
			if (tab.isPreview) {
				stray.delete(tab.group.viewColumn);
			} else {
				stray.add(tab.group.viewColumn);
			}
		}
		if (done) {
			closeSaved();
		}
	});
	try {
		return await work();
	} finally {
		done = true;
		closeSaved();
		setTimeout(() => listener.dispose(), STRAY_TAB_GRACE_MS);
	}
}

/** `file` with symbolic links resolved as far as it exists (a new file's nearest existing folder). */
async function resolveForWrite(file: string): Promise<string> {
	const missing: string[] = [];
	let existing = path.resolve(file);
	for (;;) {
		try {
			return path.join(await fs.realpath(existing), ...missing.reverse());
		} catch (error) {
			const code = (error as NodeJS.ErrnoException).code;
			const parent = path.dirname(existing);
			if ((code !== 'ENOENT' && code !== 'ENOTDIR') || parent === existing) {
				throw error;
			}
			missing.push(path.basename(existing));
			existing = parent;
		}
	}
}
