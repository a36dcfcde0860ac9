/**
 * Streamed markdown in parts: a message is cut after each blank line outside a code fence, unless
 * what follows is indented (a list item's or indented code's continuation) or still blank. The
 * parts before the last are finished, and stay finished however the text grows, so their rendering
 * is kept while only the last part is rendered again. Pure, for plain Node tests.
 */
export function splitParts(text: string): string[] {
	const parts: string[] = [];
	let fence: string | undefined;
	let start = 0;
	let at = 0;
	while (at < text.length) {
		const newline = text.indexOf('\n', at);
		const end = newline < 0 ? text.length : newline;
		const line = text.slice(at, end);
		const marker = /^ {0,3}(`{3,}|~{3,})/.exec(line)?.[1];
		if (fence !== undefined) {
			if (marker !== undefined && marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) {
				fence = undefined;
			}
		} else if (marker !== undefined) {
			fence = marker;
		}
		at = end + 1;
		const blank = fence === undefined && marker === undefined && newline >= 0 && line.trim() === '';
		if (blank && at < text.length && !/^(?: {4}|\t|[ \t]*(?:\n|$))/.test(text.slice(at, at + 5))) {
			parts.push(text.slice(start, at));
			start = at;
		}
	}
	if (start < text.length) {
		parts.push(text.slice(start));
	}
	return parts;
}
