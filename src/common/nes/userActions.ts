/**
 * The user's recent actions: the `userActions` context of `nes/suggest`
 * (`shared/specs/protocols.md` §2). Edits are classified as `insertChar`,
 * `deleteChar`, `insertText` (paste, completion, snippet), `undo` or `redo`;
 * selection changes as `cursorMovement` (empty selection) or `selectionChange`.
 * Kept in a ring buffer; sent in the shape of the revision the agent speaks:
 * seed `{action, uri, line, offset, timestampMs}`, merged
 * `{action, uri, position, timestampMs}`.
 *
 * Positions are converted to the agent's encoding when the action is recorded,
 * since only then is the line text they refer to at hand. Pure: no `vscode`,
 * no Node built-ins.
 */
import { toAgentCharacter } from '../positionEncoding';
import type { NesRevision, PositionEncoding } from './protocol';

export type UserActionKind = 'insertChar' | 'deleteChar' | 'insertText' | 'undo' | 'redo' | 'cursorMovement' | 'selectionChange';

/** An action as recorded; `character` is already in the agent's encoding. */
export interface RecordedUserAction {
	readonly action: UserActionKind;
	readonly uri: string;
	readonly line: number;
	readonly character: number;
	readonly timestampMs: number;
}

/** `TextDocumentChangeEvent.reason`, by name. */
export type EditReason = 'undo' | 'redo' | undefined;

/** One replacement of a change event: where it starts (UTF-16), how much it removed, what it inserted. */
export interface EditChange {
	readonly line: number;
	readonly character: number;
	readonly rangeLength: number;
	readonly text: string;
}

// What typing one key can insert: a character (one code point), Enter with the
// indentation the editor adds, Tab as spaces, or an auto-closed pair.
const TYPED = /^(?:[\s\S]|[\ud800-\udbff][\udc00-\udfff]|(?:\r\n|\n)[ \t]*| {2,8}|\(\)|\[\]|\{\}|""|''|``|<>)$/;

/**
 * The action one change event stands for, judged by its first replacement
 * (the others of a multi-cursor edit are alike); `undefined` for an event that
 * changes nothing.
 */
export function classifyEdit(reason: EditReason, changes: readonly Pick<EditChange, 'rangeLength' | 'text'>[]): UserActionKind | undefined {
	const first = changes[0];
	if (!first) {
		return undefined;
	}
	if (reason) {
		return reason;
	}
	if (first.text === '') {
		return first.rangeLength > 0 ? 'deleteChar' : undefined;
	}
	return TYPED.test(first.text) ? 'insertChar' : 'insertText';
}

export interface UserActionOptions {
	/** Actions remembered. */
	readonly capacity: number;
	/** A cursor movement (or selection change) this soon after the previous one, in the same file, replaces it. */
	readonly coalesceMs: number;
	/** A selection change this soon after an edit, at the version it made, is the edit moving the cursor. */
	readonly echoMs: number;
}

export const DEFAULT_USER_ACTION_OPTIONS: UserActionOptions = Object.freeze({ capacity: 64, coalesceMs: 150, echoMs: 250 });

/** A position as the editor reports it (UTF-16), with its line's text read only when the encoding needs it. */
export interface EditorPosition {
	readonly line: number;
	readonly character: number;
	readonly lineText: () => string;
}

/** Records actions for one NES session (one position encoding). */
export class UserActionRecorder {
	private readonly options: UserActionOptions;
	private readonly ring: (RecordedUserAction | undefined)[];
	private head = 0;
	private size = 0;
	private lastEdit: { uri: string; version: number; timeMs: number } | undefined;

	constructor(
		private readonly encoding: PositionEncoding,
		options: Partial<UserActionOptions> = {},
	) {
		this.options = { ...DEFAULT_USER_ACTION_OPTIONS, ...options };
		this.ring = new Array<RecordedUserAction | undefined>(Math.max(1, this.options.capacity));
	}

	/**
	 * Records a change event of `uri`; `version` is the document's version after
	 * it. `at` is where the first replacement starts, in the text after the
	 * event (the text before that point is unchanged by it).
	 */
	recordEdit(uri: string, version: number, reason: EditReason, changes: readonly Pick<EditChange, 'rangeLength' | 'text'>[], at: EditorPosition, timeMs: number): void {
		const action = classifyEdit(reason, changes);
		if (!action) {
			return;
		}
		this.lastEdit = { uri, version, timeMs };
		this.push({ action, uri, line: at.line, character: this.character(at), timestampMs: timeMs });
	}

	/**
	 * Records a selection change of `uri` at `version`. The one that follows an
	 * edit (the cursor moved by the typing itself) is not an action of its own,
	 * unless the mouse made it.
	 */
	recordSelection(uri: string, version: number, empty: boolean, active: EditorPosition, timeMs: number, byMouse = false): void {
		const edit = this.lastEdit;
		if (!byMouse && edit && edit.uri === uri && edit.version === version && timeMs - edit.timeMs <= this.options.echoMs) {
			this.lastEdit = undefined;
			return;
		}
		const action: UserActionKind = empty ? 'cursorMovement' : 'selectionChange';
		const entry: RecordedUserAction = { action, uri, line: active.line, character: this.character(active), timestampMs: timeMs };
		const previous = this.size > 0 ? this.ring[(this.head - 1 + this.ring.length) % this.ring.length] : undefined;
		if (previous && previous.action === action && previous.uri === uri && timeMs - previous.timestampMs <= this.options.coalesceMs) {
			// Holding an arrow key or dragging the mouse: one action, where it ended.
			this.ring[(this.head - 1 + this.ring.length) % this.ring.length] = entry;
			return;
		}
		this.push(entry);
	}

	/** The `maxCount` most recent actions, oldest first. */
	recent(maxCount: number): RecordedUserAction[] {
		const n = Math.max(0, Math.min(maxCount, this.size));
		const result: RecordedUserAction[] = [];
		for (let i = n; i > 0; i--) {
			result.push(this.ring[(this.head - i + this.ring.length) % this.ring.length]!);
		}
		return result;
	}

	private character(at: EditorPosition): number {
		return this.encoding === 'utf-16' ? at.character : toAgentCharacter(at.lineText(), at.character, this.encoding);
	}

	private push(entry: RecordedUserAction): void {
		this.ring[this.head] = entry;
		this.head = (this.head + 1) % this.ring.length;
		this.size = Math.min(this.size + 1, this.ring.length);
	}
}

/** A user action in the seed revision's shape. */
export interface SeedUserAction {
	readonly action: UserActionKind;
	readonly uri: string;
	readonly line: number;
	readonly offset: number;
	readonly timestampMs: number;
}

/** A user action in the merged revision's shape (`NesUserAction`). */
export interface MergedUserAction {
	readonly action: UserActionKind;
	readonly uri: string;
	readonly position: { readonly line: number; readonly character: number };
	readonly timestampMs: number;
}

/** Recorded actions in the shape of `revision`. */
export function userActionsForRevision(revision: NesRevision, actions: readonly RecordedUserAction[]): (SeedUserAction | MergedUserAction)[] {
	return revision === 'seed'
		? actions.map((a) => ({ action: a.action, uri: a.uri, line: a.line, offset: a.character, timestampMs: a.timestampMs }))
		: actions.map((a) => ({ action: a.action, uri: a.uri, position: { line: a.line, character: a.character }, timestampMs: a.timestampMs }));
}
