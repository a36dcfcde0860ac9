/**
 * Sweep Next-Edit: a raw completion of a `<|file_sep|>` document. Related
 * files; up to 3 recent changes as `{path}.diff` blocks with `original:` and
 * `updated:` sections (40 lines each at most); the window as it was before
 * the latest change (`original/{path}`) and as it is now (`current/{path}`,
 * 10 lines above and below the cursor); then `updated/{path}` for the model to
 * write. Generation stops at `<|file_sep|>` or `</s>`; an empty reply means
 * no suggestion.
 */
import { linesAround, linesOf, rejectTokens, trimmedEdit, type Prompt, type PromptContext, type PromptFormat } from './types';

const FILE_SEP = '<|file_sep|>';
const STOPS = [FILE_SEP, '</s>'];
const ABOVE = 10;
const BELOW = 10;
const MAX_CHANGES = 3;
const MAX_CHANGE_LINES = 40;

function block(path: string, content: string): string {
	return `${FILE_SEP}${path}\n${content}${content.endsWith('\n') ? '' : '\n'}`;
}

/** At most `max` lines: the first half, `...`, the last ones. */
function limit(lines: readonly string[], max: number): string {
	if (lines.length <= max) {
		return lines.join('\n');
	}
	const head = Math.floor(max / 2);
	const tail = max - head - 1;
	return [...lines.slice(0, head), '...', ...lines.slice(lines.length - tail)].join('\n');
}

export const sweep: PromptFormat = {
	name: 'sweep',
	build(context: PromptContext): Prompt {
		const { document, cursor, path, lastEdit } = context;
		const region = linesAround(document, cursor.line, ABOVE, BELOW);
		const current = linesOf(document, region.startLine, region.endLine);
		// The window before the latest change: its lines put back where the change lies inside the window.
		let original = current;
		if (lastEdit && lastEdit.startLine >= region.startLine && lastEdit.startLine + lastEdit.newLines.length <= region.endLine) {
			const at = lastEdit.startLine - region.startLine;
			original = [...current.slice(0, at), ...lastEdit.oldLines, ...current.slice(at + lastEdit.newLines.length)];
		}
		const blocks: [string, string][] = context.snippets.map((s) => [s.path, s.text]);
		for (const { path: changed, edit } of context.recentEdits.slice(-MAX_CHANGES)) {
			const e = trimmedEdit(edit);
			blocks.push([`${changed}.diff`, `original:\n${limit(e.oldLines, MAX_CHANGE_LINES)}\nupdated:\n${limit(e.newLines, MAX_CHANGE_LINES)}`]);
		}
		blocks.push([`original/${path}`, original.join('\n')], [`current/${path}`, current.join('\n')]);
		let prompt = '';
		for (const [name, content] of blocks) {
			rejectTokens('sweep', name + content, STOPS);
			prompt += block(name, content);
		}
		prompt += `${FILE_SEP}updated/${path}\n`;
		return { request: { kind: 'completion', prompt, stop: STOPS }, region };
	},
	parse(reply: string): string | undefined {
		let text = reply;
		for (const stop of STOPS) {
			const at = text.indexOf(stop);
			if (at !== -1) {
				text = text.slice(0, at);
			}
		}
		if (text.endsWith('\n')) {
			text = text.slice(0, -1);
		}
		return text.trim() === '' ? undefined : text;
	},
};
