import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type * as acp from '@agentclientprotocol/sdk';
import fc from 'fast-check';
import {
	SESSION_UPDATE_KINDS,
	contentBlockSchema,
	loadSessionResponseSchema,
	newSessionResponseSchema,
	promptResponseSchema,
	requestPermissionParamsSchema,
	sessionNotificationSchema,
	setConfigOptionResponseSchema,
	toolCallContentSchema,
	type SessionUpdate,
} from '../../src/common/chat/updates';
import { Methods, describeZodError } from '../../src/common/protocol';

/** Parses `update` as the `update` of a `session/update` notification, or fails the test. */
function parse(update: acp.SessionUpdate | Record<string, unknown>): SessionUpdate {
	const parsed = sessionNotificationSchema.safeParse({ sessionId: 's1', update });
	if (!parsed.success) {
		assert.fail(describeZodError(parsed.error));
	}
	return parsed.data.update;
}

/** The error a malformed update is rejected with. */
function rejection(update: unknown): string {
	const parsed = sessionNotificationSchema.safeParse({ sessionId: 's1', update });
	assert.equal(parsed.success, false, 'expected a rejection');
	return describeZodError(parsed.error!);
}

describe('session/update schemas: every stable variant', () => {
	it('knows exactly the fourteen stable variants of ACP v1', () => {
		assert.deepEqual([...SESSION_UPDATE_KINDS].sort(), [
			'agent_message_chunk',
			'agent_thought_chunk',
			'available_commands_update',
			'compaction_summary_chunk',
			'compaction_update',
			'config_option_update',
			'current_mode_update',
			'notice',
			'plan',
			'session_info_update',
			'tool_call',
			'tool_call_update',
			'usage_update',
			'user_message_chunk',
		]);
	});

	for (const kind of ['user_message_chunk', 'agent_message_chunk', 'agent_thought_chunk'] as const) {
		it(`${kind}: a content block and its message id`, () => {
			const update = parse({ sessionUpdate: kind, content: { type: 'text', text: 'hello' }, messageId: 'm1' });
			assert.equal(update.sessionUpdate, kind);
			assert.ok(update.sessionUpdate === kind);
			assert.deepEqual(update.content, { type: 'text', text: 'hello' });
			assert.equal(update.messageId, 'm1');
		});
	}

	it('tool_call: id and title required, the rest optional', () => {
		const full = parse({
			sessionUpdate: 'tool_call',
			toolCallId: 't1',
			title: 'Edit main.ts',
			kind: 'edit',
			status: 'in_progress',
			content: [{ type: 'diff', path: '/w/main.ts', oldText: 'a', newText: 'b' }],
			locations: [{ path: '/w/main.ts', line: 3 }],
			rawInput: { path: '/w/main.ts' },
		} satisfies acp.SessionUpdate);
		assert.ok(full.sessionUpdate === 'tool_call');
		assert.equal(full.kind, 'edit');
		assert.equal(full.status, 'in_progress');
		assert.deepEqual(full.locations, [{ path: '/w/main.ts', line: 3 }]);
		assert.deepEqual(full.rawInput, { path: '/w/main.ts' });
		const bare = parse({ sessionUpdate: 'tool_call', toolCallId: 't2', title: 'Think' });
		assert.ok(bare.sessionUpdate === 'tool_call');
		assert.equal(bare.kind, undefined);
		assert.equal(bare.content, undefined);
	});

	it('tool_call_update: only the id is required; null means unchanged', () => {
		const update = parse({ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed', title: null, content: null } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'tool_call_update');
		assert.equal(update.status, 'completed');
		assert.equal(update.title, null);
		assert.equal(update.content, null);
	});

	it('plan: the entries with priority and status', () => {
		const update = parse({ sessionUpdate: 'plan', entries: [{ content: 'Read the code', priority: 'high', status: 'in_progress' }] } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'plan');
		assert.deepEqual(update.entries, [{ content: 'Read the code', priority: 'high', status: 'in_progress' }]);
	});

	it('available_commands_update: names, descriptions, input hints', () => {
		const update = parse({
			sessionUpdate: 'available_commands_update',
			availableCommands: [{ name: 'web', description: 'Search the web', input: { hint: 'query' } }, { name: 'plan', description: 'Make a plan' }],
		} satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'available_commands_update');
		assert.equal(update.availableCommands[0]?.input?.hint, 'query');
		assert.equal(update.availableCommands[1]?.input, undefined);
	});

	it('current_mode_update: the mode id', () => {
		const update = parse({ sessionUpdate: 'current_mode_update', currentModeId: 'architect' } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'current_mode_update');
		assert.equal(update.currentModeId, 'architect');
	});

	it('config_option_update: selects (flat and grouped) and booleans', () => {
		const update = parse({
			sessionUpdate: 'config_option_update',
			configOptions: [
				{ type: 'select', id: 'model', name: 'Model', category: 'model', currentValue: 'fast', options: [{ value: 'fast', name: 'Fast' }] },
				{ type: 'select', id: 'effort', name: 'Effort', currentValue: 'hi', options: [{ group: 'g', name: 'Levels', options: [{ value: 'hi', name: 'High' }] }] },
				{ type: 'boolean', id: 'web', name: 'Web access', currentValue: true },
			],
		} satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'config_option_update');
		assert.deepEqual(
			update.configOptions.map((o) => o.type),
			['select', 'select', 'boolean'],
		);
	});

	it('session_info_update: title and updatedAt, each optional and nullable', () => {
		const update = parse({ sessionUpdate: 'session_info_update', title: 'Fix the build', updatedAt: null } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'session_info_update');
		assert.equal(update.title, 'Fix the build');
		assert.equal(update.updatedAt, null);
		const empty = parse({ sessionUpdate: 'session_info_update' });
		assert.ok(empty.sessionUpdate === 'session_info_update');
		assert.equal(empty.title, undefined);
	});

	it('usage_update: used, size and an optional cost', () => {
		const update = parse({ sessionUpdate: 'usage_update', used: 1200, size: 200_000, cost: { amount: 0.42, currency: 'USD' } } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'usage_update');
		assert.equal(update.used, 1200);
		assert.equal(update.cost?.currency, 'USD');
	});

	it('notice: severity (open-ended), a non-empty title, a description', () => {
		const update = parse({ sessionUpdate: 'notice', severity: 'critical', title: 'Rate limited', description: 'Retrying in 30 s' });
		assert.ok(update.sessionUpdate === 'notice');
		assert.equal(update.severity, 'critical');
		assert.equal(update.description, 'Retrying in 30 s');
	});

	it('compaction_update and compaction_summary_chunk', () => {
		const update = parse({ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed', summary: [{ type: 'text', text: 'Earlier: …' }], error: null } satisfies acp.SessionUpdate);
		assert.ok(update.sessionUpdate === 'compaction_update');
		assert.equal(update.summary?.length, 1);
		const chunk = parse({ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'more' } } satisfies acp.SessionUpdate);
		assert.ok(chunk.sessionUpdate === 'compaction_summary_chunk');
		assert.equal(chunk.compactionId, 'c1');
	});
});

describe('session/update schemas: leniency', () => {
	it('parses an unknown variant as unknown, not as an error', () => {
		assert.deepEqual(parse({ sessionUpdate: 'plan_update', planId: 'p', whatever: [1, 2] }), { sessionUpdate: 'unknown', variant: 'plan_update' });
		assert.deepEqual(parse({ sessionUpdate: 'subagent_update' }), { sessionUpdate: 'unknown', variant: 'subagent_update' });
	});

	it('does not let a tag inherited from Object.prototype pass as a variant', () => {
		assert.deepEqual(parse({ sessionUpdate: 'toString' }), { sessionUpdate: 'unknown', variant: 'toString' });
		assert.deepEqual(parse({ sessionUpdate: '__proto__' }), { sessionUpdate: 'unknown', variant: '__proto__' });
	});

	it('ignores unknown fields', () => {
		const update = parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x', future: true }, novel: { a: 1 } });
		assert.ok(update.sessionUpdate === 'agent_message_chunk');
		assert.equal(update.content.type, 'text');
	});

	it('reads an optional field of the wrong shape as absent (x-deserialize-default-on-error)', () => {
		const update = parse({ sessionUpdate: 'tool_call', toolCallId: 't', title: 'T', kind: 'teleport', status: 42, name: {}, locations: 'nowhere' });
		assert.ok(update.sessionUpdate === 'tool_call');
		assert.equal(update.kind, undefined);
		assert.equal(update.status, undefined);
		assert.equal(update.name, undefined);
		assert.equal(update.locations, undefined);
		const chunk = parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'x' }, messageId: 7 });
		assert.ok(chunk.sessionUpdate === 'agent_message_chunk');
		assert.equal(chunk.messageId, undefined);
	});

	it('drops bad items of a list and keeps the rest (x-deserialize-skip-invalid-items)', () => {
		const update = parse({
			sessionUpdate: 'tool_call',
			toolCallId: 't',
			title: 'T',
			content: [{ type: 'diff', path: '/a' }, { type: 'terminal', terminalId: 'term-1' }, 'junk'],
			locations: [{ path: '/a', line: -1 }, { line: 2 }, { path: '/b' }],
		});
		assert.ok(update.sessionUpdate === 'tool_call');
		assert.deepEqual(update.content, [{ type: 'terminal', terminalId: 'term-1' }]);
		// A bad line is itself default-on-error: the location stays, without its line.
		assert.deepEqual(update.locations, [{ path: '/a', line: undefined }, { path: '/b' }]);
		const plan = parse({ sessionUpdate: 'plan', entries: [{ content: 'ok', priority: 'low', status: 'pending' }, { content: 'bad', priority: 'urgent', status: 'pending' }] });
		assert.ok(plan.sessionUpdate === 'plan');
		assert.deepEqual(
			plan.entries.map((e) => e.content),
			['ok'],
		);
	});

	it('keeps an unknown content block or tool call content as unknown', () => {
		const chunk = parse({ sessionUpdate: 'agent_message_chunk', content: { type: 'hologram', frames: 3 } });
		assert.ok(chunk.sessionUpdate === 'agent_message_chunk');
		assert.deepEqual(chunk.content, { type: 'unknown', variant: 'hologram' });
		assert.deepEqual(toolCallContentSchema.parse({ type: 'browser', url: 'x' }), { type: 'unknown', variant: 'browser' });
	});
});

describe('session/update schemas: malformed input', () => {
	const cases: [string, unknown, RegExp][] = [
		['not an object', 'agent_message_chunk', /^Invalid params: update: expected object$/],
		['no tag', { content: { type: 'text', text: 'x' } }, /^Invalid params: update\.sessionUpdate: expected string$/],
		['a tool call without its id', { sessionUpdate: 'tool_call', title: 'T' }, /^Invalid params: update\.toolCallId: expected string$/],
		['a tool call update without its id', { sessionUpdate: 'tool_call_update', status: 'completed' }, /update\.toolCallId: expected string/],
		['a chunk without content', { sessionUpdate: 'agent_message_chunk' }, /update\.content: expected object/],
		['a text block without text', { sessionUpdate: 'agent_message_chunk', content: { type: 'text' } }, /^Invalid params: update\.content\.text: expected string$/],
		['an image without data', { sessionUpdate: 'user_message_chunk', content: { type: 'image', mimeType: 'image/png' } }, /update\.content\.data: expected string/],
		['a plan whose entries are not a list', { sessionUpdate: 'plan', entries: 'all of it' }, /update\.entries: expected array/],
		['usage below zero', { sessionUpdate: 'usage_update', used: -1, size: 10 }, /update\.used: too small \(minimum 0\)/],
		['a notice with an empty title', { sessionUpdate: 'notice', severity: 'info', title: '' }, /update\.title: too small \(minimum 1\)/],
		['a mode update without the mode', { sessionUpdate: 'current_mode_update' }, /update\.currentModeId: expected string/],
		['a compaction without its id', { sessionUpdate: 'compaction_update', status: 'completed' }, /update\.compactionId: expected string/],
	];
	for (const [name, update, error] of cases) {
		it(`rejects ${name}, naming the field`, () => {
			assert.match(rejection(update), error);
		});
	}

	it('rejects a notification without its session id', () => {
		const parsed = sessionNotificationSchema.safeParse({ update: { sessionUpdate: 'plan', entries: [] } });
		assert.equal(parsed.success, false);
		assert.match(describeZodError(parsed.error!), /^Invalid params: sessionId: expected string$/);
	});

	it('never throws, whatever it is given (property)', () => {
		const tag = fc.oneof(fc.constantFrom(...SESSION_UPDATE_KINDS, 'unknown_thing'), fc.string());
		const update = fc.oneof(
			fc.anything(),
			fc.record({ sessionUpdate: tag }, { requiredKeys: [] }).chain((base) => fc.dictionary(fc.string(), fc.anything()).map((rest) => ({ ...rest, ...base }))),
		);
		fc.assert(
			fc.property(update, (u) => {
				const parsed = sessionNotificationSchema.safeParse({ sessionId: 's', update: u });
				if (!parsed.success) {
					assert.match(describeZodError(parsed.error), /^Invalid params: /);
				}
			}),
			{ numRuns: 500 },
		);
	});
});

describe('content blocks', () => {
	it('parses the five block types', () => {
		const blocks: acp.ContentBlock[] = [
			{ type: 'text', text: 'hi' },
			{ type: 'image', data: 'iVBORw0KGgo=', mimeType: 'image/png' },
			{ type: 'audio', data: 'UklGRg==', mimeType: 'audio/wav' },
			{ type: 'resource_link', uri: 'file:///w/a.ts', name: 'a.ts', size: 120 },
			{ type: 'resource', resource: { uri: 'file:///w/b.ts', text: 'const b = 1;', mimeType: 'text/x-typescript' } },
			{ type: 'resource', resource: { uri: 'file:///w/c.bin', blob: 'AAEC' } },
		];
		for (const block of blocks) {
			const parsed = contentBlockSchema.parse(block);
			assert.equal(parsed.type, block.type);
		}
	});

	it('rejects an embedded resource that is neither text nor blob', () => {
		assert.equal(contentBlockSchema.safeParse({ type: 'resource', resource: { uri: 'file:///x' } }).success, false);
	});
});

describe('requests and answers of the chat', () => {
	it('session/request_permission: the tool call and the options', () => {
		const params = requestPermissionParamsSchema.parse({
			sessionId: 's',
			toolCall: { toolCallId: 't1', title: 'Run tests', kind: 'execute' },
			options: [
				{ optionId: 'a', name: 'Allow once', kind: 'allow_once' },
				{ optionId: 'r', name: 'Reject', kind: 'reject_always' },
			],
		} satisfies acp.RequestPermissionRequest);
		assert.equal(params.toolCall.toolCallId, 't1');
		assert.deepEqual(
			params.options.map((o) => o.kind),
			['allow_once', 'reject_always'],
		);
		const bad = requestPermissionParamsSchema.safeParse({ sessionId: 's', toolCall: { toolCallId: 't' }, options: [{ optionId: 'x', name: 'Maybe', kind: 'perhaps' }] });
		assert.equal(bad.success, false);
		assert.match(describeZodError(bad.error!), /options\.0\.kind: expected "allow_once" or "allow_always" or "reject_once" or "reject_always"/);
	});

	it('session/new, load and resume answers: modes and config options, bad ones dropped', () => {
		const created = newSessionResponseSchema.parse({
			sessionId: 's',
			modes: { currentModeId: 'code', availableModes: [{ id: 'code', name: 'Code' }, { id: 7 }] },
			configOptions: [{ type: 'boolean', id: 'web', name: 'Web', currentValue: false }, { type: 'select', id: 'bad' }],
		});
		assert.deepEqual(
			created.modes?.availableModes.map((m) => m.id),
			['code'],
		);
		assert.equal(created.configOptions?.length, 1);
		assert.deepEqual(loadSessionResponseSchema.parse({}), {});
		assert.equal(setConfigOptionResponseSchema.parse({ configOptions: [] }).configOptions.length, 0);
	});

	it('session/prompt answer: any stop reason is kept', () => {
		assert.equal(promptResponseSchema.parse({ stopReason: 'end_turn' }).stopReason, 'end_turn');
		assert.equal(promptResponseSchema.parse({ stopReason: 'paused_for_coffee' }).stopReason, 'paused_for_coffee');
		assert.equal(promptResponseSchema.safeParse({}).success, false);
	});

	it('method names are the wire names', () => {
		assert.equal(Methods.session.prompt, 'session/prompt');
		assert.equal(Methods.session.update, 'session/update');
		assert.equal(Methods.session.requestPermission, 'session/request_permission');
		assert.equal(Methods.session.setConfigOption, 'session/set_config_option');
		assert.equal(Methods.session.setMode, 'session/set_mode');
		assert.equal(Methods.session.load, 'session/load');
		assert.equal(Methods.session.resume, 'session/resume');
		assert.equal(Methods.fs.readTextFile, 'fs/read_text_file');
	});
});
