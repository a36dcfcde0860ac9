/**
 * Suggestions from the agent, moved into the editor's coordinates: every
 * position and range of a suggestion is in the agent's negotiated encoding
 * (`shared/specs/protocols.md` §2) and is converted back to UTF-16 against the
 * text of the document it names (except an edit's `cursorPosition`, which
 * describes the text after the edit and is converted once it is applied). A suggestion for a document whose text is not
 * at hand is dropped rather than shown at a guessed place.
 */
import type { PositionConverter } from '../positionEncoding';
import type { NesSuggestion, Position, Range } from './protocol';

/** The document URI a suggestion applies to (the seed revision's actions carry it in `arguments`). */
export function suggestionUri(suggestion: NesSuggestion): string | undefined {
	if (suggestion.kind === 'action') {
		const uri = suggestion.arguments?.uri;
		return typeof uri === 'string' ? uri : undefined;
	}
	return suggestion.uri;
}

/**
 * `suggestions` with positions in UTF-16, given a converter for each document
 * URI (`undefined` when that document cannot be read: the suggestion is left out).
 */
export function suggestionsFromAgent(suggestions: readonly NesSuggestion[], converterFor: (uri: string) => PositionConverter | undefined): NesSuggestion[] {
	const result: NesSuggestion[] = [];
	for (const suggestion of suggestions) {
		const uri = suggestionUri(suggestion);
		if (suggestion.kind === 'searchAndReplace' || (suggestion.kind === 'action' && !isPosition(suggestion.arguments?.position))) {
			result.push(suggestion); // nothing positional to convert
			continue;
		}
		const converter = uri === undefined ? undefined : converterFor(uri);
		if (!converter) {
			continue;
		}
		// Spread into fresh objects: the wire types allow extra keys, the converter's do not.
		const position = (p: Position) => ({ ...converter.fromAgentPosition(p) });
		const range = (r: Range) => {
			const { start, end } = converter.fromAgentRange(r);
			return { start: { ...start }, end: { ...end } };
		};
		switch (suggestion.kind) {
			case 'edit':
				result.push({
					...suggestion,
					// `cursorPosition` stays in the agent's encoding: it describes the text after the
					// edits, so it can only be converted once they are applied.
					edits: suggestion.edits.map((e) => ({ ...e, range: range(e.range) })),
				});
				break;
			case 'jump':
			case 'rename':
				result.push({ ...suggestion, position: position(suggestion.position) });
				break;
			case 'action':
				result.push({ ...suggestion, arguments: { ...suggestion.arguments, position: position(suggestion.arguments!.position as Position) } });
				break;
		}
	}
	return result;
}

function isPosition(value: unknown): value is Position {
	return typeof value === 'object' && value !== null && Number.isInteger((value as Position).line) && Number.isInteger((value as Position).character);
}
