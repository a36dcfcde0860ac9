// Agent content that tries to run code in the chat page. A scripted agent (XSS_PAYLOADS in
// test/vscode/suites.mjs) sends every payload as markdown, thought, tool title, tool content, diff,
// resource link, raw input, plan entry, notice, session title, slash command, config option and
// permission option. The page must show them as text or sanitized markup: its DOM holds no script
// but its own, no frame, object or embed, no style element, no event-handler attribute and no
// javascript: (or data:) URL, and nothing set window.__xss.
import * as assert from 'node:assert/strict';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { hasBrowser, press, screenshot, type, waitFor, waitForSteady, webviewAudit, webviewQuery } from '../browser';
import { api, waitUntil } from '../util';

/** The same list as test/vscode/suites.mjs sends (kept here so the test says what it checks). */
const PAYLOADS = [
	'<script>window.__xss = "script"</script>',
	`<img src=x onerror="window.__xss = 'img'">`,
	`<svg onload="window.__xss = 'svg'"><circle r=1 /></svg>`,
	`[click me](javascript:window.__xss='link')`,
	`<a href="javascript:window.__xss='a'">a link</a>`,
	`<iframe src="javascript:window.__xss='iframe'"></iframe>`,
	'<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
	'<style>body { display: none }</style>',
	`<details open ontoggle="window.__xss='details'">x</details>`,
	`<math><mtext><table><mglyph><style><img src=x onerror="window.__xss='math'">`,
	`<object data="javascript:window.__xss='object'"></object>`,
	`<form action="javascript:window.__xss='form'"><button>go</button></form>`,
	'[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
	`![image](javascript:window.__xss='image')`,
	`<a href="&#106;avascript:window.__xss='entity'">entity link</a>`,
	'`<script>in code</script>`',
	'```html\n<script>window.__xss = "fenced"</script>\n<img src=x onerror=alert(1)>\n```',
];

describe('chat: agent content never runs', function () {
	this.timeout(90_000);
	let a: AgentLinkApi;

	before(async function () {
		if (!hasBrowser()) {
			this.skip();
		}
		a = await api();
	});

	afterEach(async function () {
		if (this.currentTest?.state === 'failed' && process.env.AGENT_LINK_SCREENSHOT_DIR) {
			await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR, 'chat-xss-failed.png')).catch(() => {});
			const key = a.chatController.tabKeys[0];
			console.log('host transcript:', JSON.stringify(key ? a.chatController.tab(key)?.transcript.snapshot().session : null));
			console.log('page entries:', (await webviewQuery('.entry')).count, (await webviewQuery('.entry.placeholder')).count);
		}
	});

	it('shows every payload in every place as inert text or sanitized markup', async () => {
		const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', 'XSS Agent'))!;
		assert.ok(key);
		await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, 'the chat ready');
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
		await type('go', 10);
		await press('Enter');
		await waitFor(async () => (await webviewQuery('.permission.pending .permission-option')).count === 2, 'the permission prompt (the last update)', 45_000);

		// Every place was drawn, and shows the payload as text.
		const titles = (await webviewQuery('.tool-title')).texts;
		for (const payload of PAYLOADS) {
			assert.ok(titles.includes(payload), `tool title shown as text: ${payload}`);
		}
		assert.equal((await webviewQuery('.plan-text')).texts.length, PAYLOADS.length, 'plan entries drawn');
		assert.ok((await webviewQuery('.plan-text')).texts.includes(PAYLOADS[0]!), 'plan entries as text');
		assert.ok((await webviewQuery('.diff-text')).texts.some((t) => t.includes('<script>')), 'diff lines as text');
		assert.ok((await webviewQuery('.permission-option')).texts.includes(PAYLOADS[0]!), 'permission options as text');
		assert.ok((await webviewQuery('.tab-title')).texts.some((t) => t.includes('<img src=x onerror')), 'the session title as text');
		assert.ok((await webviewQuery('.entry-agent .markdown code')).texts.some((t) => t.includes('<script>in code</script>')), 'inline code keeps the tag as text');
		assert.ok((await webviewQuery('.entry-agent .markdown p')).texts.some((t) => t.includes('<script>window.__xss')), 'raw HTML in markdown is shown as text');
		assert.ok((await webviewQuery('.session-options option')).texts.includes(PAYLOADS[1]!), 'config option choices as text');

		// The slash commands' list too (descriptions and hints are payloads).
		await press('Control+Alt+j'); // Focus Chat: back to the input
		await waitForSteady(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused by the keybinding');
		await type('/', 10);
		await waitFor(async () => (await webviewQuery('.suggestions .suggestion')).count === PAYLOADS.length, 'the slash command list');

		const audit = await webviewAudit();
		assert.equal(audit.pages >= 1, true, 'the chat page was found');
		assert.deepEqual(audit.findings, [], `executable content in the chat page:\n${audit.findings.join('\n')}`);

		await press('Escape', 'Escape'); // close the list, then stop the turn (the permission is answered cancelled)
		await waitUntil(() => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle', 10_000, 'the turn stopped');
		assert.deepEqual((await webviewAudit()).findings, []);
		await a.chatController.closeTab(key);
	});
});
