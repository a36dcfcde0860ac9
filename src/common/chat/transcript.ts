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
 * ACP: https://agentclientprotocol.com/protocol/v1/prompt-turn (updates),
 * /tool-calls, /agent-plan, /session-modes, /session-config-options, /slash-commands.
 */
import type {
	ContentBlock,
	KnownContentBlock,
	PermissionOption,
	PermissionOptionKind,
	SessionConfigOption,
	SessionModeState,
	SessionUpdate,
	SessionUpdateOf,
	StopReason,
	ToolCallContent,
	ToolCallLocation,
	ToolCallStatus,
	ToolCallUpdate,
	ToolKind,
} from './updates';
import { ToolCallCards } from './toolCallIds';

// --- Limits --------------------------------------------------------------------------------------

/** Caps that keep one transcript's memory bounded however much an agent sends. */
export interface TranscriptLimits {
	/** Entries kept; the oldest are dropped beyond it. */
	readonly maxEntries: number;
	/** Characters (UTF-16 units) of all entries together; the oldest entries are dropped beyond it. */
	readonly maxTotalChars: number;
	/** Characters of one entry (a message's text, a tool call's content); more is cut and the entry marked `truncated`. */
	readonly maxEntryChars: number;
	/** Base64 characters of one image or audio block; a larger one is kept without its data (`omitted`). */
	readonly maxMediaChars: number;
	/** Blocks in one message (images, links, text runs between them). */
	readonly maxBlocks: number;
	/** Items of any list: tool call content and locations, plan items, commands, modes, config options and their choices, permission options. */
	readonly maxItems: number;
	/** Characters of a title, name, description, hint, path or URI. */
	readonly maxLabelChars: number;
	/** Characters of a tool call's `rawInput` or `rawOutput`, kept as JSON text. */
	readonly maxRawChars: number;
}

/**
 * The defaults. A transcript of 10 000 entries is far beyond a long working session (the
 * issue's scrolling benchmark uses 2 000 messages); 16 M characters (32 MB at most as
 * UTF-16) bound a session that streams without end; 1 M characters in one entry hold any
 * real answer or diff; 4 M base64 characters are a 3 MB image.
 */
export const DEFAULT_LIMITS: TranscriptLimits = {
	maxEntries: 10_000,
	maxTotalChars: 16_000_000,
	maxEntryChars: 1_000_000,
	maxMediaChars: 4_000_000,
	maxBlocks: 256,
	maxItems: 256,
	maxLabelChars: 4_000,
	maxRawChars: 64_000,
};

/** How many recent text pieces, and characters, an entry keeps so a patch can carry only what was appended. */
const TAIL_PIECES = 64;
const TAIL_CHARS = 64 * 1024;
/** A title made from the first prompt is cut to this many characters. */
const PROMPT_TITLE_CHARS = 80;

// --- The model (what the webview renders) ------------------------------------------------------

/** A piece of content in a message, a tool call or a compaction summary. */
export type Block =
	| { readonly type: 'text'; readonly text: string }
	/** `omitted`: the image was larger than the cap and its data was not kept (`data` is empty). */
	| { readonly type: 'image'; readonly mimeType: string; readonly data: string; readonly uri?: string; readonly omitted?: true }
	| { readonly type: 'audio'; readonly mimeType: string; readonly data: string; readonly omitted?: true }
	| {
			readonly type: 'resource_link';
			readonly uri: string;
			readonly name: string;
			readonly title?: string;
			readonly description?: string;
			readonly mimeType?: string;
			readonly size?: number;
	  }
	/** An embedded resource. Text resources keep their text (cut at the entry cap: `truncated`); binary ones only their URI. */
	| { readonly type: 'resource'; readonly uri: string; readonly mimeType?: string; readonly text?: string; readonly truncated?: true };

/** What a tool call shows: content, a diff (no `oldText`: a new file), or a terminal (`terminal/create`, shown live in part 2). */
export type ToolContent =
	| { readonly type: 'content'; readonly content: Block }
	| { readonly type: 'diff'; readonly path: string; readonly oldText?: string; readonly newText: string; readonly truncated?: true }
	| { readonly type: 'terminal'; readonly terminalId: string };

/** A file a tool call works on; `line` as the agent sent it. */
export interface Location {
	readonly path: string;
	readonly line?: number;
}

/** A `session/request_permission` attached to its tool call. */
export interface Permission {
	/** The host's key for the request; the page answers with it. */
	readonly requestId: string;
	readonly options: readonly { readonly optionId: string; readonly name: string; readonly kind: PermissionOptionKind }[];
	/** `cancelled`: the turn ended, failed or was stopped before the user chose. */
	readonly state: 'pending' | 'selected' | 'cancelled';
	readonly optionId?: string;
}

interface EntryBase {
	/** Stable, and consecutive in transcript order. */
	readonly id: number;
	/** The transcript revision at which this entry last changed. */
	readonly rev: number;
}

/** A user message, an agent message or an agent thought: consecutive chunks merged. */
export interface MessageEntry extends EntryBase {
	readonly kind: 'user' | 'agent' | 'thought';
	readonly blocks: readonly Block[];
	readonly messageId?: string;
	/** More was sent than the caps keep. */
	readonly truncated?: true;
}

export interface ToolCallEntry extends EntryBase {
	readonly kind: 'tool_call';
	readonly toolCallId: string;
	readonly title: string;
	readonly toolKind: ToolKind;
	readonly status: ToolCallStatus;
	readonly name?: string;
	readonly content: readonly ToolContent[];
	readonly locations: readonly Location[];
	/** The tool's raw input and output, as (possibly cut) JSON text. */
	readonly rawInput?: string;
	readonly rawOutput?: string;
	readonly permission?: Permission;
	readonly truncated?: true;
}

export interface PlanItem {
	readonly content: string;
	readonly priority: 'high' | 'medium' | 'low';
	readonly status: 'pending' | 'in_progress' | 'completed';
}

/** The agent's plan. A new plan replaces the one of the same turn in place. */
export interface PlanModelEntry extends EntryBase {
	readonly kind: 'plan';
	readonly items: readonly PlanItem[];
}

/** A `notice` from the agent. */
export interface NoticeEntry extends EntryBase {
	readonly kind: 'notice';
	/** `info`, `warning`, `error` or another string. */
	readonly severity: string;
	readonly title: string;
	readonly description?: string;
}

/** A context compaction, with the summary streamed into it. */
export interface CompactionEntry extends EntryBase {
	readonly kind: 'compaction';
	readonly compactionId: string;
	/** `in_progress`, `completed`, `failed`, `cancelled` or another string. */
	readonly status: string;
	readonly blocks: readonly Block[];
	readonly error?: string;
	readonly truncated?: true;
}

/** How a turn ended: the agent's stop reason, or the error that failed the prompt. */
export interface TurnEndEntry extends EntryBase {
	readonly kind: 'turn_end';
	readonly stopReason?: StopReason;
	readonly error?: string;
}

/** The agent restarted and the conversation went on (`resumed`), or it is over (`ended`). */
export interface StatusEntry extends EntryBase {
	readonly kind: 'status';
	readonly status: 'resumed' | 'ended';
	readonly reason?: string;
}

export type Entry = MessageEntry | ToolCallEntry | PlanModelEntry | NoticeEntry | CompactionEntry | TurnEndEntry | StatusEntry;
export type EntryKind = Entry['kind'];

export interface Command {
	readonly name: string;
	readonly description: string;
	/** What to type after the command, when it takes input. */
	readonly hint?: string;
}

export interface Mode {
	readonly id: string;
	readonly name: string;
	readonly description?: string;
}

export interface ConfigChoice {
	readonly value: string;
	readonly name: string;
	readonly description?: string;
}

interface ConfigOptionBase {
	readonly id: string;
	readonly name: string;
	readonly description?: string;
	/** `mode`, `model`, `model_config`, `thought_level` or another string. */
	readonly category?: string;
}

/** A session config option: a dropdown (its choices in groups; one unnamed group when flat) or a toggle. */
export type ConfigOption =
	| (ConfigOptionBase & {
			readonly type: 'select';
			readonly currentValue: string;
			readonly groups: readonly { readonly group?: string; readonly name?: string; readonly options: readonly ConfigChoice[] }[];
	  })
	| (ConfigOptionBase & { readonly type: 'boolean'; readonly currentValue: boolean });

export interface Usage {
	/** Tokens in context. */
	readonly used: number;
	/** The context window, in tokens. */
	readonly size: number;
	readonly cost?: { readonly amount: number; readonly currency: string };
}

/** What the chat shows around the entries: title, input helpers, usage, turn state. */
export interface SessionInfo {
	/** The agent's title (`session_info_update`), else one made from the first prompt. */
	readonly title?: string;
	readonly titleSource?: 'agent' | 'prompt';
	readonly updatedAt?: string;
	/** Slash commands. */
	readonly commands: readonly Command[];
	/** Modes, for agents that have them (config options supersede them when both exist). */
	readonly modes?: { readonly currentModeId: string; readonly available: readonly Mode[] };
	readonly configOptions: readonly ConfigOption[];
	readonly usage?: Usage;
	readonly turn: 'idle' | 'running';
	/** The conversation is over (the agent stopped and it could not be resumed). */
	readonly ended: boolean;
	/** The latest plan's entry, while it is in the transcript. */
	readonly planId?: number;
}

export interface TranscriptSnapshot {
	readonly revision: number;
	/** The id the first entry has (or the next entry will get, when there are none); entries before it were dropped. */
	readonly firstId: number;
	/** How many entries the caps dropped from the start. */
	readonly dropped: number;
	readonly entries: readonly Entry[];
	readonly session: SessionInfo;
}

/** One entry changed since the patch's `from`: the whole entry, or text appended to its last block. */
export type EntryChange = { readonly entry: Entry } | { readonly id: number; readonly rev: number; readonly append: string };

/** What changed between two revisions. Applies to a copy at revision `from` exactly. */
export interface TranscriptPatch {
	readonly from: number;
	readonly to: number;
	readonly firstId: number;
	readonly dropped: number;
	/** Changed and new entries, by id. */
	readonly changes: readonly EntryChange[];
	/** Present when it changed. */
	readonly session?: SessionInfo;
}

// --- Events ----------------------------------------------------------------------------------

/** What the reducer takes: an agent's update, or something the chat did or saw. */
export type TranscriptEvent =
	| { readonly type: 'update'; readonly update: SessionUpdate }
	/** The user sent a prompt (the blocks as sent); a turn starts. */
	| { readonly type: 'prompt'; readonly blocks: readonly ContentBlock[] }
	/** `session/prompt` answered. */
	| { readonly type: 'turn_ended'; readonly stopReason: StopReason }
	/** `session/prompt` failed (an error reply, or the agent went away). */
	| { readonly type: 'turn_failed'; readonly message: string }
	| { readonly type: 'permission_asked'; readonly requestId: string; readonly toolCall: ToolCallUpdate; readonly options: readonly PermissionOption[] }
	/** The user chose `optionId`, or (without it) the request was cancelled. */
	| { readonly type: 'permission_answered'; readonly requestId: string; readonly optionId?: string }
	/** Modes and config options from `session/new`, `load`, `resume` or `set_config_option`: a list given replaces, `null` clears, absent leaves as is. */
	| { readonly type: 'session_setup'; readonly modes?: SessionModeState | null; readonly configOptions?: readonly SessionConfigOption[] | null }
	/** The agent crashed and was restarted; `resumed`: this conversation goes on (`session/resume` or `session/load`). */
	| { readonly type: 'agent_restarted'; readonly resumed: boolean; readonly reason?: string }
	| { readonly type: 'conversation_ended'; readonly reason?: string };

// --- The reducer -----------------------------------------------------------------------------

type Writable<T> = { -readonly [K in keyof T]: T[K] };
type WritableEntry = Entry extends infer E ? (E extends Entry ? Writable<E> : never) : never;
/** An entry before it has an id and a revision. */
type NewEntry = WritableEntry extends infer E ? (E extends WritableEntry ? Omit<E, 'id' | 'rev'> : never) : never;

interface Slot {
	readonly entry: WritableEntry;
	/** The entry's `blocks`, which chunks grow in place (patches and snapshots copy it). */
	readonly blocks: Block[] | undefined;
	/** Characters this entry holds, as counted against the caps. */
	size: number;
	/** Chunks of the same kind may still be merged into it. */
	open: boolean;
	/** Text appended to the last block since revision `tailFloor`, piece by piece, with the revision of each. */
	tail: string[];
	tailRevs: number[];
	tailChars: number;
	tailFloor: number;
}

/**
 * One chat session's transcript. {@link apply} takes events in the order they happened;
 * {@link snapshot} and {@link changesSince} give the page what to render.
 */
export class Transcript {
	readonly limits: TranscriptLimits;
	private rev = 0;
	private nextId = 1;
	private dropped = 0;
	private totalChars = 0;
	/** Slots from `head` on are the transcript; the ones before were dropped and are cleared in batches. */
	private slots: Slot[] = [];
	private head = 0;
	/** Tool call cards by the agent's id, per turn (toolCallIds.ts). */
	private readonly toolCalls = new ToolCallCards<Slot>();
	private readonly compactions = new Map<string, Slot>();
	private readonly pendingPermissions = new Map<string, Slot>();
	/** Whether the event being applied changed anything (set by every `touch`). */
	private changed = false;
	/** The last user message's id: a plan after it belongs to the current turn. */
	private lastUserId = 0;

	private session: Writable<SessionInfo> = { commands: [], configOptions: [], turn: 'idle', ended: false };
	private sessionRev = 0;
	private agentTitle: string | undefined;
	private promptTitle: string | undefined;

	constructor(limits: Partial<TranscriptLimits> = {}) {
		this.limits = { ...DEFAULT_LIMITS, ...limits };
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
		const firstId = Math.max(1, snapshot.firstId);
		let rev = snapshot.revision;
		snapshot.entries.forEach((stored, index) => {
			const entry = { ...stored, id: firstId + index } as WritableEntry;
			rev = Math.max(rev, entry.rev);
			let blocks: Block[] | undefined;
			if ('blocks' in entry) {
				blocks = [...entry.blocks];
				(entry as Writable<MessageEntry>).blocks = blocks;
			}
			if (entry.kind === 'tool_call' && entry.permission?.state === 'pending') {
				entry.permission = { ...entry.permission, state: 'cancelled' };
			}
			const slot: Slot = { entry, blocks, size: 0, open: false, tail: [], tailRevs: [], tailChars: 0, tailFloor: entry.rev };
			this.slots.push(slot);
			this.resize(slot, entrySize(entry));
			if (entry.kind === 'tool_call') {
				this.toolCalls.add(entry.toolCallId, slot, this.lastUserId);
			} else if (entry.kind === 'compaction') {
				this.compactions.set(entry.compactionId, slot);
			} else if (entry.kind === 'user') {
				this.lastUserId = entry.id;
			}
		});
		this.rev = rev;
		this.nextId = firstId + snapshot.entries.length;
		this.dropped = snapshot.dropped;
		const session: Writable<SessionInfo> = { ...snapshot.session, turn: 'idle' };
		if (session.planId !== undefined && this.slotById(session.planId)?.entry.kind !== 'plan') {
			delete session.planId;
		}
		this.session = session;
		this.sessionRev = rev;
		if (session.titleSource === 'agent') {
			this.agentTitle = session.title;
		} else if (session.titleSource === 'prompt') {
			this.promptTitle = session.title;
		}
		this.evict();
	}

	/** Moves by one with every event that changed something. */
	get revision(): number {
		return this.rev;
	}

	get size(): number {
		return this.slots.length - this.head;
	}

	/** Applies one event; `false` when it changed nothing (an unknown variant, an empty chunk, a chunk past a cap). */
	apply(event: TranscriptEvent): boolean {
		this.rev++;
		this.changed = false;
		this.reduce(event);
		if (!this.changed) {
			this.rev--;
			return false;
		}
		this.evict();
		return true;
	}

	/** Shorthand for `apply({ type: 'update', update })`. */
	update(update: SessionUpdate): boolean {
		return this.apply({ type: 'update', update });
	}

	/** The whole model, for a page that has nothing yet (or lost track). */
	snapshot(): TranscriptSnapshot {
		const entries: Entry[] = [];
		for (let i = this.head; i < this.slots.length; i++) {
			entries.push(exportEntry(this.slots[i]!));
		}
		return { revision: this.rev, firstId: this.firstId(), dropped: this.dropped, entries, session: this.exportSession() };
	}

	/**
	 * What changed after revision `from`, for a page that has the model at `from`. An entry whose
	 * only change since then is text appended to its last block travels as just that text, when
	 * its recent pieces are still at hand (the last {@link TAIL_PIECES}); otherwise whole.
	 */
	changesSince(from: number): TranscriptPatch {
		if (!Number.isInteger(from) || from < 0 || from > this.rev) {
			throw new RangeError(`No revision ${from} to patch from: this transcript is at ${this.rev}`);
		}
		const changes: EntryChange[] = [];
		// A scan of at most maxEntries revision numbers, once per patch (the host sends about one a frame).
		for (let i = this.head; i < this.slots.length; i++) {
			const slot = this.slots[i]!;
			if (slot.entry.rev > from) {
				changes.push(changeOf(slot, from));
			}
		}
		const patch: Writable<TranscriptPatch> = { from, to: this.rev, firstId: this.firstId(), dropped: this.dropped, changes };
		if (this.sessionRev > from) {
			patch.session = this.exportSession();
		}
		return patch;
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
				this.endTurn({ stopReason: this.label(event.stopReason) });
				break;
			case 'turn_failed':
				this.endTurn({ error: this.label(event.message) });
				break;
			case 'permission_asked':
				this.permissionAsked(event.requestId, event.toolCall, event.options);
				break;
			case 'permission_answered':
				this.permissionAnswered(event.requestId, event.optionId);
				break;
			case 'session_setup':
				this.sessionSetup(event.modes, event.configOptions);
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
				this.session.commands = update.availableCommands.slice(0, this.limits.maxItems).map((c) =>
					withOptional({ name: this.label(c.name), description: this.label(c.description) }, 'hint', c.input ? this.label(c.input.hint) : undefined),
				);
				this.touchSession();
				break;
			case 'current_mode_update':
				this.session.modes = { currentModeId: this.label(update.currentModeId), available: this.session.modes?.available ?? [] };
				this.touchSession();
				break;
			case 'config_option_update':
				this.session.configOptions = this.configOptions(update.configOptions);
				this.touchSession();
				break;
			case 'session_info_update':
				this.sessionInfo(update);
				break;
			case 'usage_update': {
				const usage: Writable<Usage> = { used: update.used, size: update.size };
				if (update.cost) {
					usage.cost = { amount: update.cost.amount, currency: this.label(update.cost.currency) };
				}
				this.session.usage = usage;
				this.touchSession();
				break;
			}
			case 'notice': {
				const notice = withOptional({ kind: 'notice' as const, severity: this.label(update.severity), title: this.label(update.title) }, 'description', this.optionalLabel(update.description));
				this.resize(this.push(notice, undefined), notice.title.length + (notice.description?.length ?? 0));
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
		const last = this.last();
		const entry = last?.entry;
		let slot: Slot;
		if (last && last.open && entry && entry.kind === kind && (messageId === undefined || entry.messageId === undefined || entry.messageId === messageId)) {
			slot = last;
			if (messageId !== undefined && entry.messageId === undefined) {
				entry.messageId = messageId;
				this.touch(slot); // more than appended text: a patch must carry the whole entry
			}
		} else {
			slot = this.push(withOptional({ kind, blocks: [] as Block[] }, 'messageId', messageId), []);
			if (kind === 'user') {
				this.lastUserId = slot.entry.id;
			}
		}
		this.appendContent(slot, content);
	}

	private prompt(blocks: readonly ContentBlock[]): void {
		const slot = this.push({ kind: 'user', blocks: [] }, []);
		slot.open = false;
		for (const block of blocks) {
			if (block.type !== 'unknown') {
				this.appendContent(slot, block);
			}
		}
		this.lastUserId = slot.entry.id;
		if (this.promptTitle === undefined) {
			const text = blocks.find((b) => b.type === 'text')?.text;
			const title = text === undefined ? undefined : titleFromPrompt(text);
			if (title) {
				this.promptTitle = title;
				this.refreshTitle();
			}
		}
		this.session.turn = 'running';
		this.touchSession();
	}

	/**
	 * Appends one content block to a message or compaction: text runs on into the last text
	 * block; anything else is a block of its own. Past the entry's caps the entry is marked
	 * `truncated` once and further content is dropped.
	 */
	private appendContent(slot: Slot, content: KnownContentBlock): void {
		const blocks = slot.blocks!;
		const entry = slot.entry as Writable<MessageEntry | CompactionEntry>;
		const room = this.limits.maxEntryChars - slot.size;
		const lastBlock = blocks[blocks.length - 1];
		if (content.type === 'text' && lastBlock?.type === 'text') {
			if (entry.truncated) {
				return; // past the cap: dropped
			}
			const piece = clip(content.text, room);
			if (piece.length > 0) {
				blocks[blocks.length - 1] = { type: 'text', text: lastBlock.text + piece };
				this.grow(slot, piece.length);
			}
			if (piece.length < content.text.length) {
				entry.truncated = true;
				this.touch(slot);
			} else {
				this.touchAppended(slot, piece);
			}
			return;
		}
		if (entry.truncated) {
			return; // past the cap: dropped
		}
		if (blocks.length >= this.limits.maxBlocks) {
			entry.truncated = true;
			this.touch(slot);
			return;
		}
		const block = this.block(content, room);
		blocks.push(block.block);
		this.grow(slot, blockSize(block.block));
		if (block.cut) {
			entry.truncated = true;
		}
		this.touch(slot);
	}

	/** An ACP content block as the model keeps it, cut to `room` characters of text. */
	private block(content: KnownContentBlock, room: number): { block: Block; cut: boolean } {
		switch (content.type) {
			case 'text': {
				const text = clip(content.text, room);
				return { block: { type: 'text', text }, cut: text.length < content.text.length };
			}
			case 'image':
			case 'audio': {
				const omitted = content.data.length > Math.min(this.limits.maxMediaChars, room);
				const block: Writable<Extract<Block, { type: 'image' | 'audio' }>> =
					content.type === 'image' ? withOptional({ type: 'image', mimeType: this.label(content.mimeType), data: '' }, 'uri', this.optionalLabel(content.uri)) : { type: 'audio', mimeType: this.label(content.mimeType), data: '' };
				if (omitted) {
					block.omitted = true;
				} else {
					block.data = content.data;
				}
				return { block, cut: false };
			}
			case 'resource_link': {
				const block: Writable<Extract<Block, { type: 'resource_link' }>> = { type: 'resource_link', uri: this.label(content.uri), name: this.label(content.name) };
				setOptional(block, 'title', this.optionalLabel(content.title));
				setOptional(block, 'description', this.optionalLabel(content.description));
				setOptional(block, 'mimeType', this.optionalLabel(content.mimeType));
				setOptional(block, 'size', content.size ?? undefined);
				return { block, cut: false };
			}
			case 'resource': {
				const resource = content.resource;
				const block: Writable<Extract<Block, { type: 'resource' }>> = { type: 'resource', uri: this.label(resource.uri) };
				setOptional(block, 'mimeType', this.optionalLabel(resource.mimeType));
				let cut = false;
				if ('text' in resource && typeof resource.text === 'string') {
					block.text = clip(resource.text, room);
					if (block.text.length < resource.text.length) {
						block.truncated = true;
						cut = true;
					}
				}
				return { block, cut };
			}
		}
	}

	// --- Tool calls ---

	private toolCall(update: SessionUpdateOf<'tool_call'>): void {
		if (this.toolCalls.find(update.toolCallId, this.lastUserId)) {
			// Sent again with the same id in the same turn: the agent restates it; take what it says.
			this.toolCallUpdate(update);
			return;
		}
		const slot = this.push(
			{ kind: 'tool_call', toolCallId: this.label(update.toolCallId), title: this.label(update.title), toolKind: update.kind ?? 'other', status: update.status ?? 'pending', content: [], locations: [] },
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
			slot = this.push({ kind: 'tool_call', toolCallId: this.label(update.toolCallId), title: '', toolKind: 'other', status: 'pending', content: [], locations: [] }, undefined);
			this.toolCalls.add(update.toolCallId, slot, this.lastUserId);
		}
		this.patchToolCall(slot, update);
		return slot;
	}

	/**
	 * The tool call ids the agent used again in a later turn since the last call (each reuse once:
	 * its updates after that go to the new card), so the chat can say so in the log.
	 */
	takeReusedToolCallIds(): string[] {
		return this.toolCalls.takeReused();
	}

	private patchToolCall(slot: Slot, update: ToolCallUpdate): void {
		const entry = slot.entry as Writable<ToolCallEntry>;
		if (typeof update.title === 'string') {
			entry.title = this.label(update.title);
		}
		if (typeof update.name === 'string') {
			entry.name = this.label(update.name);
		}
		if (update.kind) {
			entry.toolKind = update.kind;
		}
		if (update.status) {
			entry.status = update.status;
		}
		if (update.locations) {
			entry.locations = update.locations.slice(0, this.limits.maxItems).map((l) => this.location(l));
		}
		if ('rawInput' in update) {
			setOptional(entry, 'rawInput', this.raw(update.rawInput));
		}
		if ('rawOutput' in update) {
			setOptional(entry, 'rawOutput', this.raw(update.rawOutput));
		}
		if (update.content) {
			let room = this.limits.maxEntryChars;
			let cut = update.content.length > this.limits.maxItems;
			const content: ToolContent[] = [];
			for (const item of update.content.slice(0, this.limits.maxItems)) {
				const converted = this.toolContent(item, room);
				if (converted) {
					content.push(converted.content);
					room -= converted.size;
					cut ||= converted.cut;
				}
			}
			entry.content = content;
			if (cut) {
				entry.truncated = true;
			} else {
				delete entry.truncated;
			}
		}
		this.resize(slot, toolCallSize(entry));
		this.touch(slot);
	}

	private toolContent(item: ToolCallContent, room: number): { content: ToolContent; size: number; cut: boolean } | undefined {
		switch (item.type) {
			case 'content': {
				if (item.content.type === 'unknown') {
					return undefined;
				}
				const { block, cut } = this.block(item.content, room);
				return { content: { type: 'content', content: block }, size: blockSize(block), cut };
			}
			case 'diff': {
				const newText = clip(item.newText, room);
				const oldText = typeof item.oldText === 'string' ? clip(item.oldText, room - newText.length) : undefined;
				const diff: Writable<Extract<ToolContent, { type: 'diff' }>> = withOptional({ type: 'diff', path: this.label(item.path), newText }, 'oldText', oldText);
				const cut = newText.length < item.newText.length || (oldText !== undefined && oldText.length < (item.oldText ?? '').length);
				if (cut) {
					diff.truncated = true;
				}
				return { content: diff, size: diff.path.length + newText.length + (oldText?.length ?? 0), cut };
			}
			case 'terminal':
				return { content: { type: 'terminal', terminalId: this.label(item.terminalId) }, size: item.terminalId.length, cut: false };
			case 'unknown':
				return undefined;
		}
	}

	private location(location: ToolCallLocation): Location {
		return withOptional({ path: this.label(location.path) }, 'line', location.line ?? undefined);
	}

	/** `rawInput`/`rawOutput` as JSON text, cut at its cap; `null` or absent clears. */
	private raw(value: unknown): string | undefined {
		if (value === undefined || value === null) {
			return undefined;
		}
		let text: string;
		try {
			text = JSON.stringify(value, null, 2) ?? String(value);
		} catch {
			text = String(value);
		}
		return text.length > this.limits.maxRawChars ? `${clip(text, this.limits.maxRawChars - 1)}…` : text;
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
			options: options.slice(0, this.limits.maxItems).map((o) => ({ optionId: this.label(o.optionId), name: this.label(o.name), kind: o.kind })),
			state: 'pending',
		};
		this.pendingPermissions.set(requestId, slot);
		this.touch(slot);
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
		entry.permission = optionId === undefined ? { ...permission, state: 'cancelled' } : { ...permission, state: 'selected', optionId: this.label(optionId) };
		this.touch(slot);
	}

	private cancelPendingPermissions(): void {
		for (const slot of [...this.pendingPermissions.values()]) {
			this.settlePermission(slot, undefined);
		}
	}

	// --- Turns and the session's life ---

	private endTurn(end: { stopReason?: StopReason; error?: string }): void {
		this.cancelPendingPermissions();
		this.closeLast();
		const entry: Omit<Writable<TurnEndEntry>, 'id' | 'rev'> = { kind: 'turn_end' };
		setOptional(entry, 'stopReason', end.stopReason);
		setOptional(entry, 'error', end.error);
		this.push(entry, undefined);
		this.session.turn = 'idle';
		this.touchSession();
	}

	private lifecycle(status: 'resumed' | 'ended', reason: string | undefined): void {
		this.cancelPendingPermissions();
		this.closeLast();
		this.push(withOptional({ kind: 'status', status }, 'reason', this.optionalLabel(reason)), undefined);
		this.session.turn = 'idle';
		this.session.ended = status === 'ended';
		this.touchSession();
	}

	// --- Plans ---

	private plan(items: SessionUpdateOf<'plan'>['entries']): void {
		const converted: PlanItem[] = items.slice(0, this.limits.maxItems).map((i) => ({ content: this.label(i.content), priority: i.priority, status: i.status }));
		const current = this.session.planId !== undefined && this.session.planId > this.lastUserId ? this.slotById(this.session.planId) : undefined;
		if (current) {
			(current.entry as Writable<PlanModelEntry>).items = converted;
			this.resize(current, planSize(converted));
			this.touch(current);
			return;
		}
		const slot = this.push({ kind: 'plan', items: converted }, undefined);
		this.resize(slot, planSize(converted));
		this.session.planId = slot.entry.id;
		this.touchSession();
	}

	// --- Compaction ---

	private compactionUpdate(update: SessionUpdateOf<'compaction_update'>): void {
		let slot = this.compactions.get(update.compactionId);
		if (!slot) {
			slot = this.push({ kind: 'compaction', compactionId: this.label(update.compactionId), status: this.label(update.status), blocks: [] }, []);
			this.compactions.set(update.compactionId, slot);
		}
		const entry = slot.entry as Writable<CompactionEntry>;
		entry.status = this.label(update.status);
		if (update.error !== undefined) {
			setOptional(entry, 'error', this.optionalLabel(update.error));
		}
		if (update.summary !== undefined) {
			// A complete replacement (null or [] clears).
			slot.blocks!.length = 0;
			delete entry.truncated;
			this.resize(slot, 0);
			for (const block of update.summary ?? []) {
				if (block.type !== 'unknown') {
					this.appendContent(slot, block);
				}
			}
		}
		this.resize(slot, compactionSize(entry, slot.blocks!));
		this.touch(slot);
	}

	private compactionChunk(compactionId: string, content: ContentBlock): void {
		let slot = this.compactions.get(compactionId);
		if (!slot) {
			slot = this.push({ kind: 'compaction', compactionId: this.label(compactionId), status: 'in_progress', blocks: [] }, []);
			this.compactions.set(compactionId, slot);
		}
		if (content.type !== 'unknown' && !(content.type === 'text' && content.text.length === 0)) {
			this.appendContent(slot, content);
		}
	}

	// --- Session info ---

	private sessionInfo(update: SessionUpdateOf<'session_info_update'>): void {
		if (update.title !== undefined) {
			this.agentTitle = this.optionalLabel(update.title);
			this.refreshTitle();
			this.touchSession();
		}
		if (update.updatedAt !== undefined) {
			setOptional(this.session, 'updatedAt', this.optionalLabel(update.updatedAt));
			this.touchSession();
		}
	}

	private refreshTitle(): void {
		const [title, source] = this.agentTitle !== undefined ? [this.agentTitle, 'agent' as const] : this.promptTitle !== undefined ? [this.promptTitle, 'prompt' as const] : [undefined, undefined];
		setOptional(this.session, 'title', title);
		setOptional(this.session, 'titleSource', source);
	}

	private sessionSetup(modes: SessionModeState | null | undefined, configOptions: readonly SessionConfigOption[] | null | undefined): void {
		if (modes !== undefined) {
			setOptional(
				this.session,
				'modes',
				modes === null
					? undefined
					: {
							currentModeId: this.label(modes.currentModeId),
							available: modes.availableModes.slice(0, this.limits.maxItems).map((m) => withOptional({ id: this.label(m.id), name: this.label(m.name) }, 'description', this.optionalLabel(m.description))),
						},
			);
		}
		if (configOptions !== undefined) {
			this.session.configOptions = configOptions === null ? [] : this.configOptions(configOptions);
		}
		if (modes !== undefined || configOptions !== undefined) {
			this.touchSession();
		}
	}

	private configOptions(options: readonly SessionConfigOption[]): ConfigOption[] {
		const out: ConfigOption[] = [];
		for (const option of options) {
			if (option.type === 'unknown') {
				continue;
			}
			if (out.length === this.limits.maxItems) {
				break;
			}
			const base: Writable<ConfigOptionBase> = { id: this.label(option.id), name: this.label(option.name) };
			setOptional(base, 'description', this.optionalLabel(option.description));
			setOptional(base, 'category', this.optionalLabel(option.category));
			if (option.type === 'boolean') {
				out.push({ ...base, type: 'boolean', currentValue: option.currentValue });
				continue;
			}
			let budget = this.limits.maxItems;
			const choice = (c: { value: string; name: string; description?: string | null | undefined }): ConfigChoice =>
				withOptional({ value: this.label(c.value), name: this.label(c.name) }, 'description', this.optionalLabel(c.description));
			const groups: Writable<Extract<ConfigOption, { type: 'select' }>['groups'][number]>[] = [];
			const flat: ConfigChoice[] = [];
			for (const item of option.options) {
				if (budget <= 0) {
					break;
				}
				if ('group' in item && typeof item.group === 'string') {
					const group = item as { group: string; name: string; options: ConfigChoice[] };
					const choices = group.options.slice(0, budget).map(choice);
					budget -= choices.length + 1;
					groups.push({ group: this.label(group.group), name: this.label(group.name), options: choices });
				} else {
					budget--;
					flat.push(choice(item as ConfigChoice));
				}
			}
			out.push({ ...base, type: 'select', currentValue: this.label(option.currentValue), groups: flat.length > 0 ? [{ options: flat }, ...groups] : groups });
		}
		return out;
	}

	// --- Bookkeeping ---

	private push(entry: NewEntry, blocks: Block[] | undefined): Slot {
		this.closeLast();
		const full = { ...entry, id: this.nextId++, rev: this.rev } as WritableEntry;
		if (blocks) {
			(full as Writable<MessageEntry>).blocks = blocks;
		}
		const slot: Slot = { entry: full, blocks, size: 0, open: true, tail: [], tailRevs: [], tailChars: 0, tailFloor: this.rev };
		this.slots.push(slot);
		this.changed = true;
		return slot;
	}

	private last(): Slot | undefined {
		return this.slots.length > this.head ? this.slots[this.slots.length - 1] : undefined;
	}

	private closeLast(): void {
		const last = this.last();
		if (last) {
			last.open = false;
		}
	}

	private firstId(): number {
		return this.slots.length > this.head ? this.slots[this.head]!.entry.id : this.nextId;
	}

	private slotById(id: number): Slot | undefined {
		const index = this.head + (id - this.firstId());
		return index >= this.head && index < this.slots.length ? this.slots[index] : undefined;
	}

	/** The entry changed in a way other than text appended at its end. */
	private touch(slot: Slot): void {
		this.changed = true;
		slot.entry.rev = this.rev;
		slot.tail = [];
		slot.tailRevs = [];
		slot.tailChars = 0;
		slot.tailFloor = this.rev;
	}

	/** `piece` was appended to the entry's last (text) block and nothing else changed. */
	private touchAppended(slot: Slot, piece: string): void {
		this.changed = true;
		slot.entry.rev = this.rev;
		if (piece.length === 0) {
			return;
		}
		slot.tail.push(piece);
		slot.tailRevs.push(this.rev);
		slot.tailChars += piece.length;
		if (slot.tail.length > TAIL_PIECES || slot.tailChars > TAIL_CHARS) {
			// Keep the newer half; a page further behind gets the whole entry.
			const drop = Math.max(1, slot.tail.length >> 1);
			slot.tailFloor = slot.tailRevs[drop - 1]!;
			for (const dropped of slot.tail.splice(0, drop)) {
				slot.tailChars -= dropped.length;
			}
			slot.tailRevs.splice(0, drop);
		}
	}

	private touchSession(): void {
		this.changed = true;
		this.sessionRev = this.rev;
	}

	private grow(slot: Slot, chars: number): void {
		slot.size += chars;
		this.totalChars += chars;
	}

	private resize(slot: Slot, chars: number): void {
		this.totalChars += chars - slot.size;
		slot.size = chars;
	}

	/** Drops the oldest entries beyond the caps (never the last one, which the caps on one entry bound). */
	private evict(): void {
		while (this.size > 1 && (this.size > this.limits.maxEntries || this.totalChars > this.limits.maxTotalChars)) {
			const slot = this.slots[this.head]!;
			this.slots[this.head] = undefined as unknown as Slot;
			this.head++;
			this.dropped++;
			this.totalChars -= slot.size;
			this.forget(slot);
		}
		if (this.head > 1024 && this.head * 2 > this.slots.length) {
			this.slots = this.slots.slice(this.head);
			this.head = 0;
		}
	}

	private forget(slot: Slot): void {
		const entry = slot.entry;
		if (entry.kind === 'tool_call') {
			this.toolCalls.forget(entry.toolCallId, slot);
			if (entry.permission?.state === 'pending') {
				this.pendingPermissions.delete(entry.permission.requestId);
			}
		} else if (entry.kind === 'compaction' && this.compactions.get(entry.compactionId) === slot) {
			this.compactions.delete(entry.compactionId);
		} else if (entry.kind === 'plan' && this.session.planId === entry.id) {
			delete this.session.planId;
			this.touchSession();
		}
	}

	private exportSession(): SessionInfo {
		// Its lists and objects are replaced, never changed in place, so a shallow copy is a snapshot.
		return { ...this.session };
	}

	private label(text: string): string {
		return clip(text, this.limits.maxLabelChars);
	}

	private optionalLabel(text: string | null | undefined): string | undefined {
		return typeof text === 'string' ? this.label(text) : undefined;
	}
}

// --- The page's copy ---------------------------------------------------------------------------

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

// --- Helpers ---------------------------------------------------------------------------------

function exportEntry(slot: Slot): Entry {
	const entry = { ...slot.entry };
	if (slot.blocks) {
		(entry as Writable<MessageEntry>).blocks = [...slot.blocks];
	}
	return entry;
}

function changeOf(slot: Slot, from: number): EntryChange {
	const blocks = slot.blocks;
	if (blocks && from >= slot.tailFloor && slot.tail.length > 0 && blocks[blocks.length - 1]?.type === 'text') {
		let i = slot.tailRevs.length;
		while (i > 0 && slot.tailRevs[i - 1]! > from) {
			i--;
		}
		return { id: slot.entry.id, rev: slot.entry.rev, append: slot.tail.slice(i).join('') };
	}
	return { entry: exportEntry(slot) };
}

/** `text` cut to at most `max` UTF-16 units, never between the two halves of a surrogate pair. */
export function clip(text: string, max: number): string {
	if (text.length <= max) {
		return text;
	}
	if (max <= 0) {
		return '';
	}
	const code = text.charCodeAt(max - 1);
	return text.slice(0, code >= 0xd800 && code <= 0xdbff ? max - 1 : max);
}

/** The first line of a prompt with text, collapsed and cut, as a tab title. */
export function titleFromPrompt(text: string): string | undefined {
	const line = text
		.split('\n')
		.map((l) => l.replace(/\s+/g, ' ').trim())
		.find((l) => l.length > 0);
	if (line === undefined) {
		return undefined;
	}
	return line.length > PROMPT_TITLE_CHARS ? `${clip(line, PROMPT_TITLE_CHARS - 1).trimEnd()}…` : line;
}

function blockSize(block: Block): number {
	switch (block.type) {
		case 'text':
			return block.text.length;
		case 'image':
		case 'audio':
			return block.data.length + block.mimeType.length;
		case 'resource_link':
			return block.uri.length + block.name.length + (block.title?.length ?? 0) + (block.description?.length ?? 0);
		case 'resource':
			return block.uri.length + (block.text?.length ?? 0);
	}
}

/** Characters an entry holds, as the caps count them. */
function entrySize(entry: Entry): number {
	switch (entry.kind) {
		case 'user':
		case 'agent':
		case 'thought':
			return entry.blocks.reduce((sum, block) => sum + blockSize(block), 0);
		case 'tool_call':
			return toolCallSize(entry);
		case 'plan':
			return planSize(entry.items);
		case 'notice':
			return entry.title.length + (entry.description?.length ?? 0);
		case 'compaction':
			return compactionSize(entry, entry.blocks);
		case 'turn_end':
		case 'status':
			return 0;
	}
}

function toolCallSize(entry: ToolCallEntry): number {
	let size = entry.title.length + (entry.rawInput?.length ?? 0) + (entry.rawOutput?.length ?? 0);
	for (const item of entry.content) {
		size += item.type === 'content' ? blockSize(item.content) : item.type === 'diff' ? item.path.length + item.newText.length + (item.oldText?.length ?? 0) : item.terminalId.length;
	}
	for (const location of entry.locations) {
		size += location.path.length;
	}
	return size;
}

function planSize(items: readonly PlanItem[]): number {
	let size = 0;
	for (const item of items) {
		size += item.content.length;
	}
	return size;
}

function compactionSize(entry: CompactionEntry, blocks: readonly Block[]): number {
	let size = entry.error?.length ?? 0;
	for (const block of blocks) {
		size += blockSize(block);
	}
	return size;
}

/** `object` with `key` set to `value`, or without `key` when `value` is undefined (the model never holds `undefined`). */
function withOptional<T extends object, K extends string, V>(object: T, key: K, value: V | undefined): T & { [P in K]?: V } {
	if (value !== undefined) {
		(object as Record<string, unknown>)[key] = value;
	}
	return object as T & { [P in K]?: V };
}

function setOptional<T extends object, K extends keyof T>(object: T, key: K, value: T[K] | undefined): void {
	if (value === undefined) {
		delete object[key];
	} else {
		object[key] = value;
	}
}
