/**
 * The transcript's elicitations (`elicitation/create`): where one asked is drawn (the card of the
 * tool call it names when this turn has one, else an entry of its own) and how it settles
 * (answered, cancelled, or a URL completed). The reducer (transcript.ts) hands it the events.
 */
import { elicitationSize, toolCallSize } from './entrySizes';
import type { EntryStore, Slot } from './entryStore';
import type { Writable } from './modelValues';
import type { Elicitation, ElicitationEntry, ToolCallEntry } from './transcriptModel';

export class ElicitationSlots {
	/** Elicitations not yet settled, and URL ones accepted and waiting to be completed, by request id. */
	private readonly open = new Map<string, Slot>();

	constructor(
		private readonly store: EntryStore,
		/** This turn's card of a tool call id, if any. */
		private readonly cardOf: (toolCallId: string) => Slot | undefined,
	) {}

	asked(elicitation: Elicitation, toolCallId: string | undefined): void {
		const card = toolCallId !== undefined ? this.cardOf(toolCallId) : undefined;
		const cardEntry = card?.entry as Writable<ToolCallEntry> | undefined;
		if (card && cardEntry && !(cardEntry.elicitation && this.open.has(cardEntry.elicitation.requestId))) {
			cardEntry.elicitation = elicitation;
			this.store.resize(card, toolCallSize(cardEntry));
			this.store.touch(card);
			this.open.set(elicitation.requestId, card);
			return;
		}
		const slot = this.store.push({ kind: 'elicitation', elicitation }, undefined);
		this.store.resize(slot, elicitationSize(elicitation));
		this.open.set(elicitation.requestId, slot);
	}

	settled(requestId: string, state: Exclude<Elicitation['state'], 'pending'>): void {
		const slot = this.open.get(requestId);
		const entry = slot?.entry as Writable<ToolCallEntry> | Writable<ElicitationEntry> | undefined;
		if (!slot || !entry?.elicitation || entry.elicitation.requestId !== requestId) {
			return;
		}
		if (state !== 'accepted' || entry.elicitation.mode !== 'url') {
			this.open.delete(requestId);
		}
		entry.elicitation = { ...entry.elicitation, state };
		this.store.touch(slot);
	}

	/** Every pending one settled as cancelled (the session ended, or went on after a restart). */
	cancelPending(): void {
		for (const [requestId, slot] of [...this.open]) {
			const entry = slot.entry as Writable<ToolCallEntry> | Writable<ElicitationEntry>;
			if (entry.elicitation?.state === 'pending') {
				this.settled(requestId, 'cancelled');
			}
		}
	}

	/** A stored entry taken up again: nothing it waited for can still be answered. */
	restore(slot: Slot): void {
		const entry = slot.entry as Writable<ToolCallEntry> | Writable<ElicitationEntry>;
		if (entry.elicitation?.state === 'pending') {
			entry.elicitation = { ...entry.elicitation, state: 'cancelled' };
		}
	}

	/** An entry the caps dropped. */
	forget(slot: Slot): void {
		const entry = slot.entry as Writable<ToolCallEntry> | Writable<ElicitationEntry>;
		if (entry.elicitation && this.open.get(entry.elicitation.requestId) === slot) {
			this.open.delete(entry.elicitation.requestId);
		}
	}
}
