/**
 * Wire tracing (`agentLink.trace`): one log line per message with direction,
 * kind, method, id, size and, for responses, the time since the request. With
 * `verbose`, the payload follows. Pure; the clock is injected for tests.
 */
import type { TraceLevel } from './config';

export type Direction = 'send' | 'recv';

interface Pending {
	readonly method: string;
	readonly at: number;
}

export interface WireMessage {
	readonly id?: unknown;
	readonly method?: unknown;
	readonly result?: unknown;
	readonly error?: unknown;
}

const VERBOSE_PAYLOAD_CHARS = 64 * 1024;

export class WireTracer {
	/** Requests awaiting a response, by direction of the request and id. */
	private readonly pending = new Map<string, Pending>();

	constructor(
		private level: () => TraceLevel,
		private readonly write: (line: string) => void,
		private readonly now: () => number = () => Date.now(),
	) {}

	get enabled(): boolean {
		return this.level() !== 'off';
	}

	/** Records one message; `bytes` is its encoded size, `raw` its line (for verbose). */
	record(direction: Direction, message: WireMessage, bytes: number, raw?: string): void {
		const level = this.level();
		if (level === 'off') {
			return;
		}
		const arrow = direction === 'send' ? '→' : '←';
		const hasId = message.id !== undefined && message.id !== null;
		let line: string;
		if (typeof message.method === 'string') {
			if (hasId) {
				this.pending.set(`${direction}:${String(message.id)}`, { method: message.method, at: this.now() });
				line = `${arrow} request ${message.method} #${String(message.id)} ${bytes} B`;
			} else {
				line = `${arrow} notification ${message.method} ${bytes} B`;
			}
		} else {
			// A response travels the other way from its request.
			const requestDirection: Direction = direction === 'send' ? 'recv' : 'send';
			const key = `${requestDirection}:${String(message.id)}`;
			const request = this.pending.get(key);
			this.pending.delete(key);
			const outcome = message.error !== undefined ? 'error' : 'result';
			const method = request ? ` ${request.method}` : '';
			const elapsed = request ? ` in ${this.now() - request.at} ms` : '';
			line = `${arrow} response${method} #${String(message.id)} ${outcome} ${bytes} B${elapsed}`;
		}
		if (level === 'verbose' && raw !== undefined) {
			const payload = raw.length > VERBOSE_PAYLOAD_CHARS ? `${raw.slice(0, VERBOSE_PAYLOAD_CHARS)}… (${raw.length - VERBOSE_PAYLOAD_CHARS} more chars)` : raw;
			line += `\n${payload.trimEnd()}`;
		}
		this.write(line);
	}

	clear(): void {
		this.pending.clear();
	}
}
