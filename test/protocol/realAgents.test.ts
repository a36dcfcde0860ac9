// The real agents from npm (test/fixtures/real-agents pins them), each run offline against its
// scripted model server, whole turns through Agent Link's client (realAgentTurns.ts). The four run
// side by side, one process each: most of their time is starting up and waiting on one another's
// CPU, and one after the other they took twice as long. What differs between them:
//   Claude Code (@agentclientprotocol/claude-agent-acp and the Claude Code program it brings, against
//     a scripted Anthropic Messages API) reads and writes files itself: no fs/* request reaches the client.
//   OpenCode (opencode-ai, `opencode acp`, against a scripted OpenAI-compatible chat completions API),
//     with edits set to ask, writes through the client (fs/write_text_file) once allowed and reads
//     files itself; a rejected edit ends the turn (the tool call fails and the model is not asked again).
//   Gemini CLI (@google/gemini-cli, `gemini --acp`, against a scripted Gemini API): its edit tool reads
//     and writes through the client, and its tool call first appears in the permission request; its
//     read tool reads from disk.
//   Qwen Code (@qwen-code/qwen-code, `qwen --acp`, against the scripted OpenAI-compatible API in its
//     own tool names) reads and writes through the client; a rejected edit ends the turn. It edits
//     only a file read in the session.
// Codex (@zed-industries/codex-acp), GitHub Copilot CLI (@github/copilot) and Auggie
// (@augmentcode/auggie) are run for their handshake only: offline and without an account they answer
// `initialize`, and nothing more is asked of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HANDSHAKE_ONLY_AGENTS, schemaViolations, sent } from '../shared/realAgentLog';
import { handshake } from './realAgentChat';
import { describeRealAgent } from './realAgentTurns';

/** The name each handshake-only agent gives itself (agentInfo.name). */
const HANDSHAKE_NAMES: Record<(typeof HANDSHAKE_ONLY_AGENTS)[number], RegExp> = { codex: /codex/i, copilot: /copilot/i, auggie: /auggie/i };

describe('real agents from npm, scripted models', { concurrency: true }, () => {
	describeRealAgent('claude', 'Claude Code', { readsThroughClient: false, writesThroughClient: false, editFirstSeenInPermission: false, rejectionEndsTurn: false });
	describeRealAgent('opencode', 'OpenCode', { readsThroughClient: false, writesThroughClient: true, editFirstSeenInPermission: false, rejectionEndsTurn: true });
	describeRealAgent('gemini', 'Gemini CLI', { readsThroughClient: false, writesThroughClient: true, editFirstSeenInPermission: true, rejectionEndsTurn: false });
	describeRealAgent('qwen', 'Qwen Code', { readsThroughClient: true, writesThroughClient: true, editFirstSeenInPermission: false, rejectionEndsTurn: true });
	describe('presets run for their handshake only', () => {
		for (const name of HANDSHAKE_ONLY_AGENTS) {
			it(`${name}: answers initialize with protocol 1, offline, to a handshake that fits the ACP schema`, async () => {
				const { result, log } = await handshake(name);
				assert.equal(result.protocolVersion, 1);
				assert.match(result.agentInfo?.name ?? '', HANDSHAKE_NAMES[name]);
				assert.equal(sent(log, 'client', 'initialize').length, 1);
				assert.deepEqual(schemaViolations(log), []);
			});
		}
	});
});
