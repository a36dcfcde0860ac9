/**
 * When a crashed agent is started again: with growing back-off, at most
 * `maxRestarts` times within `windowMs` (like vscode-languageclient's default
 * error handler). Pure; times are passed in.
 */
export type RestartDecision = { readonly restart: true; readonly delayMs: number; readonly attempt: number } | { readonly restart: false; readonly reason: string };

export class RestartPolicy {
	private crashes: number[] = [];

	constructor(
		readonly maxRestarts = 5,
		readonly windowMs = 3 * 60 * 1000,
		private readonly baseDelayMs = 500,
		private readonly maxDelayMs = 8000,
	) {}

	/** Records a crash at `now` and decides whether to restart. */
	onCrash(now: number): RestartDecision {
		this.crashes = this.crashes.filter((t) => now - t < this.windowMs);
		if (this.crashes.length >= this.maxRestarts) {
			return {
				restart: false,
				reason: `it crashed ${this.crashes.length + 1} times in the last ${Math.round(this.windowMs / 60000)} minutes`,
			};
		}
		this.crashes.push(now);
		const attempt = this.crashes.length;
		return { restart: true, attempt, delayMs: Math.min(this.maxDelayMs, this.baseDelayMs * 2 ** (attempt - 1)) };
	}

	/** Forgets past crashes, e.g. when the user starts an agent by hand. */
	reset(): void {
		this.crashes = [];
	}
}
