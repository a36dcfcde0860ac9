import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	HostNotifications,
	MAX_PROMPT_CHARS,
	PageCommands,
	PageLifecycle,
	PageRequests,
	chatStateSchema,
	decodeHostNotification,
	decodePageMessage,
	decodeResponse,
	encodeCommand,
	encodeError,
	encodeNotification,
	encodeRequest,
	encodeResult,
	isResponse,
	type ChatState,
} from '../../src/common/chat/messages';
import { Transcript } from '../../src/common/chat/transcript';
import { sessionUpdateSchema } from '../../src/common/chat/updates';

/** Round trip through JSON, as postMessage would carry it (structured clone keeps less than JSON allows). */
const wire = (message: unknown): unknown => JSON.parse(JSON.stringify(message));

function state(): ChatState {
	const transcript = new Transcript();
	transcript.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'Hi' }] });
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Hello' } }));
	transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'Read', locations: [{ path: '/w/a.ts', line: 2 }] }));
	return {
		tabs: [
			{
				sessionKey: 'k1',
				agentId: 'claude',
				agentName: 'Claude Code',
				state: 'ready',
				promptCapabilities: { image: true, audio: false, embeddedContext: true },
				changes: [
					{ path: '/w/a.ts', name: 'a.ts', added: 2, removed: 1, created: false },
					{ path: '/w/old.ts', name: 'old.ts', added: 0, removed: 4, created: false, deleted: true },
					{ path: '/w/big.json', name: 'big.json', added: 0, removed: 0, created: false, note: 'changed; it is larger than 1 MB, so it cannot be shown or undone' },
				],
				turns: [
					{ id: 4, files: 2 },
					{ id: 9, files: 1, undone: true },
				],
				undoAsk: { turnId: 4, title: "Undo this turn's changes to 1 file?", lines: ['a.ts: put back', 'b.ts: left alone (changed since)'], canUndo: true },
			},
			{
				sessionKey: 'k2',
				agentId: 'gemini',
				agentName: 'Gemini CLI',
				state: 'read_only',
				detail: 'Gemini CLI cannot go on with this conversation.',
				promptCapabilities: { image: false, audio: false, embeddedContext: false },
				seed: { text: 'Going on from "Old chat".', attachments: [{ type: 'file', path: '/storage/old.md' }] },
			},
		],
		selected: 'k1',
		agents: [{ id: 'claude', name: 'Claude Code', status: 'running' }],
		defaultAgent: 'claude',
		transcripts: { k1: transcript.snapshot() },
	};
}

describe('chat messages: page to host', () => {
	it('decodes every command with its params', () => {
		const samples: { [K in keyof typeof PageCommands]: unknown } = {
			newChat: { agentId: 'codex' },
			sendPrompt: {
				sessionKey: 'k1',
				text: 'Explain this',
				attachments: [
					{ type: 'file', path: '/w/a.ts', lines: { start: 3, end: 9 } },
					{ type: 'folder', path: '/w/src' },
					{ type: 'symbol', path: '/w/a.ts', name: 'main', lines: { start: 1, end: 1 } },
					{ type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
				],
			},
			cancel: { sessionKey: 'k1' },
			answerPermission: { sessionKey: 'k1', requestId: '7', optionId: 'allow' },
			answerElicitation: { sessionKey: 'k1', requestId: 'elicitation-1', action: 'accept', content: { branch: 'main', replicas: 2, dryRun: true, checks: ['lint'] } },
			setConfigOption: { sessionKey: 'k1', configId: 'model', value: 'fast' },
			setMode: { sessionKey: 'k1', modeId: 'code' },
			authenticate: { sessionKey: 'k1', methodId: 'login' },
			dismissSignIn: { sessionKey: 'k1' },
			reviewFile: { sessionKey: 'k1', path: '/w/a.ts' },
			keepChanges: { sessionKey: 'k1' },
			undoChanges: { sessionKey: 'k1', path: '/w/a.ts' },
			undoTurn: { sessionKey: 'k1', turnId: 12 },
			answerUndoTurn: { sessionKey: 'k1', turnId: 12, undo: true },
			setFollow: { sessionKey: 'k1', on: true },
			selectTab: { sessionKey: 'k1' },
			closeTab: { sessionKey: 'k1' },
			openHistory: {},
			continueInNewChat: { sessionKey: 'k1' },
			openLocation: { path: '/w/a.ts', line: 2 },
			copy: { code: 'npm test' },
			showChat: {},
			insertAtCursor: { code: 'const x = 1;' },
			openTerminal: { sessionKey: 'k1', terminalId: 'terminal-1' },
		};
		for (const [name, params] of Object.entries(samples)) {
			const type = PageCommands[name as keyof typeof PageCommands];
			const decoded = decodePageMessage(wire({ method: type.method, params }));
			assert.equal(decoded.kind, 'command', name);
			assert.ok(decoded.kind === 'command');
			assert.equal(decoded.method, type.method);
			assert.deepEqual(decoded.params, params);
		}
	});

	it('takes a new chat with the agent the user picks, and refuses a pick that is not a boolean', () => {
		assert.equal(decodePageMessage(wire({ method: PageCommands.newChat.method, params: { pick: true } })).kind, 'command');
		assert.equal(decodePageMessage(wire({ method: PageCommands.newChat.method, params: {} })).kind, 'command');
		assert.equal(decodePageMessage(wire({ method: PageCommands.newChat.method, params: { pick: 'yes' } })).kind, 'invalid');
	});

	it('takes the word a page document sends as it arrives, with its load, and refuses a load longer than any the host writes', () => {
		const started = decodePageMessage(JSON.parse(JSON.stringify(encodeCommand(PageLifecycle.started, { load: 'load-1' }))));
		assert.deepEqual(started, { kind: 'command', method: PageLifecycle.started.method, params: { load: 'load-1' } });
		assert.equal(decodePageMessage(wire({ method: PageLifecycle.started.method, params: { load: 'x'.repeat(65) } })).kind, 'invalid');
	});

	it('narrows params by method', () => {
		const decoded = decodePageMessage(encodeCommand(PageCommands.setConfigOption, { sessionKey: 'k', configId: 'web', value: true }));
		if (decoded.kind === 'command' && decoded.method === PageCommands.setConfigOption.method) {
			const value: string | boolean = decoded.params.value;
			assert.equal(value, true);
		} else {
			assert.fail('expected setConfigOption');
		}
	});

	it('decodes requests with their id', () => {
		const decoded = decodePageMessage(wire(encodeRequest(PageRequests.searchMentions, 4, { sessionKey: 'k1', query: 'main' })));
		assert.deepEqual(decoded, { kind: 'request', id: 4, method: 'chat/searchMentions', params: { sessionKey: 'k1', query: 'main' } });
		assert.deepEqual(decodePageMessage({ id: 1, method: 'chat/getState' }), { kind: 'request', id: 1, method: 'chat/getState', params: {} });
	});

	const invalid: [string, unknown, RegExp][] = [
		['not an object', 'ready', /^Not a page message: Invalid params: \(params\): expected object$/],
		['an unknown method', { method: 'chat/launchMissiles', params: {} }, /^Unknown page message "chat\/launchMissiles"$/],
		['a command sent as a request', { id: 3, method: 'chat/cancel', params: { sessionKey: 'k' } }, /^Unknown page request "chat\/cancel"$/],
		['a request sent without an id', { method: 'chat/getState' }, /^Unknown page message "chat\/getState"$/],
		['a prompt without its session', { method: 'chat/sendPrompt', params: { text: 'x', attachments: [] } }, /^chat\/sendPrompt: Invalid params: sessionKey: expected string$/],
		['an empty session key', { method: 'chat/cancel', params: { sessionKey: '' } }, /sessionKey: too small \(minimum 1\)/],
		['a prompt over the size limit', { method: 'chat/sendPrompt', params: { sessionKey: 'k', text: 'x'.repeat(MAX_PROMPT_CHARS + 1), attachments: [] } }, /text: too big/],
		['an attachment of an unknown type', { method: 'chat/sendPrompt', params: { sessionKey: 'k', text: '', attachments: [{ type: 'url', path: 'x' }] } }, /attachments\.0\.type: expected "file" or "folder" or "symbol" or "image"/],
		['lines that end before they start', { method: 'chat/sendPrompt', params: { sessionKey: 'k', text: '', attachments: [{ type: 'file', path: '/a', lines: { start: 5, end: 2 } }] } }, /start must not be after end/],
		['an image that is not an image', { method: 'chat/sendPrompt', params: { sessionKey: 'k', text: '', attachments: [{ type: 'image', mimeType: 'text/html', data: 'AA==' }] } }, /expected an image MIME type/],
		['image data that is not base64', { method: 'chat/sendPrompt', params: { sessionKey: 'k', text: '', attachments: [{ type: 'image', mimeType: 'image/png', data: '<svg onload=x>' }] } }, /expected base64/],
		['a negative line', { method: 'chat/openLocation', params: { path: '/a', line: -1 } }, /line: too small/],
	];
	for (const [name, message, error] of invalid) {
		it(`rejects ${name} with a clear error`, () => {
			const decoded = decodePageMessage(message);
			assert.equal(decoded.kind, 'invalid');
			assert.ok(decoded.kind === 'invalid');
			assert.match(decoded.error, error);
		});
	}

	it('keeps the id of a bad request, so the page still gets an answer', () => {
		const decoded = decodePageMessage({ id: 9, method: 'chat/searchMentions', params: { sessionKey: 'k' } });
		assert.ok(decoded.kind === 'invalid');
		assert.equal(decoded.id, 9);
	});

	it('drops fields it does not know', () => {
		const decoded = decodePageMessage({ method: 'chat/cancel', params: { sessionKey: 'k', also: 'this' } });
		assert.ok(decoded.kind === 'command');
		assert.deepEqual(decoded.params, { sessionKey: 'k' });
	});
});

describe('chat messages: host to page', () => {
	it('carries the whole state, transcripts included, through its check', () => {
		const sent = state();
		const decoded = decodeHostNotification(wire(encodeNotification(HostNotifications.didChangeState, sent)));
		assert.ok(decoded.kind === 'notification' && decoded.method === HostNotifications.didChangeState.method);
		assert.deepEqual(decoded.params, sent);
	});

	it('carries transcript patches, agent status, notices and focus', () => {
		const transcript = new Transcript();
		transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'a' } }));
		transcript.update(sessionUpdateSchema.parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'b' } }));
		const patch = transcript.changesSince(1);
		const samples: [keyof typeof HostNotifications, unknown][] = [
			['didPatchTranscript', { sessionKey: 'k1', patch }],
			['didChangeAgentStatus', { agentId: 'claude', status: 'restarting', detail: 'exited with code 1' }],
			['didShowNotice', { severity: 'warning', message: 'This agent does not accept images', sessionKey: 'k1' }],
			['focusInput', {}],
			['didUpdateTerminal', { sessionKey: 'k1', terminalId: 'terminal-1', command: 'npm test', output: 'ok\n', truncated: false, released: false }],
			['didUpdateTerminal', { sessionKey: 'k1', terminalId: 'terminal-1', command: 'npm test', output: '', truncated: true, exitStatus: { exitCode: null, signal: 'SIGTERM' }, released: true }],
		];
		for (const [name, params] of samples) {
			const decoded = decodeHostNotification(wire({ method: HostNotifications[name].method, params }));
			assert.equal(decoded.kind, 'notification', name);
			assert.ok(decoded.kind === 'notification');
			assert.deepEqual(decoded.params, params);
		}
	});

	it('rejects a transcript entry of a kind the page does not know', () => {
		const sent = state();
		const bad = wire(sent) as { transcripts: { k1: { entries: { kind: string }[] } } };
		bad.transcripts.k1.entries[0]!.kind = 'script';
		const decoded = decodeHostNotification({ method: HostNotifications.didChangeState.method, params: bad });
		assert.ok(decoded.kind === 'invalid');
		assert.match(decoded.error, /^chat\/didChangeState: Invalid params: transcripts\.k1\.entries\.0\.kind: expected /);
	});

	it('checks answers against the request they answer', () => {
		const sent = state();
		const answer = wire(encodeResult(PageRequests.getState, 1, sent));
		assert.ok(isResponse(answer));
		assert.deepEqual(decodeResponse(PageRequests.getState, answer), { ok: true, id: 1, result: sent });
		assert.deepEqual(decodeResponse(PageRequests.activeEditorAttachment, { id: 2, result: { attachment: null } }), { ok: true, id: 2, result: { attachment: null } });
		assert.deepEqual(decodeResponse(PageRequests.getState, encodeError(3, 'No workspace folder')), { ok: false, id: 3, error: 'No workspace folder' });
		const wrong = decodeResponse(PageRequests.searchMentions, { id: 4, result: { items: [{ label: 'a.ts' }] } });
		assert.ok(!wrong.ok);
		assert.match(wrong.error, /^chat\/searchMentions answer: Invalid params: items\.0\.attachment: expected object$/);
		assert.equal(isResponse({ method: 'chat/focusInput', params: {} }), false);
	});

	it('has one method name per message, all under chat/', () => {
		const methods = [...Object.values(PageCommands), ...Object.values(PageRequests), ...Object.values(PageLifecycle), ...Object.values(HostNotifications)].map((t) => t.method);
		assert.equal(new Set(methods).size, methods.length);
		assert.ok(methods.every((m) => /^chat\/[a-zA-Z]+$/.test(m)));
	});

	it('accepts a state with no tabs', () => {
		assert.equal(chatStateSchema.safeParse({ tabs: [], agents: [], transcripts: {} }).success, true);
	});
});
