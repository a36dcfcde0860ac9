/**
 * ACP values as the transcript's model keeps them: content blocks, tool call content, locations,
 * raw input and output, commands, modes, config options, plan items and permission options,
 * copied and cut to the caps of {@link TranscriptLimits}. Pure: it keeps no state of its own and
 * knows nothing of entries, revisions or patches (transcript.ts and entryStore.ts do).
 */
import type {
	KnownContentBlock,
	PermissionOption,
	SessionConfigOption,
	SessionModeState,
	SessionUpdateOf,
	ToolCallContent,
	ToolCallLocation,
} from './updates';
import { blockSize } from './entrySizes';
import { clip, setOptional, withOptional, type Writable } from './modelValues';
import type { Block, Command, ConfigChoice, ConfigOption, ConfigOptionBase, Location, Mode, Permission, PlanItem, ToolContent, TranscriptLimits, Usage } from './transcriptModel';

export class ToModel {
	constructor(readonly limits: TranscriptLimits) {}

	/** A title, name, description, hint, path or URI, cut to its cap. */
	label(text: string): string {
		return clip(text, this.limits.maxLabelChars);
	}

	optionalLabel(text: string | null | undefined): string | undefined {
		return typeof text === 'string' ? this.label(text) : undefined;
	}

	/** An ACP content block as the model keeps it, cut to `room` characters of text. */
	block(content: KnownContentBlock, room: number): { block: Block; cut: boolean } {
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

	/** A tool call's content list, within one entry's room and the cap on items; `cut` when something was left out. */
	toolContents(items: readonly ToolCallContent[]): { content: ToolContent[]; cut: boolean } {
		let room = this.limits.maxEntryChars;
		let cut = items.length > this.limits.maxItems;
		const content: ToolContent[] = [];
		for (const item of items.slice(0, this.limits.maxItems)) {
			const converted = this.toolContent(item, room);
			if (converted) {
				content.push(converted.content);
				room -= converted.size;
				cut ||= converted.cut;
			}
		}
		return { content, cut };
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

	locations(locations: readonly ToolCallLocation[]): Location[] {
		return locations.slice(0, this.limits.maxItems).map((l) => withOptional({ path: this.label(l.path) }, 'line', l.line ?? undefined));
	}

	/** `rawInput`/`rawOutput` as JSON text, cut at its cap; `null` or absent clears. */
	raw(value: unknown): string | undefined {
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

	permissionOptions(options: readonly PermissionOption[]): Permission['options'] {
		return options.slice(0, this.limits.maxItems).map((o) => ({ optionId: this.label(o.optionId), name: this.label(o.name), kind: o.kind }));
	}

	planItems(items: SessionUpdateOf<'plan'>['entries']): PlanItem[] {
		return items.slice(0, this.limits.maxItems).map((i) => ({ content: this.label(i.content), priority: i.priority, status: i.status }));
	}

	commands(commands: SessionUpdateOf<'available_commands_update'>['availableCommands']): Command[] {
		return commands.slice(0, this.limits.maxItems).map((c) => withOptional({ name: this.label(c.name), description: this.label(c.description) }, 'hint', c.input ? this.label(c.input.hint) : undefined));
	}

	modes(modes: SessionModeState): { readonly currentModeId: string; readonly available: readonly Mode[] } {
		return {
			currentModeId: this.label(modes.currentModeId),
			available: modes.availableModes.slice(0, this.limits.maxItems).map((m) => withOptional({ id: this.label(m.id), name: this.label(m.name) }, 'description', this.optionalLabel(m.description))),
		};
	}

	usage(update: SessionUpdateOf<'usage_update'>): Usage {
		const usage: Writable<Usage> = { used: update.used, size: update.size };
		if (update.cost) {
			usage.cost = { amount: update.cost.amount, currency: this.label(update.cost.currency) };
		}
		return usage;
	}

	configOptions(options: readonly SessionConfigOption[]): ConfigOption[] {
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
			out.push({ ...base, type: 'select', currentValue: this.label(option.currentValue), groups: this.choiceGroups(option.options) });
		}
		return out;
	}

	/** A select option's choices in groups (one unnamed group first for the ungrouped ones), at most the cap on items in all. */
	private choiceGroups(items: Extract<SessionConfigOption, { type: 'select' }>['options']): Extract<ConfigOption, { type: 'select' }>['groups'] {
		let budget = this.limits.maxItems;
		const choice = (c: { value: string; name: string; description?: string | null | undefined }): ConfigChoice =>
			withOptional({ value: this.label(c.value), name: this.label(c.name) }, 'description', this.optionalLabel(c.description));
		const groups: Writable<Extract<ConfigOption, { type: 'select' }>['groups'][number]>[] = [];
		const flat: ConfigChoice[] = [];
		for (const item of items) {
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
		return flat.length > 0 ? [{ options: flat }, ...groups] : groups;
	}
}
