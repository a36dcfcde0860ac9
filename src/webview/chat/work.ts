/**
 * The page's own work per frame (patches applied, entries drawn), for the benchmarks to tell it
 * apart from time the page waited for the processor (bench-chat reads it).
 */
const work = { frames: 0, maxMs: 0, totalMs: 0 };
(globalThis as { __agentLinkChatWork?: typeof work }).__agentLinkChatWork = work;

/** Counts the work done since `started` (`performance.now()`) as one frame's. */
export function recordWork(started: number): void {
	const ms = performance.now() - started;
	work.frames++;
	work.totalMs += ms;
	work.maxMs = Math.max(work.maxMs, ms);
}
