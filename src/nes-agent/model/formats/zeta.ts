/**
 * Zeta (Zed) v1: an Alpaca-style instruction. `### User Edits:` holds each
 * recent change as `User edited "path":` and a fenced unified diff, oldest
 * first; `### User Excerpt:` the window around the cursor with the editable
 * region between `<|editable_region_start|>` and `<|editable_region_end|>` and
 * the cursor marked `<|user_cursor_is_here|>`; then `### Response:`. The reply
 * is the rewritten editable region between exactly one pair of markers.
 */
import { EDITABLE_REGION_END, EDITABLE_REGION_START, USER_CURSOR, betweenMarkers, isChange, linesAround, linesOf, markedExcerpt, rejectTokens, unifiedDiff, type Prompt, type PromptContext, type PromptFormat } from './types';

// The instruction Zeta was fine-tuned with, word for word: part of the model's input format, like its markers.
const INSTRUCTION =
	'You are a code completion assistant and your task is to analyze user edits and then rewrite an excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into account the cursor location.';
/** Lines of the editable region above and below the cursor, and of context around it. */
const EDITABLE_ABOVE = 3;
const EDITABLE_BELOW = 3;
const CONTEXT = 8;
const MAX_EDITS = 8;

export const zeta: PromptFormat = {
	name: 'zeta',
	build(context: PromptContext): Prompt {
		const { document, cursor, path } = context;
		const region = linesAround(document, cursor.line, EDITABLE_ABOVE, EDITABLE_BELOW);
		const window = { startLine: Math.max(0, region.startLine - CONTEXT), endLine: Math.min(document.lineCount, region.endLine + CONTEXT) };
		const edits = context.recentEdits
			.filter(({ edit }) => isChange(edit))
			.slice(-MAX_EDITS)
			.map(({ path: changed, edit }) => `User edited "${changed}":\n\`\`\`diff\n${unifiedDiff(changed, edit)}\n\`\`\``);
		const tokens = [EDITABLE_REGION_START, EDITABLE_REGION_END, USER_CURSOR];
		rejectTokens('zeta', edits.join('\n') + linesOf(document, window.startLine, window.endLine).join('\n'), tokens);
		const excerpt = markedExcerpt(context, region, window);
		const start = window.startLine === 0 ? '<|start_of_file|>\n' : '';
		const prompt = `### Instruction:\n${INSTRUCTION}\n\n### User Edits:\n\n${edits.join('\n\n')}\n\n### User Excerpt:\n\n\`\`\`${path}\n${start}${excerpt}\n\`\`\`\n\n### Response:\n`;
		return { request: { kind: 'completion', prompt, stop: [] }, region };
	},
	parse: betweenMarkers,
};
