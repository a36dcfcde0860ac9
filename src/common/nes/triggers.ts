/**
 * When to ask for a suggestion, and which documents a suggestion may touch.
 * Pure decisions over what the editor reports; the vscode layer gathers the
 * inputs and owns the timers.
 */

export type TriggerKind = 'automatic' | 'diagnostic' | 'manual';

export interface TriggerInputs {
	readonly kind: TriggerKind;
	/** `Date.now()`; compared with `snoozedUntil`. */
	readonly now: number;
	/** Suggestions are snoozed until this time (ms since the epoch), if at all. */
	readonly snoozedUntil?: number;
	readonly languageId: string;
	/** `agentLink.nes.disabledLanguages`. */
	readonly disabledLanguages: readonly string[];
	/** The document's URI scheme. */
	readonly scheme: string;
	/** Whether the document is inside one of the workspace folders. */
	readonly inWorkspace: boolean;
	/** How many cursors the editor has. */
	readonly selections: number;
	/** The last document change came from undo or redo. */
	readonly undoRedo?: boolean;
	/** The document is larger than `agentLink.nes.maxFileSize`. */
	readonly tooLarge?: boolean;
}

export type TriggerDecision = { readonly ok: true } | { readonly ok: false; readonly why: string };

/**
 * Whether a trigger of `inputs.kind` may ask the agent. A manual request
 * ignores the snooze and the per-language setting (the user asked), never the
 * rules that protect files.
 */
export function shouldTrigger(inputs: TriggerInputs): TriggerDecision {
	if (inputs.scheme !== 'file') {
		return { ok: false, why: 'only files on disk get suggestions' };
	}
	if (!inputs.inWorkspace) {
		return { ok: false, why: 'the file is outside the workspace folders' };
	}
	if (inputs.tooLarge) {
		return { ok: false, why: 'the file is larger than agentLink.nes.maxFileSize' };
	}
	if (inputs.kind === 'manual') {
		return { ok: true };
	}
	if (inputs.snoozedUntil !== undefined && inputs.now < inputs.snoozedUntil) {
		return { ok: false, why: 'suggestions are snoozed' };
	}
	if (inputs.disabledLanguages.includes(inputs.languageId)) {
		return { ok: false, why: `suggestions are off for ${inputs.languageId}` };
	}
	if (inputs.selections > 1) {
		return { ok: false, why: 'several cursors' };
	}
	if (inputs.undoRedo) {
		return { ok: false, why: 'undo or redo' };
	}
	return { ok: true };
}

/**
 * Whether `uri` lies inside one of `folders` (URI strings as the editor
 * prints them). A folder matches itself and what is below it, never a sibling
 * that merely shares its prefix (`/a/b` does not contain `/a/bc`).
 */
export function isInsideFolders(uri: string, folders: readonly string[]): boolean {
	for (const folder of folders) {
		const base = folder.endsWith('/') ? folder : `${folder}/`;
		if (uri === folder || uri.startsWith(base)) {
			return true;
		}
	}
	return false;
}

/** An error or warning, reduced to what tells one from another. */
export interface DiagnosticKey {
	readonly line: number;
	readonly severity: 'error' | 'warning' | 'information' | 'hint';
	readonly message: string;
}

const key = (d: DiagnosticKey) => `${d.line}\u0000${d.severity}\u0000${d.message}`;

/**
 * Whether `after` has an error or warning within `window` lines of
 * `cursorLine` that `before` did not have (same line, severity and message).
 */
export function newProblemNear(before: readonly DiagnosticKey[], after: readonly DiagnosticKey[], cursorLine: number, window = 3): boolean {
	const known = new Set(before.map(key));
	return after.some((d) => (d.severity === 'error' || d.severity === 'warning') && Math.abs(d.line - cursorLine) <= window && !known.has(key(d)));
}

/**
 * Whether typing or moving the cursor starts the automatic trigger's timer at all: not without
 * a session, in a language where suggestions are off, or while snoozed (nothing for the editor
 * to wait for either).
 */
export function schedulesAutomatic(inputs: { readonly attached: boolean; readonly languageId: string | undefined; readonly disabledLanguages: readonly string[]; readonly snoozed: boolean }): boolean {
	if (!inputs.attached || inputs.snoozed) {
		return false;
	}
	return inputs.languageId === undefined || !inputs.disabledLanguages.includes(inputs.languageId);
}

/**
 * The problems last seen in one document, to tell a new one from those already there. Seeing
 * another document starts afresh.
 */
export class ProblemWatch {
	private snapshot: { readonly uri: string; readonly keys: readonly DiagnosticKey[] } | undefined;

	/** Records `keys` as `uri`'s problems; whether one of them is new within `window` lines of `cursorLine`. */
	update(uri: string, keys: readonly DiagnosticKey[], cursorLine: number, window = 3): boolean {
		const before = this.snapshot?.uri === uri ? this.snapshot.keys : [];
		this.snapshot = { uri, keys };
		return newProblemNear(before, keys, cursorLine, window);
	}
}
