/**
 * Checks that many requests ask for at once, or one soon after another, shared:
 * a check (whether a file exists, say) is made once for a key and its answer
 * serves every caller until it is `freshMs` old, counted from when the check
 * began; a check still running serves every caller however long it takes, so a
 * slow or hung disk costs one check per key, not one per caller. An agent that
 * sends thousands of `workspace/recent_documents` requests a second costs one
 * check per file every `freshMs`, not one per request.
 *
 * Pure: the check and the clock are injected.
 */

interface Known<V> {
	readonly startedAt: number;
	readonly value: Promise<V>;
	settled: boolean;
}

/** Keys remembered before the answers are forgotten all at once (they are cheap to ask again). */
const DEFAULT_LIMIT = 1000;

export class SharedChecks<K, V> {
	private readonly known = new Map<K, Known<V>>();

	constructor(
		private readonly check: (key: K) => Promise<V>,
		private readonly freshMs: number,
		private readonly now: () => number = () => performance.now(),
		private readonly limit = DEFAULT_LIMIT,
	) {}

	/** The answer for `key`: the one being checked or checked less than `freshMs` ago, else a new check's. */
	get(key: K): Promise<V> {
		const now = this.now();
		const known = this.known.get(key);
		if (known && (!known.settled || now - known.startedAt < this.freshMs)) {
			return known.value;
		}
		if (this.known.size >= this.limit) {
			this.known.clear();
		}
		const entry: Known<V> = { startedAt: now, value: this.check(key), settled: false };
		const settle = () => void (entry.settled = true);
		entry.value.then(settle, settle);
		this.known.set(key, entry);
		return entry.value;
	}
}
