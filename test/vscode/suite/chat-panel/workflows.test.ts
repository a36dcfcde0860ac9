// More of what a person does in the chat, through the browser: attachments (the active selection,
// an @-mentioned file or symbol, a pasted or dropped image), Shift+Enter, history, copy and insert
// at cursor, opening a tool call's file, a config option changed by keyboard, notifications while
// the chat is hidden, and the page's state surviving the view being hidden and shown.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { click, PAGE_LOAD_WAIT_MS, press, query, type, waitFor, waitForSteady, webviewAudit, webviewClick, webviewDrop, webviewBox, webviewPasteImage, webviewQuery } from '../browser';
import { NOTIFICATIONS, notificationShown } from '../notifications';
import { waitUntil } from '../util';
import { chatHooks, inputFocused, openChat } from '../chatKit';

const folder = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const entriesOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];
const inputValue = async () => (await webviewQuery('textarea.prompt-input')).texts[0];
const idle = (a: AgentLinkApi, key: string) => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle';
const chips = async () => (await webviewQuery('.composer .chips .chip')).texts.map((t) => t.trim());
const any = z.unknown();

/** The prompts the tab's agent received for the tab's session (the fixture agent records every message). */
async function promptsReceived(a: AgentLinkApi, key: string): Promise<unknown[][]> {
	const session = a.chatController.tab(key)?.session;
	assert.ok(session?.agent && session.sessionId, `the session of ${key}`);
	const received = (await session.agent.handle.connection.sendRequest('_test/received', {}, any)) as { method: string; params: { sessionId?: string; prompt?: unknown[] } }[];
	return received.filter((m) => m.method === 'session/prompt' && m.params.sessionId === session.sessionId).map((m) => m.params.prompt ?? []);
}


describe('chat panel: workflows', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('workflows', {
		closeTabs: false,
		onFailure: async (a: AgentLinkApi) => {
			const last = a.chatController.tabKeys[a.chatController.tabKeys.length - 1];
			console.log('entries (host):', JSON.stringify(last ? entriesOf(a, last).map((e) => e.kind + (e.kind === 'tool_call' ? `:${e.permission?.state}` : '')) : []));
			console.log('notifications:', JSON.stringify(await query(NOTIFICATIONS)));
			console.log('entries:', JSON.stringify(await webviewQuery('.entry')), 'input:', await inputValue(), 'visible:', a.chatController.visible);
		},
	});

	it('attaches the active selection and an @-mentioned file, sends a multi-line prompt, then copies, inserts and opens from the answer', async () => {
		const a = chatApi();
		const config = vscode.Uri.file(path.join(folder(), 'src', 'config.json'));
		const editor = await vscode.window.showTextDocument(config, { preview: false });
		editor.selection = new vscode.Selection(1, 0, 3, 0);
		const key = await openChat(a, 'Chat Showcase');

		await webviewClick('.composer button[aria-label="Add the active file or selection"]');
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes('config.json:2-3')), 'the selection attached');
		await waitForSteady(inputFocused, 'focus back in the input');
		await type('@READ', 20);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion')).texts.some((t) => t.includes('README.md')), 'README.md offered');
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes('README.md')), 'README.md attached');
		await type('@src', 20);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion-label')).texts.includes('src/'), 'the folder src/ offered');
		await webviewClick('.suggestions .suggestion-label', 'src/');
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes('src')), 'the folder attached');
		await waitForSteady(inputFocused, 'focus back in the input');
		await type('line one', 10);
		await press('Shift+Enter');
		await type('line two', 10);
		assert.equal(await inputValue(), 'line one\nline two');
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 3, 'the permission prompt', 20_000);
		const user = entriesOf(a, key).find((e) => e.kind === 'user');
		assert.ok(user && user.kind === 'user');
		assert.deepEqual(
			user.blocks.map((b) => (b.type === 'text' ? b.text : b.type === 'resource_link' ? b.uri.replace(/^.*\//, '') : b.type)),
			['line one\nline two', 'config.json#L2-3', 'README.md', 'src'],
			'the text, then the attachments as links (the agent takes no embedded context)',
		);
		assert.equal((await webviewQuery('.composer .chips .chip')).count, 0, 'the chips cleared once sent');

		await new Promise((r) => setTimeout(r, 600));
		await webviewClick('.permission-option', 'Allow once');
		await waitUntil(() => idle(a, key), 10_000, 'the turn to end');

		await vscode.env.clipboard.writeText('');
		await webviewClick('.code-block button[aria-label="Copy code"]');
		await waitUntil(async () => (await vscode.env.clipboard.readText()).includes('export function retries(): number'), 5000, 'the code copied');

		await webviewClick('.code-block button[aria-label="Insert code at the cursor"]');
		await waitUntil(() => editor.document.getText().includes('export function retries'), 5000, 'the code inserted into config.json');
		assert.ok(editor.document.getText().startsWith('{\nimport config from'), 'in place of the selected lines');
		await vscode.commands.executeCommand('workbench.action.files.revert');

		await webviewClick('.tool-locations .location');
		await waitUntil(() => vscode.window.activeTextEditor?.document.uri.fsPath === config.fsPath && vscode.window.activeTextEditor.selection.active.line === 2, 5000, 'config.json opened at line 3');

		// History: Up brings back the prompt, Down clears it again.
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitForSteady(inputFocused, 'the input focused');
		await press('ArrowUp');
		await waitFor(async () => (await inputValue()) === 'line one\nline two', 'the last prompt back');
		await press('ArrowDown');
		await waitFor(async () => (await inputValue()) === '', 'and gone again');
		await a.chatController.closeTab(key);
	});

	it('grows the input with its text up to 40% of the view, then scrolls it, and gives it its empty height again when the text is gone', async () => {
		await openChat(chatApi(), 'Chat Showcase');
		await waitForSteady(inputFocused, 'the input focused');
		const box = () => webviewBox('textarea.prompt-input');
		const empty = await box();
		await type('first line', 10);
		await waitFor(async () => (await inputValue()) === 'first line', 'the first line typed');
		const one = await box();
		assert.ok(one.scrollHeight <= one.clientHeight + 1, `one line shown whole: ${JSON.stringify(one)}`);
		for (const line of ['second line', 'third line']) {
			await press('Shift+Enter');
			await type(line, 10);
		}
		await waitFor(async () => (await box()).height >= one.height + 20, 'the input taller for three lines');
		const three = await box();
		assert.ok(three.scrollHeight <= three.clientHeight + 1, `three lines shown whole: ${JSON.stringify(three)}`);
		for (let i = 0; i < 40; i++) {
			await press('Shift+Enter');
		}
		await type('last line', 10);
		await waitFor(async () => {
			const b = await box();
			return b.scrollHeight > b.clientHeight + 20;
		}, 'the input scrolling its text');
		const full = await box();
		assert.ok(full.height <= full.innerHeight * 0.4 + 1 && full.height > three.height, `as tall as 40% of the view at most: ${JSON.stringify(full)}`);
		await press('Control+a');
		await press('Backspace');
		await waitFor(async () => (await inputValue()) === '', 'the text gone');
		await waitFor(async () => Math.abs((await box()).height - empty.height) < 1, 'the input as tall as when empty again');
	});

	it('@-mentions a workspace symbol from the keyboard: its lines embedded for an agent that takes context, a link for one that does not', async function () {
		this.timeout(240_000);
		const a = chatApi();
		const shapes = vscode.Uri.file(path.join(folder(), 'src', 'shapes.ts'));
		// The symbols come from the TypeScript extension, once its server has the project: open a file of it and wait for the symbol.
		const document = await vscode.workspace.openTextDocument(shapes);
		await vscode.window.showTextDocument(document, { preview: false });
		let symbol: vscode.SymbolInformation | undefined;
		await waitUntil(
			async () => {
				const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>('vscode.executeWorkspaceSymbolProvider', 'circleArea');
				symbol = (found ?? []).find((s) => s.name.startsWith('circleArea') && s.location.uri.fsPath === shapes.fsPath);
				return symbol !== undefined;
			},
			150_000,
			'the TypeScript server',
		);
		// As the language extension names it (TypeScript's: `circleArea()`); the whole declaration, lines 5 to 8.
		const name = symbol!.name;
		assert.deepEqual([symbol!.location.range.start.line, symbol!.location.range.end.line], [4, 7], 'the declaration spans lines 5-8');
		const lines = 'export function circleArea(circle: Circle): number {\n\tconst r = circle.radius;\n\treturn Math.PI * r * r;\n}\n';
		const link = shapes.with({ fragment: 'L5-8' }).toString();

		for (const [agent, expected] of [
			['Chat Context', { type: 'resource', resource: { uri: link, text: lines, mimeType: 'text/plain' } }],
			['Fixture Agent', { type: 'resource_link', uri: link, name }],
		] as const) {
			const key = await openChat(a, agent);
			await type('@circleArea', 20);
			// Every query from `circleA` on finds this symbol alone (no file path holds those letters in order), so Enter picks it whichever answer is drawn.
			await waitFor(async () => (await webviewQuery('.suggestions .suggestion-label')).texts.join('|') === name, 'the symbol offered, alone', 30_000);
			assert.deepEqual((await webviewQuery('.suggestions .suggestion-detail')).texts, ['Function · src/shapes.ts:5']);
			await press('Enter');
			await waitFor(async () => (await chips()).includes(`${name}:5-8`), 'the symbol attached, with its lines');
			assert.equal(await inputValue(), '', 'the @-mention gave way to the chip');
			await waitFor(async () => (await webviewQuery('.suggestions:not([hidden])')).count === 0, 'the suggestions closed');
			await type('what does this do?', 10);
			await press('Enter');
			await waitUntil(() => idle(a, key) && entriesOf(a, key).some((e) => e.kind === 'turn_end'), 15_000, 'the turn');
			assert.deepEqual(await promptsReceived(a, key), [[{ type: 'text', text: 'what does this do?' }, expected]], `what ${agent} received`);
			await a.chatController.closeTab(key);
		}
		await vscode.commands.executeCommand('workbench.action.closeAllEditors');
	});

	it('rejects a permission from the keyboard (Tab to Reject, Enter), and the agent hears it', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat Showcase');
		await type('try it', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 3, 'the permission prompt', 20_000);
		await new Promise((r) => setTimeout(r, 600));
		await press('Tab', 'Tab', 'Enter');
		await waitUntil(() => idle(a, key), 10_000, 'the turn to end');
		await waitFor(async () => (await webviewQuery('.permission.answered')).texts.some((t) => t.includes('Rejected: Reject')), 'the answer shown');
		const agentText = entriesOf(a, key)
			.filter((e) => e.kind === 'agent')
			.flatMap((e) => (e.kind === 'agent' ? e.blocks : []))
			.map((b) => (b.type === 'text' ? b.text : ''))
			.join('');
		assert.match(agentText, /permission: \{"outcome":"selected","optionId":"no"\}/);
		await a.chatController.closeTab(key);
	});

	it('changes a config option from the keyboard (session/set_config_option)', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat Options');
		await waitFor(async () => (await webviewQuery('.session-options select')).texts[0] === 'small', 'the model dropdown');
		await press('Tab', 'Tab', 'ArrowDown');
		await waitUntil(() => {
			const option = a.chatController.tab(key)?.transcript.snapshot().session.configOptions[0];
			return option?.currentValue === 'large';
		}, 10_000, 'the agent told, and its answer kept');
		await waitFor(async () => (await webviewQuery('.session-options select')).texts[0] === 'large', 'the dropdown shows it');
		assert.deepEqual(a.pool.clientCapabilities().session, { configOptions: { boolean: {} }, notices: {}, compaction: {} }, 'advertised: what the panel draws');
		await a.chatController.closeTab(key);
	});

	it('draws the other updates: agent title, mode, compaction, notice, resource links; ignores unknown ones; sets the mode by keyboard', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat Variants');
		await waitFor(async () => (await webviewQuery('.session-options select[aria-label="Mode"]')).texts[0] === 'ask', 'the modes dropdown');
		await type('tidy up', 10);
		await press('Enter');
		await waitUntil(() => entriesOf(a, key).some((e) => e.kind === 'turn_end'), 10_000, 'the turn');
		await waitFor(async () => (await webviewQuery('.tab.selected .tab-title')).texts[0] === 'Tidying the config', 'the agent title on the tab');
		await waitFor(async () => (await webviewQuery('.session-options select[aria-label="Mode"]')).texts[0] === 'code', 'current_mode_update followed');
		assert.ok((await webviewQuery('.compaction summary')).texts[0]?.includes('completed'), 'the compaction');
		assert.ok((await webviewQuery('.compaction .markdown')).texts.join('').includes('Earlier: the user asked'), 'with its summary');
		assert.ok((await webviewQuery('.notice.severity-warning')).texts[0]?.includes('Rate limited'), 'the notice');
		assert.ok((await webviewQuery('.entry-agent .chip')).texts.some((t) => t.includes('README.md')), 'the resource link');
		assert.ok((await webviewQuery('.entry-agent .markdown')).texts.join('').includes('All done.'), 'what followed the unknown update');
		// Tab from the input: the paperclip, then the mode dropdown; ArrowUp picks Ask. Focus Chat
		// only when the input has lost the keyboard: with the input focused already, its focusing
		// could land after the first Tab and take the keyboard back.
		if (!(await inputFocused())) {
			await vscode.commands.executeCommand('agentLink.chat.focus');
		}
		await waitForSteady(inputFocused, 'the input');
		await press('Tab');
		await waitFor(async () => (await webviewQuery('button[aria-label="Add the active file or selection"]:focus')).count === 1, 'the paperclip focused');
		await press('Tab');
		await waitFor(async () => (await webviewQuery('.session-options select[aria-label="Mode"]:focus')).count === 1, 'the mode dropdown focused');
		await press('ArrowUp');
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.modes?.currentModeId === 'ask', 10_000, 'session/set_mode');
		await a.chatController.closeTab(key);
	});

	it('asks for permission by notification while the chat is hidden, and says when the turn ends out of sight', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat Notify');
		await type('run the tests', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.join('').includes('Working.'), 'the answer streaming');
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		// The agent asks only now (its go-ahead, see suites.mjs): the chat is out of sight when it does.
		fs.writeFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.chat-notify-go-1'), '');
		await waitFor(() => notificationShown('asks for permission: Run the tests'), 'the permission notification', 15_000);
		await click(`:is(${NOTIFICATIONS}) .monaco-button`, 'Open Chat');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown again');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 2, 'the pending prompt drawn again', PAGE_LOAD_WAIT_MS);
		assert.ok((await webviewQuery('.terminal.terminal-unknown[data-terminal="term-1"]')).texts.some((t) => t.includes('No output to show')), 'a terminal this client did not create, shown as such');
		await new Promise((r) => setTimeout(r, 600));
		await webviewClick('.permission-option', 'Allow once');
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden again');
		// And the turn ends only now, out of sight.
		fs.writeFileSync(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, '.chat-notify-go-2'), '');
		await waitFor(() => notificationShown('Chat Notify answered'), 'the turn-ended notification', 15_000);
		await vscode.commands.executeCommand('notifications.clearAll');
		assert.ok(idle(a, key));
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown');
		await a.chatController.closeTab(key);
	});

	it('sends a pasted image to an agent that takes images, and says so to one that does not', async () => {
		const a = chatApi();
		const withImages = await openChat(a, 'Chat Images');
		await webviewPasteImage();
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).texts.some((t) => t.includes('pixel.png')), 'the image attached');
		await type('what is this?', 10);
		await press('Enter');
		await waitUntil(() => idle(a, withImages) && entriesOf(a, withImages).some((e) => e.kind === 'turn_end'), 10_000, 'the turn');
		const sent = entriesOf(a, withImages).find((e) => e.kind === 'user');
		assert.deepEqual(sent?.kind === 'user' ? sent.blocks.map((b) => b.type) : [], ['text', 'image']);
		await a.chatController.closeTab(withImages);

		const without = await openChat(a, 'Chat A');
		await webviewPasteImage();
		await waitFor(async () => (await webviewQuery('.composer .chips .chip')).count === 1, 'the image attached');
		await type('and this?', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.page-notice')).texts.some((t) => t.includes('does not accept images')), 'the notice');
		await waitUntil(() => idle(a, without) && entriesOf(a, without).some((e) => e.kind === 'turn_end'), 15_000, 'the turn');
		const plain = entriesOf(a, without).find((e) => e.kind === 'user');
		assert.deepEqual(plain?.kind === 'user' ? plain.blocks.map((b) => b.type) : [], ['text'], 'sent without the image');
		await a.chatController.closeTab(without);
	});

	it('sends a dropped image to an agent that takes images, and says so to one that does not', async () => {
		const a = chatApi();
		const png = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';
		const drop = async () => {
			// With Shift held, as VS Code wants for a drop into any webview (without it, the workbench takes the drag).
			assert.deepEqual(await webviewDrop('textarea.prompt-input', { name: 'dropped.png', mimeType: 'image/png', base64: png }, { shift: true }), { dropped: true });
			await waitFor(async () => (await chips()).includes('dropped.png'), 'the image attached');
		};
		const withImages = await openChat(a, 'Chat Images');
		await drop();
		await type('what is this?', 10);
		// The mouse reaches the page after the drop (VS Code blocks it while a drag the workbench took is on).
		await webviewClick('.composer button.send');
		await waitUntil(() => idle(a, withImages) && entriesOf(a, withImages).some((e) => e.kind === 'turn_end'), 10_000, 'the turn');
		assert.deepEqual(await promptsReceived(a, withImages), [[{ type: 'text', text: 'what is this?' }, { type: 'image', mimeType: 'image/png', data: png }]], 'the image, as dropped');
		await a.chatController.closeTab(withImages);

		const without = await openChat(a, 'Chat A');
		await drop();
		await type('and this?', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.page-notice')).texts.some((t) => t.includes('does not accept images')), 'the notice');
		await waitUntil(() => idle(a, without) && entriesOf(a, without).some((e) => e.kind === 'turn_end'), 15_000, 'the turn');
		assert.deepEqual(await promptsReceived(a, without), [[{ type: 'text', text: 'and this?' }]], 'sent without the image');
		await a.chatController.closeTab(without);
	});

	it('shows the same chats in an editor tab (Open Chat in Editor)', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat A');
		await type('go', 10);
		await press('Enter');
		await waitUntil(() => entriesOf(a, key).some((e) => e.kind === 'turn_end'), 15_000, 'the turn');
		await vscode.commands.executeCommand('agentLink.chat.openInEditor');
		await waitFor(async () => (await webviewAudit()).pages === 2, 'a second chat page, in the editor');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.filter((t) => t.trim() === 'A one. A two.').length === 2, 'the transcript in both');
		await vscode.commands.executeCommand('workbench.action.closeActiveEditor');
		await waitFor(async () => (await webviewAudit()).pages === 1, 'the editor closed');
		await a.chatController.closeTab(key);
	});

	it('draws the same chat again after the view was hidden, the unsent draft included', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat A');
		await type('go', 10);
		await press('Enter');
		await waitUntil(() => idle(a, key) && entriesOf(a, key).some((e) => e.kind === 'turn_end'), 15_000, 'the turn');
		await waitFor(async () => (await webviewQuery('.turn-end')).count === 1, 'drawn');
		await type('half-written', 10);
		await vscode.commands.executeCommand('workbench.view.explorer');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		await press('Control+Alt+j');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown again by its keybinding');
		await waitFor(async () => (await webviewQuery('.entry-agent .markdown')).texts.join('').trim() === 'A one. A two.', 'the transcript drawn again', PAGE_LOAD_WAIT_MS);
		assert.ok(a.recentLog().some((l) => l.includes('Chat page started (its document arrived')), 'the page said it had arrived before its script loaded');
		await waitFor(async () => (await inputValue()) === 'half-written', 'the draft kept');
		await waitForSteady(inputFocused, 'and the input focused');
		await a.chatController.closeTab(key);
	});

	it('loses no key typed the moment Focus Chat has put the keyboard in the input, from an editor or from the chat itself', async () => {
		const a = chatApi();
		const key = await openChat(a, 'Chat A');
		const notes = await vscode.workspace.openTextDocument({ content: 'notes\n' });
		// Typing starts the moment the input has the keyboard (waitFor, not waitForSteady): a focus
		// that VS Code takes away and gives back a moment later loses keys here.
		let expected = '';
		for (let round = 1; round <= 3; round++) {
			// From an editor: the chat is on screen, the keyboard elsewhere.
			await vscode.window.showTextDocument(notes, { preview: false });
			await waitFor(async () => !(await inputFocused()), 'the keyboard in the editor');
			await press('Control+Alt+j');
			await waitFor(inputFocused, 'the input focused from the editor');
			await type(`editor${round} `, 5);
			expected += `editor${round} `;
			// From the chat itself, its input holding the keyboard.
			await press('Control+Alt+j');
			await waitFor(inputFocused, 'the input focused from the chat');
			await type(`chat${round} `, 5);
			expected += `chat${round} `;
			await waitFor(async () => (await inputValue()) === expected, 'every key in the input', 5000).catch(() => undefined);
			assert.equal(await inputValue(), expected, `round ${round}: every key typed is in the input`);
		}
		assert.equal(notes.getText(), 'notes\n', 'nothing typed into the editor');
		await a.chatController.closeTab(key);
	});
});
