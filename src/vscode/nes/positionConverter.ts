/**
 * Position conversion over a `vscode.TextDocument`: the document's current
 * lines fed to {@link createPositionConverter} (rules in
 * `src/common/positionEncoding.ts`).
 */
import type * as vscode from 'vscode';
import { createPositionConverter, type PositionConverter, type PositionEncoding, type TextLines } from '../../common/positionEncoding';

/** The lines of `document` as they are at each call. */
export function documentLines(document: vscode.TextDocument): TextLines {
	return {
		get lineCount() {
			return document.lineCount;
		},
		lineText: (line) => document.lineAt(line).text,
	};
}

/**
 * Converts positions in `document` (as it is now) between VS Code and the
 * agent's `encoding`. `vscode.Position`/`vscode.Range` can be passed as they
 * are; results are plain `{line, character}` objects.
 */
export function documentConverter(document: vscode.TextDocument, encoding: PositionEncoding): PositionConverter {
	return createPositionConverter(encoding, documentLines(document));
}
