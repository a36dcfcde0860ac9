/**
 * The data an engine sees and the proposals it returns. Plain data only: an
 * engine reads no file, holds no connection and knows nothing of the client's
 * capabilities; `../suggestions.ts` turns a proposal into the suggestion kinds
 * the client can show.
 */
import type { Position, Range, TextLines } from '../../common/positionEncoding';

export type { Position, Range, TextLines };

/**
 * One burst of editing in a document: the lines `[startLine, startLine +
 * newLines.length)` of the current text were `oldLines` before the burst.
 */
export interface LineEdit {
	readonly startLine: number;
	readonly oldLines: readonly string[];
	readonly newLines: readonly string[];
}

/** Everything an engine may use for one `nes/suggest`. */
export interface EngineInput {
	readonly uri: string;
	/** The document's language (`languageId` of `document/didOpen`): which comments and strings it has. */
	readonly languageId?: string;
	/** The document as the agent's copy holds it now (UTF-16 positions). */
	readonly document: TextLines;
	readonly cursor: Position;
	/** The user's latest burst of editing in this document, if any. */
	readonly lastEdit: LineEdit | undefined;
	/** Earlier bursts in this document, oldest first (a few at most). */
	readonly earlierEdits: readonly LineEdit[];
	/** The file as a prompt names it (relative to the workspace when inside it); engine 1 does not need it. */
	readonly path?: string;
	/** Recent bursts in any document of the session, oldest first, this document's latest included. */
	readonly recentEdits?: readonly { readonly path: string; readonly edit: LineEdit }[];
	/** Related code the client sent with the request (`context.relatedSnippets`). */
	readonly relatedSnippets?: readonly { readonly path: string; readonly text: string }[];
}

/** A replacement in the current text of the requested document. */
export interface TextEdit {
	readonly range: Range;
	readonly newText: string;
}

/**
 * Finish a rename the user began: `oldName` still occurs (`occurrences`,
 * nearest to the cursor first) after they changed one occurrence to `newName`.
 */
export interface RenameProposal {
	readonly kind: 'rename';
	readonly oldName: string;
	readonly newName: string;
	/** Where the user's edit left `newName`. */
	readonly edited: Range;
	/** Whether the occurrence the user changed was the declaration (so a language rename of the old name cannot resolve). */
	readonly editedDeclaration: boolean;
	/** A remaining occurrence that declares `oldName`, if one is recognized. */
	readonly declaration: Position | undefined;
	readonly occurrences: readonly Range[];
	/**
	 * Whether `occurrences` are every whole-word occurrence of `oldName` in the document, so a
	 * search-and-replace of the whole file does the same; false when some are another symbol
	 * (outside the declaration's scope) or not code (comments, strings).
	 */
	readonly complete: boolean;
}

/** Plain edits, nearest to the cursor first, each on its own place (engine 1's repeated transformation, or a model's output). */
export interface EditsProposal {
	readonly kind: 'edits';
	readonly edits: readonly TextEdit[];
}

export type Proposal = RenameProposal | EditsProposal;

/**
 * An engine: edit-by-example (pure, synchronous) today; a model behind an
 * HTTP endpoint later (#9 engine 2), which is why a result may be a promise
 * and the signal is passed (it aborts when the client cancels the request).
 */
export interface NesEngine {
	readonly name: string;
	suggest(input: EngineInput, signal: AbortSignal): Proposal | undefined | Promise<Proposal | undefined>;
}
