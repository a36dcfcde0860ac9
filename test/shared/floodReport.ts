/** What the hostile flood agent (test/fixtures/agents/hostile-flood-agent.mjs) answers to `_test/hostileFlood`. */
export interface FloodReport {
	/** Hostile lines written. */
	readonly lines: number;
	readonly byKind: Record<string, number>;
	/** Answers owed, and answers got, by kind. */
	readonly expected: Record<string, number>;
	readonly got: Record<string, number>;
	readonly missing: number;
	readonly unexpected: unknown[];
	readonly timedOut: boolean;
	readonly writeMs: number;
	readonly floodMs: number;
	readonly linesPerSecond: number;
	/** Every answer the flood got, per second of floodMs. */
	readonly answersPerSecond: number;
	/** Valid requests in the flood (the 'mostlyValid' mix; 0 in the 'hostile' one). */
	readonly validRequests: number;
	/** From the first line to the last answer to the flood's valid requests. */
	readonly validMs: number;
	readonly validPerSecond: number;
	readonly drainMs: number;
	readonly validLatencyMs: number;
	/** The answer to the valid request sent right after the flood. */
	readonly valid: { result?: unknown; error?: { code: number; message: string } };
}
