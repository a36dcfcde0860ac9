/**
 * The sessions this client created with the running agent: the NES session
 * from `nes/start`, and ACP sessions from `session/new`. Requests the agent
 * makes on behalf of a session must name one of these.
 */
export type SessionKind = 'nes' | 'chat';

export class SessionRegistry {
	private readonly sessions = new Map<string, SessionKind>();

	add(id: string, kind: SessionKind): void {
		this.sessions.set(id, kind);
	}

	delete(id: string): void {
		this.sessions.delete(id);
	}

	has(id: string): boolean {
		return this.sessions.has(id);
	}

	kindOf(id: string): SessionKind | undefined {
		return this.sessions.get(id);
	}

	clear(): void {
		this.sessions.clear();
	}

	get size(): number {
		return this.sessions.size;
	}
}
