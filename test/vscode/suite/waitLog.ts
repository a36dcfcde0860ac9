// With AGENT_LINK_TEST_WAITS=<ms> set, prints every wait of a test (waitFor, waitUntil, …) that
// took at least that long, with what it waited for: where a suite's wall time goes.
const threshold = Number(process.env.AGENT_LINK_TEST_WAITS ?? '');

/** Notes a wait that began at `start` (Date.now()) for `what`, once it is over. */
export function logWait(start: number, what: string): void {
	const ms = Date.now() - start;
	if (Number.isFinite(threshold) && threshold > 0 && ms >= threshold) {
		console.log(`        wait ${ms} ms: ${what}`);
	}
}
