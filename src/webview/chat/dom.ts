/**
 * Building the page's DOM. Everything from an agent is put in as text (`textContent`, text nodes)
 * or as markup that has been through the sanitizer (markdown.ts); nothing here parses HTML.
 */
type Child = Node | string | number | false | null | undefined;

export interface Props {
	class?: string;
	/** Attributes set with setAttribute; never event handlers (`on…`) or URLs from agent content. */
	attrs?: Record<string, string | number | boolean | undefined>;
	on?: { [K in keyof HTMLElementEventMap]?: (event: HTMLElementEventMap[K]) => void };
}

export function h<K extends keyof HTMLElementTagNameMap>(tag: K, props: Props = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
	const element = document.createElement(tag);
	if (props.class) {
		element.className = props.class;
	}
	for (const [name, value] of Object.entries(props.attrs ?? {})) {
		if (/^on/i.test(name)) {
			throw new Error(`event handler attribute ${name}`);
		}
		if (value === true) {
			element.setAttribute(name, '');
		} else if (value !== undefined && value !== false) {
			element.setAttribute(name, String(value));
		}
	}
	for (const [type, listener] of Object.entries(props.on ?? {})) {
		element.addEventListener(type, listener as EventListener);
	}
	append(element, ...children);
	return element;
}

export function append(parent: Node, ...children: Child[]): void {
	for (const child of children) {
		if (child === null || child === undefined || child === false) {
			continue;
		}
		parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
	}
}

/** A codicon, hidden from screen readers (the text beside it, or the control's label, says it). */
export function icon(name: string, extra = ''): HTMLElement {
	return h('span', { class: `codicon codicon-${name}${extra ? ` ${extra}` : ''}`, attrs: { 'aria-hidden': 'true' } });
}

export function clear(element: Element): void {
	element.replaceChildren();
}
