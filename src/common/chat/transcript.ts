/**
 * The chat transcript: ACP `session/update` notifications and the chat's own
 * events (a prompt sent, a turn ended or failed, a permission asked and
 * answered, the agent restarted) reduced into the model the webview renders.
 *
 * The host owns a {@link Transcript} per chat session and sends the page a
 * {@link TranscriptSnapshot} once, then {@link TranscriptPatch}es: the entries
 * changed since the revision the page has. The page keeps a
 * {@link TranscriptMirror}, which applies them and says which entries to draw
 * again. Entries have stable ids (consecutive, in transcript order) and the
 * revision at which they last changed.
 *
 * Why a class that updates itself rather than `(state, event) => state`: an
 * answer streams as thousands of chunks, and copying the entry list (or the
 * answer's text) for each would make a long answer quadratic. Here a text chunk
 * costs O(its length): it is appended to the last text block (strings are
 * ropes in JS engines, so `+=` does not copy), the entry's revision moves, and
 * the piece is kept in a short tail so a patch can carry just the new text.
 * It is still a reducer in every other sense: no I/O, no clock, no randomness;
 * the same events give the same model.
 *
 * Bounded whatever the agent sends (see {@link TranscriptLimits}): entries,
 * characters per entry and in all, blocks, list items and labels are capped.
 * What goes past a cap is dropped and said so (`truncated`, `omitted`,
 * `dropped`), never kept in a growing buffer.
 *
 * This file is the reducer alone: which entry an event changes and how. Its parts:
 * transcriptModel.ts (the types and caps), toModel.ts (ACP values cut to the caps),
 * entryStore.ts (ids, revisions, eviction, patches), sessionModel.ts (title, commands,
 * modes, usage), entrySizes.ts, modelValues.ts, and transcriptMirror.ts (the page's copy).
 *
 * ACP: https://agentclientprotocol.com/protocol/v1/prompt-turn (updates),
 * /tool-calls, /agent-plan, /session-modes, /session-config-options, /slash-commands.
 */
import type { ContentBlock, PermissionOption, SessionUpdate, SessionUpdateOf, StopReason, ToolCallUpdate } from './updates';
import { appendContent } from './appendContent';
import { ElicitationSlots } from './elicitationSlots';
import { EntryStore, type Slot } from './entryStore';
import { compactionSize, planSize, toolCallSize } from './entrySizes';
import { setOptional, withOptional, type Writable } from './modelValues';
import { SessionModel } from './sessionModel';
import { ToModel } from './toModel';
import { ToolCallCards } from './toolCallIds';
import {
	DEFAULT_LIMITS,
	type Block,
	type CompactionEntry,
	type MessageEntry,
	type PlanModelEntry,
	type ToolCallEntry,
	type TranscriptEvent,
	type TranscriptLimits,
	type TranscriptPatch,
	type TranscriptSnapshot,
	type TurnEndEntry,
} from './transcriptModel';

export * from './transcriptModel';
export { TranscriptMirror } from './transcriptMirror';
export { clip, titleFromPrompt } from './modelValues';

/**
 * One chat session's transcript. {@link apply} takes events in the order they happened;
 * {@link snapshot} and {@link changesSince} give the page what to render.
 */
export class Transcript {
	readonly limits: TranscriptLimits;
	private readonly store: EntryStore;
	private readonly model: ToModel;
	private readonly session: SessionModel;
	/** Tool call cards by the agent's id, per turn (toolCallIds.ts). */
	private readonly toolCalls = new ToolCallCards<Slot>();
	private readonly compactions = new Map<string, Slot>();
	private readonly pendingPermissions = new Map<string, Slot>();
	private readonly elicitations: ElicitationSlots;
	/** The last user message's id: a plan after it belongs to the current turn. */
	private lastUserId = 0;

	constructor(limits: Partial<TranscriptLimits> = {}) {
		this.limits = { ...DEFAULT_LIMITS, ...limits };
		this.store = new EntryStore(this.limits, (slot) => this.forget(slot));
		this.model = new ToModel(this.limits);
		this.session = new SessionModel(this.model, () => this.store.touchSession());
		this.elicitations = new ElicitationSlots(this.store, (toolCallId) => this.toolCalls.find(toolCallId, this.lastUserId));
	}

	/**
	 * A transcript that goes on from a stored snapshot (chat history): the same entries, ids and
	 * revision, so later events continue it. What cannot go on is settled: a turn that was running
	 * is idle and a permission that was pending is cancelled. A snapshot whose ids are not
	 * consecutive (a damaged store) is numbered again from its `firstId`; the caps apply.
	 */
	static restore(snapshot: TranscriptSnapshot, limits: Partial<TranscriptLimits> = {}): Transcript {
		const transcript = new Transcript(limits);
		transcript.restoreFrom(snapshot);
		return transcript;
	}

	private restoreFrom(snapshot: TranscriptSnapshot): void {
		this.store.restore(snapshot.entries, Math.max(1, snapshot.firstId), snapshot.revision, snapshot.dropped, (slot) => {
			const entry = slot.entry;
			this.elicitations.restore(slot);
			if (entry.kind === 'tool_call') {
				if (entry.permission?.state === 'pending') {
					entry.permission = { ...entry.permission, state: 'cancelled' };
				}
				this.toolCalls.add(entry.toolCallId, slot, this.lastUserId);
			} else if (entry.kind === 'compaction') {
				this.compactions.set(entry.compactionId, slot);
			} else if (entry.kind === 'user') {
				this.lastUserId = entry.id;
			}
		});
		this.session.restore(snapshot.session, (id) => this.store.slotById(id)?.entry.kind === 'plan');
		this.store.done();
	}

	/** Moves by one with every event that changed something. */
	get revision(): number {
		return this.store.revision;
	}

	get size(): number {
		return this.store.size;
	}

	/** Applies one event; `false` when it changed nothing (an unknown variant, an empty chunk, a chunk past a cap). */
	apply(event: TranscriptEvent): boolean {
		this.store.begin();
		this.reduce(event);
		return this.store.end();
	}

	/** Shorthand for `apply({ type: 'update', update })`. */
	update(update: SessionUpdate): boolean {
		return this.apply({ type: 'update', update });
	}

	/** The whole model, for a page that has nothing yet (or lost track). */
	snapshot(): TranscriptSnapshot {
		return { revision: this.store.revision, firstId: this.store.firstId(), dropped: this.store.dropped, entries: this.store.entries(), session: this.session.snapshot() };
	}

	/**
	 * What changed after revision `from`, for a page that has the model at `from`. An entry whose
	 * only change since then is text appended to its last block travels as just that text, when
	 * its recent pieces are still at hand (entryStore.ts); otherwise whole.
	 */
	changesSince(from: number): TranscriptPatch {
		const to = this.store.revision;
		if (!Number.isInteger(from) || from < 0 || from > to) {
			throw new RangeError(`No revision ${from} to patch from: this transcript is at ${to}`);
		}
		const patch: Writable<TranscriptPatch> = { from, to, firstId: this.store.firstId(), dropped: this.store.dropped, changes: this.store.changesSince(from) };
		if (this.store.sessionChangedSince(from)) {
			patch.session = this.session.snapshot();
		}
		return patch;
	}

	/**
	 * The tool call ids the agent used again in a later turn since the last call (each reuse once:
	 * its updates after that go to the new card), so the chat can say so in the log.
	 */
	takeReusedToolCallIds(): string[] {
		return this.toolCalls.takeReused();
	}

	// --- Dispatch ---

	private reduce(event: TranscriptEvent): void {
		switch (event.type) {
			case 'update':
				this.reduceUpdate(event.update);
				break;
			case 'prompt':
				this.prompt(event.blocks);
				break;
			case 'turn_ended':
				this.endTurn({ stopReason: this.model.label(event.stopReason) });
				break;
			case 'turn_failed':
				this.endTurn({ error: this.model.label(event.message) });
				break;
			case 'permission_asked':
				this.permissionAsked(event.requestId, event.toolCall, event.options);
				break;
			case 'permission_answered':
				this.permissionAnswered(event.requestId, event.optionId);
				break;
			case 'elicitation_asked':
				this.elicitations.asked(event.elicitation, event.toolCallId);
				break;
			case 'elicitation_settled':
				this.elicitations.settled(event.requestId, event.state);
				break;
			case 'session_setup':
				this.session.setup(event.modes, event.configOptions);
				break;
			case 'agent_restarted':
				this.lifecycle(event.resumed ? 'resumed' : 'ended', event.reason);
				break;
			case 'conversation_ended':
				this.lifecycle('ended', event.reason);
				break;
		}
	}

	private reduceUpdate(update: SessionUpdate): void {
		switch (update.sessionUpdate) {
			case 'user_message_chunk':
				this.chunk('user', update);
				break;
			case 'agent_message_chunk':
				this.chunk('agent', update);
				break;
			case 'agent_thought_chunk':
				this.chunk('thought', update);
				break;
			case 'tool_call':
				this.toolCall(update);
				break;
			case 'tool_call_update':
				this.toolCallUpdate(update);
				break;
			case 'plan':
				this.plan(update.entries);
				break;
			case 'available_commands_update':
				this.session.commands(update);
				break;
			case 'current_mode_update':
				this.session.currentMode(update.currentModeId);
				break;
			case 'config_option_update':
				this.session.configOptions(update.configOptions);
				break;
			case 'session_info_update':
				this.session.sessionInfo(update);
				break;
			case 'usage_update':
				this.session.usage(update);
				break;
			case 'notice': {
				const notice = withOptional({ kind: 'notice' as const, severity: this.model.label(update.severity), title: this.model.label(update.title) }, 'description', this.model.optionalLabel(update.description));
				this.store.resize(this.store.push(notice, undefined), notice.title.length + (notice.description?.length ?? 0));
				break;
			}
			case 'compaction_update':
				this.compactionUpdate(update);
				break;
			case 'compaction_summary_chunk':
				this.compactionChunk(update.compactionId, update.content);
				break;
			case 'unknown':
				break; // ignored: nothing changes, no revision
		}
	}

	// --- Messages ---

	private chunk(kind: MessageEntry['kind'], update: SessionUpdateOf<'user_message_chunk' | 'agent_message_chunk' | 'agent_thought_chunk'>): void {
		const content = update.content;
		if (content.type === 'unknown' || (content.type === 'text' && content.text.length === 0)) {
			return;
		}
		const messageId = update.messageId ?? undefined;
		const last = this.store.last();
		const entry = last?.entry;
		let slot: Slot;
		if (last && last.open && entry && entry.kind === kind && (messageId === undefined || entry.messageId === undefined || entry.messageId === messageId)) {
			slot = last;
			if (messageId !== undefined && entry.messageId === undefined) {
				entry.messageId = messageId;
				this.store.touch(slot); // more than appended text: a patch must carry the whole entry
			}
		} else {
			slot = this.store.push(withOptional({ kind, blocks: [] as Block[] }, 'messageId', messageId), []);
			if (kind === 'user') {
				this.lastUserId = slot.entry.id;
			}
		}
		appendContent(this.store, this.model, slot, content);
	}

	private prompt(blocks: readonly ContentBlock[]): void {
		const slot = this.store.push({ kind: 'user', blocks: [] }, []);
		slot.open = false;
		for (const block of blocks) {
			if (block.type !== 'unknown') {
				appendContent(this.store, this.model, slot, block);
			}
		}
		this.lastUserId = slot.entry.id;
		this.session.prompted(blocks.find((b) => b.type === 'text')?.text);
	}

	// --- Tool calls ---

	private toolCall(update: SessionUpdateOf<'tool_call'>): void {
		if (this.toolCalls.find(update.toolCallId, this.lastUserId)) {
			// Sent again with the same id in the same turn: the agent restates it; take what it says.
			this.toolCallUpdate(update);
			return;
		}
		const slot = this.store.push(
			{ kind: 'tool_call', toolCallId: this.model.label(update.toolCallId), title: this.model.label(update.title), toolKind: update.kind ?? 'other', status: update.status ?? 'pending', content: [], locations: [] },
			undefined,
		);
		this.toolCalls.add(update.toolCallId, slot, this.lastUserId);
		this.patchToolCall(slot, update);
	}

	/**
	 * Applies a `tool_call_update` (or the tool call of a permission request) to this turn's card
	 * with its id; an id this turn has no card for (unknown, or an earlier turn's) starts one.
	 */
	private toolCallUpdate(update: ToolCallUpdate): Slot {
		let slot = this.toolCalls.find(update.toolCallId, this.lastUserId);
		if (!slot) {
			slot = this.store.push({ kind: 'tool_call', toolCallId: this.model.label(update.toolCallId), title: '', toolKind: 'other', status: 'pending', content: [], locations: [] }, undefined);
			this.toolCalls.add(update.toolCallId, slot, this.lastUserId);
		}
		this.patchToolCall(slot, update);
		return slot;
	}
	private patchToolCall(slot: Slot, update: ToolCallUpdate): void {
		const entry = slot.entry as Writable<ToolCallEntry>;
		if (typeof update.title === 'string') {
			entry.title = this.model.label(update.title);
		}
		if (typeof update.name === 'string') {
			entry.name = this.model.label(update.name);
		}
		if (update.kind) {
			entry.toolKind = update.kind;
		}
		if (update.status) {
			entry.status = update.status;
		}
		if (update.locations) {
			entry.locations = this.model.locations(update.locations);
		}
		if ('rawInput' in update) {
			setOptional(entry, 'rawInput', this.model.raw(update.rawInput));
		}
		if ('rawOutput' in update) {
			setOptional(entry, 'rawOutput', this.model.raw(update.rawOutput));
		}
		if (update.content) {
			const { content, cut } = this.model.toolContents(update.content);
			entry.content = content;
			if (cut) {
				entry.truncated = true;
			} else {
				delete entry.truncated;
			}
		}
		this.store.resize(slot, toolCallSize(entry));
		this.store.touch(slot);
	}

	// --- Permissions ---

	private permissionAsked(requestId: string, toolCall: ToolCallUpdate, options: readonly PermissionOption[]): void {
		const slot = this.toolCallUpdate(toolCall);
		const entry = slot.entry as Writable<ToolCallEntry>;
		if (entry.permission?.state === 'pending') {
			this.pendingPermissions.delete(entry.permission.requestId);
		}
		entry.permission = {
			requestId,
			options: this.model.permissionOptions(options),
			state: 'pending',
		};
		this.pendingPermissions.set(requestId, slot);
		this.store.touch(slot);
	}

	private permissionAnswered(requestId: string, optionId: string | undefined): void {
		const slot = this.pendingPermissions.get(requestId);
		if (slot) {
			this.settlePermission(slot, optionId);
		}
	}

	private settlePermission(slot: Slot, optionId: string | undefined): void {
		const entry = slot.entry as Writable<ToolCallEntry>;
		const permission = entry.permission!;
		this.pendingPermissions.delete(permission.requestId);
		entry.permission = optionId === undefined ? { ...permission, state: 'cancelled' } : { ...permission, state: 'selected', optionId: this.model.label(optionId) };
		this.store.touch(slot);
	}

	private cancelPendingPermissions(): void {
		for (const slot of [...this.pendingPermissions.values()]) {
			this.settlePermission(slot, undefined);
		}
	}

	// --- Turns and the session's life ---

	private endTurn(end: { stopReason?: StopReason; error?: string }): void {
		this.cancelPendingPermissions();
		this.store.closeLast();
		const entry: Omit<Writable<TurnEndEntry>, 'id' | 'rev'> = { kind: 'turn_end' };
		setOptional(entry, 'stopReason', end.stopReason);
		setOptional(entry, 'error', end.error);
		this.store.push(entry, undefined);
		this.session.idle();
	}

	private lifecycle(status: 'resumed' | 'ended', reason: string | undefined): void {
		this.cancelPendingPermissions();
		this.elicitations.cancelPending();
		this.store.closeLast();
		this.store.push(withOptional({ kind: 'status', status }, 'reason', this.model.optionalLabel(reason)), undefined);
		this.session.idle(status === 'ended');
	}

	// --- Plans ---

	private plan(items: SessionUpdateOf<'plan'>['entries']): void {
		const converted = this.model.planItems(items);
		const current = this.session.planId !== undefined && this.session.planId > this.lastUserId ? this.store.slotById(this.session.planId) : undefined;
		if (current) {
			(current.entry as Writable<PlanModelEntry>).items = converted;
			this.store.resize(current, planSize(converted));
			this.store.touch(current);
			return;
		}
		const slot = this.store.push({ kind: 'plan', items: converted }, undefined);
		this.store.resize(slot, planSize(converted));
		this.session.setPlan(slot.entry.id);
	}

	// --- Compaction ---

	private compactionUpdate(update: SessionUpdateOf<'compaction_update'>): void {
		let slot = this.compactions.get(update.compactionId);
		if (!slot) {
			slot = this.store.push({ kind: 'compaction', compactionId: this.model.label(update.compactionId), status: this.model.label(update.status), blocks: [] }, []);
			this.compactions.set(update.compactionId, slot);
		}
		const entry = slot.entry as Writable<CompactionEntry>;
		entry.status = this.model.label(update.status);
		if (update.error !== undefined) {
			setOptional(entry, 'error', this.model.optionalLabel(update.error));
		}
		if (update.summary !== undefined) {
			// A complete replacement (null or [] clears).
			slot.blocks!.length = 0;
			delete entry.truncated;
			this.store.resize(slot, 0);
			for (const block of update.summary ?? []) {
				if (block.type !== 'unknown') {
					appendContent(this.store, this.model, slot, block);
				}
			}
		}
		this.store.resize(slot, compactionSize(entry, slot.blocks!));
		this.store.touch(slot);
	}

	private compactionChunk(compactionId: string, content: ContentBlock): void {
		let slot = this.compactions.get(compactionId);
		if (!slot) {
			slot = this.store.push({ kind: 'compaction', compactionId: this.model.label(compactionId), status: 'in_progress', blocks: [] }, []);
			this.compactions.set(compactionId, slot);
		}
		if (content.type !== 'unknown' && !(content.type === 'text' && content.text.length === 0)) {
			appendContent(this.store, this.model, slot, content);
		}
	}

	// --- Entries the caps dropped ---

	/** Lets go of an entry the caps dropped (entryStore.ts): the indexes that point at it forget it. */
	private forget(slot: Slot): void {
		const entry = slot.entry;
		this.elicitations.forget(slot);
		if (entry.kind === 'tool_call') {
			this.toolCalls.forget(entry.toolCallId, slot);
			if (entry.permission?.state === 'pending') {
				this.pendingPermissions.delete(entry.permission.requestId);
			}
		} else if (entry.kind === 'compaction' && this.compactions.get(entry.compactionId) === slot) {
			this.compactions.delete(entry.compactionId);
		} else if (entry.kind === 'plan' && this.session.planId === entry.id) {
			this.session.setPlan(undefined);
		}
	}
}
