/**
 * The page's copy of a transcript (src/webview): starts from the host's snapshot and applies its
 * patches in order, saying which entries changed. It never reduces events itself: that is
 * transcript.ts's job in the extension host.
 */
import type { Entry, SessionInfo, TranscriptPatch, TranscriptSnapshot } from './transcriptModel';

/**
 * The page's copy of a transcript: starts from a snapshot and applies patches in order. Each
 * changed entry is a new object, so a renderer can compare by identity.
 */
export class TranscriptMirror {
	private entryList: Entry[];
	private state: TranscriptSnapshot;

	constructor(snapshot: TranscriptSnapshot) {
		this.entryList = [...snapshot.entries];
		this.state = snapshot;
	}

	get revision(): number {
		return this.state.revision;
	}

	get entries(): readonly Entry[] {
		return this.entryList;
	}

	get session(): SessionInfo {
		return this.state.session;
	}

	get dropped(): number {
		return this.state.dropped;
	}

	/**
	 * Applies a patch; returns the ids of the entries it changed or added, or `undefined` (and
	 * changes nothing) when the patch does not start at this copy's revision or does not fit it:
	 * the page should then ask for a snapshot.
	 */
	apply(patch: TranscriptPatch): number[] | undefined {
		if (patch.from !== this.state.revision) {
			return undefined;
		}
		let entries = this.entryList;
		const currentFirst = entries[0]?.id ?? this.state.firstId;
		if (patch.firstId > currentFirst) {
			entries = entries.slice(Math.min(entries.length, patch.firstId - currentFirst));
		}
		const firstId = entries[0]?.id ?? patch.firstId;
		const replaced = new Map<number, Entry>();
		const added: Entry[] = [];
		const at = (id: number): Entry | undefined => replaced.get(id) ?? added[id - firstId - entries.length] ?? entries[id - firstId];
		for (const change of patch.changes) {
			const id = 'entry' in change ? change.entry.id : change.id;
			const index = id - firstId;
			if (index < 0) {
				continue; // dropped by this same patch
			}
			let next: Entry;
			if ('entry' in change) {
				next = change.entry;
			} else {
				const current = at(id);
				const blocks = current && 'blocks' in current ? current.blocks : undefined;
				const lastBlock = blocks?.[blocks.length - 1];
				if (!current || !blocks || lastBlock?.type !== 'text') {
					return undefined;
				}
				next = { ...current, rev: change.rev, blocks: [...blocks.slice(0, -1), { type: 'text', text: lastBlock.text + change.append }] } as Entry;
			}
			if (index < entries.length) {
				replaced.set(id, next);
			} else if (index === entries.length + added.length) {
				added.push(next);
			} else if (index < entries.length + added.length) {
				added[index - entries.length] = next;
			} else {
				return undefined;
			}
		}
		if (entries === this.entryList) {
			entries = [...entries];
		}
		for (const [id, entry] of replaced) {
			entries[id - firstId] = entry;
		}
		entries.push(...added);
		this.entryList = entries;
		this.state = { revision: patch.to, firstId: entries[0]?.id ?? patch.firstId, dropped: patch.dropped, entries, session: patch.session ?? this.state.session };
		return patch.changes.map((c) => ('entry' in c ? c.entry.id : c.id)).filter((id) => id >= firstId);
	}

	/** This copy as a snapshot (what the host's `snapshot()` gave at the same revision). */
	snapshot(): TranscriptSnapshot {
		return { ...this.state, entries: [...this.entryList] };
	}
}
