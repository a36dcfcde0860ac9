/**
 * Instinct (Continue): a chat request. The system prompt says what to do; the
 * user message holds `### Context:` (each related file as `<|context_file|>`
 * and `<|snippet|>`), `### User Edits:` (recent changes as fenced unified
 * diffs), `### User Excerpt:` (25 lines around the cursor with Zeta's
 * markers) and `### Response:`. The reply is the revised editable region,
 * with or without the markers, perhaps in a code fence.
 */
import { EDITABLE_REGION_END, EDITABLE_REGION_START, USER_CURSOR, betweenMarkers, isChange, linesAround, linesOf, markedExcerpt, rejectTokens, unifiedDiff, type Prompt, type PromptContext, type PromptFormat } from './types';

const SYSTEM =
	'You are a next-edit predictor for a code editor. From the user\'s recent edits and the excerpt around their cursor, rewrite the editable region (between <|editable_region_start|> and <|editable_region_end|>) with the edit they are most likely to make next. Reply with the rewritten editable region only, markers included.';
const CONTEXT_FILE = '<|context_file|>';
const SNIPPET = '<|snippet|>';
const EDITABLE_ABOVE = 5;
const EDITABLE_BELOW = 5;
const WINDOW = 25;
const MAX_EDITS = 5;

export const instinct: PromptFormat = {
	name: 'instinct',
	build(context: PromptContext): Prompt {
		const { document, cursor, path } = context;
		const region = linesAround(document, cursor.line, EDITABLE_ABOVE, EDITABLE_BELOW);
		const window = linesAround(document, cursor.line, WINDOW, WINDOW);
		const snippets = context.snippets.map((s) => `${CONTEXT_FILE} ${s.path}\n${SNIPPET}\n${s.text}`).join('\n');
		const edits = context.recentEdits
			.filter(({ edit }) => isChange(edit))
			.slice(-MAX_EDITS)
			.map(({ path: changed, edit }) => `User edited file "${changed}"\n\n\`\`\`diff\n${unifiedDiff(changed, edit)}\n\`\`\``)
			.join('\n');
		const tokens = [EDITABLE_REGION_START, EDITABLE_REGION_END, USER_CURSOR, CONTEXT_FILE, SNIPPET];
		rejectTokens('instinct', context.snippets.map((s) => s.path + s.text).join('\n') + edits + linesOf(document, window.startLine, window.endLine).join('\n'), tokens);
		const excerpt = markedExcerpt(context, region, window);
		const user = `### Context:\n${snippets}\n\n### User Edits:\n\n${edits}\n\n### User Excerpt:\n\`\`\`${path}\n${excerpt}\n\`\`\`\n\n### Response:`;
		return {
			request: {
				kind: 'chat',
				messages: [
					{ role: 'system', content: SYSTEM },
					{ role: 'user', content: user },
				],
			},
			region,
		};
	},
	parse(reply: string): string | undefined {
		const marked = betweenMarkers(reply);
		if (marked !== undefined) {
			return marked;
		}
		if (reply.includes(EDITABLE_REGION_START) || reply.includes(EDITABLE_REGION_END)) {
			return undefined; // markers, but not exactly one pair
		}
		const fenced = /^\s*```[^\n]*\n([\s\S]*?)\n?```\s*$/.exec(reply);
		const text = (fenced ? fenced[1]! : reply).split(USER_CURSOR).join('');
		return text.trim() === '' ? undefined : text.replace(/\n$/, '');
	},
};
