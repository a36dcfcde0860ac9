/**
 * The open chat tabs, oldest first, and which one is selected: found by key, by their agent's
 * session or by their record in the history. Plain state shared by the controller's parts: it
 * sends nothing to the pages and starts or ends no session.
 */
import type { ChatSession } from './chatSessions';
import type { ChatTab } from './chatTab';

let nextTabKey = 1;

export class TabList {
	private readonly byKey = new Map<string, ChatTab>();
	/** The selected tab's key. */
	selected: string | undefined;

	/** A key no tab has had in this window. */
	newKey(): string {
		return `tab-${nextTabKey++}`;
	}

	get size(): number {
		return this.byKey.size;
	}

	keys(): string[] {
		return [...this.byKey.keys()];
	}

	values(): ChatTab[] {
		return [...this.byKey.values()];
	}

	/** The tabs as [key, tab], oldest first. */
	entries(): IterableIterator<[string, ChatTab]> {
		return this.byKey.entries();
	}

	has(key: string): boolean {
		return this.byKey.has(key);
	}

	get(key: string | undefined): ChatTab | undefined {
		return key === undefined ? undefined : this.byKey.get(key);
	}

	/** The tab `key`; throws when it is closed. */
	require(key: string): ChatTab {
		const tab = this.byKey.get(key);
		if (!tab) {
			throw new Error('That chat is closed.');
		}
		return tab;
	}

	add(tab: ChatTab): void {
		this.byKey.set(tab.key, tab);
	}

	delete(key: string): void {
		this.byKey.delete(key);
	}

	/** The tab of an agent's session. */
	ofSession(agentName: string, sessionId: string): ChatTab | undefined {
		return this.values().find((t) => t.session?.agentName === agentName && t.session.sessionId === sessionId);
	}

	/** The tab showing `session`. */
	showing(session: ChatSession): ChatTab | undefined {
		return this.values().find((t) => t.session === session);
	}

	/** The tab of a chat in the history. */
	ofHistory(id: string): ChatTab | undefined {
		return this.values().find((t) => t.historyId === id);
	}
}
