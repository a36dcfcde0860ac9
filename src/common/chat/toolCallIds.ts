/**
 * Which tool call card a tool call id names. ACP asks agents for ids unique within a session, but
 * not every agent keeps to it: the ACP SDK's example agent sends `call_1` in every turn. So a card
 * belongs to the turn it was made in:
 *
 * - a `tool_call`, `tool_call_update` or permission request whose id names a card of the current
 *   turn goes to that card (the newest one with the id);
 * - an id that names only cards of earlier turns starts a new card in the current turn, and is
 *   noted as reused (once per reuse, not per update), for the log;
 * - an earlier turn's cards never change again.
 *
 * A turn is named by the id of the user message that began it (0 before the first).
 */

/** Reused ids kept until taken: a bound on what a transcript nobody drains can hold. */
const MAX_NOTED = 100;

export class ToolCallCards<Card> {
	/** The newest card for each id, with the turn it was made in. */
	private readonly newest = new Map<string, { readonly card: Card; readonly turn: number }>();
	private noted: string[] = [];

	/**
	 * The card `toolCallId` names in `turn`: the newest card with the id when it was made in this
	 * turn, else undefined (a new card is to be made). An id found only in earlier turns is noted.
	 */
	find(toolCallId: string, turn: number): Card | undefined {
		const found = this.newest.get(toolCallId);
		if (found === undefined) {
			return undefined;
		}
		if (found.turn === turn) {
			return found.card;
		}
		if (this.noted.length < MAX_NOTED) {
			this.noted.push(toolCallId);
		}
		return undefined;
	}

	/** `card` is now the newest with `toolCallId`, made in `turn`. */
	add(toolCallId: string, card: Card, turn: number): void {
		this.newest.set(toolCallId, { card, turn });
	}

	/** `card` is gone (dropped past the transcript's caps): its id names nothing unless a newer card has it. */
	forget(toolCallId: string, card: Card): void {
		if (this.newest.get(toolCallId)?.card === card) {
			this.newest.delete(toolCallId);
		}
	}

	/** The ids found reused since the last call, in order (each reuse once). */
	takeReused(): string[] {
		const taken = this.noted;
		this.noted = [];
		return taken;
	}
}
