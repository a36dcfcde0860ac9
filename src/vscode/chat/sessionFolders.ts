/**
 * The folders a chat session spans: its working directory (`cwd`), and in a multi-root workspace
 * the other folders as `additionalDirectories` of `session/new`, `session/load` and
 * `session/resume`, for an agent that advertises `sessionCapabilities.additionalDirectories`. An
 * agent that does not is sent none (the field is left out, as before ACP had it).
 */
import * as vscode from 'vscode';
import { otherFolders, takesAdditionalDirectories } from '../../common/agentAbilities';
import type { ReadyAgent } from '../agentManager';

/** What a session request in `cwd` carries besides `cwd`: the workspace's other file folders, when `agent` takes them. */
export function sessionFolders(agent: ReadyAgent, cwd: string): { additionalDirectories?: string[] } {
	if (!takesAdditionalDirectories(agent.initialized.agentCapabilities)) {
		return {};
	}
	const folders = (vscode.workspace.workspaceFolders ?? []).filter((f) => f.uri.scheme === 'file').map((f) => f.uri.fsPath);
	const others = otherFolders(cwd, folders);
	return others.length > 0 ? { additionalDirectories: others } : {};
}
