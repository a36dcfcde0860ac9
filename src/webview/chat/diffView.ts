/**
 * A tool call's diff drawn inline: the changed lines with a few lines of context, computed with
 * the `diff` package. All text goes in as text nodes.
 */
import { structuredPatch } from 'diff';
import { h, icon } from './dom';

const CONTEXT = 3;
/** Larger inputs are not diffed line by line (it would hold up the page); the new text is shown instead. */
const MAX_DIFF_CHARS = 400_000;

export function renderDiff(diff: { path: string; oldText?: string; newText: string; truncated?: true }, open: (path: string, line?: number) => void): HTMLElement {
	const name = diff.path.split(/[\\/]/).pop() ?? diff.path;
	const header = h(
		'div',
		{ class: 'diff-header' },
		icon(diff.oldText === undefined ? 'new-file' : 'diff'),
		h('button', { class: 'link-button diff-review', attrs: { type: 'button', title: `Review the changes to ${diff.path}` }, on: { click: () => open(diff.path) } }, name),
		diff.oldText === undefined ? h('span', { class: 'badge' }, 'new file') : null,
		diff.truncated ? h('span', { class: 'badge' }, 'truncated') : null,
	);
	const body = h('div', { class: 'diff-body', attrs: { role: 'table', 'aria-label': `Changes to ${name}` } });
	const oldText = diff.oldText ?? '';
	if (oldText.length + diff.newText.length > MAX_DIFF_CHARS) {
		body.append(h('pre', { class: 'diff-line added' }, diff.newText.slice(0, MAX_DIFF_CHARS)));
		return h('div', { class: 'diff' }, header, body);
	}
	const patch = structuredPatch(diff.path, diff.path, oldText, diff.newText, undefined, undefined, { context: CONTEXT });
	let added = 0;
	let removed = 0;
	for (const hunk of patch.hunks) {
		body.append(h('div', { class: 'diff-hunk', attrs: { role: 'row' } }, `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`));
		let newLine = hunk.newStart;
		for (const line of hunk.lines) {
			const sign = line[0];
			if (sign === '\\') {
				continue; // "No newline at end of file"
			}
			const kind = sign === '+' ? 'added' : sign === '-' ? 'removed' : 'context';
			if (kind === 'added') {
				added++;
			} else if (kind === 'removed') {
				removed++;
			}
			body.append(
				h(
					'div',
					{ class: `diff-line ${kind}`, attrs: { role: 'row' } },
					h('span', { class: 'diff-number', attrs: { 'aria-hidden': 'true' } }, kind === 'removed' ? '' : newLine),
					h('span', { class: 'diff-sign', attrs: { 'aria-label': kind === 'context' ? undefined : kind } }, kind === 'added' ? '+' : kind === 'removed' ? '−' : ' '),
					h('span', { class: 'diff-text' }, line.slice(1)),
				),
			);
			if (kind !== 'removed') {
				newLine++;
			}
		}
	}
	header.append(h('span', { class: 'diff-stat' }, h('span', { class: 'added' }, `+${added}`), ' ', h('span', { class: 'removed' }, `−${removed}`)));
	return h('div', { class: 'diff' }, header, body);
}
