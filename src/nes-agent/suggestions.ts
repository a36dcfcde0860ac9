/**
 * From an engine's proposal to the suggestion kinds the client can show
 * (merged NES revision: `edit`, `jump`, `rename`, `searchAndReplace`), and the
 * memory of what was offered, accepted and rejected.
 */
import type * as nes from '@agentclientprotocol/sdk/experimental/nes';
import { wholeWordPattern } from './engines/identifiers';
import type { Position, Proposal, TextEdit } from './engines/types';

/** The suggestion kinds the client advertised besides `edit` (`clientCapabilities.nes`). */
export interface ClientFeatures {
	readonly jump: boolean;
	readonly rename: boolean;
	readonly searchAndReplace: boolean;
}

export const NO_FEATURES: ClientFeatures = { jump: false, rename: false, searchAndReplace: false };

/** Jumps offered after the first edit: the next places, not all of them. */
const MAX_JUMPS = 10;
/**
 * A name this short (`i`, `x`, `id`) is likely another symbol elsewhere in the file: it is
 * never renamed in one go, only place by place, each edit shown before it is made.
 */
const MIN_BULK_NAME = 3;

export interface ShapeOptions {
	readonly features: ClientFeatures;
	readonly newId: () => string;
	/** Whether the user rejected a suggestion for this place a moment ago. */
	readonly isRejected: (place: string) => boolean;
}

/** What identifies "the same place" for rejections: the document and where (or what) the suggestion changes. */
export function placeOf(suggestion: nes.NesSuggestion): string {
	switch (suggestion.kind) {
		case 'edit':
			return at(suggestion.uri, suggestion.edits[0]?.range.start);
		case 'jump':
			return at(suggestion.uri, suggestion.position);
		case 'rename':
			return at(suggestion.uri, suggestion.position);
		case 'searchAndReplace':
			return `replace ${suggestion.uri} ${suggestion.search}`;
	}
}

function at(uri: string, position: Position | undefined): string {
	return `at ${uri} ${position ? `${position.line}:${position.character}` : ''}`;
}

/**
 * The suggestions for `proposal` in `uri`, by what the client shows: a
 * `rename` where the declaration still has the old name, a whole-word
 * `searchAndReplace` where it does not, and otherwise (or for a name shorter
 * than 3 characters) an `edit` at the nearest place plus `jump`s to the next
 * ones. Nothing the user just rejected.
 */
export function toSuggestions(proposal: Proposal, uri: string, options: ShapeOptions): nes.NesSuggestion[] {
	const { features, newId, isRejected } = options;
	if (proposal.kind === 'rename') {
		const bulk = proposal.oldName.length >= MIN_BULK_NAME;
		if (bulk && features.rename && !proposal.editedDeclaration && proposal.declaration) {
			const rename: nes.NesSuggestion = { kind: 'rename', id: newId(), uri, position: proposal.declaration, newName: proposal.newName };
			return isRejected(placeOf(rename)) ? [] : [rename];
		}
		if (bulk && proposal.complete && features.searchAndReplace) {
			const replace: nes.NesSuggestion = { kind: 'searchAndReplace', id: newId(), uri, search: wholeWordPattern(proposal.oldName), replace: proposal.newName, isRegex: true };
			return isRejected(placeOf(replace)) ? [] : [replace];
		}
		return editsAndJumps(
			proposal.occurrences.map((range) => ({ range, newText: proposal.newName })),
			uri,
			options,
		);
	}
	return editsAndJumps(proposal.edits, uri, options);
}

function editsAndJumps(edits: readonly TextEdit[], uri: string, { features, newId, isRejected }: ShapeOptions): nes.NesSuggestion[] {
	const open = edits.filter((edit) => !isRejected(at(uri, edit.range.start)));
	const first = open[0];
	if (!first) {
		return [];
	}
	const out: nes.NesSuggestion[] = [{ kind: 'edit', id: newId(), uri, edits: [first], cursorPosition: cursorAfter(first) }];
	if (features.jump) {
		for (const edit of open.slice(1, 1 + MAX_JUMPS)) {
			out.push({ kind: 'jump', id: newId(), uri, position: edit.range.start });
		}
	}
	return out;
}

function cursorAfter(edit: TextEdit): Position {
	const lines = edit.newText.split(/\r\n|\r|\n/);
	const last = lines[lines.length - 1]!;
	return lines.length === 1
		? { line: edit.range.start.line, character: edit.range.start.character + last.length }
		: { line: edit.range.start.line + lines.length - 1, character: last.length };
}

/**
 * Suggestions offered, by id, so `nes/accept` and `nes/reject` find their
 * place; places rejected, for `windowMs`, so they are not offered again.
 */
export class SuggestionMemory {
	private readonly offered = new Map<string, string>();
	private readonly rejectedAt = new Map<string, number>();
	accepted = 0;
	rejected = 0;

	constructor(
		private readonly windowMs = 60_000,
		private readonly now: () => number = Date.now,
		private readonly capacity = 1000,
	) {}

	offer(suggestion: nes.NesSuggestion): void {
		this.offered.set(suggestion.id, placeOf(suggestion));
		if (this.offered.size > this.capacity) {
			this.offered.delete(this.offered.keys().next().value!);
		}
	}

	accept(id: string): boolean {
		const place = this.offered.get(id);
		this.offered.delete(id);
		if (place !== undefined) {
			this.accepted++;
			this.rejectedAt.delete(place);
		}
		return place !== undefined;
	}

	/**
	 * `rejected` (or no reason) is the user saying no; `ignored`, `replaced`
	 * and `cancelled` say nothing about the suggestion, so it may come back.
	 */
	reject(id: string, reason: nes.NesRejectReason | null | undefined): boolean {
		const place = this.offered.get(id);
		this.offered.delete(id);
		if (place === undefined) {
			return false;
		}
		if (reason === undefined || reason === null || reason === 'rejected') {
			this.rejected++;
			this.rejectedAt.set(place, this.now());
			if (this.rejectedAt.size > this.capacity) {
				this.rejectedAt.delete(this.rejectedAt.keys().next().value!);
			}
		}
		return true;
	}

	isRejected(place: string): boolean {
		const when = this.rejectedAt.get(place);
		if (when === undefined) {
			return false;
		}
		if (this.now() - when >= this.windowMs) {
			this.rejectedAt.delete(place);
			return false;
		}
		return true;
	}
}
