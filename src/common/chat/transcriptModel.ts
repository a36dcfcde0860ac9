/**
 * The transcript's model: what the webview renders (entries, the session around them), the
 * snapshot and patches that carry it to the page, the events the reducer takes, and the caps that
 * bound it. Types and constants only: no behaviour lives here.
 *
 * ACP: https://agentclientprotocol.com/protocol/v1/prompt-turn (updates),
 * /tool-calls, /agent-plan, /session-modes, /session-config-options, /slash-commands.
 */
import type {
	ContentBlock,
	PermissionOption,
	PermissionOptionKind,
	SessionConfigOption,
	SessionModeState,
	SessionUpdate,
	StopReason,
	ToolCallStatus,
	ToolCallUpdate,
	ToolKind,
} from './updates';
import type { ElicitationField } from './elicitationForm';

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

/**
 * An `elicitation/create` of the agent's (elicitationRequest.ts): a form to fill in, or a URL to
 * open (only when the user clicks). Shown in the tool call it names, else as its own entry.
 */
export interface Elicitation {
	/** The host's key for the request; the page answers with it. */
	readonly requestId: string;
	readonly mode: 'form' | 'url';
	readonly message: string;
	/** The form's title and description (`requestedSchema`). */
	readonly title?: string;
	readonly description?: string;
	/** The form's fields; none for a URL. */
	readonly fields: readonly ElicitationField[];
	/** A URL elicitation's address and its host (what the chat shows). */
	readonly url?: string;
	readonly host?: string;
	/**
	 * `accepted`: submitted (a form) or opened (a URL, then waiting for `elicitation/complete`);
	 * `completed`: the agent said a URL elicitation is done; `cancelled`: the turn ended or was stopped first.
	 */
	readonly state: 'pending' | 'accepted' | 'declined' | 'cancelled' | 'completed';
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
	/** An elicitation naming this tool call. */
	readonly elicitation?: Elicitation;
	readonly truncated?: true;
}

/** An elicitation naming no tool call of the current turn. */
export interface ElicitationEntry extends EntryBase {
	readonly kind: 'elicitation';
	readonly elicitation: Elicitation;
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

export type Entry = MessageEntry | ToolCallEntry | PlanModelEntry | NoticeEntry | CompactionEntry | TurnEndEntry | StatusEntry | ElicitationEntry;
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

export interface ConfigOptionBase {
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
	/** An elicitation asked (pending), in the card of `toolCallId` when this turn has it. */
	| { readonly type: 'elicitation_asked'; readonly elicitation: Elicitation; readonly toolCallId?: string }
	/** An elicitation answered, cancelled, or (a URL) completed. */
	| { readonly type: 'elicitation_settled'; readonly requestId: string; readonly state: Exclude<Elicitation['state'], 'pending'> }
	/** Modes and config options from `session/new`, `load`, `resume` or `set_config_option`: a list given replaces, `null` clears, absent leaves as is. */
	| { readonly type: 'session_setup'; readonly modes?: SessionModeState | null; readonly configOptions?: readonly SessionConfigOption[] | null }
	/** The agent crashed and was restarted; `resumed`: this conversation goes on (`session/resume` or `session/load`). */
	| { readonly type: 'agent_restarted'; readonly resumed: boolean; readonly reason?: string }
	| { readonly type: 'conversation_ended'; readonly reason?: string };
