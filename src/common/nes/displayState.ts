/**
 * What the status bar shows about next edit suggestions, decided from the facts the
 * suggestion display reports. Pure: it must not read the editor or keep any state.
 */

/** What the status bar shows about suggestions. */
export type NesDisplayState = 'off' | 'idle' | 'waiting' | 'pending' | 'snoozed';

/** How long a request is in flight before the status bar says so (a fast agent would make it flicker per keystroke). */
export const WAITING_AFTER_MS = 300;

export interface DisplayFacts {
	/** A session is open. */
	readonly attached: boolean;
	/** A suggestion shows. */
	readonly shown: boolean;
	/** How long the request in flight has been, in ms (undefined: none in flight). */
	readonly inFlightFor: number | undefined;
	readonly snoozed: boolean;
}

export function displayState(facts: DisplayFacts): NesDisplayState {
	if (!facts.attached) {
		return 'off';
	}
	if (facts.shown) {
		return 'pending';
	}
	if (facts.inFlightFor !== undefined && facts.inFlightFor >= WAITING_AFTER_MS) {
		return 'waiting';
	}
	return facts.snoozed ? 'snoozed' : 'idle';
}
