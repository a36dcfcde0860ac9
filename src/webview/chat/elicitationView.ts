/**
 * An elicitation drawn (the agent asks for input; ACP `elicitation/create`): a form of labelled
 * fields checked here before it is sent (the same check as the host's, common/chat/elicitationForm.ts,
 * with a message under each wrong field), or a URL shown by its host and opened only when the user
 * clicks. Submit, Decline and Cancel ignore input for half a second after the form appears (a stray
 * Enter cannot submit). A pending form's view is kept by request id, so what the user typed stays
 * when its entry is drawn again (a tool call update, a theme change); and what is in its fields is
 * kept in the page's saved state (formDrafts.ts), so it stays when the page is loaded again too.
 */
import { checkField, checkForm, initialInput, type ElicitationField, type ElicitationValue, type FieldInput } from '../../common/chat/elicitationForm';
import type { Elicitation, Entry } from '../../common/chat/transcriptModel';
import { inertFor } from './arming';
import { h, icon } from './dom';
import type { FormValues } from './formDrafts';

export interface ElicitationActions {
	answerElicitation(requestId: string, action: 'accept' | 'decline' | 'cancel', content?: Record<string, ElicitationValue>): void;
	/** What the user left in a pending form's fields before the page was loaded again. */
	formDraft(elicitation: Elicitation): FormValues | undefined;
	/** A pending form's fields as they are now; undefined once the form is answered. */
	keepFormDraft(elicitation: Elicitation, values: FormValues | undefined): void;
}

/** Whether the entry waits for the user's input (an elicitation pending, of its own or in a tool call). */
export function asksInput(entry: Entry): boolean {
	return (entry.kind === 'elicitation' || entry.kind === 'tool_call') && entry.elicitation?.state === 'pending';
}

/** Pending forms drawn, by request id (a few at a time; settled ones are let go). */
const pendingViews = new Map<string, HTMLElement>();
const MAX_KEPT = 32;

/** The elicitation's part of an entry: the pending form or URL, or how it was answered. */
export function elicitationPart(elicitation: Elicitation, actions: ElicitationActions): HTMLElement {
	if (elicitation.state !== 'pending') {
		pendingViews.delete(elicitation.requestId);
		if (elicitation.mode === 'form') {
			actions.keepFormDraft(elicitation, undefined);
		}
		return settled(elicitation);
	}
	let view = pendingViews.get(elicitation.requestId);
	if (!view) {
		view = elicitation.mode === 'url' ? urlView(elicitation, actions) : formView(elicitation, actions);
		pendingViews.set(elicitation.requestId, view);
		for (const old of pendingViews.keys()) {
			if (pendingViews.size <= MAX_KEPT) {
				break;
			}
			pendingViews.delete(old);
		}
	}
	return view;
}

const SETTLED: Record<Exclude<Elicitation['state'], 'pending'>, { icon: string; text: string }> = {
	accepted: { icon: 'check', text: 'Sent' },
	declined: { icon: 'circle-slash', text: 'Declined' },
	cancelled: { icon: 'circle-slash', text: 'Cancelled' },
	completed: { icon: 'pass', text: 'Done' },
};

function settled(elicitation: Elicitation): HTMLElement {
	const how = SETTLED[elicitation.state as keyof typeof SETTLED];
	const text = elicitation.mode === 'url' && elicitation.state === 'accepted' ? `Opened ${elicitation.host ?? 'the link'} in the browser; waiting for the agent` : elicitation.mode === 'url' && elicitation.state === 'completed' ? `Done: ${elicitation.host ?? 'the link'}` : how.text;
	return h('div', { class: `elicitation answered state-${elicitation.state}`, attrs: { role: 'status' } }, icon(how.icon), ` ${text}: `, h('span', { class: 'elicitation-message' }, elicitation.message));
}

function header(elicitation: Elicitation, id: string): HTMLElement {
	return h('div', { class: 'elicitation-header' }, icon(elicitation.mode === 'url' ? 'link-external' : 'question'), h('span', { class: 'elicitation-message', attrs: { id } }, elicitation.message));
}

function buttons(inert: () => boolean, answer: (action: 'decline' | 'cancel') => void, submit: HTMLButtonElement): HTMLElement {
	const button = (label: string, action: 'decline' | 'cancel') =>
		h('button', { class: 'secondary', attrs: { type: 'button', 'data-action': action }, on: { click: (event) => (inert() ? event.preventDefault() : answer(action)) } }, label);
	return h('div', { class: 'elicitation-buttons' }, submit, button('Decline', 'decline'), button('Cancel', 'cancel'));
}

function urlView(elicitation: Elicitation, actions: ElicitationActions): HTMLElement {
	const inert = inertFor();
	const id = `${elicitation.requestId}-message`;
	const open = h(
		'button',
		{ class: 'primary', attrs: { type: 'button', 'data-action': 'accept', title: elicitation.url }, on: { click: (event) => (inert() ? event.preventDefault() : actions.answerElicitation(elicitation.requestId, 'accept')) } },
		icon('link-external'),
		` Open ${elicitation.host ?? 'link'}`,
	);
	return h(
		'div',
		{ class: 'elicitation pending url', attrs: { role: 'group', 'aria-labelledby': id, 'data-request': elicitation.requestId } },
		header(elicitation, id),
		h('div', { class: 'elicitation-url' }, 'Opens ', h('strong', {}, elicitation.host ?? ''), ' in your browser, only when you click.'),
		buttons(inert, (action) => actions.answerElicitation(elicitation.requestId, action), open),
	);
}

interface FieldView {
	readonly field: ElicitationField;
	readonly element: HTMLElement;
	/** The control that takes the focus when the field is wrong. */
	readonly focusable: HTMLElement;
	read(): FieldInput;
	/** Puts back what the user had left in the field (a value of the wrong kind is ignored). */
	write(input: FieldInput): void;
	showError(message: string | undefined): void;
}

function formView(elicitation: Elicitation, actions: ElicitationActions): HTMLElement {
	const inert = inertFor();
	const id = `${elicitation.requestId}-message`;
	const views = elicitation.fields.map((field, index) => fieldView(field, `${elicitation.requestId}-f${index}`));
	const draft = actions.formDraft(elicitation);
	for (const view of views) {
		if (draft && Object.hasOwn(draft, view.field.name)) {
			view.write(draft[view.field.name]);
		}
	}
	const submit = h('button', { class: 'primary', attrs: { type: 'button', 'data-action': 'accept' } }, 'Submit');
	// A group named as a form rather than a <form>: the page holds no element that could submit anywhere.
	const form = h(
		'div',
		{ class: 'elicitation pending form', attrs: { role: 'form', 'aria-labelledby': id, 'data-request': elicitation.requestId } },
		header(elicitation, id),
		elicitation.title !== undefined ? h('div', { class: 'elicitation-title' }, elicitation.title) : null,
		elicitation.description !== undefined ? h('div', { class: 'elicitation-description' }, elicitation.description) : null,
		...views.map((v) => v.element),
		buttons(inert, (action) => actions.answerElicitation(elicitation.requestId, action), submit),
	);
	const send = () => {
		if (inert()) {
			return;
		}
		const inputs = Object.fromEntries(views.map((v) => [v.field.name, v.read()]));
		const checked = checkForm(elicitation.fields, inputs);
		const errors = checked.ok ? {} : checked.errors;
		for (const view of views) {
			view.showError(errors[view.field.name]);
		}
		if (checked.ok) {
			actions.answerElicitation(elicitation.requestId, 'accept', checked.content);
		} else {
			views.find((v) => errors[v.field.name] !== undefined)?.focusable.focus();
		}
	};
	submit.addEventListener('click', send);
	// What the user changes is kept, so it survives the page being loaded again.
	const keep = () => actions.keepFormDraft(elicitation, Object.fromEntries(views.map((v) => [v.field.name, v.read()])));
	form.addEventListener('input', keep);
	form.addEventListener('change', keep);
	// Enter in a text or number field sends the form, as in any form (checkboxes, choices and buttons keep their own Enter).
	form.addEventListener('keydown', (event) => {
		if (event.key === 'Enter' && !event.isComposing && event.target instanceof HTMLInputElement && event.target.classList.contains('field-input')) {
			event.preventDefault();
			send();
		}
	});
	return form;
}

/** A field's label (with a mark for required ones, said as "required" by the control's aria-required). */
function label(field: ElicitationField, id: string): HTMLElement {
	return h('label', { class: 'field-label', attrs: { for: id } }, field.title, field.required ? h('span', { class: 'required-mark', attrs: { 'aria-hidden': 'true' } }, ' *') : null);
}

function fieldView(field: ElicitationField, id: string): FieldView {
	const describedBy = [field.description !== undefined ? `${id}-description` : '', `${id}-error`].filter(Boolean).join(' ');
	const description = field.description !== undefined ? h('div', { class: 'field-description', attrs: { id: `${id}-description` } }, field.description) : null;
	const error = h('div', { class: 'field-error', attrs: { id: `${id}-error`, 'aria-live': 'polite' } });
	const control = fieldControl(field, id, describedBy);
	const element = h('div', { class: `elicitation-field field-${field.type}`, attrs: { 'data-field': field.name } }, ...control.parts(description), error);
	const showError = (message: string | undefined) => {
		error.textContent = message ?? '';
		for (const input of control.invalidTargets) {
			if (message) {
				input.setAttribute('aria-invalid', 'true');
			} else {
				input.removeAttribute('aria-invalid');
			}
		}
	};
	// Once a field was said to be wrong, its message follows what the user changes.
	const recheck = () => {
		if (error.textContent !== '') {
			const result = checkField(field, control.read());
			showError('error' in result ? result.error : undefined);
		}
	};
	element.addEventListener('input', recheck);
	element.addEventListener('change', recheck);
	return { field, element, focusable: control.focusable, read: control.read, write: control.write, showError };
}

interface Control {
	readonly focusable: HTMLElement;
	readonly invalidTargets: readonly HTMLElement[];
	parts(description: HTMLElement | null): (HTMLElement | null)[];
	read(): FieldInput;
	write(input: FieldInput): void;
}

const INPUT_TYPES: Record<string, string> = { email: 'email', uri: 'url' };
const PLACEHOLDERS: Record<string, string> = { email: 'name@example.com', uri: 'https://', date: 'YYYY-MM-DD', 'date-time': 'YYYY-MM-DDThh:mm:ssZ' };

function fieldControl(field: ElicitationField, id: string, describedBy: string): Control {
	const aria = { id, 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined };
	const initial = initialInput(field);
	switch (field.type) {
		case 'text':
		case 'number': {
			const input = h('input', {
				class: 'field-input',
				attrs: {
					...aria,
					type: field.type === 'number' ? 'number' : (INPUT_TYPES[field.format ?? ''] ?? 'text'),
					placeholder: field.type === 'text' ? PLACEHOLDERS[field.format ?? ''] : undefined,
					step: field.type === 'number' ? (field.integer ? '1' : 'any') : undefined,
					min: field.type === 'number' ? field.minimum : undefined,
					max: field.type === 'number' ? field.maximum : undefined,
					maxlength: field.type === 'text' ? field.maxLength : undefined,
					autocomplete: 'off',
					spellcheck: 'false',
				},
			});
			input.value = typeof initial === 'string' ? initial : '';
			const write = (value: FieldInput) => {
				if (typeof value === 'string') {
					input.value = value;
				}
			};
			return { focusable: input, invalidTargets: [input], parts: (d) => [label(field, id), d, input], read: () => input.value, write };
		}
		case 'boolean': {
			const box = h('input', { attrs: { ...aria, type: 'checkbox' } });
			box.checked = initial === true;
			const write = (value: FieldInput) => {
				if (typeof value === 'boolean') {
					box.checked = value;
				}
			};
			return { focusable: box, invalidTargets: [box], parts: (d) => [h('div', { class: 'field-check' }, box, label(field, id)), d], read: () => box.checked, write };
		}
		case 'choice': {
			const select = h('select', { attrs: { ...aria } }, h('option', { attrs: { value: '' } }, field.required ? 'Choose…' : '(none)'), ...field.choices.map((c) => h('option', { attrs: { value: c.value, title: c.description } }, c.title)));
			select.value = typeof initial === 'string' ? initial : '';
			// A value no longer among the choices leaves the select as it was.
			const write = (value: FieldInput) => {
				if (typeof value === 'string' && (value === '' || field.choices.some((c) => c.value === value))) {
					select.value = value;
				}
			};
			return { focusable: select, invalidTargets: [select], parts: (d) => [label(field, id), d, select], read: () => select.value, write };
		}
		case 'multi':
			return multiControl(field, id, describedBy, initial);
	}
}

function multiControl(field: Extract<ElicitationField, { type: 'multi' }>, id: string, describedBy: string, initial: FieldInput): Control {
	const chosen = new Set(Array.isArray(initial) ? initial : []);
	const boxes = field.choices.map((choice, index) => {
		const box = h('input', { attrs: { type: 'checkbox', id: `${id}-${index}`, value: choice.value } });
		box.checked = chosen.has(choice.value);
		return { box, row: h('div', { class: 'field-check' }, box, h('label', { attrs: { for: `${id}-${index}`, title: choice.description } }, choice.title)) };
	});
	const legend = h('legend', { class: 'field-label' }, field.title, field.required ? h('span', { class: 'required-mark', attrs: { 'aria-hidden': 'true' } }, ' *') : null);
	const set = h('fieldset', { class: 'field-choices', attrs: { id, 'aria-describedby': describedBy, 'aria-required': field.required ? 'true' : undefined } }, legend);
	return {
		focusable: boxes[0]?.box ?? set,
		invalidTargets: [set],
		parts: (d) => {
			set.append(...[d, ...boxes.map((b) => b.row)].filter((n): n is HTMLElement => n !== null));
			return [set];
		},
		read: () => boxes.filter((b) => b.box.checked).map((b) => b.box.value),
		write: (value) => {
			if (Array.isArray(value)) {
				for (const b of boxes) {
					b.box.checked = value.includes(b.box.value);
				}
			}
		},
	};
}
