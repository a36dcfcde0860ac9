/**
 * Well-known ACP agents, offered in the agent picker without any setup. A user
 * agent with the same name as a preset replaces it.
 */
import type { AgentDefinition, LocalAgentDefinition } from './config';
import { describeUrl, isRemoteDefinition } from './remoteAgent';

export interface AgentPreset {
	readonly name: string;
	readonly definition: AgentDefinition;
	/** How to get the command when it is not installed. */
	readonly install: string;
	/** The same agent's id in the ACP Registry, so it is listed once. */
	readonly registryId: string;
}

function preset(name: string, command: string, args: string[], install: string, registryId: string): AgentPreset {
	return Object.freeze({ name, definition: Object.freeze({ command, args, env: {} }), install, registryId });
}

export const AGENT_PRESETS: readonly AgentPreset[] = Object.freeze([
	preset('Claude Code', 'claude-agent-acp', [], 'npm install -g @agentclientprotocol/claude-agent-acp', 'claude-acp'),
	preset('Gemini CLI', 'gemini', ['--acp'], 'npm install -g @google/gemini-cli', 'gemini'),
	preset('Codex', 'codex-acp', [], 'npm install -g @zed-industries/codex-acp', 'codex-acp'),
	preset('OpenCode', 'opencode', ['acp'], 'npm install -g opencode-ai', 'opencode'),
	preset('Qwen Code', 'qwen', ['--acp'], 'npm install -g @qwen-code/qwen-code', 'qwen-code'),
	preset('GitHub Copilot CLI', 'copilot', ['--acp'], 'npm install -g @github/copilot', 'github-copilot-cli'),
	preset('Auggie', 'auggie', ['--acp'], 'npm install -g @augmentcode/auggie', 'auggie'),
]);

/** The name of Agent Link's own NES agent (dist/nes-agent.js), the default NES agent. */
export const BUILT_IN_NES_AGENT = 'Agent Link NES (built in)';

/**
 * Agent Link's own NES agent as a choice, run with the editor's own runtime (`execPath` with
 * `ELECTRON_RUN_AS_NODE=1`, which plain Node ignores), so nothing needs to be installed.
 */
export function builtInNesAgent(execPath: string, script: string): AgentChoice & { readonly definition: LocalAgentDefinition } {
	return { name: BUILT_IN_NES_AGENT, definition: { command: execPath, args: [script], env: { ELECTRON_RUN_AS_NODE: '1' } }, source: 'preset' };
}

/** A selectable agent: a user definition, a preset, or an agent of the ACP Registry. */
export interface AgentChoice {
	readonly name: string;
	readonly definition: AgentDefinition;
	readonly source: 'user' | 'preset' | 'registry';
	readonly install?: string;
	/** For a preset: its id in the ACP Registry. For a registry agent: its id and the version this choice runs. */
	readonly registry?: { readonly id: string; readonly version?: string };
}

/** User agents first (in settings order), then the presets they do not replace. */
export function agentChoices(userAgents: Readonly<Record<string, AgentDefinition>>): AgentChoice[] {
	const choices: AgentChoice[] = Object.entries(userAgents).map(([name, definition]) => ({ name, definition, source: 'user' }));
	for (const p of AGENT_PRESETS) {
		if (!(p.name in userAgents)) {
			choices.push({ name: p.name, definition: p.definition, source: 'preset', install: p.install, registry: { id: p.registryId } });
		}
	}
	return choices;
}

/** How a choice starts, for the picker: the command line, quoted where needed. */
export function describeCommand(definition: AgentDefinition): string {
	if (isRemoteDefinition(definition)) {
		return describeUrl(definition.url);
	}
	return [definition.command, ...definition.args].map((part) => (/[\s"'$`\\]/.test(part) || part === '' ? JSON.stringify(part) : part)).join(' ');
}
