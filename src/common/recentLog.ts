/**
 * A bounded memory of recent log lines, so tests and bug reports can see what the log said.
 * A ring: once full, each line takes the oldest one's place, so a push costs the same however
 * many lines came before (a flood of them included).
 */
export class RecentLog {
	private readonly lines: string[] = [];
	/** Once full: where the oldest line is, and the next one goes. */
	private oldest = 0;

	constructor(private readonly capacity = 500) {}

	push(line: string): void {
		if (this.lines.length < this.capacity) {
			this.lines.push(line);
			return;
		}
		this.lines[this.oldest] = line;
		this.oldest = (this.oldest + 1) % this.capacity;
	}

	/** The lines, oldest first. */
	snapshot(): readonly string[] {
		return [...this.lines.slice(this.oldest), ...this.lines.slice(0, this.oldest)];
	}
}
