/**
 * MCP servers the user gives every chat (`agentLink.mcpServers`): the setting's shape, which is
 * that of the `servers` of VS Code's own `mcp.json` (so an entry can be copied from there), and
 * the ACP `McpServer` list each agent gets in `session/new`, `session/load` and `session/resume`.
 *
 * ACP: https://agentclientprotocol.com/protocol/v1/session-setup#mcp-servers. Every agent takes
 * stdio servers; HTTP and SSE ones only go to an agent whose `mcpCapabilities` says it takes them.
 */
import type * as acp from '@agentclientprotocol/sdk';
import * as z from 'zod/mini';

const name = z.string().check(z.trim(), z.minLength(1, 'must not be empty'));
/** `mcp.json` allows numbers in `env`; `null` there means "unset", so it is left out. */
const envValue = z.nullable(z.union([z.string(), z.number(), z.boolean()]));
const url = z.string().check(z.trim(), z.refine((s) => /^https?:\/\/\S+$/.test(s), 'expected an http(s) URL'));

const stdioSchema = z.object({
	type: z.optional(z.literal('stdio')),
	command: z.string().check(z.trim(), z.minLength(1, 'command must not be empty')),
	args: z._default(z.array(z.string()), []),
	env: z._default(z.record(z.string(), envValue), {}),
});
const remoteSchema = z.object({
	type: z.enum(['http', 'sse']),
	url,
	headers: z._default(z.record(z.string(), z.string()), {}),
});
/** `type` may be left out: `command` makes a stdio server, `url` an HTTP one (as in `mcp.json`). */
const untypedRemoteSchema = z.object({ type: z.optional(z.never()), url, headers: z._default(z.record(z.string(), z.string()), {}) });

/** One server as the setting holds it (the name is its key). */
export const mcpServerSettingSchema = z.union([stdioSchema, remoteSchema, untypedRemoteSchema]);

export type McpTransport = 'stdio' | 'http' | 'sse';

/** A server of the setting, parsed: its name, transport, and the ACP object an agent gets. */
export interface McpServerConfig {
	readonly name: string;
	readonly transport: McpTransport;
	readonly server: acp.McpServer;
}

/** Parses one entry of `agentLink.mcpServers`; an error message when it is not a server. */
export function parseMcpServer(key: string, value: unknown): { readonly server: McpServerConfig } | { readonly error: string } {
	const trimmed = name.safeParse(key);
	if (!trimmed.success) {
		return { error: 'a server has an empty name' };
	}
	const parsed = mcpServerSettingSchema.safeParse(value);
	if (!parsed.success) {
		const issue = parsed.error.issues[0];
		return { error: issue?.message && issue.message !== 'Invalid input' ? issue.message : 'expected { command, args?, env? } or { type: "http" | "sse", url, headers? }' };
	}
	const entry = parsed.data;
	const serverName = trimmed.data;
	if ('command' in entry) {
		const env = Object.entries(entry.env)
			.filter((pair): pair is [string, string | number | boolean] => pair[1] !== null)
			.map(([envName, envValue]) => ({ name: envName, value: String(envValue) }));
		return { server: { name: serverName, transport: 'stdio', server: { name: serverName, command: entry.command, args: [...entry.args], env } } };
	}
	const type = ('type' in entry ? entry.type : undefined) ?? 'http';
	const headers = Object.entries(entry.headers).map(([headerName, headerValue]) => ({ name: headerName, value: headerValue }));
	return { server: { name: serverName, transport: type, server: { type, name: serverName, url: entry.url, headers } } };
}

/** What an agent's `mcpCapabilities` says it takes besides stdio. */
export interface McpCapabilities {
	readonly http?: unknown;
	readonly sse?: unknown;
}

/**
 * The servers an agent gets: every stdio one, and HTTP and SSE ones only when its
 * `mcpCapabilities` say so. `skipped` names the rest, for the log.
 */
export function mcpServersFor(servers: readonly McpServerConfig[], capabilities: McpCapabilities | undefined): { readonly servers: acp.McpServer[]; readonly skipped: readonly McpServerConfig[] } {
	const kept: acp.McpServer[] = [];
	const skipped: McpServerConfig[] = [];
	for (const config of servers) {
		if (config.transport === 'stdio' || capabilities?.[config.transport] === true) {
			kept.push(config.server);
		} else {
			skipped.push(config);
		}
	}
	return { servers: kept, skipped };
}
