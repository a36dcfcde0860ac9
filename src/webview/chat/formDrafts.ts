/**
 * What the user typed into pending forms (elicitations), kept in the page's saved state as the
 * input's drafts are (drafts.ts): when the page is loaded again (the view hidden or moved, the page
 * reloaded), a form drawn again gets back what was in its fields. A draft belongs to one form: its
 * request id and what it asks (a new form that happens to get an old id starts empty).
 */
import type { FieldInput } from '../../common/chat/elicitationForm';
import type { Elicitation } from '../../common/chat/transcriptModel';

/** One form's fields as the user left them, by field name. */
export type FormValues = Record<string, FieldInput>;

/** What the page keeps of the forms in its saved state. */
export type SavedForms = Record<string, { readonly form: string; readonly values: FormValues }>;

/** At most this many forms' drafts are kept (the oldest let go first). */
const MAX_FORMS = 32;

export class FormDrafts {
	private readonly byRequest: SavedForms;

	constructor(saved: unknown, private readonly changed: () => void) {
		this.byRequest = isSavedForms(saved) ? { ...saved } : {};
	}

	/** What the user left in `elicitation`'s fields, if anything. */
	values(elicitation: Elicitation): FormValues | undefined {
		const draft = this.byRequest[elicitation.requestId];
		return draft?.form === formKey(elicitation) ? draft.values : undefined;
	}

	/** Keeps the fields of `elicitation` as they are now (undefined: forgets them, the form is answered). */
	keep(elicitation: Elicitation, values: FormValues | undefined): void {
		const id = elicitation.requestId;
		if (values === undefined) {
			if (!(id in this.byRequest)) {
				return;
			}
			delete this.byRequest[id];
		} else {
			delete this.byRequest[id]; // the newest last
			this.byRequest[id] = { form: formKey(elicitation), values };
			const ids = Object.keys(this.byRequest);
			for (const old of ids.slice(0, Math.max(0, ids.length - MAX_FORMS))) {
				delete this.byRequest[old];
			}
		}
		this.changed();
	}

	/** What to save in the page's state. */
	saved(): SavedForms {
		return this.byRequest;
	}
}

/** What a form asks: its message and its fields' names and types. */
function formKey(elicitation: Elicitation): string {
	return JSON.stringify([elicitation.message, elicitation.fields.map((f) => [f.name, f.type])]);
}

function isSavedForms(saved: unknown): saved is SavedForms {
	return typeof saved === 'object' && saved !== null && Object.values(saved).every((d: unknown) => typeof d === 'object' && d !== null && typeof (d as { form?: unknown }).form === 'string' && typeof (d as { values?: unknown }).values === 'object' && (d as { values?: unknown }).values !== null);
}
