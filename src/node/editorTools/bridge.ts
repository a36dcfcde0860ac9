/**
 * The stdio bridge to the editor tools (dist/mcp-bridge.js): an agent that takes only stdio MCP
 * servers starts it with the editor's own runtime (`session/new` says how). It connects to the
 * socket the extension listens on (AGENT_LINK_MCP_SOCKET), sends the token (AGENT_LINK_MCP_TOKEN)
 * as its first line, then copies its stdin to the socket and the socket to its stdout: MCP's stdio
 * framing goes through unchanged. It exits when either side ends. No dependencies, so it starts fast.
 */
import * as net from 'node:net';

const socketPath = process.env.AGENT_LINK_MCP_SOCKET;
const token = process.env.AGENT_LINK_MCP_TOKEN;
if (!socketPath || !token) {
	process.stderr.write('agent-link editor tools bridge: AGENT_LINK_MCP_SOCKET and AGENT_LINK_MCP_TOKEN must be set (Agent Link sets them in session/new).\n');
	process.exit(2);
}
// Nothing this process starts needs them.
delete process.env.AGENT_LINK_MCP_TOKEN;

const socket = net.connect(socketPath);
socket.once('connect', () => {
	socket.write(`${token}\n`);
	process.stdin.pipe(socket);
	socket.pipe(process.stdout);
});
socket.on('error', (error) => {
	process.stderr.write(`agent-link editor tools bridge: ${error.message} (is the VS Code window still open?)\n`);
	process.exit(1);
});
socket.once('close', () => process.exit(0));
process.stdin.once('end', () => socket.end());
