// Claude Code, OpenCode, Gemini CLI and Qwen Code, the real programs from npm, in the chat panel as a
// person uses it (real keys and clicks through the browser), each against its scripted model server
// (test/fixtures/real-agents), whole turns in one chat: a file read and an answer in markdown with a
// code block; an edit asked for, its permission allowed with a click, the file changed, the diff drawn
// in the tool call and in the review's changed files; a second edit rejected with a click; a shell command
// allowed and its output seen by the model; a turn stopped with Escape, and a turn after it; then
// the edit's turn undone with a click; every message Agent Link sent each agent, checked against the ACP
// schema by the launcher that runs it.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Entry } from '../../../../src/common/chat/transcript';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { readRealAgentLog, schemaViolations, sent, type RealAgentName } from '../../../shared/realAgentLog';
import { press, screenshot, type, waitFor, waitForSteady, webviewClick, webviewQuery } from '../browser';
import { chatHooks } from '../chatKit';
import { waitUntil } from '../util';

interface Agent {
	/** Its name in `agentLink.agents` (the preset's, replaced by the suite). */
	readonly title: string;
	readonly name: RealAgentName;
	/** The names of its allow-once and reject-once buttons. */
	readonly allow: string;
	readonly reject: string;
	/**
	 * How it writes a file: through `fs/write_text_file` (Gemini CLI, Qwen Code), on disk itself
	 * (Claude Code), or both at once (OpenCode); the review has the edit whichever it is.
	 */
	readonly writes: 'client' | 'itself' | 'both';
	/** A rejected tool call ends its turn: the model says nothing more. */
	readonly rejectionEndsTurn: boolean;
}

/** In the order they are tested; Gemini CLI, the chat agent, started with the window. */
const AGENTS: readonly Agent[] = [
	{ title: 'Gemini CLI', name: 'gemini', allow: 'Allow', reject: 'Reject', writes: 'client', rejectionEndsTurn: false },
	{ title: 'Claude Code', name: 'claude', allow: 'Yes', reject: 'No', writes: 'itself', rejectionEndsTurn: false },
	{ title: 'OpenCode', name: 'opencode', allow: 'Allow once', reject: 'Reject', writes: 'both', rejectionEndsTurn: true },
	{ title: 'Qwen Code', name: 'qwen', allow: 'Allow', reject: 'Reject', writes: 'client', rejectionEndsTurn: true },
];

/** Starting an agent and a turn of it may take long on a loaded machine (the agent's program starts, it asks the model). */
const AGENT_MS = 120_000;

const workspace = () => vscode.workspace.workspaceFolders![0]!.uri.fsPath;
const greetJs = () => path.join(workspace(), 'greet.js');
/** The launcher's log of an agent: beside the workspace (suites.mjs). */
const logOf = (name: RealAgentName) => path.join(path.dirname(workspace()), `${name}.jsonl`);
const entriesOf = (a: AgentLinkApi, key: string): readonly Entry[] => a.chatController.tab(key)?.transcript.snapshot().entries ?? [];
const idle = (a: AgentLinkApi, key: string) => a.chatController.tab(key)?.transcript.snapshot().session.turn === 'idle';
const agentMarkdown = async () => (await webviewQuery('.entry-agent .markdown')).texts.join('\n');
const inputFocused = async () => (await webviewQuery('textarea.prompt-input:focus')).count > 0;
const turnEnds = async () => (await webviewQuery('.turn-end')).texts;

/** Types a prompt into the focused chat input and sends it with Enter. */
async function send(prompt: string): Promise<void> {
	await waitForSteady(inputFocused, 'the chat input focused');
	await type(prompt, 10);
	await press('Enter');
	await waitFor(async () => (await webviewQuery('.entry-user .plain-text')).texts.includes(prompt), `"${prompt}" in the transcript`);
}

/**
 * Clicks the pending permission's button of `kind` (allow_once, reject_once) once it is there, and
 * checks it is named `name`. The buttons ignore input for half a second after they appear (so a stray
 * key cannot answer): a click in that time is clicked again.
 */
async function answerPermission(kind: string, name?: string): Promise<void> {
	const button = `.permission.pending .permission-option[data-kind="${kind}"]`;
	await waitFor(async () => (await webviewQuery(button)).count === 1, `the permission button ${name ?? kind}`, AGENT_MS);
	if (name !== undefined) {
		assert.equal((await webviewQuery(button)).texts[0]?.trim(), name);
	}
	await waitFor(async () => {
		if ((await webviewQuery('.permission.pending')).count === 0) {
			return true;
		}
		// The prompt may be answered between the look and the click: then there is nothing to click.
		await webviewClick(button).catch(() => undefined);
		return (await webviewQuery('.permission.pending')).count === 0;
	}, `the permission answered with ${name ?? kind}`);
}

describe('chat with real agents (scripted models)', function () {
	this.timeout(4 * AGENT_MS);
	const chatApi = chatHooks('real-agents');

	for (const agent of AGENTS) {
		it(`${agent.title}: a read, an edit allowed with a click and one rejected, a command, a turn stopped with Escape and one after it, the edit's turn undone`, async () => {
			const a = chatApi();
			fs.writeFileSync(greetJs(), fs.readFileSync(greetJs(), 'utf8').replace(/return '\w+ '/, "return 'Hello '"));
			const key = await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', agent.title);
			assert.ok(key, `a chat with ${agent.title}`);
			await waitUntil(() => a.chatController.tab(key)?.state === 'ready', AGENT_MS, `${agent.title} ready (${a.chatController.tab(key)?.state})`);

			// A read, and the answer streamed in as markdown with a code block.
			await send('Explain greet.js');
			await waitFor(async () => (await agentMarkdown()).includes('[read done]'), 'the answer after the read', AGENT_MS);
			await waitUntil(() => idle(a, key), AGENT_MS, 'the first turn to end');
			assert.match(await agentMarkdown(), /It builds the greeting from name/, 'the file read reached the model');
			assert.ok((await webviewQuery('.entry-agent .markdown .code-block code')).texts.some((t) => t.includes("return 'Hello ' + name;")), 'the code block drawn');
			assert.ok((await webviewQuery('.entry-agent .markdown strong')).texts.includes('greet(name)'), 'the markdown drawn');
			assert.ok(entriesOf(a, key).some((e) => e.kind === 'tool_call' && e.toolKind === 'read' && e.status === 'completed'), 'the read in the transcript');

			// An edit, allowed with a click on the agent's own button.
			await send('Make greet.js say Hi');
			await answerPermission('allow_once', agent.allow);
			await waitFor(async () => (await agentMarkdown()).includes('[edit done]'), 'the agent saying the edit is done', AGENT_MS);
			await waitUntil(() => idle(a, key), AGENT_MS, 'the turn to end');
			assert.equal(fs.readFileSync(greetJs(), 'utf8'), "function greet(name) {\n\treturn 'Hi ' + name;\n}\n\nconsole.log(greet('Ada'));\n");
			await waitFor(async () => (await webviewQuery('.diff-line.added .diff-text')).texts.some((t) => t.includes("'Hi '")), 'the diff drawn in the tool call');
			assert.ok((await webviewQuery('.diff-line.removed .diff-text')).texts.some((t) => t.includes("'Hello '")));
			assert.ok((await webviewQuery('.permission.answered')).texts.some((t) => t.includes(`Allowed: ${agent.allow}`)), 'the answer shown');
			if (process.env.AGENT_LINK_SCREENSHOT_DIR) {
				await screenshot(path.join(process.env.AGENT_LINK_SCREENSHOT_DIR, `real-agent-${agent.name}.png`));
			}
			// The review has the edit whoever wrote the file (the agent's `writes`): the changed files list names greet.js, +1 −1.
			await waitFor(async () => (await webviewQuery('.changed-file-name')).texts.includes('greet.js'), `greet.js in the changed files (the agent writes ${agent.writes === 'both' ? 'through the client and itself' : agent.writes === 'itself' ? 'itself' : 'through the client'})`);
			// The list is drawn again as the agent's writes are found: it settles on the one line changed.
			const changedLines = async () => (await webviewQuery('.changed-file .changed-lines')).texts.map((t) => t.replace(/\s+/g, ' ').trim());
			await waitFor(async () => JSON.stringify(await changedLines()) === JSON.stringify(['+1 −1']), 'greet.js listed with +1 −1').catch(async (error: unknown) => {
				throw new Error(`${(error as Error).message}; the list reads ${JSON.stringify(await changedLines())}`);
			});

			// A second edit in the same chat, rejected with a click: the file stays as it was.
			const ended = (await turnEnds()).length;
			await send('Make greet.js say Bye');
			await answerPermission('reject_once', agent.reject);
			await waitFor(async () => (await turnEnds()).length > ended, 'the second turn to end', AGENT_MS);
			assert.ok((await webviewQuery('.permission.answered')).texts.some((t) => t.includes(`Rejected: ${agent.reject}`)), 'the rejection shown');
			assert.equal((await agentMarkdown()).includes('[edit refused]'), !agent.rejectionEndsTurn);
			assert.match(fs.readFileSync(greetJs(), 'utf8'), /return 'Hi ' \+ name;/);

			// A shell command, allowed: it ran after the edit, and the model saw what it printed.
			await send('Run greet.js');
			await answerPermission('allow_once');
			await waitFor(async () => (await agentMarkdown()).includes('[ran: Hi Ada]'), 'the agent saying what the command printed', AGENT_MS);
			await waitUntil(() => idle(a, key), AGENT_MS, 'the command turn to end');
			assert.ok(entriesOf(a, key).some((e) => e.kind === 'tool_call' && e.toolKind === 'execute' && e.status === 'completed'), 'the command in the transcript');

			// A turn stopped midway with Escape in the input.
			await send('Count to a thousand');
			await waitFor(async () => (await agentMarkdown()).includes('[counting]'), 'the answer streaming', AGENT_MS);
			await press('Escape');
			await waitFor(async () => (await turnEnds()).at(-1)?.includes('Stopped') === true, 'the turn stopped', AGENT_MS);
			const last = entriesOf(a, key).filter((e) => e.kind === 'turn_end').at(-1);
			assert.equal(last?.kind === 'turn_end' ? last.stopReason : undefined, 'cancelled', 'the agent answered the cancel');

			// The chat goes on after the cancel.
			await send('Thanks, that is all');
			await waitFor(async () => (await agentMarkdown()).includes('[hello]'), 'the answer after the cancel', AGENT_MS);
			await waitUntil(() => idle(a, key), AGENT_MS, 'the last turn to end');
			assert.match(fs.readFileSync(greetJs(), 'utf8'), /return 'Hi ' \+ name;/);

			// Undo this turn on the edit's turn (no later turn touched greet.js): one question, and the file is as before.
			await waitFor(async () => (await webviewQuery('.turn-undo')).texts.some((t) => t.includes('Undo this turn')), 'Undo this turn on the edit turn');
			await webviewClick('.turn-undo');
			await waitFor(async () => (await webviewQuery('.undo-ask:not([hidden]) .undo-ask-files li')).texts.some((t) => t.includes('greet.js')), 'the question naming greet.js');
			await webviewClick('.undo-ask-confirm');
			await waitUntil(() => /return 'Hello ' \+ name;/.test(fs.readFileSync(greetJs(), 'utf8')), 20_000, `greet.js as before the edit (${agent.title} wrote it ${agent.writes})`);
		});
	}

	it('sent each agent only messages that fit the ACP schema', () => {
		for (const agent of AGENTS) {
			const log = readRealAgentLog(logOf(agent.name));
			assert.deepEqual(schemaViolations(log), [], `${agent.title}: what the schema refused`);
			// What was checked: the handshake with every capability the chat has, the session with the
			// editor tools' MCP server, six prompts, the cancel, and the answers to the agent's requests.
			assert.equal(sent(log, 'client', 'initialize').length, 1, `${agent.title}: initialize`);
			assert.ok(sent(log, 'client', 'session/new').length >= 1, `${agent.title}: session/new`);
			assert.equal(sent(log, 'client', 'session/prompt').length, 6, `${agent.title}: the prompts`);
			assert.equal(sent(log, 'client', 'session/cancel').length, 1, `${agent.title}: the cancel`);
			assert.equal(sent(log, 'agent', 'session/request_permission').length, 3, `${agent.title}: the permission requests`);
		}
	});
});
