/**
 * Wire tracing (`agentLink.trace`): one log line per message with direction,
 * kind, method, id, size and, for responses, the time since the request. With
 * `verbose`, the payload follows. Malformed or unexpected messages, and the
 * answers to them, are rate-limited per kind and direction ({@link RateLimiter}):
 * an agent's flood leaves a few lines of each kind and a summary with the count.
 * Pure; the clock and timer are injected for tests.
 */
import type { TraceLevel } from './config';
import { RateLimiter, describeSuppressed, type LimitedKind, type RateLimitOptions } from './rateLimit';

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

/** A kind of message as limited in one direction: what the agent sent, or the answers to it. */
interface DirectedKind extends LimitedKind {
	readonly direction: Direction;
}

export class WireTracer {
	/** Requests awaiting a response, by direction of the request and id. */
	private readonly pending = new Map<string, Pending>();
	private readonly limiter: RateLimiter<DirectedKind>;
	private readonly directed = new Map<LimitedKind, Record<Direction, DirectedKind>>();

	constructor(
		private level: () => TraceLevel,
		private readonly write: (line: string) => void,
		private readonly now: () => number = () => Date.now(),
		limits?: Omit<RateLimitOptions, 'now'>,
	) {
		this.limiter = new RateLimiter((s) => {
			if (this.enabled) {
				this.write(`${s.kind.direction === 'send' ? '→' : '←'} Left out of the trace: ${describeSuppressed(s)}`);
			}
		}, { ...limits, now });
	}

	get enabled(): boolean {
		return this.level() !== 'off';
	}

	/**
	 * Records one message; `bytes` is its encoded size, `raw` its line (for verbose).
	 * `kind`: the message is malformed or unexpected (or the answer to one), and
	 * rate-limited with the others of its kind.
	 */
	record(direction: Direction, message: WireMessage, bytes: number, raw?: string, kind?: LimitedKind): void {
		const level = this.level();
		if (level === 'off' || (kind && !this.limiter.admit(this.directedKind(kind, direction)))) {
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

	/** Writes the summaries of messages left out that are still pending. */
	flush(): void {
		this.limiter.flush();
	}

	clear(): void {
		this.pending.clear();
	}

	private directedKind(kind: LimitedKind, direction: Direction): DirectedKind {
		let pair = this.directed.get(kind);
		if (!pair) {
			pair = { recv: { what: kind.what, direction: 'recv' }, send: { what: `answers to ${kind.what}`, direction: 'send' } };
			this.directed.set(kind, pair);
		}
		return pair[direction];
	}
}
