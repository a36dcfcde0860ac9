// Elicitations while the chat's page is gone or out of sight, through the browser with real key
// presses: what was typed into a form stays when the page is loaded again (the view hidden, then shown
// by its keybinding) and is what Submit sends; a URL asked while the chat is out of sight, answered
// through a notification: never opened by itself, opened when the user chooses to, then marked done
// in the chat by `elicitation/complete`; one the agent says is done while its notification is up,
// which then opens nothing.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { click, holdsAddress, openedPages, PAGE_LOAD_WAIT_MS, press, type, waitFor, webviewClick, webviewQuery } from '../browser';
import { chatHooks, openChat } from '../chatKit';
import { notificationShown } from '../notifications';
import { waitUntil } from '../util';
import { answers, BUTTON, FORM, scratch, settle } from './kit';



/** The form's fields as shown: the two text fields' values and the chosen environment. */
async function shownValues(): Promise<[string | undefined, string | undefined, string | undefined]> {
	const value = async (selector: string) => (await webviewQuery(selector)).texts[0];
	return [await value(`${FORM} input[id$="-f0"]`), await value(`${FORM} input[id$="-f1"]`), await value(`${FORM} select[id$="-f2"] option:checked`)];
}

describe('chat elicitation out of sight', function () {
	this.timeout(120_000);
	const chatApi = chatHooks('chat-elicitation-later', { closeTabs: false });
	let key = '';

	it('keeps what was typed into a form when the chat page is loaded again, and Submit sends it', async () => {
		const a = chatApi();
		key = await openChat(a, 'Elicit Agent B');
		await type('deploy', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery(`${FORM} .elicitation-field`)).count === 6, 'the form', 20_000);
		await waitFor(async () => (await webviewQuery(`${FORM} input[id$="-f0"]:focus`)).count === 1, 'the first field has the keyboard');
		await settle(500);
		await type('release/3', 10);
		await press('Tab');
		await type('grace@example.com', 10);
		await press('Tab', 'ArrowDown', 'ArrowDown');
		await waitFor(async () => (await shownValues()).join('|') === 'release/3|grace@example.com|Production', 'the fields filled');
		// Another view in the side bar: the chat's page is dropped; Focus Chat loads it again.
		await vscode.commands.executeCommand('workbench.view.explorer');
		await waitFor(async () => (await webviewQuery('#app')).count === 0, 'the chat page gone while hidden');
		await press('Control+Alt+j');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown again');
		await waitFor(async () => (await webviewQuery(`${FORM} .elicitation-field`)).count === 6, 'the form drawn again', PAGE_LOAD_WAIT_MS);
		assert.deepEqual(await shownValues(), ['release/3', 'grace@example.com', 'Production'], 'what was typed, as it was');
		assert.deepEqual(answers(a, key), [], 'nothing sent');
		await settle(600);
		await webviewClick(`${FORM} button[data-action="accept"]`);
		await waitUntil(() => answers(a, key).length === 1, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[0], { action: 'accept', content: { branch: 'release/3', email: 'grace@example.com', env: 'prod', replicas: 2, dryRun: true } });
	});

	it('asks a URL while the chat is out of sight: opened only when chosen, then marked done', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the first turn over');
		await webviewClick('textarea.prompt-input');
		await type('authorize', 10);
		await press('Enter');
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		await openedPages(); // pages the browser opens are watched from here
		fs.writeFileSync(path.join(scratch(), 'elicit-url-go'), '');
		await waitFor(() => notificationShown('asks for your input: Authorize the deployment'), 'the notification', 15_000);
		await click(BUTTON, 'Answer Here');
		await waitFor(() => notificationShown('asks you to open 127.0.0.1:9: Authorize the deployment'), 'asked to open it');
		await settle(1000);
		assert.deepEqual(await openedPages(), [], 'not opened by itself');
		assert.equal(answers(a, key).length, 1, 'not answered by itself');
		await click(BUTTON, 'Open 127.0.0.1:9');
		await waitUntil(() => answers(a, key).length === 2, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[1], { action: 'accept' });
		const opened: string[] = [];
		await waitUntil(async () => opened.push(...(await openedPages())) > 0, 10_000, 'the page opened');
		assert.ok(holdsAddress(opened, 'http://127.0.0.1:9/authorize?code=WXYZ'), `its address opened (opened: ${opened.join(' ')})`);
		await vscode.commands.executeCommand('notifications.clearAll');
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown');
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-completed')).texts.some((t) => t.includes('Done: 127.0.0.1:9')), 'marked done by elicitation/complete');
	});

	it('opens nothing from a notification left up once the agent says the URL is done', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the turn over');
		await webviewClick('textarea.prompt-input');
		await type('approve', 10);
		await press('Enter');
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		fs.writeFileSync(path.join(scratch(), 'elicit-approve-go'), '');
		await waitFor(() => notificationShown('asks for your input: Approve the release'), 'the notification', 15_000);
		await click(BUTTON, 'Answer Here');
		await waitFor(() => notificationShown('asks you to open 127.0.0.1:13: Approve the release'), 'asked to open it');
		await openedPages(); // pages the browser opens are watched from here
		fs.writeFileSync(path.join(scratch(), 'elicit-approved'), '');
		await waitUntil(() => answers(a, key).length === 3, 20_000, 'the agent answered once done');
		assert.deepEqual(answers(a, key)[2], { action: 'cancel' });
		await click(BUTTON, 'Open 127.0.0.1:13');
		await waitFor(() => notificationShown('no longer needs 127.0.0.1:13 opened'), 'said to be done');
		await settle(500);
		assert.deepEqual(await openedPages(), [], 'nothing opened after it was done');
		await vscode.commands.executeCommand('notifications.clearAll');
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-completed')).texts.some((t) => t.includes('Done: 127.0.0.1:13')), 'shown as done in the chat');
		await a.chatController.closeTab(key);
	});
});
