// One line of a document changed as a user would change it, then engine 1 (edit-by-example) of
// the built-in NES agent asked at the end of the change: the shared step of the NES rule tests.
import { TrackedDocument } from '../../src/nes-agent/documents';
import { editByExample, proposeUngated } from '../../src/nes-agent/engines/editByExample';
import type { Proposal } from '../../src/nes-agent/engines/types';

/**
 * `lines` (of a `languageId` document named `f.<ext>`) with line `line` changed to `now` as one
 * edit of the differing span, then engine 1 asked at its end. `ungated`: what its first rule
 * proposes before the gate weighs it (where a rule's proposal goes, whatever the gate's odds for
 * a document this small). `file`: the document's path in the project, when its name matters.
 */
export function suggestAfterLineEdit(ext: string, languageId: string, lines: readonly string[], line: number, now: string, ungated = false, file = `f.${ext}`): Proposal | undefined {
	const doc = new TrackedDocument(`file:///project/${file}`, languageId, 1, lines.join('\n'));
	const old = lines[line]!;
	let start = 0;
	while (start < old.length && old[start] === now[start]) {
		start++;
	}
	let end = 0;
	while (end < old.length - start && end < now.length - start && old[old.length - 1 - end] === now[now.length - 1 - end]) {
		end++;
	}
	doc.applyChanges([{ range: { start: { line, character: start }, end: { line, character: old.length - end } }, text: now.slice(start, now.length - end) }], 2);
	const input = { uri: doc.uri, languageId: doc.languageId, document: doc, cursor: { line, character: now.length - end }, lastEdit: doc.lastEdit, earlierEdits: doc.earlierEdits };
	return ungated ? proposeUngated(input)?.proposal : editByExample(input);
}

/** Where a proposal would change the document, as `line:character` of each edit's or occurrence's start. */
export function places(p: Proposal | undefined): string[] {
	if (!p) {
		return [];
	}
	return p.kind === 'edits' ? p.edits.map((e) => `${e.range.start.line}:${e.range.start.character}`) : p.occurrences.map((o) => `${o.start.line}:${o.start.character}`);
}
