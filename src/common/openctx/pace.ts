/**
 * How long typing must pause before a document's annotations are asked again. The pause starts
 * short; it doubles, up to a ceiling, each time the document changes again after its providers
 * were asked, so keystrokes that come slower than the pause (a large file in a slow editor) do not
 * each cost a round of every provider; once the document rests it is short again.
 */

export const PAUSE_MS = 250;
export const MAX_PAUSE_MS = 2000;
/** A document unchanged for this long has rested. */
export const REST_MS = MAX_PAUSE_MS + 1000;

export interface Pace {
	/** The pause in force. */
	pauseMs: number;
	/** When the document last changed (ms, one clock). */
	changedAt: number;
	/** When its providers were last asked. */
	askedAt: number;
}

export function newPace(): Pace {
	return { pauseMs: PAUSE_MS, changedAt: Number.NEGATIVE_INFINITY, askedAt: Number.NEGATIVE_INFINITY };
}

/** The document changed at `now`: the pause to wait before asking its providers. */
export function pauseAfterChange(pace: Pace, now: number): number {
	if (now - pace.changedAt > REST_MS) {
		pace.pauseMs = PAUSE_MS;
	} else if (pace.askedAt > pace.changedAt) {
		pace.pauseMs = Math.min(pace.pauseMs * 2, MAX_PAUSE_MS);
	}
	pace.changedAt = now;
	return pace.pauseMs;
}
