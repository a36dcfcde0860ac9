/**
 * Rate limiting for log and trace lines that an agent can cause at will, one per
 * malformed or unexpected message. Per kind of line, the first `burst` of each
 * window are written in full; the rest are only counted, and when the window
 * ends one summary line says how many of that kind were left out. Every line is
 * either written or counted in a summary: a flush (when the connection closes)
 * writes the summaries still pending.
 *
 * Callers ask {@link RateLimiter.admit} before building a line, so a line that is
 * left out costs a map lookup and an increment, not a string.
 *
 * Pure: the clock and the timer are injected (real ones by default).
 */
import type { Logger } from './log';

/** A kind of line, limited on its own. Compared by identity: use module-level constants. */
export interface LimitedKind {
	/** What the lines report, in the plural, for the summary: "lines from the agent that are not JSON". */
	readonly what: string;
}

export interface TimerHandle {
	dispose(): void;
}

export interface RateLimitOptions {
	/** Lines of each kind written in full per window. Default {@link DEFAULT_BURST}. */
	readonly burst?: number;
	/** Length of a window, from the first line of a kind. Default {@link DEFAULT_WINDOW_MS}. */
	readonly windowMs?: number;
	readonly now?: () => number;
	/** Calls `callback` once after `ms`. */
	readonly setTimer?: (callback: () => void, ms: number) => TimerHandle;
}

/** One summary: `suppressed` lines of `kind` were left out over `spanMs`. */
export interface Suppressed<K extends LimitedKind> {
	readonly kind: K;
	readonly suppressed: number;
	readonly spanMs: number;
	readonly burst: number;
	readonly windowMs: number;
}

export const DEFAULT_BURST = 5;
export const DEFAULT_WINDOW_MS = 10_000;

interface Window {
	readonly start: number;
	admitted: number;
	suppressed: number;
	timer: TimerHandle | undefined;
}

function realTimer(callback: () => void, ms: number): TimerHandle {
	const timer = setTimeout(callback, ms);
	// Never keep a process alive for a summary alone (a flush on close writes it anyway).
	(timer as { unref?: () => void }).unref?.();
	return { dispose: () => clearTimeout(timer) };
}

export class RateLimiter<K extends LimitedKind = LimitedKind> {
	private readonly windows = new Map<K, Window>();
	private readonly burst: number;
	private readonly windowMs: number;
	private readonly now: () => number;
	private readonly setTimer: (callback: () => void, ms: number) => TimerHandle;
	private disposed = false;

	constructor(
		/** Writes the summary of a window in which lines were left out. */
		private readonly summarize: (summary: Suppressed<K>) => void,
		options: RateLimitOptions = {},
	) {
		this.burst = options.burst ?? DEFAULT_BURST;
		this.windowMs = options.windowMs ?? DEFAULT_WINDOW_MS;
		this.now = options.now ?? (() => Date.now());
		this.setTimer = options.setTimer ?? realTimer;
	}

	/** True: write this line in full. False: it has been counted for the summary; write nothing. */
	admit(kind: K): boolean {
		const now = this.now();
		let window = this.windows.get(kind);
		if (window && now - window.start >= this.windowMs) {
			this.close(kind, window);
			window = undefined;
		}
		if (!window) {
			window = { start: now, admitted: 0, suppressed: 0, timer: undefined };
			this.windows.set(kind, window);
		}
		if (window.admitted < this.burst) {
			window.admitted++;
			return true;
		}
		window.suppressed++;
		if (!window.timer && !this.disposed) {
			const current = window;
			current.timer = this.setTimer(() => {
				current.timer = undefined;
				if (this.windows.get(kind) === current) {
					this.close(kind, current);
				}
			}, Math.max(0, current.start + this.windowMs - now));
		}
		return false;
	}

	/** Writes the summary of every kind with lines left out, now, and starts new windows. */
	flush(): void {
		for (const [kind, window] of [...this.windows]) {
			this.close(kind, window);
		}
	}

	/** Flushes, and sets no more timers: later lines are still limited, and counted until the next flush. */
	dispose(): void {
		this.flush();
		this.disposed = true;
	}

	private close(kind: K, window: Window): void {
		window.timer?.dispose();
		window.timer = undefined;
		this.windows.delete(kind);
		if (window.suppressed > 0) {
			this.summarize({ kind, suppressed: window.suppressed, spanMs: Math.min(this.now() - window.start, this.windowMs), burst: this.burst, windowMs: this.windowMs });
		}
	}
}

/** "12 345 more lines from the agent that are not JSON in 10 s (the first 5 of each kind per 10 s are shown)". */
export function describeSuppressed(s: Suppressed<LimitedKind>): string {
	const seconds = (ms: number) => `${Math.round(ms / 100) / 10} s`;
	return `${s.suppressed.toLocaleString('en')} more ${s.kind.what} in ${seconds(s.spanMs)} (the first ${s.burst} of each kind per ${seconds(s.windowMs)} are shown)`;
}

type Level = keyof Logger;

/**
 * A {@link Logger} for lines an agent can cause at will: each kind is limited on
 * its own, and the summary of a kind is written at the level its lines were.
 */
export class LimitedLog {
	private readonly limiter: RateLimiter;
	private readonly levels = new Map<LimitedKind, Level>();

	constructor(
		private readonly log: Logger,
		options?: RateLimitOptions,
	) {
		this.limiter = new RateLimiter((s) => this.log[this.levels.get(s.kind) ?? 'warn'](`Left out of the log: ${describeSuppressed(s)}.`), options);
	}

	/** Logs `message()` at `level`, unless `kind` is over its limit: then the line is only counted. */
	report(kind: LimitedKind, level: Level, message: () => string): void {
		if (this.limiter.admit(kind)) {
			this.levels.set(kind, level);
			this.log[level](message());
		}
	}

	/** Writes the summaries still pending. */
	flush(): void {
		this.limiter.flush();
	}

	dispose(): void {
		this.limiter.dispose();
	}
}
