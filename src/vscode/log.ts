import * as vscode from 'vscode';
import type { Logger } from '../common/log';
import { RecentLog } from '../common/recentLog';

/** The "Agent Link" log channel, seen through the {@link Logger} interface the other layers use. */
export class ExtensionLog implements Logger, vscode.Disposable {
	readonly channel: vscode.LogOutputChannel;
	readonly recent = new RecentLog();

	constructor() {
		this.channel = vscode.window.createOutputChannel('Agent Link', { log: true });
	}

	trace(message: string): void {
		this.channel.trace(message);
		this.recent.push(`[trace] ${message}`);
	}
	debug(message: string): void {
		this.channel.debug(message);
		this.recent.push(`[debug] ${message}`);
	}
	info(message: string): void {
		this.channel.info(message);
		this.recent.push(`[info] ${message}`);
	}
	warn(message: string): void {
		this.channel.warn(message);
		this.recent.push(`[warn] ${message}`);
	}
	error(message: string): void {
		this.channel.error(message);
		this.recent.push(`[error] ${message}`);
	}

	/** Wire trace lines go to the channel at info level: `agentLink.trace` is the switch, not the channel's level. */
	wire(line: string): void {
		this.channel.info(line);
		this.recent.push(`[wire] ${line}`);
	}

	show(): void {
		this.channel.show(true);
	}

	dispose(): void {
		this.channel.dispose();
	}
}
