// OpenCode (opencode-ai, `opencode acp`), run offline against a scripted OpenAI-compatible chat
// completions API: whole turns through Agent Link's client (realAgentTurns.ts). With edits set to
// ask, it writes through the client (fs/write_text_file) once allowed; it reads files itself; a
// rejected edit ends the turn (the tool call fails and the model is not asked again).
import { describeRealAgent } from './realAgentTurns';

describeRealAgent('opencode', 'OpenCode', { readsThroughClient: false, writesThroughClient: true, editFirstSeenInPermission: false, rejectionEndsTurn: true });
