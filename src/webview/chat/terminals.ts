/**
 * Terminals inside tool calls: the end of a command's output as the host sends it
 * (`chat/didUpdateTerminal`, plain text, at most every 50 ms while it writes), how it ended, and a
 * button that opens it as a VS Code terminal. The page keeps the last state of each terminal, so a
 * tool call drawn again (or drawn after the state came) shows it at once; the host sends every
 * terminal again whenever the page asks for the state.
 */
import type { HostNotifications, ParamsOf } from '../../common/chat/messages';
import { h, icon } from './dom';

export type TerminalState = ParamsOf<typeof HostNotifications.didUpdateTerminal>;

const keyOf = (sessionKey: string, terminalId: string) => `${sessionKey}\n${terminalId}`;

export class TerminalViews {
	private readonly states = new Map<string, TerminalState>();
	/** One view per terminal: a tool call drawn again takes it over (its scroll position with it). */
	private readonly views = new Map<string, TerminalView>();

	constructor(private readonly open: (sessionKey: string, terminalId: string) => void) {}

	update(state: TerminalState): void {
		const key = keyOf(state.sessionKey, state.terminalId);
		this.states.set(key, state);
		this.views.get(key)?.draw(state);
	}

	/** Forgets the terminals of tabs that are gone. */
	keepOnly(sessionKeys: ReadonlySet<string>): void {
		for (const [key, state] of this.states) {
			if (!sessionKeys.has(state.sessionKey)) {
				this.states.delete(key);
			}
		}
		for (const key of this.views.keys()) {
			if (!sessionKeys.has(key.slice(0, key.indexOf('\n')))) {
				this.views.delete(key);
			}
		}
	}

	/** The view of a terminal, for the tool call that shows it, kept up to date. */
	element(sessionKey: string, terminalId: string): HTMLElement {
		const key = keyOf(sessionKey, terminalId);
		let view = this.views.get(key);
		if (!view) {
			view = new TerminalView(terminalId, () => this.open(sessionKey, terminalId));
			this.views.set(key, view);
		}
		view.draw(this.states.get(key));
		view.moved();
		return view.element;
	}
}

class TerminalView {
	readonly element: HTMLElement;
	private readonly command = h('code', { class: 'terminal-command' });
	private readonly status = h('span', { class: 'terminal-status', attrs: { role: 'status' } });
	private readonly note = h('div', { class: 'terminal-note', attrs: { hidden: true } }, icon('fold-up'), ' Earlier output is not shown.');
	private readonly output: HTMLPreElement;
	/** What is drawn: `null` before the first draw. */
	private shown: TerminalState | undefined | null = null;
	/** The output follows its end until the user scrolls up; where they scrolled to otherwise. */
	private follow = true;
	private scrolledTo = 0;

	constructor(terminalId: string, open: () => void) {
		this.output = h('pre', { class: 'terminal-output', attrs: { tabindex: 0, 'aria-label': `Output of terminal ${terminalId}` } });
		this.output.addEventListener(
			'scroll',
			() => {
				if (this.output.isConnected) {
					this.follow = this.output.scrollTop + this.output.clientHeight >= this.output.scrollHeight - 8;
					this.scrolledTo = this.output.scrollTop;
				}
			},
			{ passive: true },
		);
		const button = h('button', { class: 'link-button terminal-open', attrs: { type: 'button', title: 'Open in a VS Code terminal, fed by the same process' }, on: { click: open } }, icon('terminal'), ' Open in Terminal');
		this.element = h(
			'div',
			{ class: 'terminal', attrs: { 'data-terminal': terminalId } },
			h('div', { class: 'terminal-header' }, icon('terminal'), this.command, this.status, button),
			this.note,
			this.output,
		);
	}

	draw(state: TerminalState | undefined): void {
		if (state === this.shown) {
			return;
		}
		const previous = this.shown ?? undefined;
		this.shown = state;
		if (!state) {
			this.command.textContent = '';
			this.status.replaceChildren('No output to show');
			this.element.classList.add('terminal-unknown');
			return;
		}
		this.element.classList.remove('terminal-unknown');
		if (previous?.command !== state.command) {
			this.command.textContent = state.command;
			this.command.title = state.command;
		}
		this.status.className = `terminal-status ${statusClass(state)}`;
		this.status.replaceChildren(...statusOf(state));
		this.note.hidden = !state.truncated;
		if (previous?.output !== state.output) {
			this.output.textContent = state.output;
			this.output.hidden = state.output.length === 0;
			if (this.follow) {
				this.output.scrollTop = this.output.scrollHeight;
			}
		}
	}

	/** Put in a newly drawn tool call: the scroll position is lost with the move, so it is set again once laid out. */
	moved(): void {
		requestAnimationFrame(() => {
			if (this.element.isConnected) {
				this.output.scrollTop = this.follow ? this.output.scrollHeight : this.scrolledTo;
			}
		});
	}
}

function statusClass(state: TerminalState): string {
	const exit = state.exitStatus;
	return !exit ? 'running' : exit.exitCode === 0 ? 'succeeded' : 'failed';
}

function statusOf(state: TerminalState): (Node | string)[] {
	const exit = state.exitStatus;
	if (!exit) {
		return [icon('loading', 'codicon-modifier-spin'), ' Running'];
	}
	if (exit.signal) {
		return [icon('circle-slash'), ` Killed (${exit.signal})`];
	}
	return exit.exitCode === 0 ? [icon('pass'), ' Exited with 0'] : [icon('error'), ` Exited with ${String(exit.exitCode)}`];
}
