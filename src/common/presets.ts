/**
 * Well-known ACP agents, offered in the agent picker without any setup. A user
 * agent with the same name as a preset replaces it.
 */
import type { AgentDefinition } from './config';

export interface AgentPreset {
	readonly name: string;
	readonly definition: AgentDefinition;
	/** How to get the command when it is not installed. */
	readonly install: string;
}

function preset(name: string, command: string, args: string[], install: string): AgentPreset {
	return Object.freeze({ name, definition: Object.freeze({ command, args, env: {} }), install });
}

export const AGENT_PRESETS: readonly AgentPreset[] = Object.freeze([
	preset('Claude Code', 'claude-agent-acp', [], 'npm install -g @agentclientprotocol/claude-agent-acp'),
	preset('Gemini CLI', 'gemini', ['--acp'], 'npm install -g @google/gemini-cli'),
	preset('Codex', 'codex-acp', [], 'npm install -g @zed-industries/codex-acp'),
	preset('OpenCode', 'opencode', ['acp'], 'npm install -g opencode-ai'),
	preset('Qwen Code', 'qwen', ['--acp'], 'npm install -g @qwen-code/qwen-code'),
	preset('GitHub Copilot CLI', 'copilot', ['--acp'], 'npm install -g @github/copilot'),
	preset('Auggie', 'auggie', ['--acp'], 'npm install -g @augmentcode/auggie'),
]);

/** A selectable agent: a user definition or a preset. */
export interface AgentChoice {
	readonly name: string;
	readonly definition: AgentDefinition;
	readonly source: 'user' | 'preset';
	readonly install?: string;
}

/** User agents first (in settings order), then the presets they do not replace. */
export function agentChoices(userAgents: Readonly<Record<string, AgentDefinition>>): AgentChoice[] {
	const choices: AgentChoice[] = Object.entries(userAgents).map(([name, definition]) => ({ name, definition, source: 'user' }));
	for (const p of AGENT_PRESETS) {
		if (!(p.name in userAgents)) {
			choices.push({ name: p.name, definition: p.definition, source: 'preset', install: p.install });
		}
	}
	return choices;
}

/** How a choice starts, for the picker: the command line, quoted where needed. */
export function describeCommand(definition: AgentDefinition): string {
	return [definition.command, ...definition.args].map((part) => (/[\s"'$`\\]/.test(part) || part === '' ? JSON.stringify(part) : part)).join(' ');
}
