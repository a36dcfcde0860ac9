/**
 * What a chat turn did to files, whoever wrote them: through `fs/write_text_file`, with the
 * agent's own tools, or with a shell command. Pure parts: the bounds of the copy of the workspace
 * taken when a turn starts, the paths and diffs a tool call names, the text a file had before the
 * turn (from that copy, or rebuilt from a tool call's diff), each file's text before and after the
 * turn (a {@link TurnLedger}), and what **Undo this turn** can put back (a file changed since the
 * turn is left alone, and named).
 */

/** How much of the workspace is copied when a turn starts, so its changes can be shown and undone. */
export interface SnapshotLimits {
	/** Files looked at, in breadth-first order from each folder. */
	readonly maxFiles: number;
	/** A larger file is not copied. */
	readonly maxFileBytes: number;
	/** Bytes copied in all. */
	readonly maxTotalBytes: number;
}

export const SNAPSHOT_LIMITS: SnapshotLimits = { maxFiles: 5000, maxFileBytes: 1024 * 1024, maxTotalBytes: 32 * 1024 * 1024 };

/** Folders never copied or watched: version control's store and installed packages. */
export const SKIPPED_FOLDERS: ReadonlySet<string> = new Set(['.git', 'node_modules']);

/** Whether `relative` (a path inside a workspace folder, `/` or `\` separated) lies in a skipped folder. */
export function inSkippedFolder(relative: string): boolean {
	return relative.split(/[\\/]/).some((part) => SKIPPED_FOLDERS.has(part));
}

/** A file's text at a moment: its text, no file, or not known (why). */
export type FileText = { readonly kind: 'text'; readonly text: string } | { readonly kind: 'absent' } | { readonly kind: 'unknown'; readonly reason: string };

export const text = (value: string): FileText => ({ kind: 'text', text: value });
export const ABSENT: FileText = { kind: 'absent' };
export const unknown = (reason: string): FileText => ({ kind: 'unknown', reason });

export function sameText(a: FileText, b: FileText): boolean {
	return a.kind === b.kind && (a.kind !== 'text' || a.text === (b as { text: string }).text);
}

/** Where a change is: in the file on disk, or only in the editor's buffer (a write into a document with unsaved edits). */
export type Where = 'disk' | 'buffer';

/** A file a turn changed: what it was before the turn and at its end. */
export interface FileChange {
	readonly path: string;
	readonly before: FileText;
	readonly after: FileText;
	readonly where: Where;
}

/** A diff a tool call shows: `oldText` absent for a new file. */
export interface ToolDiff {
	readonly path: string;
	readonly oldText?: string | null;
	readonly newText: string;
}

/** The files a tool call (`tool_call`, `tool_call_update`, or a permission request's) names: its locations and the paths of its diffs. */
export function namedFiles(call: { readonly locations?: readonly { readonly path: string }[] | null; readonly content?: readonly unknown[] | null }): { paths: string[]; diffs: ToolDiff[] } {
	const paths = new Set<string>();
	const diffs: ToolDiff[] = [];
	for (const location of call.locations ?? []) {
		if (typeof location?.path === 'string') {
			paths.add(location.path);
		}
	}
	for (const item of call.content ?? []) {
		const diff = item as { type?: unknown; path?: unknown; oldText?: unknown; newText?: unknown };
		if (diff?.type === 'diff' && typeof diff.path === 'string' && typeof diff.newText === 'string') {
			paths.add(diff.path);
			diffs.push({ path: diff.path, newText: diff.newText, ...(typeof diff.oldText === 'string' ? { oldText: diff.oldText } : {}) });
		}
	}
	return { paths: [...paths], diffs };
}

/**
 * The text a file had before the edits its tool calls' diffs show, rebuilt from its text now, or
 * undefined when the diffs do not explain it. A diff whose new text is the whole file gives the
 * whole old text (no `oldText`: the file was new); a diff of a fragment (an agent's edit tool sends
 * only the replaced lines) is undone where its new text occurs exactly once, last diff first.
 */
export function beforeFromDiffs(now: string, diffs: readonly ToolDiff[]): FileText | undefined {
	const last = diffs.length - 1;
	if (last >= 0 && diffs[last]!.newText === now) {
		// Whole-file diffs: follow the chain back while each one's old text is the one before's new text.
		let first = last;
		while (first > 0 && isText(diffs[first]!.oldText) && diffs[first - 1]!.newText === diffs[first]!.oldText) {
			first--;
		}
		const old = diffs[first]!.oldText;
		return isText(old) ? text(old) : ABSENT;
	}
	let result = now;
	for (let i = last; i >= 0; i--) {
		const diff = diffs[i]!;
		if (!isText(diff.oldText) || diff.newText.length === 0) {
			return undefined;
		}
		const at = result.indexOf(diff.newText);
		if (at < 0 || result.indexOf(diff.newText, at + 1) >= 0) {
			return undefined;
		}
		result = result.slice(0, at) + diff.oldText + result.slice(at + diff.newText.length);
	}
	return last >= 0 ? text(result) : undefined;
}

const isText = (value: string | null | undefined): value is string => typeof value === 'string';

interface LedgerEntry {
	before: FileText;
	after: FileText;
	where: Where;
	/** The agent changed it in this turn (a user's save no longer sets its text before). */
	agent: boolean;
}

/** Each file's text before a turn and at its end, as the turn goes. */
export class TurnLedger {
	private readonly files = new Map<string, LedgerEntry>();

	/** The agent changed `path` from `before` (kept when known already) to `after`. */
	changed(path: string, before: FileText, after: FileText, where: Where = 'disk'): void {
		const entry = this.files.get(path);
		if (entry) {
			entry.after = after;
			entry.agent = true;
			if (where === 'disk') {
				entry.where = 'disk';
			}
			return;
		}
		this.files.set(path, { before, after, where, agent: true });
	}

	/** The user saved `path` from the editor: what they saved is not the agent's, unless the agent changed the file earlier in the turn. */
	userSaved(path: string, saved: string): void {
		const entry = this.files.get(path);
		if (!entry) {
			this.files.set(path, { before: text(saved), after: text(saved), where: 'disk', agent: false });
		} else if (!entry.agent) {
			entry.before = text(saved);
			entry.after = text(saved);
		}
	}

	/** The text before the turn of a file the ledger knows (a user's save counts), if it does. */
	before(path: string): FileText | undefined {
		return this.files.get(path)?.before;
	}

	/** Whether the agent changed `path` in this turn. */
	has(path: string): boolean {
		return this.files.get(path)?.agent === true;
	}

	/** Where the agent's change to `path` is, if it changed it. */
	where(path: string): Where | undefined {
		const entry = this.files.get(path);
		return entry?.agent ? entry.where : undefined;
	}

	/** The files whose text at the end differs from the text before, in the order first changed. */
	changes(): FileChange[] {
		const out: FileChange[] = [];
		for (const [path, entry] of this.files) {
			if (entry.agent && !sameText(entry.before, entry.after)) {
				out.push({ path, before: entry.before, after: entry.after, where: entry.where });
			}
		}
		return out;
	}
}

/** A file as it is when the user asks to undo a turn: its text (buffer or disk, as the change's `where` says) and whether its editor holds unsaved edits. */
export interface FileNow {
	readonly text: FileText;
	readonly dirty: boolean;
}

/** Why a file is left alone by an undo. */
export type LeftAlone = { readonly path: string; readonly why: 'unsaved' | 'changed' | 'unknown' };

/** What undoing a turn does: the files put back, and those left alone. */
export interface UndoPlan {
	readonly restore: readonly FileChange[];
	readonly leftAlone: readonly LeftAlone[];
}

/**
 * Which of a turn's changes can be undone: those whose file is still as the turn left it. A file
 * with unsaved edits in the editor (for a change on disk), one changed since, and one whose text
 * before the turn is not known are left alone.
 */
export function planUndo(changes: readonly FileChange[], now: (change: FileChange) => FileNow): UndoPlan {
	const restore: FileChange[] = [];
	const leftAlone: LeftAlone[] = [];
	for (const change of changes) {
		if (change.before.kind === 'unknown' || change.after.kind === 'unknown') {
			leftAlone.push({ path: change.path, why: 'unknown' });
			continue;
		}
		const state = now(change);
		if (change.where === 'disk' && state.dirty) {
			leftAlone.push({ path: change.path, why: 'unsaved' });
		} else if (!sameText(state.text, change.after)) {
			leftAlone.push({ path: change.path, why: 'changed' });
		} else {
			restore.push(change);
		}
	}
	return { restore, leftAlone };
}

const WHY: Record<LeftAlone['why'], string> = {
	unsaved: 'has unsaved changes',
	changed: 'changed since',
	unknown: 'no copy from before the turn',
};

/** The question's text: what goes back, what is left alone and why. `name` shortens a path for display. */
export function describeUndo(plan: UndoPlan, name: (path: string) => string): { title: string; lines: string[] } {
	const verb = (change: FileChange) => (change.before.kind === 'absent' ? 'deleted' : change.after.kind === 'absent' ? 'restored' : 'put back');
	const count = plan.restore.length;
	return {
		title: count > 0 ? `Undo this turn's changes to ${count} file${count === 1 ? '' : 's'}?` : 'Nothing of this turn can be undone.',
		lines: [...plan.restore.map((c) => `${name(c.path)}: ${verb(c)}`), ...plan.leftAlone.map((l) => `${name(l.path)}: left alone (${WHY[l.why]})`)],
	};
}

/** The bytes a change keeps (to bound what checkpoints hold). */
export function changeBytes(change: FileChange): number {
	const size = (t: FileText) => (t.kind === 'text' ? t.text.length * 2 : 0);
	return size(change.before) + size(change.after) + change.path.length * 2;
}
