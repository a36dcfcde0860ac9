/**
 * What the chat view says when its page cannot run: which of its files are missing (or that its
 * script did not start), and what brings it back: `npm run build` when Agent Link runs from its
 * source, a reinstall when it is installed. The view shows it in place of the chat, so a blank view
 * never leaves the user guessing; the host renders it (src/vscode/chat/chatPage.ts).
 */

/** The files the chat page cannot run without, relative to the extension's folder. */
export const CHAT_PAGE_FILES: readonly string[] = ['dist/webview/chat.js', 'dist/webview/codicon.css'];

/** The chat page's script, which builds everything the page shows. */
export const CHAT_PAGE_SCRIPT = 'dist/webview/chat.js';

/** A piece of a paragraph: plain text, or a name to show as code (a file, a command). */
export type ProblemText = string | { readonly code: string };

export interface PageProblem {
	readonly title: string;
	readonly paragraphs: readonly (readonly ProblemText[])[];
}

/** Where Agent Link runs from, which decides what the user can do about it. */
export interface PageOrigin {
	/** Agent Link runs from its source (an extension development host), not from an installed copy. */
	readonly fromSource: boolean;
	/** The extension's folder. */
	readonly folder: string;
}

/** `names` as a list: `a`, `b` and `c`. */
function listOf(names: readonly string[]): ProblemText[] {
	const out: ProblemText[] = [];
	names.forEach((name, i) => {
		if (i > 0) {
			out.push(i === names.length - 1 ? ' and ' : ', ');
		}
		out.push({ code: name });
	});
	return out;
}

/** What to do to get the page's files back. */
function remedy(origin: PageOrigin, build: string): ProblemText[] {
	return origin.fromSource
		? ['Agent Link runs from its source here: ', build, ' with ', { code: 'npm run build' }, ' in that folder (', { code: 'npm start' }, ' does it too), then hide this view and show it again.']
		: ['Agent Link is not installed completely: reinstall it from the Extensions view, then reload the window.'];
}

/** The page's files that are not there. */
export function missingFilesProblem(missing: readonly string[], origin: PageOrigin): PageProblem {
	return {
		title: 'The chat cannot open: its page is not built',
		paragraphs: [
			[...listOf(missing), ` ${missing.length === 1 ? 'is' : 'are'} missing from `, { code: origin.folder }, '.'],
			remedy(origin, missing.length === 1 ? 'build it' : 'build them'),
		],
	};
}

/**
 * The page's files were there but its script did not run: it failed to load or stopped with an
 * error. Every page carries this, shown only if the script has not removed it after a moment.
 */
export function notStartedProblem(origin: PageOrigin): PageProblem {
	return {
		title: 'The chat page did not start',
		paragraphs: [
			['Its script, ', { code: CHAT_PAGE_SCRIPT }, ', did not load or stopped with an error. It is in ', { code: origin.folder }, '.'],
			remedy(origin, 'build it again'),
			['Agent Link: Show Log may say more.'],
		],
	};
}

/** The problem as one line of plain text, for the log. */
export function problemText(problem: PageProblem): string {
	const paragraph = (parts: readonly ProblemText[]) => parts.map((p) => (typeof p === 'string' ? p : p.code)).join('');
	return `${problem.title}. ${problem.paragraphs.map(paragraph).join(' ')}`;
}
