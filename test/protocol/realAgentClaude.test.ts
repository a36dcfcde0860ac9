// Claude Code (@agentclientprotocol/claude-agent-acp and the Claude Code program it brings), run
// offline against a scripted Anthropic Messages API: whole turns through Agent Link's client
// (realAgentTurns.ts). It reads and writes files itself: no fs/* request reaches the client.
import { describeRealAgent } from './realAgentTurns';

describeRealAgent('claude', 'Claude Code', { readsThroughClient: false, writesThroughClient: false, editFirstSeenInPermission: false, rejectionEndsTurn: false });
