// Elicitations (`elicitation/create`) in the chat, through the browser with real key presses: a
// form drawn in the tool call it names, a stray Enter ignored for half a second, a wrong field
// said inline, every field type filled by keyboard and the typed values reaching the agent; a form
// declined; a URL shown by its host and opened only by a click, then marked done by
// `elicitation/complete`; the agent's text in a form never run; one asked while the chat is out of
// sight answered through a notification and quick input; a pending form answered `cancel` when the
// turn is stopped.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { click, holdsAddress, keyAfterFocus, openedPages, press, query, screenshot, type, typeOnWebviewFocus, waitFor, webviewAudit, webviewClick, webviewQuery, withinGuard } from '../browser';
import { NOTIFICATIONS, notificationShown } from '../notifications';
import { chatHooks, openChat } from '../chatKit';
import { ARM_MS } from '../../../../src/webview/chat/arming';
import { repoRoot, waitUntil } from '../util';
import { answers, FORM, scratch, settle } from './kit';




describe('chat elicitation', function () {
	this.timeout(120_000);
	let key = '';
	// A test that failed with its form still pending stops its turn, so the next test starts on an idle chat.
	const chatApi = chatHooks('chat-elicitation', { closeTabs: false, onFailure: async (a) => a.chatController.tab(key)?.session?.cancel() });

	it('draws the form in its tool call and sends what is typed, checked first, by keyboard alone', async () => {
		const a = chatApi();
		key = await openChat(a, 'Elicit Agent');
		await type('deploy', 10);
		await press('Enter');
		// The form takes the keyboard as it appears; a stray Enter the moment it does is ignored (not even
		// checked). When it landed is read from the page's clock: on a machine so busy that it came after
		// the half second, the form must be checked instead (nothing sent either way: it is not filled in).
		const stray = await typeOnWebviewFocus(`${FORM} input[id$="-f0"]`, '\n', { count: `${FORM} .field-error:not(:empty)`, delayMs: 0 });
		const late = await keyAfterFocus(/^input#elicitation-\d+-f0/, 'Enter');
		const within = withinGuard(late, ARM_MS);
		if (within === true) {
			assert.deepEqual(stray, { before: 0, after: 0 }, `a stray Enter ${late} ms after the form appeared does nothing`);
		} else if (within === false) {
			await waitFor(async () => (await webviewQuery(`${FORM} .field-error`)).texts.includes('Required.'), `an Enter ${late} ms after the form appeared checks it`);
		}
		await waitFor(async () => (await webviewQuery(`${FORM} .elicitation-field`)).count === 6, 'the form with its six fields', 20_000);
		assert.deepEqual((await webviewQuery('.tool-call .tool-title')).texts, ['Deploy the release'], 'in the tool call it names');
		assert.deepEqual((await webviewQuery(`${FORM} .field-label`)).texts, ['Branch *', 'Notify', 'Environment *', 'Replicas', 'Dry run first', 'Checks']);
		assert.equal((await webviewQuery(`${FORM} input[id$="-f0"]:focus`)).count, 1, 'the first field has the keyboard');
		assert.deepEqual(answers(a, key), [], 'nothing sent');
		await settle(500);
		// A wrong value is said under its field, and the form is not sent.
		await type('x', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery(`${FORM} .field-error`)).texts.includes('At least 2 characters.'), 'the inline message');
		assert.ok((await webviewQuery(`${FORM} .field-error`)).texts.includes('Choose one.'), 'the required choice');
		assert.equal((await webviewQuery(`${FORM} input[aria-invalid="true"]:focus`)).count, 1, 'the keyboard back on the wrong field');
		assert.deepEqual(answers(a, key), [], 'nothing sent');
		// Every field by keyboard: text, email, a choice, a number, a checkbox, a multiple choice.
		await press('Backspace');
		await type('release/2', 10);
		await waitFor(async () => !(await webviewQuery(`${FORM} .field-error`)).texts.includes('At least 2 characters.'), 'the message gone once the value is right');
		await press('Tab');
		await type('ada@example.com', 10);
		await press('Tab', 'ArrowDown', 'ArrowDown', 'Tab', 'Control+a');
		await type('3', 10);
		await press('Tab', 'Space', 'Tab', 'Space', 'Tab', 'Space');
		await waitFor(async () => (await webviewQuery(`${FORM} input[type="checkbox"]:checked`)).count === 2, 'lint and test ticked');
		assert.equal((await webviewQuery(`${FORM} .field-error:not(:empty)`)).count, 0, 'no message left');
		await shoot('chat-elicitation');
		// VS Code runs the Ctrl+A typed in Replicas a second time, as its own Select All in the page
		// (every key in a webview goes to the workbench too); late, on a busy machine. It must not
		// take the keyboard back to Replicas.
		await vscode.commands.executeCommand('editor.action.selectAll');
		await settle(300);
		assert.equal((await webviewQuery(`${FORM} input[id$="-f5-1"]:focus`)).count, 1, 'the keyboard still on "test" after a late Select All');
		await press('Tab', 'Tab');
		await waitFor(async () => (await webviewQuery(`${FORM} button[data-action="accept"]:focus`)).count === 1, 'Submit has the keyboard');
		await press('Enter');
		await waitUntil(() => answers(a, key).length === 1, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[0], { action: 'accept', content: { branch: 'release/2', email: 'ada@example.com', env: 'prod', replicas: 3, dryRun: false, checks: ['lint', 'test'] } });
		await waitFor(async () => (await webviewQuery('.tool-call .elicitation.answered')).texts.some((t) => t.includes('Sent')), 'the form shown as sent');
	});

	it('declines a form of its own entry', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the first turn over');
		await webviewClick('textarea.prompt-input');
		await type('tag it', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-elicitation .elicitation.pending.form')).count === 1, 'the form as its own entry', 20_000);
		await settle(600);
		await webviewClick('.elicitation.pending button[data-action="decline"]');
		await waitUntil(() => answers(a, key).length === 2, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[1], { action: 'decline' });
		await waitFor(async () => (await webviewQuery('.entry-elicitation .elicitation.answered')).texts.some((t) => t.includes('Declined')), 'shown as declined');
	});

	it('shows a URL by its host, opens it only on a click, and marks it done when the agent says so', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the turn over');
		await webviewClick('textarea.prompt-input');
		await type('sign in', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.elicitation.pending.url')).count === 1, 'the URL elicitation', 20_000);
		const shown = (await webviewQuery('.elicitation.pending.url')).texts[0] ?? '';
		assert.match(shown, /Sign in to the deployment service/);
		assert.match(shown, /Opens 127\.0\.0\.1:9 in your browser/);
		await settle(1000);
		assert.equal(answers(a, key).length, 2, 'not opened by itself');
		await webviewClick('.elicitation.pending.url button[data-action="accept"]');
		await waitUntil(() => answers(a, key).length === 3, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[2], { action: 'accept' });
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-completed')).texts.some((t) => t.includes('Done: 127.0.0.1:9')), 'marked done by elicitation/complete');
		// The page the click opened, closed and the workbench in front again before the next test.
		const opened: string[] = [];
		await waitUntil(async () => opened.push(...(await openedPages())) > 0, 10_000, 'the page opened');
		assert.ok(holdsAddress(opened, 'http://127.0.0.1:9/device?code=ABCD'), `its address opened (opened: ${opened.join(' ')})`);
	});

	it('shows the agent\'s text in a form as text, never run', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the turn over');
		await webviewClick('textarea.prompt-input');
		await type('xss', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-elicitation .elicitation.pending.form')).count === 1, 'the form', 20_000);
		assert.deepEqual((await webviewQuery('.elicitation.pending .elicitation-message')).texts, ['<img src=x onerror="window.__xss = \'img\'">']);
		assert.deepEqual((await webviewQuery('.elicitation.pending .elicitation-title')).texts, ['<script>window.__xss = "script"</script>']);
		assert.ok((await webviewQuery('.elicitation.pending .field-label')).texts[0]?.startsWith('<svg onload='), 'a field title as text');
		assert.deepEqual((await webviewQuery('.elicitation.pending input.field-input')).texts, ['"><script>window.__xss = 1</script>'], 'a default as the value');
		assert.ok((await webviewQuery('.elicitation.pending option')).texts.some((t) => t.startsWith('<details open')), 'a choice as text');
		const audit = await webviewAudit();
		assert.deepEqual(audit.findings, [], `executable content in the chat page:\n${audit.findings.join('\n')}`);
		await settle(600);
		await webviewClick('.elicitation.pending button[data-action="cancel"]');
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-cancelled')).count === 1, 'cancelled by its button');
	});

	it('asks through a notification and quick input while the chat is out of sight', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the turn over');
		await webviewClick('textarea.prompt-input');
		await type('quietly', 10);
		await press('Enter');
		await vscode.commands.executeCommand('workbench.action.closeSidebar');
		await waitUntil(() => !a.chatController.visible, 5000, 'the chat hidden');
		fs.writeFileSync(path.join(scratch(), 'elicit-go'), '');
		await waitFor(() => notificationShown('asks for your input: Name the release'), 'the notification', 15_000);
		await click(`:is(${NOTIFICATIONS}) .monaco-button`, 'Answer Here');
		await waitFor(async () => (await query('.quick-input-widget .quick-input-title', { visible: true })).texts.some((t) => t.includes('(1/2)')), 'the first field in an input box');
		await type('v', 10);
		await waitFor(async () => (await query('.quick-input-widget .quick-input-message', { visible: true })).texts.some((t) => t.includes('At least 2 characters.')), 'the field checked as it is typed');
		await type('2', 10);
		await press('Enter');
		await waitFor(async () => (await query('.quick-input-widget .quick-input-title', { visible: true })).texts.some((t) => t.includes('(2/2)')), 'the yes/no field');
		await press('Enter');
		await waitUntil(() => answers(a, key).length === 5, 20_000, 'the agent answered');
		assert.deepEqual(answers(a, key)[4], { action: 'accept', content: { tag: 'v2', notes: true } });
		await vscode.commands.executeCommand('notifications.clearAll');
		await vscode.commands.executeCommand('agentLink.chat.focus');
		await waitUntil(() => a.chatController.visible, 10_000, 'the chat shown');
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-accepted')).texts.some((t) => t.includes('Name the release')), 'shown as sent in the chat');
	});

	it('answers cancel when the turn is stopped', async () => {
		const a = chatApi();
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 20_000, 'the turn over');
		await webviewClick('textarea.prompt-input');
		await type('more', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.entry-elicitation .elicitation.pending.form')).count === 1, 'the form', 20_000);
		a.chatController.tab(key)?.session?.cancel();
		await waitFor(async () => (await webviewQuery('.elicitation.answered.state-cancelled')).count === 2, 'shown as cancelled');
		const log = path.join(scratch(), 'elicit-messages.jsonl');
		await waitUntil(() => fs.existsSync(log) && fs.readFileSync(log, 'utf8').includes('"action":"cancel"'), 10_000, 'the agent got cancel');
		await a.chatController.closeTab(key);
	});
});

/** A picture of the chat with the form (into media/screenshots with AGENT_LINK_SCREENSHOTS=1). */
async function shoot(name: string): Promise<void> {
	const dir = process.env.AGENT_LINK_SCREENSHOTS === '1' ? path.join(repoRoot, 'media', 'screenshots') : (process.env.AGENT_LINK_SCREENSHOT_DIR ?? os.tmpdir());
	await screenshot(path.join(dir, `${name}.png`), '.part.sidebar');
}
