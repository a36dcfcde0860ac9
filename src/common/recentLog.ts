/** A bounded memory of recent log lines, so tests and bug reports can see what the log said. */
export class RecentLog {
	private readonly lines: string[] = [];

	constructor(private readonly capacity = 500) {}

	push(line: string): void {
		this.lines.push(line);
		if (this.lines.length > this.capacity) {
			this.lines.splice(0, this.lines.length - this.capacity);
		}
	}

	snapshot(): readonly string[] {
		return [...this.lines];
	}
}
