import { join } from 'node:path';
import type { AgentDefinition, LocalAgentDefinition } from '../../src/common/config';
import type { Logger } from '../../src/common/log';
import { AgentHandle } from '../../src/node/agentHandle';

export const repoRoot = join(__dirname, '..', '..', '..');
export const fixtures = join(repoRoot, 'test', 'fixtures', 'agents');

export class MemoryLog implements Logger {
	readonly lines: string[] = [];
	trace(m: string) {
		this.lines.push(`trace ${m}`);
	}
	debug(m: string) {
		this.lines.push(`debug ${m}`);
	}
	info(m: string) {
		this.lines.push(`info ${m}`);
	}
	warn(m: string) {
		this.lines.push(`warn ${m}`);
	}
	error(m: string) {
		this.lines.push(`error ${m}`);
	}
}

export function fixture(script: string, options: Record<string, unknown> = {}): LocalAgentDefinition {
	return { command: process.execPath, args: [join(fixtures, script)], env: { AGENT_LINK_FIXTURE: JSON.stringify(options) } };
}

export async function launch(definition: AgentDefinition, log = new MemoryLog(), maxLineBytes = 64 * 1024 * 1024): Promise<AgentHandle> {
	return AgentHandle.launch({ definition, defaultCwd: repoRoot, maxLineBytes, log });
}

export const clientInfo = { name: 'agent-link', title: 'Agent Link', version: '0.0.0-test' };

export { isAlive } from '../shared/process';

export async function waitFor(condition: () => boolean, timeoutMs = 5000): Promise<void> {
	const deadline = Date.now() + timeoutMs;
	while (!condition()) {
		if (Date.now() > deadline) {
			throw new Error('timed out waiting for condition');
		}
		await new Promise((r) => setTimeout(r, 20));
	}
}
