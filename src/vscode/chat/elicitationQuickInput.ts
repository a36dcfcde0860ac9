/**
 * An elicitation asked outside the chat (one tied to a request before any session, a chat with no
 * panel, or the user's **Answer Here** on the notification of a chat out of sight): a URL in a
 * notification that opens it only when the user clicks, a form field by field in input boxes and
 * quick picks, each checked as the chat's form is (elicitationForm.ts). Escape anywhere cancels.
 */
import * as vscode from 'vscode';
import { checkField, checkForm, initialInput, type ElicitationField, type FieldInput } from '../../common/chat/elicitationForm';
import type { ElicitationResponse, ReadElicitation } from '../../common/chat/elicitationRequest';

/**
 * What the user answers `read` with, asked through notifications and quick input; `signal` cancels it.
 * `confirmed`: the user already chose to answer (**Answer Here**), so a form starts at its first field.
 */
export async function askInQuickInput(agentName: string, read: ReadElicitation, signal?: AbortSignal, confirmed = false): Promise<ElicitationResponse> {
	const elicitation = read.elicitation;
	if (elicitation.mode === 'url') {
		const open = `Open ${elicitation.host ?? 'link'}`;
		const pick = await vscode.window.showInformationMessage(`${agentName} asks you to open ${elicitation.host ?? 'a link'}: ${elicitation.message}`, open, 'Decline');
		if (pick === open && signal?.aborted) {
			void vscode.window.showInformationMessage(`${agentName} no longer needs ${elicitation.host ?? 'the link'} opened: it said it is done.`);
		} else if (pick === open && elicitation.url) {
			await vscode.env.openExternal(vscode.Uri.parse(elicitation.url, true));
			return { action: 'accept' };
		}
		return pick === 'Decline' ? { action: 'decline' } : { action: 'cancel' };
	}
	const pick = confirmed ? 'Answer' : await vscode.window.showInformationMessage(`${agentName} asks: ${elicitation.message}`, 'Answer', 'Decline');
	if (pick !== 'Answer' || signal?.aborted) {
		return pick === 'Decline' ? { action: 'decline' } : { action: 'cancel' };
	}
	const inputs: Record<string, FieldInput> = {};
	for (const [index, field] of elicitation.fields.entries()) {
		const input = await askField(field, `${elicitation.title ?? agentName} (${index + 1}/${elicitation.fields.length})`);
		if (input === undefined || signal?.aborted) {
			return { action: 'cancel' };
		}
		inputs[field.name] = input;
	}
	const checked = checkForm(elicitation.fields, inputs);
	return checked.ok ? { action: 'accept', content: checked.content } : { action: 'cancel' };
}

/** One field's input (undefined: the user pressed Escape); asked again until it passes its check. */
async function askField(field: ElicitationField, title: string): Promise<FieldInput> {
	const label = `${field.title}${field.required ? ' (required)' : ''}`;
	switch (field.type) {
		case 'text':
		case 'number': {
			const initial = initialInput(field);
			return vscode.window.showInputBox({
				title,
				prompt: field.description ? `${label}: ${field.description}` : label,
				value: typeof initial === 'string' ? initial : '',
				validateInput: (value) => {
					const result = checkField(field, value);
					return 'error' in result ? result.error : undefined;
				},
			});
		}
		case 'boolean': {
			const items = [
				{ label: 'Yes', value: true },
				{ label: 'No', value: false },
			];
			const picked = await vscode.window.showQuickPick(items, { title, placeHolder: field.description ? `${label}: ${field.description}` : label });
			return picked?.value;
		}
		case 'choice': {
			const items = [...field.choices.map((c) => ({ label: c.title, description: c.description, value: c.value, picked: c.value === field.default })), ...(field.required ? [] : [{ label: '(none)', value: '' }])];
			const picked = await vscode.window.showQuickPick(items, { title, placeHolder: field.description ? `${label}: ${field.description}` : label });
			return picked?.value;
		}
		case 'multi':
			return askMulti(field, title, label);
	}
}

async function askMulti(field: Extract<ElicitationField, { type: 'multi' }>, title: string, label: string): Promise<FieldInput> {
	let placeHolder = field.description ? `${label}: ${field.description}` : label;
	let chosen = new Set(field.default ?? []);
	for (;;) {
		const items = field.choices.map((c) => ({ label: c.title, description: c.description, value: c.value, picked: chosen.has(c.value) }));
		const picked = await vscode.window.showQuickPick(items, { title, placeHolder, canPickMany: true });
		if (picked === undefined) {
			return undefined;
		}
		const values = picked.map((p) => p.value);
		const result = checkField(field, values);
		if (!('error' in result)) {
			return values;
		}
		chosen = new Set(values);
		placeHolder = `${result.error} ${label}`;
	}
}
