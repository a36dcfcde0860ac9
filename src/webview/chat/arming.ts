/**
 * How long a question's buttons ignore input after they appear (permission prompts and
 * elicitation forms), so a stray Enter or click meant for something else cannot answer it.
 */
export const ARM_MS = 500;

/** A guard for a question drawn now: true while it is still inert. */
export function inertFor(ms = ARM_MS): () => boolean {
	const armedAt = performance.now() + ms;
	return () => performance.now() < armedAt;
}
