/**
 * One transcript entry drawn: messages (markdown), thoughts (collapsible), tool calls (kind icon,
 * title, status, locations, content, diffs, terminals, the permission prompt, an elicitation),
 * elicitations of their own (elicitationView.ts), plans (a checklist),
 * notices, compactions, how a turn ended, and agent restarts. A view is made once per entry and
 * updated as the entry changes; a message that only grew re-renders its last part only, and a
 * message's text can be drawn a frame's budget at a time (see {@link EntryView.render}).
 */
import type { Block, Entry, MessageEntry, PlanItem, ToolCallEntry } from '../../common/chat/transcriptModel';
import { ARM_MS } from './arming';
import { renderDiff } from './diffView';
import { h, icon } from './dom';
import { elicitationPart, type ElicitationActions } from './elicitationView';
import { MarkdownView, type CodeActions } from './markdown';
import { turnUndoPart, type TurnInfo } from './turnUndo';

export interface EntryActions extends CodeActions, ElicitationActions {
	open(path: string, line?: number): void;
	/** The review of a file the agent changed (its diff header). */
	review(path: string): void;
	answerPermission(requestId: string, optionId: string): void;
	/** The live view of a terminal the tool call shows (terminals.ts). */
	terminal(terminalId: string): HTMLElement;
	/** The files the turn ending at this entry changed, if it has a checkpoint (turnUndo.ts). */
	turn(entryId: number): TurnInfo | undefined;
	/** Undo this turn. */
	undoTurn(entryId: number): void;
}

/** Permission buttons ignore input for this long after they appear, so a stray Enter cannot approve. */
export const PERMISSION_ARM_MS = ARM_MS;

const TOOL_ICONS: Record<ToolCallEntry['toolKind'], string> = {
	read: 'book',
	edit: 'edit',
	delete: 'trash',
	move: 'arrow-swap',
	search: 'search',
	execute: 'terminal',
	think: 'lightbulb',
	fetch: 'cloud-download',
	switch_mode: 'arrow-swap',
	other: 'tools',
};

const STATUS: Record<ToolCallEntry['status'], { icon: string; label: string; extra?: string }> = {
	pending: { icon: 'circle-large-outline', label: 'Pending' },
	in_progress: { icon: 'loading', label: 'Running', extra: 'codicon-modifier-spin' },
	completed: { icon: 'pass', label: 'Done' },
	failed: { icon: 'error', label: 'Failed' },
};

const STOP_REASONS: Record<string, string> = {
	end_turn: 'Done',
	cancelled: 'Stopped',
	max_tokens: 'Stopped: the answer reached its token limit',
	max_turn_requests: 'Stopped: the turn reached its request limit',
	refusal: 'The agent refused',
};

export class EntryView {
	readonly element: HTMLElement;
	private entry: Entry | undefined;
	private markdown: MarkdownView[] = [];
	/** Whether all of the entry is drawn (a long text may be drawn over several frames). */
	private drawnWhole = true;

	constructor(
		readonly id: number,
		private readonly actions: EntryActions,
	) {
		this.element = h('div', { class: 'entry placeholder', attrs: { 'data-id': id } });
	}

	get rendered(): boolean {
		return this.entry !== undefined;
	}

	/** Drawn, and all of it (not waiting for another frame to draw the rest of a long text). */
	get whole(): boolean {
		return this.entry !== undefined && this.drawnWhole;
	}

	/**
	 * Draws `entry` (or brings the drawing up to date with it). With a `deadline`
	 * (`performance.now()`), a message's last text stops being drawn once it has passed: returns
	 * whether all of it is drawn; render again (with the same entry or a newer one) to go on.
	 */
	render(entry: Entry, streaming: boolean, deadline = Infinity): boolean {
		const previous = this.entry;
		this.entry = entry;
		if (previous && (entry.kind === 'agent' || entry.kind === 'thought' || entry.kind === 'user') && previous.kind === entry.kind) {
			const updated = this.updateMessage(previous as MessageEntry, entry, streaming, deadline);
			if (updated !== undefined) {
				this.drawnWhole = updated;
				this.element.classList.toggle('drawing', !updated);
				return updated;
			}
		}
		this.markdown = [];
		this.drawnWhole = true;
		// A pending form is kept across drawings (elicitationView.ts): the field being typed in keeps the keyboard.
		const focused = document.activeElement;
		const content = this.build(entry, streaming, deadline);
		// `drawing`: the rest of a long text is still to come (benchmarks and tests wait for it).
		this.element.className = `entry entry-${entry.kind}${this.drawnWhole ? '' : ' drawing'}`;
		this.element.replaceChildren(content);
		if (focused instanceof HTMLElement && focused !== document.activeElement && this.element.contains(focused)) {
			focused.focus({ preventScroll: true });
		}
		return this.drawnWhole;
	}

	/** When only the last text block grew, or streaming ended, updates in place (returning whether all is drawn); undefined when it cannot. */
	private updateMessage(previous: MessageEntry, entry: MessageEntry, streaming: boolean, deadline: number): boolean | undefined {
		if (previous.blocks.length !== entry.blocks.length || this.markdown.length === 0) {
			return undefined;
		}
		for (let i = 0; i < entry.blocks.length - 1; i++) {
			if (previous.blocks[i] !== entry.blocks[i] && JSON.stringify(previous.blocks[i]) !== JSON.stringify(entry.blocks[i])) {
				return undefined;
			}
		}
		const last = entry.blocks[entry.blocks.length - 1];
		const view = this.markdown[this.markdown.length - 1];
		if (last?.type !== 'text' || !view || entry.kind === 'user') {
			return undefined;
		}
		return view.update(last.text, !streaming, deadline);
	}

	private build(entry: Entry, streaming: boolean, deadline: number): Node {
		switch (entry.kind) {
			case 'user':
				return h('div', { class: 'message user' }, h('div', { class: 'role', attrs: { 'aria-hidden': 'true' } }, icon('account'), 'You'), this.blocks(entry.blocks, false, streaming, deadline), entry.truncated ? truncatedNote() : null);
			case 'agent':
				return h('div', { class: 'message agent' }, this.blocks(entry.blocks, true, streaming, deadline), entry.truncated ? truncatedNote() : null);
			case 'thought': {
				const details = h('details', { class: 'thought' }, h('summary', {}, icon('lightbulb'), streaming ? ' Thinking…' : ' Thought'), this.blocks(entry.blocks, true, streaming, deadline));
				return details;
			}
			case 'tool_call':
				return this.toolCall(entry);
			case 'plan':
				return plan(entry.items);
			case 'notice':
				return h(
					'div',
					{ class: `notice severity-${entry.severity === 'error' || entry.severity === 'warning' ? entry.severity : 'info'}`, attrs: { role: entry.severity === 'error' ? 'alert' : 'note' } },
					icon(entry.severity === 'error' ? 'error' : entry.severity === 'warning' ? 'warning' : 'info'),
					h('strong', {}, entry.title),
					entry.description !== undefined ? h('div', { class: 'notice-description' }, entry.description) : null,
				);
			case 'compaction':
				return h(
					'details',
					{ class: 'compaction' },
					h('summary', {}, icon('fold'), ` Context compacted (${entry.status.replace(/_/g, ' ')})`),
					this.blocks(entry.blocks, true, streaming, Infinity),
					entry.error !== undefined ? h('div', { class: 'error-text' }, entry.error) : null,
				);
			case 'turn_end': {
				const undo = turnUndoPart(this.actions.turn(entry.id), () => this.actions.undoTurn(entry.id));
				if (entry.error !== undefined) {
					return h('div', { class: 'turn-end failed', attrs: { role: 'status' } }, icon('error'), ` The turn failed: ${entry.error}`, undo);
				}
				const reason = entry.stopReason ?? 'end_turn';
				return h('div', { class: `turn-end reason-${reason === 'end_turn' ? 'done' : 'other'}`, attrs: { role: 'status' } }, STOP_REASONS[reason] ?? `Stopped: ${reason}`, undo);
			}
			case 'elicitation':
				return h('div', { class: `elicitation-entry${entry.elicitation.state === 'pending' ? ' asking' : ''}` }, elicitationPart(entry.elicitation, this.actions));
			case 'status':
				return h(
					'div',
					{ class: `lifecycle ${entry.status}`, attrs: { role: 'status' } },
					icon(entry.status === 'resumed' ? 'debug-restart' : 'debug-disconnect'),
					entry.status === 'resumed' ? ` ${entry.reason ?? 'The agent restarted and the conversation goes on.'}` : ` The conversation ended${entry.reason ? `: ${entry.reason}` : '.'}`,
				);
		}
	}

	/** The blocks; only the last one's text may stop at `deadline` (it is the one a later render goes on with). */
	private blocks(blocks: readonly Block[], markdown: boolean, streaming: boolean, deadline: number): HTMLElement {
		const container = h('div', { class: 'blocks' });
		blocks.forEach((block, index) => {
			const last = index === blocks.length - 1;
			if (block.type === 'text') {
				if (markdown) {
					const view = new MarkdownView(this.actions);
					this.drawnWhole = view.update(block.text, !(streaming && last), last ? deadline : Infinity) && this.drawnWhole;
					this.markdown.push(view);
					container.append(view.element);
				} else {
					container.append(h('div', { class: 'plain-text' }, block.text));
				}
			} else {
				container.append(blockChip(block, this.actions));
			}
		});
		return container;
	}

	private toolCall(entry: ToolCallEntry): HTMLElement {
		const status = STATUS[entry.status];
		const header = h(
			'div',
			{ class: 'tool-header' },
			h('span', { class: 'tool-kind', attrs: { title: entry.toolKind } }, icon(TOOL_ICONS[entry.toolKind] ?? 'tools')),
			h('span', { class: 'tool-title' }, entry.title),
			h('span', { class: `tool-status status-${entry.status}`, attrs: { title: status.label } }, icon(status.icon, status.extra), h('span', { class: 'visually-hidden' }, status.label)),
		);
		const parts: (Node | null)[] = [header];
		if (entry.locations.length > 0) {
			parts.push(
				h(
					'div',
					{ class: 'tool-locations' },
					...entry.locations.map((location) =>
						h(
							'button',
							{ class: 'link-button location', attrs: { type: 'button', title: `Open ${location.path}${location.line !== undefined ? ` at line ${location.line}` : ''}` }, on: { click: () => this.actions.open(location.path, location.line) } },
							icon('file'),
							` ${basename(location.path)}${location.line !== undefined ? `:${location.line}` : ''}`,
						),
					),
				),
			);
		}
		for (const item of entry.content) {
			if (item.type === 'diff') {
				parts.push(renderDiff(item, (p, l) => (l === undefined ? this.actions.review(p) : this.actions.open(p, l))));
			} else if (item.type === 'terminal') {
				parts.push(this.actions.terminal(item.terminalId));
			} else if (item.content.type === 'text') {
				const view = new MarkdownView(this.actions);
				view.update(item.content.text, entry.status === 'completed' || entry.status === 'failed');
				parts.push(h('div', { class: 'tool-content' }, view.element));
			} else {
				parts.push(blockChip(item.content, this.actions));
			}
		}
		if (entry.rawInput !== undefined && entry.content.length === 0) {
			parts.push(h('details', { class: 'tool-raw' }, h('summary', {}, 'Input'), h('pre', {}, entry.rawInput)));
		}
		if (entry.permission) {
			parts.push(this.permission(entry));
		}
		if (entry.elicitation) {
			parts.push(elicitationPart(entry.elicitation, this.actions));
		}
		if (entry.truncated) {
			parts.push(truncatedNote());
		}
		const asking = entry.permission?.state === 'pending' || entry.elicitation?.state === 'pending';
		return h('div', { class: `tool-call status-${entry.status}${asking ? ' asking' : ''}` }, ...parts);
	}

	private permission(entry: ToolCallEntry): HTMLElement {
		const permission = entry.permission!;
		if (permission.state !== 'pending') {
			const chosen = permission.options.find((o) => o.optionId === permission.optionId);
			const text = permission.state === 'cancelled' ? 'Permission request cancelled' : `${chosen?.kind.startsWith('allow') ? 'Allowed' : 'Rejected'}: ${chosen?.name ?? permission.optionId ?? ''}`;
			return h('div', { class: 'permission answered' }, icon(chosen?.kind.startsWith('allow') ? 'check' : 'circle-slash'), ` ${text}`);
		}
		const armedAt = performance.now() + PERMISSION_ARM_MS;
		const group = h('div', { class: 'permission pending', attrs: { role: 'group', 'aria-label': `Permission: ${entry.title}` } }, h('span', { class: 'permission-label' }, icon('shield'), ' Allow this?'));
		for (const option of permission.options) {
			const allow = option.kind.startsWith('allow');
			group.append(
				h(
					'button',
					{
						class: `permission-option ${allow ? 'primary' : 'secondary'}`,
						attrs: { type: 'button', 'data-kind': option.kind, 'data-option': option.optionId },
						on: {
							click: (event) => {
								// A click or Enter within the first half second is ignored.
								if (performance.now() < armedAt) {
									event.preventDefault();
									return;
								}
								this.actions.answerPermission(permission.requestId, option.optionId);
							},
						},
					},
					option.name,
				),
			);
		}
		return group;
	}
}

function plan(items: readonly PlanItem[]): HTMLElement {
	const done = items.filter((i) => i.status === 'completed').length;
	return h(
		'div',
		{ class: 'plan' },
		h('div', { class: 'plan-header' }, icon('checklist'), ` Plan (${done}/${items.length})`),
		h(
			'ul',
			{ class: 'plan-items', attrs: { role: 'list' } },
			...items.map((item) =>
				h(
					'li',
					{ class: `plan-item ${item.status} priority-${item.priority}` },
					icon(item.status === 'completed' ? 'pass-filled' : item.status === 'in_progress' ? 'circle-filled' : 'circle-large-outline'),
					h('span', { class: 'visually-hidden' }, `${item.status.replace('_', ' ')}: `),
					h('span', { class: 'plan-text' }, item.content),
					item.priority === 'high' ? h('span', { class: 'badge' }, 'high') : null,
				),
			),
		),
	);
}

function blockChip(block: Block, actions: EntryActions): HTMLElement {
	switch (block.type) {
		case 'text':
			return h('div', { class: 'plain-text' }, block.text);
		case 'image':
			return h('span', { class: 'chip' }, icon('file-media'), block.omitted ? ' image (too large to keep)' : ` image (${block.mimeType})`);
		case 'audio':
			return h('span', { class: 'chip' }, icon('unmute'), ` audio (${block.mimeType})`);
		case 'resource_link':
		case 'resource': {
			const file = fileOf(block.uri);
			const label = block.type === 'resource_link' ? (block.title ?? block.name) : basename(file?.path ?? block.uri);
			return file
				? h('button', { class: 'chip link-button', attrs: { type: 'button', title: file.path }, on: { click: () => actions.open(file.path, file.line) } }, icon('file'), ` ${label}`)
				: h('span', { class: 'chip', attrs: { title: block.uri } }, icon('link'), ` ${label}`);
		}
	}
}

/** A `file:` URI's path, and the first line of an `#L<n>` fragment. */
function fileOf(uri: string): { path: string; line?: number } | undefined {
	if (!uri.startsWith('file://')) {
		return undefined;
	}
	try {
		const url = new URL(uri);
		const line = /^#L(\d+)/.exec(url.hash)?.[1];
		let file = decodeURIComponent(url.pathname);
		if (/^\/[A-Za-z]:/.test(file)) {
			file = file.slice(1);
		}
		return line !== undefined ? { path: file, line: Number(line) } : { path: file };
	} catch {
		return undefined;
	}
}

function basename(file: string): string {
	return file.split(/[\\/]/).pop() || file;
}

function truncatedNote(): HTMLElement {
	return h('div', { class: 'truncated' }, icon('warning'), ' Too long to keep whole: the rest was left out.');
}
