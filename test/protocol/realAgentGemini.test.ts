// Gemini CLI (@google/gemini-cli, `gemini --acp`), run offline against a scripted Gemini API: whole
// turns through Agent Link's client (realAgentTurns.ts). Its edit tool reads and writes through the
// client, and its tool call first appears in the permission request; its read tool reads from disk.
import { describeRealAgent } from './realAgentTurns';

describeRealAgent('gemini', 'Gemini CLI', { readsThroughClient: false, writesThroughClient: true, editFirstSeenInPermission: true, rejectionEndsTurn: false });
