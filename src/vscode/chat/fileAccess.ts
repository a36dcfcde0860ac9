/**
 * `fs/read_text_file` (fsProtocol.ts): the agent reads files through the editor, so it sees what
 * the user sees, unsaved edits included.
 *
 * - the text of the editor's buffer when the file is open, else the file on disk;
 * - `line` (1-based) and `limit` honoured;
 * - only for chat sessions this client created with that agent;
 * - a relative path is refused (-32602), a missing file is -32002;
 * - a file outside the workspace folders (symbolic links resolved) is read only if the user allows
 *   it, asked once per path per session.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { ResponseError } from 'vscode-jsonrpc/node';
import { readTextFileParamsSchema, sliceLines, type ReadTextFileResponse } from '../../common/fsProtocol';
import { ErrorCodes, Methods, type ClientCapabilities } from '../../common/protocol';
import type { AgentFeature, RunningAgent } from '../agentManager';
import type { ExtensionLog } from '../log';

/** What the user answered for a path outside the workspace, per session: allowed or not. */
type Answers = Map<string, Promise<boolean>>;

export class FileAccessFeature implements AgentFeature {
	/** Answers by session id; a session's answers go with its agent process. */
	private readonly answers = new Map<string, Answers>();

	constructor(private readonly log: ExtensionLog) {}

	fillClientCapabilities(capabilities: ClientCapabilities): void {
		capabilities.fs = { ...capabilities.fs, readTextFile: true };
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
				return { content: sliceLines(text, params.line, params.limit) };
			}),
			new vscode.Disposable(() => sessions.forEach((id) => this.answers.delete(id))),
		);
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
		if (!(await insideWorkspace(real)) && !(await this.allowed(agentName, sessionId, real))) {
			throw invalid(`path: ${file} is outside the workspace folders, and the user did not allow ${agentName} to read it`);
		}
		const uri = vscode.Uri.file(file).toString();
		const open = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri || (d.uri.scheme === 'file' && d.uri.fsPath === real));
		if (open) {
			return open.getText();
		}
		const stat = await fs.stat(real);
		if (stat.isDirectory()) {
			throw invalid(`path: ${file} is a folder, not a file`);
		}
		return new TextDecoder('utf-8').decode(await fs.readFile(real));
	}

	/** Asks once per path per session (concurrent reads of the same path share the question). */
	private allowed(agentName: string, sessionId: string, real: string): Promise<boolean> {
		let answers = this.answers.get(sessionId);
		if (!answers) {
			answers = new Map();
			this.answers.set(sessionId, answers);
		}
		let answer = answers.get(real);
		if (!answer) {
			// A quick pick rather than a modal dialog: it never blocks the window, works in the
			// browser, and Escape (or closing it) answers no. The refusal comes first, so a stray
			// Enter cannot allow.
			const items: (vscode.QuickPickItem & { allow: boolean })[] = [
				{ label: '$(close) Don’t allow', allow: false },
				{ label: '$(check) Allow reading it in this chat', detail: real, allow: true },
			];
			answer = Promise.resolve(
				vscode.window.showQuickPick(items, {
					title: `${agentName} wants to read a file outside the workspace`,
					placeHolder: real,
					ignoreFocusOut: true,
				}),
			).then((pick) => {
				const allowed = pick?.allow === true;
				this.log.info(`${allowed ? 'Allowed' : 'Did not allow'} ${agentName} to read ${real} (outside the workspace) in session ${sessionId}.`);
				return allowed;
			});
			answers.set(real, answer);
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
