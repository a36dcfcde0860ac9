/**
 * Bookkeeping of suggestion outcomes (`shared/specs/protocols.md` §2): every
 * suggestion the agent sends gets exactly one `nes/accept` or `nes/reject`
 * with a reason, whatever happens to it (shown, dropped for a better one,
 * arriving for a request that was already cancelled, the session ending).
 *
 * Also the one-request-in-flight rule: each new request supersedes the one
 * before, and an answer to a superseded request is never shown.
 */

export type NesRejectReason = 'rejected' | 'ignored' | 'replaced' | 'cancelled';
export type NesOutcome = { readonly kind: 'accept' } | { readonly kind: 'reject'; readonly reason: NesRejectReason };

/** Where outcomes go: the session's `nes/accept` / `nes/reject`. */
export interface OutcomeSink {
	accept(id: string): void;
	reject(id: string, reason: NesRejectReason): void;
}

// Ids remembered after their outcome, so a repeated id is recognized; older ones are forgotten.
const SETTLED_MEMORY = 1000;

/**
 * The suggestions that still owe the agent an outcome. `settle` reports an
 * outcome once per id and returns false on every later attempt, so callers can
 * settle from every path that ends a suggestion without counting.
 */
export class SuggestionLedger {
	private readonly open = new Set<string>();
	private readonly settled = new Set<string>();

	constructor(private readonly sink: OutcomeSink) {}

	/**
	 * Starts tracking `id`. False when the id is already open or was settled
	 * recently: an agent reusing ids would otherwise get two outcomes for one id.
	 */
	register(id: string): boolean {
		if (this.open.has(id) || this.settled.has(id)) {
			return false;
		}
		this.open.add(id);
		return true;
	}

	isOpen(id: string): boolean {
		return this.open.has(id);
	}

	/** The ids still waiting for an outcome. */
	get pending(): readonly string[] {
		return [...this.open];
	}

	accept(id: string): boolean {
		return this.settle(id, { kind: 'accept' });
	}

	reject(id: string, reason: NesRejectReason): boolean {
		return this.settle(id, { kind: 'reject', reason });
	}

	/** Reports `outcome` for `id` if it is open; false when it was not (unknown or already settled). */
	settle(id: string, outcome: NesOutcome): boolean {
		if (!this.open.delete(id)) {
			return false;
		}
		this.remember(id);
		if (outcome.kind === 'accept') {
			this.sink.accept(id);
		} else {
			this.sink.reject(id, outcome.reason);
		}
		return true;
	}

	/** Rejects every open suggestion with `reason`; returns how many. */
	rejectAll(reason: NesRejectReason): number {
		let count = 0;
		for (const id of [...this.open]) {
			if (this.reject(id, reason)) {
				count++;
			}
		}
		return count;
	}

	private remember(id: string): void {
		this.settled.add(id);
		if (this.settled.size > SETTLED_MEMORY) {
			const oldest = this.settled.values().next().value;
			if (oldest !== undefined) {
				this.settled.delete(oldest);
			}
		}
	}
}

/**
 * At most one request in flight. `begin` hands out a ticket and returns the
 * ticket it superseded (to cancel); only the newest ticket is current.
 */
export class RequestSequencer {
	private next = 1;
	private inFlight: number | undefined;

	/** A new ticket; `superseded` is the request still in flight, which the caller cancels. */
	begin(): { ticket: number; superseded: number | undefined } {
		const superseded = this.inFlight;
		const ticket = this.next++;
		this.inFlight = ticket;
		return { ticket, superseded };
	}

	/** Whether an answer for `ticket` may still be shown. */
	isCurrent(ticket: number): boolean {
		return this.inFlight === ticket;
	}

	/** The request of `ticket` ended (answered, failed or cancelled). */
	finish(ticket: number): void {
		if (this.inFlight === ticket) {
			this.inFlight = undefined;
		}
	}

	/** Makes every ticket stale (NES turned off, the session ended); returns the one in flight. */
	reset(): number | undefined {
		const was = this.inFlight;
		this.inFlight = undefined;
		return was;
	}

	get busy(): boolean {
		return this.inFlight !== undefined;
	}
}
