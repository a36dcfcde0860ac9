import * as vscode from 'vscode';
import type { Logger } from '../common/log';
import { RecentLog } from '../common/recentLog';

/** The most wire trace lines written as one log entry. */
const MAX_WIRE_BATCH = 500;

/** The "Agent Link" log channel, seen through the {@link Logger} interface the other layers use. */
export class ExtensionLog implements Logger, vscode.Disposable {
	readonly channel: vscode.LogOutputChannel;
	readonly recent = new RecentLog();
	private readonly wireBatch: string[] = [];

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

	/**
	 * Wire trace lines go to the channel at info level: `agentLink.trace` is the switch, not the
	 * channel's level. The lines of one tick go as one entry: each log call crosses to the window,
	 * and a busy agent can send thousands of messages in a tick.
	 */
	wire(line: string): void {
		this.recent.push(`[wire] ${line}`);
		if (this.wireBatch.length === 0) {
			setImmediate(() => this.flushWire());
		}
		this.wireBatch.push(line);
		if (this.wireBatch.length >= MAX_WIRE_BATCH) {
			this.flushWire();
		}
	}

	private flushWire(): void {
		if (this.wireBatch.length > 0) {
			this.channel.info(this.wireBatch.splice(0).join('\n'));
		}
	}

	show(): void {
		this.channel.show(true);
	}

	dispose(): void {
		this.flushWire();
		this.channel.dispose();
	}
}
