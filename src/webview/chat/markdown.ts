/**
 * Agent markdown to DOM: markdown-it with raw HTML off (tags are shown as text) and its link
 * checks, then DOMPurify over the result as a second line, returning nodes rather than a string, so
 * nothing the agent wrote can become a script, a frame, an event handler or a `javascript:` link.
 * Code blocks get copy and insert-at-cursor buttons, and are highlighted once complete by
 * highlight.js, loaded the first time a code block needs it.
 *
 * Streaming: {@link MarkdownView} splits the text at blank lines outside code fences and keeps the
 * rendered nodes of every finished part, so a chunk costs the render of the last part only; when
 * many parts came at once, it draws them a frame's budget at a time, a few parts per pass of the
 * sanitizer (each pass parses its markup into a new document: one per part made a long chat's first
 * drawing allocate, and collect garbage, twice as much).
 */
import DOMPurify from 'dompurify';
import MarkdownIt from 'markdown-it';
import { h, icon } from './dom';
import type * as HighlightModule from './highlight';
import { splitParts } from './parts';

const md = new MarkdownIt({ html: false, linkify: true, typographer: false });

/** What markdown may produce, and nothing else. */
const PURIFY = {
	RETURN_DOM_FRAGMENT: true as const,
	ALLOWED_TAGS: ['a', 'p', 'br', 'hr', 'em', 'strong', 's', 'del', 'code', 'pre', 'blockquote', 'ul', 'ol', 'li', 'h1', 'h2', 'h3', 'h4', 'h5', 'h6', 'table', 'thead', 'tbody', 'tr', 'th', 'td', 'span'],
	ALLOWED_ATTR: ['href', 'title', 'class', 'start', 'align'],
	ALLOWED_URI_REGEXP: /^(?:https?:|mailto:|#)/i,
};

DOMPurify.addHook('afterSanitizeAttributes', (node) => {
	if (node.tagName === 'A') {
		node.setAttribute('rel', 'noopener noreferrer');
	}
	// Only highlight.js's and markdown-it's own classes survive.
	const cls = node.getAttribute('class');
	if (cls !== null && !/^(?:language-[\w+#.-]+|hljs(?:-[\w-]+)?(?: [\w-]+)*)$/.test(cls)) {
		node.removeAttribute('class');
	}
});

/** Actions offered on code blocks. */
export interface CodeActions {
	copy(code: string): void;
	insert(code: string): void;
}

/**
 * The same with a `div` for each part's wrapper: markdown-it never writes one (raw HTML in the text
 * is shown as text), so after the sanitizer the top level is exactly the wrappers.
 */
const PURIFY_PARTS = { ...PURIFY, ALLOWED_TAGS: [...PURIFY.ALLOWED_TAGS, 'div'] };

/** How many parts go through the sanitizer at once. */
const PARTS_PER_PASS = 8;

/**
 * Sanitized markdown, a fragment per text, in one pass of the sanitizer; `complete`: the last text
 * will not grow (code can be highlighted; the others are finished).
 */
export function renderMarkdown(texts: readonly string[], actions: CodeActions, complete = true): DocumentFragment[] {
	const wrapped = DOMPurify.sanitize(texts.map((text) => `<div>${md.render(text)}</div>`).join(''), PURIFY_PARTS);
	const wrappers = [...wrapped.childNodes];
	const finished = (i: number) => complete || i < texts.length - 1;
	if (wrappers.length !== texts.length || wrappers.some((node) => node.nodeName !== 'DIV')) {
		// Not what markdown-it writes: each text on its own then (one text: as it came out).
		return texts.length === 1 ? [decorate(wrapped, actions, complete)] : texts.flatMap((text, i) => renderMarkdown([text], actions, finished(i)));
	}
	return wrappers.map((wrapper, i) => {
		const fragment = document.createDocumentFragment();
		fragment.append(...wrapper.childNodes);
		return decorate(fragment, actions, finished(i));
	});
}

function decorate(fragment: DocumentFragment, actions: CodeActions, complete: boolean): DocumentFragment {
	for (const code of fragment.querySelectorAll('pre > code')) {
		decorateCode(code as HTMLElement, actions, complete);
	}
	return fragment;
}

function decorateCode(code: HTMLElement, actions: CodeActions, complete: boolean): void {
	const pre = code.parentElement!;
	const source = code.textContent ?? '';
	const language = /language-([\w+#.-]+)/.exec(code.className)?.[1];
	const toolbar = h(
		'div',
		{ class: 'code-actions' },
		language ? h('span', { class: 'code-language' }, language) : null,
		h('button', { class: 'icon-button', attrs: { type: 'button', title: 'Copy', 'aria-label': 'Copy code' }, on: { click: () => actions.copy(source) } }, icon('copy')),
		h('button', { class: 'icon-button', attrs: { type: 'button', title: 'Insert at cursor', 'aria-label': 'Insert code at the cursor' }, on: { click: () => actions.insert(source) } }, icon('insert')),
	);
	const wrapper = h('div', { class: 'code-block' });
	pre.replaceWith(wrapper);
	wrapper.append(toolbar, pre);
	if (complete) {
		highlightLater(code, source, language);
	}
}

type Highlighter = typeof HighlightModule;
let highlighter: Promise<Highlighter> | undefined;
/** Code blocks waiting to be highlighted, done a few at a time when the page is idle. */
const waiting: { code: HTMLElement; source: string; language: string | undefined }[] = [];
let scheduled = false;
/** How long highlighting may run at once. */
const HIGHLIGHT_BUDGET_MS = 8;

function highlightLater(code: HTMLElement, source: string, language: string | undefined): void {
	if (source.length > 100_000 || language === undefined) {
		return; // unknown languages stay plain; a huge block is not worth a long task
	}
	waiting.push({ code, source, language });
	if (!scheduled) {
		scheduled = true;
		highlighter ??= import('./highlight');
		void highlighter.then(() => idle(drainHighlights));
	}
}

function idle(run: () => void): void {
	if (typeof requestIdleCallback === 'function') {
		requestIdleCallback(run, { timeout: 500 });
	} else {
		setTimeout(run, 16);
	}
}

async function drainHighlights(): Promise<void> {
	const hl = await highlighter!;
	const started = performance.now();
	while (waiting.length > 0 && performance.now() - started < HIGHLIGHT_BUDGET_MS) {
		const { code, source, language } = waiting.shift()!;
		if (!code.isConnected) {
			continue;
		}
		const html = hl.highlight(source, language);
		if (html !== undefined) {
			// highlight.js escapes the code; it still goes through the sanitizer, keeping only spans.
			code.replaceChildren(DOMPurify.sanitize(html, { RETURN_DOM_FRAGMENT: true, ALLOWED_TAGS: ['span'], ALLOWED_ATTR: ['class'] }));
			code.classList.add('hljs');
		}
	}
	if (waiting.length > 0) {
		idle(() => void drainHighlights());
	} else {
		scheduled = false;
	}
}

/** Inert text as a fragment (for places that show agent text without markdown). */
export function plain(text: string): Text {
	return document.createTextNode(text);
}

/** A block of streamed markdown that re-renders only its last, growing part. */
export class MarkdownView {
	readonly element = h('div', { class: 'markdown' });
	private parts: { source: string; nodes: Node[] }[] = [];

	constructor(private readonly actions: CodeActions) {}

	/**
	 * Shows `text`; `complete`: it will not grow. With a `deadline` (`performance.now()`), stops
	 * drawing parts once it has passed (at least one pass of the sanitizer's parts is drawn),
	 * showing the text up to there; returns whether all of `text` is shown. The next update goes on
	 * from there.
	 */
	update(text: string, complete: boolean, deadline = Infinity): boolean {
		const sources = splitParts(text);
		let keep = 0;
		while (keep < this.parts.length && keep < sources.length - 1 && this.parts[keep]!.source === sources[keep]) {
			keep++;
		}
		if (keep === this.parts.length && keep === sources.length && !complete) {
			return true;
		}
		for (const part of this.parts.splice(keep)) {
			part.nodes.forEach((n) => n.parentNode?.removeChild(n));
		}
		for (let i = keep; i < sources.length; i += PARTS_PER_PASS) {
			if (i > keep && performance.now() >= deadline) {
				return false;
			}
			const batch = sources.slice(i, i + PARTS_PER_PASS);
			const fragments = renderMarkdown(batch, this.actions, complete || i + batch.length < sources.length);
			fragments.forEach((fragment, j) => {
				this.parts.push({ source: batch[j]!, nodes: [...fragment.childNodes] });
				this.element.append(fragment);
			});
		}
		return true;
	}
}
