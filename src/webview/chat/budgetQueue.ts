/**
 * Work done a little at a time: keys wait with a priority (lower runs first) and are run in that
 * order for at most a time budget per slice, so that no slice holds the page for long. The chat
 * page draws the entries that near the screen with it, a frame's budget at a time. Pure (the clock
 * is passed in), for plain Node tests.
 */
export class BudgetQueue<K> {
	private readonly waiting = new Map<K, number>();

	constructor(private readonly now: () => number) {}

	get size(): number {
		return this.waiting.size;
	}

	/** Adds `key`, or gives it a new priority (the latest is the best known). */
	set(key: K, priority: number): void {
		this.waiting.set(key, priority);
	}

	delete(key: K): void {
		this.waiting.delete(key);
	}

	clear(): void {
		this.waiting.clear();
	}

	/**
	 * Runs waiting keys, lowest priority first (the earlier added on a tie), until `budgetMs` has
	 * passed; at least one runs, so the queue always moves. Keys that `work` adds wait for the next
	 * slice. Returns how many ran.
	 */
	run(budgetMs: number, work: (key: K) => void): number {
		const started = this.now();
		const order = [...this.waiting].sort((a, b) => a[1] - b[1]);
		let ran = 0;
		for (const [key, priority] of order) {
			if (ran > 0 && this.now() - started >= budgetMs) {
				break;
			}
			if (this.waiting.get(key) !== priority) {
				continue; // dropped, or given a new priority, by the work done meanwhile
			}
			this.waiting.delete(key);
			work(key);
			ran++;
		}
		return ran;
	}
}
