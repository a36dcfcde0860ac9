/**
 * What each chat tab's input holds while the user is elsewhere (its draft), kept across the page
 * being hidden (VS Code's webview state). The input may take the keyboard before the page knows
 * which tab it shows (a chat opening: the page is drawn before the host's state comes); what is
 * typed then is kept apart and becomes part of the next tab shown, so no key typed is dropped.
 */
import type { Attachment } from '../../common/chat/messages';

/** What a tab's input keeps while the user is elsewhere. */
export interface Draft {
	text: string;
	attachments: Attachment[];
	history: string[];
}

/** What the page keeps of the drafts in its saved state. */
export interface SavedDrafts {
	drafts: Record<string, Draft>;
	/** Typed while no tab was shown. */
	unassigned?: Draft;
}

export class Drafts {
	private readonly byTab: Record<string, Draft>;
	private loose: Draft;

	constructor(saved: Partial<SavedDrafts> | undefined) {
		this.byTab = { ...(saved?.drafts ?? {}) };
		this.loose = saved?.unassigned ?? emptyDraft();
	}

	/** The draft the input edits while no tab is shown: handed to the next tab shown. */
	get unassigned(): Draft {
		return this.loose;
	}

	/**
	 * The tab's draft (a new tab's from `seed`, what the host put in its input), with what was typed
	 * while no tab was shown added after its text. The draft returned is the one the input then edits.
	 */
	forTab(key: string, seed?: { readonly text: string; readonly attachments: readonly Attachment[] }): Draft {
		const draft = (this.byTab[key] ??= { text: seed?.text ?? '', attachments: [...(seed?.attachments ?? [])], history: [] });
		if (!isEmpty(this.loose)) {
			append(draft, this.loose);
			this.loose = emptyDraft();
		}
		return draft;
	}

	/** Forgets the drafts of tabs that are gone. */
	keepOnly(keys: ReadonlySet<string>): void {
		for (const key of Object.keys(this.byTab)) {
			if (!keys.has(key)) {
				delete this.byTab[key];
			}
		}
	}

	/** What to save in the page's state. */
	saved(): SavedDrafts {
		return { drafts: this.byTab, ...(isEmpty(this.loose) ? {} : { unassigned: this.loose }) };
	}
}

function emptyDraft(): Draft {
	return { text: '', attachments: [], history: [] };
}

function isEmpty(draft: Draft): boolean {
	return draft.text === '' && draft.attachments.length === 0;
}

/** Adds `typed` to `draft`: its text after the draft's (a space between two words), its attachments not already there. */
function append(draft: Draft, typed: Draft): void {
	const gap = draft.text === '' || typed.text === '' || /\s$/.test(draft.text) || /^\s/.test(typed.text) ? '' : ' ';
	draft.text = `${draft.text}${gap}${typed.text}`;
	for (const attachment of typed.attachments) {
		if (!draft.attachments.some((a) => JSON.stringify(a) === JSON.stringify(attachment))) {
			draft.attachments.push(attachment);
		}
	}
}
