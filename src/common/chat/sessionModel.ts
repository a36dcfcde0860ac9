/**
 * What the chat shows around the transcript's entries ({@link SessionInfo}): the title (the
 * agent's, else one made from the first prompt), slash commands, modes, config options, usage,
 * whether a turn runs, whether the conversation is over, and the current plan's entry. Every
 * change is reported through `touched` so the transcript's revision moves; entries are not its
 * business.
 */
import type { SessionConfigOption, SessionModeState, SessionUpdateOf } from './updates';
import { setOptional, titleFromPrompt, type Writable } from './modelValues';
import type { SessionInfo } from './transcriptModel';
import type { ToModel } from './toModel';

export class SessionModel {
	private info: Writable<SessionInfo> = { commands: [], configOptions: [], turn: 'idle', ended: false };
	private agentTitle: string | undefined;
	private promptTitle: string | undefined;

	constructor(
		private readonly model: ToModel,
		private readonly touched: () => void,
	) {}

	/** Goes on from a stored session: no turn runs; a plan id whose entry is gone (`hasPlan` false) is left out. */
	restore(stored: SessionInfo, hasPlan: (id: number) => boolean): void {
		const info: Writable<SessionInfo> = { ...stored, turn: 'idle' };
		if (info.planId !== undefined && !hasPlan(info.planId)) {
			delete info.planId;
		}
		this.info = info;
		if (info.titleSource === 'agent') {
			this.agentTitle = info.title;
		} else if (info.titleSource === 'prompt') {
			this.promptTitle = info.title;
		}
	}

	/** A copy (its lists and objects are replaced, never changed in place, so a shallow copy is a snapshot). */
	snapshot(): SessionInfo {
		return { ...this.info };
	}

	get planId(): number | undefined {
		return this.info.planId;
	}

	setPlan(id: number | undefined): void {
		setOptional(this.info, 'planId', id);
		this.touched();
	}

	/** A prompt was sent: a turn runs, and the first prompt with text names the chat until the agent does. */
	prompted(text: string | undefined): void {
		if (this.promptTitle === undefined) {
			const title = text === undefined ? undefined : titleFromPrompt(text);
			if (title) {
				this.promptTitle = title;
				this.refreshTitle();
			}
		}
		this.info.turn = 'running';
		this.touched();
	}

	/** The turn is over (`ended`: and so is the conversation). */
	idle(ended?: boolean): void {
		this.info.turn = 'idle';
		if (ended !== undefined) {
			this.info.ended = ended;
		}
		this.touched();
	}

	commands(update: SessionUpdateOf<'available_commands_update'>): void {
		this.info.commands = this.model.commands(update.availableCommands);
		this.touched();
	}

	currentMode(modeId: string): void {
		this.info.modes = { currentModeId: this.model.label(modeId), available: this.info.modes?.available ?? [] };
		this.touched();
	}

	configOptions(options: readonly SessionConfigOption[]): void {
		this.info.configOptions = this.model.configOptions(options);
		this.touched();
	}

	usage(update: SessionUpdateOf<'usage_update'>): void {
		this.info.usage = this.model.usage(update);
		this.touched();
	}

	sessionInfo(update: SessionUpdateOf<'session_info_update'>): void {
		if (update.title !== undefined) {
			this.agentTitle = this.model.optionalLabel(update.title);
			this.refreshTitle();
			this.touched();
		}
		if (update.updatedAt !== undefined) {
			setOptional(this.info, 'updatedAt', this.model.optionalLabel(update.updatedAt));
			this.touched();
		}
	}

	/** Modes and config options from `session/new`, `load`, `resume` or `set_config_option`: a list replaces, `null` clears, absent leaves as is. */
	setup(modes: SessionModeState | null | undefined, configOptions: readonly SessionConfigOption[] | null | undefined): void {
		if (modes !== undefined) {
			setOptional(this.info, 'modes', modes === null ? undefined : this.model.modes(modes));
		}
		if (configOptions !== undefined) {
			this.info.configOptions = configOptions === null ? [] : this.model.configOptions(configOptions);
		}
		if (modes !== undefined || configOptions !== undefined) {
			this.touched();
		}
	}

	private refreshTitle(): void {
		const [title, source] = this.agentTitle !== undefined ? [this.agentTitle, 'agent' as const] : this.promptTitle !== undefined ? [this.promptTitle, 'prompt' as const] : [undefined, undefined];
		setOptional(this.info, 'title', title);
		setOptional(this.info, 'titleSource', source);
	}
}
