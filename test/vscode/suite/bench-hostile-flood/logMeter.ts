// Counts the calls that reach the Agent Link log channel (VS Code's LogOutputChannel), by level: the
// lines a flood hands to VS Code. (Not their time: the channel does its work later, in a promise
// callback per line, so a CPU profile is what shows it.) The channel is reached through the agent
// pool's logger, which is private: benchmarks only.
import type * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';

const LEVELS = ['trace', 'debug', 'info', 'warn', 'error'] as const;
type Level = (typeof LEVELS)[number];

export interface LogMeter {
	/** Calls per level since the meter was installed. */
	readonly calls: Record<Level, number>;
	dispose(): void;
}

export function meterLog(a: AgentLinkApi): LogMeter {
	const channel = (a.pool as unknown as { log: { channel: vscode.LogOutputChannel } }).log.channel;
	const calls = Object.fromEntries(LEVELS.map((l) => [l, 0])) as Record<Level, number>;
	const writable = channel as unknown as Record<Level, (message: string) => void>;
	const originals = Object.fromEntries(LEVELS.map((l) => [l, writable[l]])) as Record<Level, (message: string) => void>;
	const meter: LogMeter = {
		calls,
		dispose() {
			Object.assign(writable, originals);
		},
	};
	for (const level of LEVELS) {
		const original = originals[level];
		writable[level] = (message: string) => {
			calls[level]++;
			original.call(channel, message);
		};
	}
	return meter;
}
