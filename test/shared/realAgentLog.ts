// What the tests read from the real agents' launcher (test/fixtures/real-agents/launcher.mjs): its log
// of every message each way, every request to the scripted model server, and every message of the
// client's that the ACP schema refuses.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/** The real agents the tests run, by the launcher's name for them: whole turns, or only the handshake. */
export const REAL_AGENTS = ['claude', 'opencode', 'gemini', 'qwen'] as const;
export const HANDSHAKE_ONLY_AGENTS = ['codex', 'copilot', 'auggie'] as const;
export type RealAgentName = (typeof REAL_AGENTS)[number] | (typeof HANDSHAKE_ONLY_AGENTS)[number];

/** The file every real agent's workspace starts with (test/fixtures/real-agents/conversation.mjs works on it). */
export function greetJsPath(root: string): string {
	return join(root, 'test', 'fixtures', 'real-agents', 'greet.js');
}

export interface JsonRpcMessage {
	readonly id?: string | number | null;
	readonly method?: string;
	readonly params?: Record<string, unknown>;
	readonly result?: unknown;
	readonly error?: { readonly code: number; readonly message: string };
}

export interface RealAgentLogEntry {
	readonly t: number;
	readonly from?: 'client' | 'agent';
	readonly message?: JsonRpcMessage;
	readonly model?: { readonly method: string; readonly path: string };
	readonly violation?: { readonly message: unknown; readonly errors: readonly string[] };
}

/** The launcher program, in a checkout rooted at `root`. */
export function launcherPath(root: string): string {
	return join(root, 'test', 'fixtures', 'real-agents', 'launcher.mjs');
}

export function readRealAgentLog(file: string): RealAgentLogEntry[] {
	if (!existsSync(file)) {
		return [];
	}
	return readFileSync(file, 'utf8')
		.split('\n')
		.filter((line) => line.trim())
		.map((line) => JSON.parse(line) as RealAgentLogEntry);
}

/** Each client message the ACP schema refuses, with why, one line each. */
export function schemaViolations(entries: readonly RealAgentLogEntry[]): string[] {
	return entries.filter((e) => e.violation).map((e) => `${e.violation!.errors.join('; ')} in ${JSON.stringify(e.violation!.message).slice(0, 400)}`);
}

/** The messages one side sent, in order. */
export function messagesFrom(entries: readonly RealAgentLogEntry[], side: 'client' | 'agent'): JsonRpcMessage[] {
	return entries.filter((e) => e.from === side && e.message && typeof e.message === 'object').map((e) => e.message!);
}

/** The params of each request (or notification) `method` that `side` sent. */
export function sent(entries: readonly RealAgentLogEntry[], side: 'client' | 'agent', method: string): Record<string, unknown>[] {
	return messagesFrom(entries, side)
		.filter((m) => m.method === method)
		.map((m) => m.params ?? {});
}
