/**
 * Backpressure for requests from the agent: at most `limit` of them are being
 * handled at once, counting from when a request is handed to its handler until
 * its answer has been written out. The rest wait here, in arrival order, with
 * the notifications that came after them, and go on as answers are written.
 *
 * Without it, an agent that sends ten thousand requests at once has every one
 * handled straight away, and their answers pile up in the pipe's buffer faster
 * than the agent reads them: hundreds of megabytes, written out in one blocking
 * batch. The request lines that wait are counted ({@link queuedBytes}): the
 * reader stops reading only when they pass a bound far above what an agent that
 * reads its answers ever leaves here (an agent blocked writing to us could not
 * read our answers either).
 *
 * `$/cancel_request` never waits: it reaches requests being handled at once, and
 * a request still waiting here is taken out and answered as cancelled. Pure.
 */
import type { RequestId } from './jsonrpc';

export interface AdmissionSink<M> {
	/** Hands a request or notification on to the dispatcher. */
	deliver(message: M): void;
	/** Answers a waiting request that was cancelled before it was handed on. */
	cancelled(id: RequestId): void;
}

interface Waiting<M> {
	readonly message: M;
	/** The request's id; undefined for a notification. */
	readonly id: RequestId | undefined;
	/** The size of its line, for {@link RequestAdmission.queuedBytes}. */
	readonly bytes: number;
}

/**
 * Requests handled at once by default: more than a time slice of the reader
 * (`pacer.ts`) hands on, so an agent that reads its answers is never held back
 * here, while the answers of one that does not stay a few megabytes at most.
 */
export const DEFAULT_CONCURRENT_REQUESTS = 1024;

export class RequestAdmission<M> {
	private readonly waiting: Waiting<M>[] = [];
	private head = 0;
	/** Requests handed on whose answer is not written yet, by id (an agent may reuse an id). */
	private readonly active = new Map<RequestId, number>();
	private activeCount = 0;
	private waitingBytes = 0;

	constructor(
		private readonly sink: AdmissionSink<M>,
		readonly limit = DEFAULT_CONCURRENT_REQUESTS,
	) {}

	/** Requests being handled now. */
	get handling(): number {
		return this.activeCount;
	}

	/** Requests and notifications waiting for a free place. */
	get queued(): number {
		return this.waiting.length - this.head;
	}

	/** The size of the lines of the requests and notifications waiting, as given when they arrived. */
	get queuedBytes(): number {
		return this.waitingBytes;
	}

	/** A request arrived (its line `bytes` long). */
	request(id: RequestId, message: M, bytes = 0): void {
		if (this.queued > 0 || this.activeCount >= this.limit) {
			this.wait({ message, id, bytes });
			return;
		}
		this.admit(id, message);
	}

	/** A notification arrived: after the requests waiting before it, to keep the agent's order. */
	notification(message: M, bytes = 0): void {
		if (this.queued > 0) {
			this.wait({ message, id: undefined, bytes });
			return;
		}
		this.sink.deliver(message);
	}

	/**
	 * `$/cancel_request` arrived for `id`: a waiting request with that id is taken out and answered
	 * as cancelled. Returns whether one was; if not, the cancellation goes to the dispatcher at once.
	 */
	cancel(id: RequestId): boolean {
		for (let i = this.head; i < this.waiting.length; i++) {
			const entry = this.waiting[i]!;
			if (entry.id === id) {
				this.waiting.splice(i, 1);
				this.waitingBytes -= entry.bytes;
				this.sink.cancelled(id);
				// Notifications that only waited behind it may go now.
				this.drain();
				return true;
			}
		}
		return false;
	}

	/**
	 * The answer to request `id` was written (or could not be). Frees its place and hands on
	 * what waited for it. Answers to ids never handed on (an invalid request's -32600) free nothing.
	 */
	answered(id: RequestId): void {
		const count = this.active.get(id);
		if (count === undefined) {
			return;
		}
		if (count > 1) {
			this.active.set(id, count - 1);
		} else {
			this.active.delete(id);
		}
		this.activeCount--;
		this.drain();
	}

	/** Drops everything waiting (the connection is closing). */
	clear(): void {
		this.waiting.length = 0;
		this.head = 0;
		this.waitingBytes = 0;
	}

	private wait(entry: Waiting<M>): void {
		this.waiting.push(entry);
		this.waitingBytes += entry.bytes;
	}

	private admit(id: RequestId, message: M): void {
		this.active.set(id, (this.active.get(id) ?? 0) + 1);
		this.activeCount++;
		this.sink.deliver(message);
	}

	private drain(): void {
		// Notifications take no place: those at the front go on even when every place is taken.
		while (this.head < this.waiting.length && (this.activeCount < this.limit || this.waiting[this.head]!.id === undefined)) {
			const entry = this.waiting[this.head++]!;
			this.waitingBytes -= entry.bytes;
			if (entry.id === undefined) {
				this.sink.deliver(entry.message);
			} else {
				this.admit(entry.id, entry.message);
			}
		}
		if (this.head === this.waiting.length) {
			this.waiting.length = 0;
			this.head = 0;
		} else if (this.head > 1024 && this.head * 2 > this.waiting.length) {
			this.waiting.splice(0, this.head);
			this.head = 0;
		}
	}
}
