// Elicitations tied to a request before any session exists (ACP's request scope: here asked while the
// agent sets a new chat up, inside `session/new`), through the browser with real key presses: a form
// asked in a notification and answered field by field in input boxes, the chat opening once it is
// answered; URLs asked in notifications, never opened by themselves, opened when the user chooses to,
// declined, dismissed (cancel), and one the agent says is done (`elicitation/complete`) before the
// user opened it: answered then, and its notification opens nothing after.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { click, holdsAddress, openedPages, press, query, QUICK_ROWS, type, waitFor } from '../browser';
import { chatHooks } from '../chatKit';
import { NOTIFICATIONS, notificationShown } from '../notifications';
import { waitUntil } from '../util';

/** The folder beside the workspace where the agent's log and go-ahead live (suites.mjs). */
const scratch = () => path.dirname(vscode.workspace.workspaceFolders![0]!.uri.fsPath);
const settle = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The answers the agent got to its requests (its elicitation/create ones), in order, from its log. */
function answers(): unknown[] {
	const log = path.join(scratch(), 'setup-messages.jsonl');
	if (!fs.existsSync(log)) {
		return [];
	}
	return fs
		.readFileSync(log, 'utf8')
		.split('\n')
		.filter(Boolean)
		.map((line) => JSON.parse(line) as { id?: unknown; method?: string; result?: unknown; error?: unknown })
		.filter((m) => m.method === undefined && typeof m.id === 'string' && m.id.startsWith('agent-'))
		.map((m) => m.result ?? m.error);
}

const BUTTON = `:is(${NOTIFICATIONS}) .monaco-button`;
const quickTitle = async (text: string) => (await query('.quick-input-widget .quick-input-title', { visible: true })).texts.some((t) => t.includes(text));

describe('chat elicitation before any session', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('chat-elicitation-setup', { closeTabs: false });
	let first = '';

	it('asks for a form in a notification and input boxes while the agent sets a chat up, and the chat opens after', async () => {
		const a = chatApi();
		const opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Setup Agent');
		await waitFor(() => notificationShown('Setup Agent asks: Choose how the workspace is set up'), 'the notification', 30_000);
		await click(BUTTON, 'Answer');
		await waitFor(() => quickTitle('Workspace setup (1/2)'), 'the first field in an input box');
		await type('x', 10);
		await waitFor(async () => (await query('.quick-input-widget .quick-input-message', { visible: true })).texts.some((t) => t.includes('At least 2 characters.')), 'the field checked as it is typed');
		await type('ci', 10);
		await press('Enter');
		await waitFor(() => quickTitle('Workspace setup (2/2)'), 'the choice');
		await waitFor(async () => (await query(QUICK_ROWS, { visible: true })).texts.some((t) => t.includes('Strict')), 'its choices');
		await press('ArrowDown');
		await waitFor(async () => (await query(`${QUICK_ROWS}.focused`, { visible: true })).texts.some((t) => t.includes('Strict')), 'Strict chosen');
		await press('Enter');
		await waitUntil(() => answers().length === 1, 20_000, 'the agent answered');
		assert.deepEqual(answers()[0], { action: 'accept', content: { label: 'xci', profile: 'strict' } });
		const key = await opening;
		assert.ok(key, 'a chat');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat set up');
		first = key; // kept open: the agent stops with its last chat, and the next chat is its second
	});

	it('asks to open URLs in notifications: opened only when chosen, declined, dismissed, and done before it was opened', async () => {
		const a = chatApi();
		await openedPages(); // pages the browser opens are watched from here
		const opening = vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'Setup Agent');
		await waitFor(() => notificationShown('Setup Agent asks you to open 127.0.0.1:9: Sign in to the workspace service'), 'the first URL', 30_000);
		await settle(1000);
		assert.deepEqual(await openedPages(), [], 'not opened by itself');
		assert.equal(answers().length, 1, 'not answered by itself');
		await click(BUTTON, 'Open 127.0.0.1:9');
		await waitUntil(() => answers().length === 2, 20_000, 'the agent answered');
		assert.deepEqual(answers()[1], { action: 'accept' });
		await waitUntil(async () => (await peek()).length > 0, 10_000, 'the page opened');
		assert.ok(holdsAddress(opened, 'http://127.0.0.1:9/device?code=SETUP'), `its address opened (opened: ${opened.join(' ')})`);
		// Declined.
		await waitFor(() => notificationShown('Link your account'), 'the second URL');
		await click(BUTTON, 'Decline');
		await waitUntil(() => answers().length === 3, 20_000, 'the agent answered');
		assert.deepEqual(answers()[2], { action: 'decline' });
		// Dismissed with the keyboard (the notification focused, then Delete clears it): cancel.
		await waitFor(() => notificationShown('Approve the device'), 'the third URL');
		await click(`:is(${NOTIFICATIONS}) .notification-list-item-message`, 'Approve the device');
		await press('Delete');
		await waitUntil(() => answers().length === 4, 20_000, 'the agent answered');
		assert.deepEqual(answers()[3], { action: 'cancel' });
		// The agent says it is done before the user opened it: answered, and the notification opens nothing after.
		await waitFor(() => notificationShown('Confirm on your phone'), 'the fourth URL');
		fs.writeFileSync(path.join(scratch(), 'setup-done'), '');
		await waitUntil(() => answers().length === 5, 20_000, 'answered once done');
		assert.deepEqual(answers()[4], { action: 'cancel' });
		await click(BUTTON, 'Open 127.0.0.1:12');
		await waitFor(() => notificationShown('no longer needs 127.0.0.1:12 opened'), 'said to be done');
		await settle(500);
		assert.deepEqual(await peek(), [], 'nothing opened after it was done');
		const key = await opening;
		assert.ok(key, 'a chat');
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat set up');
		await vscode.commands.executeCommand('notifications.clearAll');
		await a.chatController.closeTab(key);
		await a.chatController.closeTab(first);
	});
});

/** The pages opened since the last look (collected in {@link opened}). */
const opened: string[] = [];
async function peek(): Promise<string[]> {
	const urls = await openedPages();
	opened.push(...urls);
	return urls;
}
