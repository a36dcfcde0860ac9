// The whole turns every real agent is run through (test/protocol/realAgents.test.ts), one agent
// process each, one session: streamed text, a read, an edit allowed and one rejected, a shell
// command, a turn cancelled midway, a turn after it, what changed, and every message Agent Link
// sent checked against the ACP schema. The conversation is scripted on the model's side
// (test/fixtures/real-agents/conversation.mjs); each agent's ways are its `Quirks`.
import assert from 'node:assert/strict';
import { basename } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { ToolCallEntry } from '../../src/common/chat/transcript';
import { schemaViolations, sent, type RealAgentName } from '../shared/realAgentLog';
import { RealAgentChat, transcriptOf } from './realAgentChat';

/** What differs between the agents, as seen today. */
export interface Quirks {
	/** Its read tool reads through the client (`fs/read_text_file`) rather than from disk itself. */
	readonly readsThroughClient: boolean;
	/** Its edit tool writes through the client (`fs/write_text_file`) rather than on disk itself. */
	readonly writesThroughClient: boolean;
	/** Its edit tool call is first seen in the permission request (no `tool_call` update before it). */
	readonly editFirstSeenInPermission: boolean;
	/** A rejected tool call ends the turn: the model is not told and says nothing more. */
	readonly rejectionEndsTurn: boolean;
}

const isGreetJs = (path: string) => basename(path) === 'greet.js';

/** The tool call of `kind` the turn's transcript shows last. */
function lastToolCall(chat: RealAgentChat, kind: ToolCallEntry['toolKind']): ToolCallEntry | undefined {
	return transcriptOf(chat)
		.toolCalls.filter((c) => c.toolKind === kind)
		.at(-1);
}

export function describeRealAgent(name: RealAgentName, title: string, quirks: Quirks): void {
	// One turn after another (a suite running beside others would otherwise run its tests at once).
	describe(`${title} (real agent, scripted model)`, { concurrency: 1 }, () => {
		let chat: RealAgentChat;

		before(async () => {
			({ chat } = await RealAgentChat.start(name));
		});

		after(async () => {
			if (chat && process.env.AGENT_LINK_KEEP_REAL_AGENT_LOG) {
				console.log(`${name}: the launcher's log is kept: ${chat.logFile}`);
			}
			await chat?.dispose();
		});

		it('reads a file and streams its answer, markdown with a code block', async () => {
			const turn = await chat.prompt('Explain greet.js');
			assert.equal(turn.stopReason, 'end_turn');
			// The answer says what the read gave it: the file's text reached the model.
			assert.match(turn.text, /It builds the greeting from `name`[\s\S]*```js\nreturn 'Hello ' \+ name;\n```[\s\S]*\[read done\]/);
			assert.ok(turn.chunks >= 3, `the answer streamed in ${turn.chunks} chunk(s)`);
			const read = lastToolCall(chat, 'read');
			assert.ok(read, 'a read tool call in the transcript');
			assert.equal(read.status, 'completed');
			assert.ok(read.locations.some((l) => isGreetJs(l.path)) || /greet\.js/.test(read.title), `the read names greet.js: ${JSON.stringify(read)}`);
			assert.equal(chat.reads.some(isGreetJs), quirks.readsThroughClient, `greet.js read through the client: ${JSON.stringify(chat.reads)}`);
		});

		it('asks before an edit; allowed, the file changes and the tool call shows the diff', async () => {
			const turn = await chat.prompt('Make greet.js say Hi', { answer: 'allow_once' });
			assert.equal(turn.stopReason, 'end_turn');
			assert.equal(turn.permissions.length, 1, 'one permission request');
			const asked = turn.permissions[0]!;
			const firstSeen = turn.events.find((e) => ('permission' in e ? e.permission.toolCall.toolCallId : 'toolCallId' in e.update ? e.update.toolCallId : undefined) === asked.toolCall.toolCallId);
			assert.equal(firstSeen && 'permission' in firstSeen, quirks.editFirstSeenInPermission, 'where the edit tool call is first seen');
			assert.deepEqual(
				['allow_once', 'reject_once'].filter((k) => asked.options.some((o) => o.kind === k)),
				['allow_once', 'reject_once'],
			);
			assert.match(turn.text, /\[edit done\]/);
			assert.equal(chat.file('greet.js'), "function greet(name) {\n\treturn 'Hi ' + name;\n}\n\nconsole.log(greet('Ada'));\n");
			const edit = lastToolCall(chat, 'edit');
			assert.ok(edit, 'an edit tool call in the transcript');
			assert.equal(edit.permission?.state, 'selected');
			const diff = edit.content.find((c) => c.type === 'diff');
			assert.ok(diff && isGreetJs(diff.path) && diff.newText.includes("'Hi '"), `the edit shows its diff: ${JSON.stringify(edit.content)}`);
			// What Agent Link can review today: a write that came through fs/write_text_file. An agent
			// that writes on disk itself leaves only the tool call's diff (and the file changed on disk).
			// Issue 24 part 1 turns on, for every agent: the chat's changed files list greet.js, its review
			// holds this one hunk ('Hello ' -> 'Hi '), and undoing the turn gives back 'Hello '.
			const writes = chat.writes.filter((w) => isGreetJs(w.path));
			assert.equal(writes.length, quirks.writesThroughClient ? 1 : 0, `writes through the client: ${JSON.stringify(chat.writes)}`);
			if (quirks.writesThroughClient) {
				assert.equal(writes[0]!.content, chat.file('greet.js'));
			}
		});

		it('asks before an edit; rejected, the file stays as it was', async () => {
			const writesBefore = chat.writes.length;
			const turn = await chat.prompt('Make greet.js say Bye', { answer: 'reject_once' });
			assert.equal(turn.stopReason, 'end_turn');
			assert.equal(turn.permissions.length, 1, 'one permission request');
			assert.equal(/\[edit refused\]/.test(turn.text), !quirks.rejectionEndsTurn, `what the model said after the rejection: ${turn.text}`);
			assert.match(chat.file('greet.js'), /return 'Hi ' \+ name;/);
			assert.equal(chat.writes.length, writesBefore, 'nothing written through the client');
			const edit = lastToolCall(chat, 'edit');
			assert.ok(edit && edit.permission?.state === 'selected', 'the rejected edit is in the transcript, answered');
			assert.notEqual(edit.status, 'completed');
		});

		it('runs a shell command after asking, and sees its output', async () => {
			const turn = await chat.prompt('Run greet.js', { answer: 'allow_once' });
			assert.equal(turn.stopReason, 'end_turn');
			assert.equal(turn.permissions.length, 1, 'one permission request');
			// The command ran after the edit: it printed the new greeting, and the model saw it.
			assert.match(turn.text, /\[ran: Hi Ada\]/);
			const run = lastToolCall(chat, 'execute');
			assert.ok(run, 'a command tool call in the transcript');
			assert.equal(run.status, 'completed');
		});

		it('stops a turn midway on session/cancel', async () => {
			const turn = await chat.prompt('Count to a thousand', { cancelOn: '[counting]' });
			assert.equal(turn.stopReason, 'cancelled');
			assert.match(turn.text, /One, two, three/);
		});

		it('goes on with another turn after the cancel', async () => {
			const turn = await chat.prompt('Thanks, that is all');
			assert.equal(turn.stopReason, 'end_turn');
			assert.match(turn.text, /\[hello\]/);
			assert.match(chat.file('greet.js'), /return 'Hi ' \+ name;/);
		});

		it('got only messages that fit the ACP schema from Agent Link', () => {
			const log = chat.logEntries();
			assert.deepEqual(schemaViolations(log), []);
			// What was checked: the handshake, six prompts, a cancel, and the answers to the agent's requests.
			assert.equal(sent(log, 'client', 'session/prompt').length, 6);
			assert.equal(sent(log, 'client', 'session/cancel').length, 1);
			assert.equal(sent(log, 'agent', 'session/request_permission').length, 3);
			// The agent's model calls went to the scripted server (the launcher logs each one).
			assert.ok(log.some((e) => e.model), 'the scripted model was asked');
		});
	});
}
