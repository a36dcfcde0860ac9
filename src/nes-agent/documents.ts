/**
 * The agent's own copy of each open document, kept from the client's document
 * events (incremental or full sync), and the user's bursts of editing in it.
 *
 * A burst is a run of changes that touch the same lines (typing a word,
 * fixing it, pressing Enter): while changes land in or next to the burst's
 * lines it grows; a change elsewhere ends it. The engines read the latest
 * burst as "the user's last edit" and the earlier ones as history.
 */
import { ShadowDocument } from '../common/nes/shadowDocument';
import type { Range, TextLines } from '../common/positionEncoding';
import type { LineEdit } from './engines/types';

/** Earlier bursts kept per document. */
const HISTORY = 5;
/** A burst larger than this (a paste, a reformat) is not an example of anything: it is dropped. */
const MAX_BURST_LINES = 500;

export interface ContentChange {
	readonly range?: Range | null;
	readonly text: string;
}

interface Burst {
	readonly startLine: number;
	readonly oldLines: readonly string[];
	/** Lines the burst spans in the current text. */
	readonly newCount: number;
}

const LINE_BREAKS = /\r\n|\r|\n/g;

export class TrackedDocument implements TextLines {
	private text: ShadowDocument;
	private burst: Burst | undefined;
	private readonly history: LineEdit[] = [];

	constructor(
		readonly uri: string,
		readonly languageId: string,
		public version: number,
		text: string,
	) {
		this.text = new ShadowDocument(text);
	}

	get lineCount(): number {
		return this.text.lineCount;
	}

	lineText(line: number): string {
		return this.text.lineText(line);
	}

	getText(): string {
		return this.text.getText();
	}

	/** Applies `changes` in order (each against the text the previous one left), as LSP and ACP define them. */
	applyChanges(changes: readonly ContentChange[], version: number): void {
		for (const change of changes) {
			if (change.range) {
				this.applyRanged(change.range, change.text);
			} else {
				this.replaceAll(change.text);
			}
		}
		this.version = version;
	}

	/** The latest burst, if it changed anything. */
	get lastEdit(): LineEdit | undefined {
		return this.burst ? this.materialize(this.burst) : undefined;
	}

	/** Earlier bursts, oldest first. */
	get earlierEdits(): readonly LineEdit[] {
		return this.history;
	}

	/** Ends the current burst (it moves to the history): the next change starts a new one. */
	endBurst(): void {
		if (this.burst) {
			this.pushHistory(this.materialize(this.burst));
			this.burst = undefined;
		}
	}

	private applyRanged(range: Range, text: string): void {
		const last = this.text.lineCount - 1;
		const startLine = Math.min(Math.max(range.start.line, 0), last);
		const endLine = Math.min(Math.max(range.end.line, startLine), last);
		const breaks = text.match(LINE_BREAKS)?.length ?? 0;
		this.track(startLine, endLine, breaks - (endLine - startLine));
		this.text.apply(range, text);
	}

	private replaceAll(text: string): void {
		const next = new ShadowDocument(text);
		const oldCount = this.text.lineCount;
		const newCount = next.lineCount;
		let head = 0;
		while (head < oldCount && head < newCount && this.text.lineText(head) === next.lineText(head)) {
			head++;
		}
		let tail = 0;
		while (tail < oldCount - head && tail < newCount - head && this.text.lineText(oldCount - 1 - tail) === next.lineText(newCount - 1 - tail)) {
			tail++;
		}
		if (head === oldCount && head === newCount) {
			this.text = next;
			return; // nothing changed
		}
		// An insertion between lines still names one old line, so the burst has a line to compare with.
		const startLine = Math.min(head, oldCount - 1);
		const endLine = Math.max(startLine, oldCount - 1 - tail);
		this.track(startLine, endLine, newCount - oldCount);
		this.text = next;
	}

	/** Records that old lines `[startLine, endLine]` are about to be replaced, `delta` lines more or fewer. */
	private track(startLine: number, endLine: number, delta: number): void {
		const burst = this.burst;
		if (burst) {
			const burstEnd = burst.startLine + burst.newCount - 1;
			if (startLine <= burstEnd && endLine >= burst.startLine) {
				const from = Math.min(startLine, burst.startLine);
				const to = Math.max(endLine, burstEnd);
				const oldLines = [...this.lines(from, burst.startLine), ...burst.oldLines, ...this.lines(burstEnd + 1, to + 1)];
				this.setBurst({ startLine: from, oldLines, newCount: to - from + 1 + delta });
				return;
			}
			this.endBurst();
		}
		this.setBurst({ startLine, oldLines: this.lines(startLine, endLine + 1), newCount: endLine - startLine + 1 + delta });
	}

	private setBurst(burst: Burst): void {
		this.burst = burst.oldLines.length > MAX_BURST_LINES || burst.newCount > MAX_BURST_LINES ? undefined : burst;
	}

	private lines(from: number, to: number): string[] {
		const out: string[] = [];
		for (let line = from; line < to; line++) {
			out.push(this.text.lineText(line));
		}
		return out;
	}

	private materialize(burst: Burst): LineEdit {
		return { startLine: burst.startLine, oldLines: burst.oldLines, newLines: this.lines(burst.startLine, burst.startLine + burst.newCount) };
	}

	private pushHistory(edit: LineEdit): void {
		if (edit.oldLines.length === edit.newLines.length && edit.oldLines.every((line, i) => line === edit.newLines[i])) {
			return;
		}
		this.history.push(edit);
		if (this.history.length > HISTORY) {
			this.history.shift();
		}
	}
}
