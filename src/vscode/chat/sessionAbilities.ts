/**
 * What an agent says it can do with sessions: a module of its own, so the history picker (loaded on
 * first use, see scripts/build.mjs) does not carry the chat sessions with it.
 */
import type { ReadyAgent } from '../agentManager';

/** How a chat from history went on with its agent. */
export type ContinueWith = 'resume' | 'load';

/** What an agent says it can do with sessions, as far as chats care. */
export function sessionAbilities(agent: ReadyAgent | undefined): { readonly continueWith?: ContinueWith; readonly list: boolean; readonly delete: boolean; readonly close: boolean } {
	const caps = agent?.initialized.agentCapabilities as { loadSession?: boolean; sessionCapabilities?: { resume?: unknown; list?: unknown; delete?: unknown; close?: unknown } } | undefined;
	const session = caps?.sessionCapabilities;
	const continueWith: ContinueWith | undefined = session?.resume ? 'resume' : caps?.loadSession === true ? 'load' : undefined;
	return { ...(continueWith ? { continueWith } : {}), list: !!session?.list, delete: !!session?.delete, close: !!session?.close };
}
