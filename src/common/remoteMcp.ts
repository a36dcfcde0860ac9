/**
 * Which MCP servers an agent on another machine gets in `session/new` (load, resume), and what
 * the chat says about it. Pure.
 *
 * The agent starts stdio servers and connects to HTTP/SSE servers from its own machine: a stdio
 * server is a program of this machine (Agent Link's editor tools' bridge among them), and an
 * address on this machine's loopback is the agent's own loopback there. Both are left out;
 * HTTP/SSE servers at other addresses are offered as they are.
 */
import type * as acp from '@agentclientprotocol/sdk';
import { isLoopbackHost } from './remoteAgent';

export interface RemoteOffer {
	readonly offered: acp.McpServer[];
	readonly leftOut: { readonly name: string; readonly reason: string }[];
}

export function offerToRemoteAgent(servers: readonly acp.McpServer[]): RemoteOffer {
	const offered: acp.McpServer[] = [];
	const leftOut: { name: string; reason: string }[] = [];
	for (const server of servers) {
		if (!('url' in server)) {
			leftOut.push({ name: server.name, reason: 'a program on this machine, which the agent cannot start' });
		} else if (onThisMachine(server.url)) {
			leftOut.push({ name: server.name, reason: `it listens on this machine only (${server.url.replace(/[?#].*$/, '')})` });
		} else {
			offered.push(server);
		}
	}
	return { offered, leftOut };
}

function onThisMachine(url: string): boolean {
	try {
		return isLoopbackHost(new URL(url).hostname);
	} catch {
		return true;
	}
}

/** The chat's notice for a remote agent's session: where it runs, what it can reach here, and which tools it got. */
export function remoteNotice(agentName: string, where: string, offer: RemoteOffer, editorToolsName: string): { title: string; description: string } {
	const tools = offer.offered.length > 0 ? `MCP servers offered to it: ${offer.offered.map((s) => s.name).join(', ')}.` : 'No MCP servers are offered to it.';
	const missing = offer.leftOut.map((s) => `${s.name === editorToolsName ? "Agent Link's editor tools" : s.name} (${s.reason})`);
	return {
		title: `${agentName} runs on another machine (${where})`,
		description: [
			'Its file reads, edits and terminal commands run on this machine through Agent Link, with the same permissions as a local agent.',
			tools,
			missing.length > 0 ? `Left out: ${missing.join('; ')}.` : '',
		]
			.filter(Boolean)
			.join(' '),
	};
}
