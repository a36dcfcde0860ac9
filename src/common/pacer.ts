/**
 * Paces the handling of an agent's input: lines are queued as they are read and
 * handled in slices of at most `sliceMs`, one macrotask each, so that however much
 * one agent sends, the event loop turns between slices and other agents, the chat
 * and next edit suggestions keep going.
 *
 * Flow control: when the bytes queued and not yet handled reach `highWaterBytes`,
 * the source is paused (for a pipe: nothing more is read, the pipe fills and the
 * agent's writes block, as flow control over a pipe should), and resumed once the
 * queue is down to a quarter of that. A flood therefore waits in the agent, not
 * in our memory, and a message the agent sends after it waits behind at most
 * `highWaterBytes` of it.
 *
 * Items already handled may still wait elsewhere (requests waiting for a free
 * place, see `admission.ts`): their bytes are {@link Pacer.hold | held}, and
 * while more than `maxHeldBytes` are, no more items are handled (the queue then
 * fills and the source is paused), only deferred work.
 *
 * Pure: the clock and the scheduler are injected (real ones by default).
 */

export interface PacerSink<T> {
	/** Handles one queued item. */
	handle(item: T): void;
	/** Stop reading: the queue is full. */
	pause(): void;
	/** Read again. */
	resume(): void;
}

export interface PacerOptions {
	/** The longest a slice keeps on taking items (one item may take longer). Default {@link DEFAULT_SLICE_MS}. */
	readonly sliceMs?: number;
	/** Bytes queued at which the source is paused. Default {@link DEFAULT_HIGH_WATER_BYTES}. */
	readonly highWaterBytes?: number;
	/** Bytes held elsewhere past which no more items are handled. Default {@link DEFAULT_MAX_HELD_BYTES}. */
	readonly maxHeldBytes?: number;
	readonly now?: () => number;
	/** Runs `slice` in a later macrotask. Default `setImmediate`. */
	readonly schedule?: (slice: () => void) => void;
}

export const DEFAULT_SLICE_MS = 8;
export const DEFAULT_HIGH_WATER_BYTES = 512 * 1024;
export const DEFAULT_MAX_HELD_BYTES = 16 * 1024 * 1024;

export class Pacer<T> {
	private items: T[] = [];
	private sizes: number[] = [];
	private head = 0;
	private queuedBytes = 0;
	private heldBytes = 0;
	/** Work handed in between slices, done at the start of the next one, before any item. */
	private deferred: (() => void)[] = [];
	private scheduled = false;
	private slicing = false;
	private endSlice = false;
	private paused = false;
	private stopped = false;
	private readonly sliceMs: number;
	private readonly highWaterBytes: number;
	private readonly maxHeldBytes: number;
	private readonly now: () => number;
	private readonly schedule: (slice: () => void) => void;

	constructor(
		private readonly sink: PacerSink<T>,
		options: PacerOptions = {},
	) {
		this.sliceMs = options.sliceMs ?? DEFAULT_SLICE_MS;
		this.highWaterBytes = options.highWaterBytes ?? DEFAULT_HIGH_WATER_BYTES;
		this.maxHeldBytes = options.maxHeldBytes ?? DEFAULT_MAX_HELD_BYTES;
		this.now = options.now ?? (() => performance.now());
		this.schedule = options.schedule ?? ((slice) => void setImmediate(slice));
	}

	/** Bytes queued and not yet handled. */
	get bytes(): number {
		return this.queuedBytes;
	}

	/** Items queued and not yet handled. */
	get length(): number {
		return this.items.length - this.head;
	}

	/** Whether the source is paused. */
	get isPaused(): boolean {
		return this.paused;
	}

	/** Whether a slice is running now (work may be done at once rather than deferred). */
	get inSlice(): boolean {
		return this.slicing;
	}

	/** Queues an item of `bytes` bytes. */
	push(item: T, bytes: number): void {
		if (this.stopped) {
			return;
		}
		this.items.push(item);
		this.sizes.push(bytes);
		this.queuedBytes += bytes;
		if (!this.paused && this.queuedBytes >= this.highWaterBytes) {
			this.paused = true;
			this.sink.pause();
		}
		this.wake();
	}

	/** Runs `work` in the next slice, before the items queued. */
	defer(work: () => void): void {
		if (this.stopped) {
			return;
		}
		this.deferred.push(work);
		this.wake();
	}

	/** Bytes of items handled that still wait elsewhere; items are handled again once this is under `maxHeldBytes`. */
	hold(bytes: number): void {
		const wasFull = this.heldBytes >= this.maxHeldBytes;
		this.heldBytes = bytes;
		if (wasFull && bytes < this.maxHeldBytes && this.length > 0) {
			this.wake();
		}
	}

	/** Ends the current slice after the item being handled: what it started runs before the next item. */
	yieldSlice(): void {
		this.endSlice = true;
	}

	/** Drops everything queued and handles nothing more. */
	stop(): void {
		this.stopped = true;
		this.items = [];
		this.sizes = [];
		this.head = 0;
		this.queuedBytes = 0;
		this.heldBytes = 0;
		this.deferred = [];
	}

	private wake(): void {
		if (!this.scheduled && !this.slicing) {
			this.scheduled = true;
			this.schedule(() => this.slice());
		}
	}

	private slice(): void {
		this.scheduled = false;
		if (this.stopped) {
			return;
		}
		this.slicing = true;
		this.endSlice = false;
		const deadline = this.now() + this.sliceMs;
		try {
			while (!this.stopped && !this.endSlice && this.step() && this.now() < deadline) {
				// One item or one piece of deferred work a step.
			}
		} finally {
			this.slicing = false;
			this.compact();
			if (this.paused && !this.stopped && this.queuedBytes <= this.highWaterBytes / 4) {
				this.paused = false;
				this.sink.resume();
			}
			if (!this.stopped && ((this.length > 0 && this.heldBytes < this.maxHeldBytes) || this.deferred.length > 0)) {
				this.wake();
			}
		}
	}

	/** Does one piece of deferred work, or handles one item; false if there was nothing to do. */
	private step(): boolean {
		const work = this.deferred.shift();
		if (work) {
			work();
			return true;
		}
		if (this.head === this.items.length || this.heldBytes >= this.maxHeldBytes) {
			return false;
		}
		const item = this.items[this.head]!;
		this.queuedBytes -= this.sizes[this.head]!;
		this.items[this.head] = undefined as T;
		this.head++;
		this.sink.handle(item);
		return true;
	}

	private compact(): void {
		if (this.head === this.items.length) {
			this.items = [];
			this.sizes = [];
			this.head = 0;
		} else if (this.head > 1024 && this.head * 2 > this.items.length) {
			this.items = this.items.slice(this.head);
			this.sizes = this.sizes.slice(this.head);
			this.head = 0;
		}
	}
}
