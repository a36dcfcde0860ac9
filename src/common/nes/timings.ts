/**
 * Timings of the last answered suggestion request, in `performance.now()` milliseconds, for the
 * benchmarks: the last document change, building the request, handling the answer up to the
 * view, and when the view and then the editor took the suggestion. Pure bookkeeping: it must not
 * read a clock itself (callers pass the times) or decide anything.
 */
import type { TriggerKind } from './triggers';

export interface NesTimings {
	kind: TriggerKind;
	changedAt?: number;
	startedAt: number;
	buildMs: number;
	answeredAt: number;
	presentMs?: number;
	shownAt?: number;
	offeredAt?: number;
}

export class TimingsRecorder {
	/** The last answered request's timings. */
	last: NesTimings | undefined;
	private changedAt: number | undefined;

	/** The active document changed at `at`. */
	changed(at: number): void {
		this.changedAt = at;
	}

	/** A request of `kind`, started at `startedAt` and built in `buildMs`, was answered at `answeredAt`. */
	answered(kind: TriggerKind, startedAt: number, buildMs: number, answeredAt: number): void {
		this.last = { kind, changedAt: this.changedAt, startedAt, buildMs, answeredAt };
	}

	/** The answer received at `answeredAt` was handled by `at` (unless a later answer came since). */
	presented(answeredAt: number, at: number): void {
		if (this.last?.answeredAt === answeredAt) {
			this.last.presentMs = at - answeredAt;
		}
	}

	/** A suggestion went to the view at `at`. */
	shown(at: number): void {
		if (this.last) {
			this.last.shownAt = at;
		}
	}

	/** The editor took the ghost text at `at`; only its first offer counts. */
	offered(at: number): void {
		if (this.last && this.last.offeredAt === undefined) {
			this.last.offeredAt = at;
		}
	}
}
