/**
 * The transcript's entries and revisions: ids handed out in order, the revision each entry last
 * changed at, the recent text appended to each (so a patch can carry only that), the caps on
 * entries and characters (the oldest dropped), and the snapshot and patches built from them. It
 * knows nothing of ACP or of what an entry means: transcript.ts decides what changes, this file
 * records that it did.
 */
import { entrySize } from './entrySizes';
import type { Writable } from './modelValues';
import type { Block, Entry, EntryChange, MessageEntry, TranscriptLimits } from './transcriptModel';

/**
 * How many recent text pieces, and characters, an entry keeps so a patch can carry only what was
 * appended. A fast agent sends hundreds of chunks between two patches (one a frame): with fewer
 * pieces than that, every patch would carry the whole growing entry.
 */
const TAIL_PIECES = 4096;
const TAIL_CHARS = 64 * 1024;
/** How many entries keep such a tail at once: the ones text was last appended to (a thought and a message may stream in turns). */
const TAIL_SLOTS = 4;

export type WritableEntry = Entry extends infer E ? (E extends Entry ? Writable<E> : never) : never;
/** An entry before it has an id and a revision. */
export type NewEntry = WritableEntry extends infer E ? (E extends WritableEntry ? Omit<E, 'id' | 'rev'> : never) : never;

export interface Slot {
	readonly entry: WritableEntry;
	/** The entry's `blocks`, which chunks grow in place (patches and snapshots copy it). */
	readonly blocks: Block[] | undefined;
	/** Characters this entry holds, as counted against the caps. */
	size: number;
	/** Chunks of the same kind may still be merged into it. */
	open: boolean;
	/** Text appended to the last block since revision `tailFloor`, piece by piece, with the revision of each. */
	tail: string[];
	tailRevs: number[];
	tailChars: number;
	tailFloor: number;
}

export class EntryStore {
	private rev = 0;
	private nextId = 1;
	private droppedCount = 0;
	private totalChars = 0;
	/** Slots from `head` on are the transcript; the ones before were dropped and are cleared in batches. */
	private slots: Slot[] = [];
	private head = 0;
	/** Whether the event being applied changed anything (set by every `touch`). */
	private changed = false;
	/** The revision at which the session's information last changed. */
	private sessionRev = 0;
	/** The entries that keep a tail, the one appended to last at the end. */
	private tailSlots: Slot[] = [];

	/** `forget` is told of each entry the caps drop, so the indexes that point at it let go. */
	constructor(
		private readonly limits: TranscriptLimits,
		private readonly forget: (slot: Slot) => void,
	) {}

	/** Moves by one with every event that changed something. */
	get revision(): number {
		return this.rev;
	}

	get size(): number {
		return this.slots.length - this.head;
	}

	get dropped(): number {
		return this.droppedCount;
	}

	/** An event starts: what it changes gets the next revision. */
	begin(): void {
		this.rev++;
		this.changed = false;
	}

	/** The event is over: it keeps its revision if it changed something (then the caps apply); `false` when it changed nothing. */
	end(): boolean {
		if (!this.changed) {
			this.rev--;
			return false;
		}
		this.evict();
		return true;
	}

	/**
	 * Takes a stored snapshot's entries as they are (ids numbered again from `firstId`, revisions
	 * kept), each handed to `each` as it is added; the caps apply after `done`.
	 */
	restore(entries: readonly Entry[], firstId: number, revision: number, dropped: number, each: (slot: Slot) => void): void {
		let rev = revision;
		entries.forEach((stored, index) => {
			const entry = { ...stored, id: firstId + index } as WritableEntry;
			rev = Math.max(rev, entry.rev);
			let blocks: Block[] | undefined;
			if ('blocks' in entry) {
				blocks = [...entry.blocks];
				(entry as Writable<MessageEntry>).blocks = blocks;
			}
			const slot: Slot = { entry, blocks, size: 0, open: false, tail: [], tailRevs: [], tailChars: 0, tailFloor: entry.rev };
			this.slots.push(slot);
			this.resize(slot, entrySize(entry));
			each(slot);
		});
		this.rev = rev;
		this.sessionRev = rev;
		this.nextId = firstId + entries.length;
		this.droppedCount = dropped;
	}

	/** Applies the caps (after a restore; events apply them on their own). */
	done(): void {
		this.evict();
	}

	push(entry: NewEntry, blocks: Block[] | undefined): Slot {
		this.closeLast();
		const full = { ...entry, id: this.nextId++, rev: this.rev } as WritableEntry;
		if (blocks) {
			(full as Writable<MessageEntry>).blocks = blocks;
		}
		const slot: Slot = { entry: full, blocks, size: 0, open: true, tail: [], tailRevs: [], tailChars: 0, tailFloor: this.rev };
		this.slots.push(slot);
		this.changed = true;
		return slot;
	}

	last(): Slot | undefined {
		return this.slots.length > this.head ? this.slots[this.slots.length - 1] : undefined;
	}

	/** The last entry takes no more chunks: whatever comes next starts an entry of its own. */
	closeLast(): void {
		const last = this.last();
		if (last) {
			last.open = false;
		}
	}

	firstId(): number {
		return this.slots.length > this.head ? this.slots[this.head]!.entry.id : this.nextId;
	}

	slotById(id: number): Slot | undefined {
		const index = this.head + (id - this.firstId());
		return index >= this.head && index < this.slots.length ? this.slots[index] : undefined;
	}

	/** The entry changed in a way other than text appended at its end. */
	touch(slot: Slot): void {
		this.changed = true;
		slot.entry.rev = this.rev;
		dropTail(slot);
	}

	/** `piece` was appended to the entry's last (text) block and nothing else changed. */
	touchAppended(slot: Slot, piece: string): void {
		this.changed = true;
		slot.entry.rev = this.rev;
		if (piece.length === 0) {
			return;
		}
		this.keepTail(slot);
		slot.tail.push(piece);
		slot.tailRevs.push(this.rev);
		slot.tailChars += piece.length;
		if (slot.tail.length > TAIL_PIECES || slot.tailChars > TAIL_CHARS) {
			// Keep the newer half; a page further behind gets the whole entry.
			const drop = Math.max(1, slot.tail.length >> 1);
			slot.tailFloor = slot.tailRevs[drop - 1]!;
			for (const dropped of slot.tail.splice(0, drop)) {
				slot.tailChars -= dropped.length;
			}
			slot.tailRevs.splice(0, drop);
		}
	}

	/** `slot` keeps its tail; the entry appended to longest ago beyond {@link TAIL_SLOTS} lets its go (a page behind it gets it whole). */
	private keepTail(slot: Slot): void {
		const last = this.tailSlots[this.tailSlots.length - 1];
		if (last === slot) {
			return;
		}
		const at = this.tailSlots.indexOf(slot);
		if (at >= 0) {
			this.tailSlots.splice(at, 1);
		} else if (this.tailSlots.length >= TAIL_SLOTS) {
			dropTail(this.tailSlots.shift()!);
		}
		this.tailSlots.push(slot);
	}

	/** The session's information changed in this event. */
	touchSession(): void {
		this.changed = true;
		this.sessionRev = this.rev;
	}

	sessionChangedSince(from: number): boolean {
		return this.sessionRev > from;
	}

	grow(slot: Slot, chars: number): void {
		slot.size += chars;
		this.totalChars += chars;
	}

	resize(slot: Slot, chars: number): void {
		this.totalChars += chars - slot.size;
		slot.size = chars;
	}

	/** Every entry, copied. */
	entries(): Entry[] {
		const entries: Entry[] = [];
		for (let i = this.head; i < this.slots.length; i++) {
			entries.push(exportEntry(this.slots[i]!));
		}
		return entries;
	}

	/** The entries changed after revision `from`: appended text alone where the recent pieces are at hand, else whole. */
	changesSince(from: number): EntryChange[] {
		const changes: EntryChange[] = [];
		// A scan of at most maxEntries revision numbers, once per patch (the host sends about one a frame).
		for (let i = this.head; i < this.slots.length; i++) {
			const slot = this.slots[i]!;
			if (slot.entry.rev > from) {
				changes.push(changeOf(slot, from));
			}
		}
		return changes;
	}

	/** Drops the oldest entries beyond the caps (never the last one, which the caps on one entry bound). */
	private evict(): void {
		while (this.size > 1 && (this.size > this.limits.maxEntries || this.totalChars > this.limits.maxTotalChars)) {
			const slot = this.slots[this.head]!;
			this.slots[this.head] = undefined as unknown as Slot;
			this.head++;
			this.droppedCount++;
			this.totalChars -= slot.size;
			this.forget(slot);
		}
		if (this.head > 1024 && this.head * 2 > this.slots.length) {
			this.slots = this.slots.slice(this.head);
			this.head = 0;
		}
	}
}

function exportEntry(slot: Slot): Entry {
	const entry = { ...slot.entry };
	if (slot.blocks) {
		(entry as Writable<MessageEntry>).blocks = [...slot.blocks];
	}
	return entry;
}

/** The entry keeps no appended text: a page behind its revision gets it whole. */
function dropTail(slot: Slot): void {
	slot.tail = [];
	slot.tailRevs = [];
	slot.tailChars = 0;
	slot.tailFloor = slot.entry.rev;
}

function changeOf(slot: Slot, from: number): EntryChange {
	const blocks = slot.blocks;
	if (blocks && from >= slot.tailFloor && slot.tail.length > 0 && blocks[blocks.length - 1]?.type === 'text') {
		let i = slot.tailRevs.length;
		while (i > 0 && slot.tailRevs[i - 1]! > from) {
			i--;
		}
		return { id: slot.entry.id, rev: slot.entry.rev, append: slot.tail.slice(i).join('') };
	}
	return { entry: exportEntry(slot) };
}
