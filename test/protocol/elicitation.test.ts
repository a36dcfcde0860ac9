// `elicitation/create` and `elicitation/complete` from a scripted agent process, answered by the
// client's own reading of them (common/chat/elicitationRequest.ts, elicitationForm.ts): a form
// filled in and accepted with typed content, a URL accepted and then completed, what cannot be
// drawn declined, a malformed request refused with -32602; every answer fits the ACP schema.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import * as z from 'zod/mini';
import { checkForm, type FieldInput } from '../../src/common/chat/elicitationForm';
import { completeElicitationParamsSchema, createElicitationParamsSchema, readElicitation, type ElicitationResponse, type ReadElicitation } from '../../src/common/chat/elicitationRequest';
import { Methods } from '../../src/common/protocol';
import type { AgentHandle } from '../../src/node/agentHandle';
import { clientInfo, fixture, launch, repoRoot } from './helpers';

const any = z.unknown();

const deploySchema = {
	type: 'object',
	properties: {
		branch: { type: 'string', title: 'Branch', minLength: 2, pattern: '^[a-z0-9/-]+$' },
		email: { type: 'string', format: 'email' },
		env: { type: 'string', oneOf: [{ const: 'dev', title: 'Development' }, { const: 'prod', title: 'Production' }] },
		replicas: { type: 'integer', minimum: 1, maximum: 5 },
		dryRun: { type: 'boolean', default: true },
		checks: { type: 'array', items: { type: 'string', enum: ['lint', 'test'] } },
	},
	required: ['branch', 'env'],
};

const turn = [
	{ ask: { method: 'elicitation/create', params: { mode: 'form', message: 'Deploy where?', toolCallId: 'call-1', requestedSchema: deploySchema } } },
	{ ask: { method: 'elicitation/create', params: { mode: 'form', message: 'Pick a colour', requestedSchema: { properties: { colour: { type: 'color' } } } } } },
	{ ask: { method: 'elicitation/create', params: { mode: 'url', message: 'Sign in', elicitationId: 'e-9', url: 'https://login.example.com/device' } } },
	{ notify: { method: 'elicitation/complete', params: { elicitationId: 'e-9' } } },
	{ ask: { method: 'elicitation/create', params: { mode: 'form' } } },
	{ ask: { method: 'elicitation/create', params: { mode: '_custom', message: 'Something new' } } },
];

interface Checker {
	sawFromAgent(message: unknown): void;
	check(message: unknown): string[];
}

describe('elicitation from an agent process', () => {
	let h: AgentHandle;
	let checker: Checker;
	const asked: ReadElicitation[] = [];
	const answers: ElicitationResponse[] = [];
	const completed: string[] = [];
	const said: string[] = [];
	/** What the user types into the form. */
	const typed: Record<string, FieldInput> = { branch: 'release/2', email: 'ada@example.com', env: 'prod', replicas: '3', dryRun: false, checks: ['lint'] };

	before(async () => {
		const module = (await import(pathToFileURL(join(repoRoot, 'test', 'fixtures', 'real-agents', 'acpSchema.mjs')).href)) as { AcpSchemaChecker: new () => Checker };
		checker = new module.AcpSchemaChecker();
		h = await launch(fixture('well-behaved.mjs', { chatTurn: turn }));
		h.connection.onRequest(Methods.elicitation.create, createElicitationParamsSchema, (params) => {
			const read = readElicitation(params);
			let answer: ElicitationResponse;
			if (!read.ok) {
				answer = { action: 'decline' };
			} else {
				asked.push(read.read);
				const checked = checkForm(read.read.elicitation.fields, typed);
				answer = read.read.elicitation.mode === 'url' ? { action: 'accept' } : checked.ok ? { action: 'accept', content: checked.content } : { action: 'cancel' };
			}
			answers.push(answer);
			return answer;
		});
		h.connection.onNotification(Methods.elicitation.complete, completeElicitationParamsSchema, (params) => void completed.push(params.elicitationId));
		h.connection.onNotification(Methods.session.update, any, (params) => {
			const update = (params as { update: { sessionUpdate: string; content?: { text?: string } } }).update;
			if (update.sessionUpdate === 'agent_message_chunk' && update.content?.text) {
				said.push(update.content.text);
			}
		});
	});
	after(async () => {
		await h.dispose();
	});

	it('advertises both modes in initialize, as the schema spells them', async () => {
		const capabilities = { elicitation: { form: {}, url: {} } };
		await h.initialize(clientInfo, capabilities);
		const sent = (await h.connection.sendRequest('_test/initializeParams', {}, any)) as { clientCapabilities: unknown };
		assert.deepEqual(sent.clientCapabilities, capabilities);
		assert.deepEqual(checker.check({ jsonrpc: '2.0', id: 0, method: 'initialize', params: sent }), []);
	});

	it('answers each request of a turn: accepted with content, declined, a URL accepted then completed, a malformed one refused', async () => {
		const session = (await h.connection.sendRequest(Methods.session.new, { cwd: repoRoot, mcpServers: [] }, any)) as { sessionId: string };
		const result = (await h.connection.sendRequest(Methods.session.prompt, { sessionId: session.sessionId, prompt: [{ type: 'text', text: 'deploy' }] }, any)) as { stopReason: string };
		assert.equal(result.stopReason, 'end_turn');
		const replies = said.map((text) => JSON.parse(text.replace(/^elicitation\/create: /, '')) as Record<string, unknown>);
		assert.deepEqual(replies[0], { action: 'accept', content: { branch: 'release/2', email: 'ada@example.com', env: 'prod', replicas: 3, dryRun: false, checks: ['lint'] } });
		assert.deepEqual(replies[1], { action: 'decline' }, 'a property type the client does not draw');
		assert.deepEqual(replies[2], { action: 'accept' }, 'the URL');
		assert.equal(replies[3]?.code, -32602, 'no message: refused at the boundary');
		assert.deepEqual(replies[4], { action: 'decline' }, 'a future mode is never drawn as a known one');
		assert.equal(asked[0]?.sessionId, session.sessionId);
		assert.equal(asked[0]?.toolCallId, 'call-1');
		assert.equal(asked[1]?.elicitation.host, 'login.example.com');
		assert.deepEqual(completed, ['e-9']);
	});

	it('gives answers that fit the ACP schema', () => {
		assert.ok(answers.length >= 4);
		answers.forEach((answer, index) => {
			checker.sawFromAgent({ jsonrpc: '2.0', id: `e${index}`, method: 'elicitation/create', params: {} });
			assert.deepEqual(checker.check({ jsonrpc: '2.0', id: `e${index}`, result: answer }), [], JSON.stringify(answer));
		});
	});
});
