// Engine 2 of the NES agent against a local OpenAI-compatible test server on 127.0.0.1: the exact
// prompt of each format for a fixed input, fixed replies in each model's output shape, and a
// model that hangs, fails with 500, or answers garbage (engine 1 answers instead).
import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import fc from 'fast-check';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { editByExample, editByExampleEngine } from '../../src/nes-agent/engines/editByExample';
import type { EngineInput, Proposal } from '../../src/nes-agent/engines/types';
import { modelConfigFromEnv, type ModelConfig } from '../../src/nes-agent/model/config';
import { rewriteEdits } from '../../src/nes-agent/model/edits';
import { instinct } from '../../src/nes-agent/model/formats/instinct';
import { sweep } from '../../src/nes-agent/model/formats/sweep';
import { zeta } from '../../src/nes-agent/model/formats/zeta';
import { ModelEngine } from '../../src/nes-agent/model/modelEngine';
import { OpenAiTestServer } from '../shared/openAiServer';

const KEY = 'sk-test-secret-key';

const server = new OpenAiTestServer();
before(() => server.start());
after(() => server.stop());
beforeEach(() => {
	server.reset();
});

const uri = 'file:///project/src/geometry.ts';
/** The fixed input: `r` renamed to `radius` in the parameter list; the body still says `r`. */
function input(text = 'function area(r) {\n  return 3.14 * r * r;\n}\nconst a = area(1);\n'): EngineInput {
	const d = new TrackedDocument(uri, 'typescript', 1, text);
	d.applyChanges([{ range: { start: { line: 0, character: 14 }, end: { line: 0, character: 15 } }, text: 'radius' }], 2);
	return {
		uri,
		document: d,
		cursor: { line: 0, character: 20 },
		lastEdit: d.lastEdit,
		earlierEdits: d.earlierEdits,
		path: 'src/geometry.ts',
		recentEdits: [{ path: 'src/geometry.ts', edit: d.lastEdit! }],
		relatedSnippets: [{ path: 'src/math.ts', text: 'export const PI = 3.14;' }],
	};
}

function engine(format: ModelConfig['format'], logs: string[], timeoutMs = 5000): ModelEngine {
	return new ModelEngine({ endpoint: server.url, model: 'next-edit-test', format, apiKey: KEY, timeoutMs, maxTokens: 256 }, editByExampleEngine, (m) => logs.push(m));
}

const never = new AbortController().signal;
/** The edit the model's fixed replies lead to: the body's `r`s renamed. */
const bodyEdits = [
	{ range: { start: { line: 1, character: 16 }, end: { line: 1, character: 21 } }, newText: 'radius * radius' },
];

function editsOf(p: Proposal | undefined) {
	assert.ok(p?.kind === 'edits');
	return p.edits;
}

describe('engine 2 prompts and replies, per format', () => {
	it('sweep: the exact raw prompt, stop tokens and key; the rewritten window becomes the minimal edit', async () => {
		const logs: string[] = [];
		server.behaviors.push({ reply: 'function area(radius) {\n  return 3.14 * radius * radius;\n}\nconst a = area(1);\n<|file_sep|>extra' });
		const edits = editsOf(await engine('sweep', logs).suggest(input(), never));
		assert.deepEqual(edits, bodyEdits);
		const [seen] = server.seen;
		assert.equal(seen?.path, '/v1/completions');
		assert.equal(seen.authorization, `Bearer ${KEY}`);
		assert.deepEqual(seen.body, {
			model: 'next-edit-test',
			prompt:
				'<|file_sep|>src/math.ts\nexport const PI = 3.14;\n' +
				'<|file_sep|>src/geometry.ts.diff\noriginal:\nfunction area(r) {\nupdated:\nfunction area(radius) {\n' +
				'<|file_sep|>original/src/geometry.ts\nfunction area(r) {\n  return 3.14 * r * r;\n}\nconst a = area(1);\n' +
				'<|file_sep|>current/src/geometry.ts\nfunction area(radius) {\n  return 3.14 * r * r;\n}\nconst a = area(1);\n' +
				'<|file_sep|>updated/src/geometry.ts\n',
			max_tokens: 256,
			temperature: 0,
			stop: ['<|file_sep|>', '</s>'],
			stream: false,
		});
		assert.deepEqual(logs, []);
	});

	it('zeta: the exact instruction prompt with the edit as a unified diff and the marked excerpt; the region between the markers is read', async () => {
		const logs: string[] = [];
		server.behaviors.push({ reply: '<|editable_region_start|>\nfunction area(radius<|user_cursor_is_here|>) {\n  return 3.14 * radius * radius;\n}\nconst a = area(1);\n<|editable_region_end|>\n' });
		const edits = editsOf(await engine('zeta', logs).suggest(input(), never));
		assert.deepEqual(edits, bodyEdits);
		const [seen] = server.seen;
		assert.equal(seen?.path, '/v1/completions');
		assert.equal(
			seen.body.prompt,
			[
				'### Instruction:',
				'You are a code completion assistant and your task is to analyze user edits and then rewrite an excerpt that the user provides, suggesting the appropriate edits within the excerpt, taking into account the cursor location.',
				'',
				'### User Edits:',
				'',
				'User edited "src/geometry.ts":',
				'```diff',
				'--- a/src/geometry.ts',
				'+++ b/src/geometry.ts',
				'@@ -1,1 +1,1 @@',
				'-function area(r) {',
				'+function area(radius) {',
				'```',
				'',
				'### User Excerpt:',
				'',
				'```src/geometry.ts',
				'<|start_of_file|>',
				'<|editable_region_start|>',
				'function area(radius<|user_cursor_is_here|>) {',
				'  return 3.14 * r * r;',
				'}',
				'const a = area(1);',
				'<|editable_region_end|>',
				'',
				'```',
				'',
				'### Response:',
				'',
			].join('\n'),
		);
		assert.equal(seen.body.stop, undefined);
	});

	it('instinct: the exact chat messages with context, edits and excerpt; a fenced reply without markers is read too', async () => {
		const logs: string[] = [];
		server.behaviors.push({ reply: '```ts\nfunction area(radius) {\n  return 3.14 * radius * radius;\n}\nconst a = area(1);\n```' });
		const edits = editsOf(await engine('instinct', logs).suggest(input(), never));
		assert.deepEqual(edits, bodyEdits);
		const [seen] = server.seen;
		assert.equal(seen?.path, '/v1/chat/completions');
		const messages = seen.body.messages as { role: string; content: string }[];
		assert.deepEqual(
			messages.map((m) => m.role),
			['system', 'user'],
		);
		assert.match(messages[0]!.content, /rewrite the editable region/);
		assert.equal(
			messages[1]!.content,
			[
				'### Context:',
				'<|context_file|> src/math.ts',
				'<|snippet|>',
				'export const PI = 3.14;',
				'',
				'### User Edits:',
				'',
				'User edited file "src/geometry.ts"',
				'',
				'```diff',
				'--- a/src/geometry.ts',
				'+++ b/src/geometry.ts',
				'@@ -1,1 +1,1 @@',
				'-function area(r) {',
				'+function area(radius) {',
				'```',
				'',
				'### User Excerpt:',
				'```src/geometry.ts',
				'<|editable_region_start|>',
				'function area(radius<|user_cursor_is_here|>) {',
				'  return 3.14 * r * r;',
				'}',
				'const a = area(1);',
				'',
				'<|editable_region_end|>',
				'```',
				'',
				'### Response:',
			].join('\n'),
		);
	});
});

describe('engine 2 survives a bad model: engine 1 answers', () => {
	const engine1 = editByExample(input());

	it('a model that hangs is cut off by the timeout, and its request aborted', async () => {
		const logs: string[] = [];
		server.behaviors.push('hang');
		// Long enough for the request to reach the server on a busy machine: cut off before it did
		// (at a load of 24, 200 ms was), it never saw it, and took the next test's behaviour later.
		const result = await engine('sweep', logs, 2000).suggest(input(), never);
		assert.ok(engine1 !== undefined);
		assert.deepEqual(result, engine1);
		assert.equal(server.seen.length, 1, 'the server got the request');
		await server.seen[0]!.closedEarly;
		assert.match(logs.join('\n'), /no answer within 2000 ms/);
	});

	for (const [behavior, message] of [
		['status500', /answered 500: model crashed/],
		['garbage', /not JSON/],
		['wrongShape', /without choices\[0\]\.text/],
	] as const) {
		it(`${behavior}: logged without the key`, async () => {
			const logs: string[] = [];
			server.behaviors.push(behavior);
			assert.deepEqual(await engine('sweep', logs).suggest(input(), never), engine1);
			assert.match(logs.join('\n'), message);
			assert.ok(!logs.join('\n').includes(KEY));
		});
	}

	it('a reply with no rewrite (zeta without its markers) or an unchanged window: engine 1 answers', async () => {
		server.behaviors.push({ reply: 'no markers here' }, { reply: 'function area(radius) {\n  return 3.14 * r * r;\n}\nconst a = area(1);\n' });
		const logs: string[] = [];
		assert.deepEqual(await engine('zeta', logs).suggest(input(), never), engine1);
		assert.deepEqual(await engine('sweep', logs).suggest(input(), never), engine1);
		assert.equal(server.seen.length, 2);
	});

	it('an unreachable endpoint', async () => {
		const logs: string[] = [];
		const e = new ModelEngine({ endpoint: 'http://127.0.0.1:9/v1', model: 'm', format: 'sweep', apiKey: KEY, timeoutMs: 5000, maxTokens: 16 }, editByExampleEngine, (m) => logs.push(m));
		assert.deepEqual(await e.suggest(input(), never), engine1);
		assert.match(logs.join('\n'), /could not be reached/);
		assert.ok(!logs.join('\n').includes(KEY));
	});

	it('a document holding the format’s own control tokens is never sent', async () => {
		const logs: string[] = [];
		const tricky = input('function area(r) {\n  return 3.14 * r * r; // <|file_sep|>\n}\n');
		assert.deepEqual(await engine('sweep', logs).suggest(tricky, never), editByExample(tricky));
		assert.equal(server.seen.length, 0);
		assert.match(logs.join('\n'), /control token <\|file_sep\|>/);
	});
});

describe('engine 2: one request at a time', () => {
	it('a newer request aborts the older one, which answers nothing', async () => {
		const logs: string[] = [];
		const e = engine('sweep', logs);
		server.behaviors.push('hang', { reply: 'function area(radius) {\n  return 3.14 * radius * radius;\n}\nconst a = area(1);\n' });
		const older = e.suggest(input(), never);
		// Wait until the server holds the first request, then send the second.
		while (server.seen.length === 0) {
			await new Promise((r) => setImmediate(r));
		}
		const newer = e.suggest(input(), never);
		assert.equal(await older, undefined);
		assert.deepEqual(editsOf(await newer), bodyEdits);
		await server.seen[0]!.closedEarly;
		assert.deepEqual(logs, []);
	});

	it('the client cancelling aborts the HTTP request and rejects with the cancellation', async () => {
		const logs: string[] = [];
		server.behaviors.push('hang');
		const controller = new AbortController();
		const pending = engine('sweep', logs).suggest(input(), controller.signal);
		while (server.seen.length === 0) {
			await new Promise((r) => setImmediate(r));
		}
		const reason = new Error('cancelled by the client');
		controller.abort(reason);
		await assert.rejects(pending, (e: unknown) => e === reason);
		await server.seen[0]!.closedEarly;
	});
});

describe('engine 2 parts', () => {
	it('rewriteEdits: minimal edits, the group nearest the cursor first, nothing for the same text', () => {
		const current = 'a = 1;\nb = 2;\nc = 3;\nd = 4;';
		const updated = 'a = 1;\nb = 20;\nc = 3;\nd = 4;\ne = 5;';
		assert.deepEqual(rewriteEdits(10, current, updated, { line: 13, character: 0 }), [
			{ range: { start: { line: 13, character: 6 }, end: { line: 13, character: 6 } }, newText: '\ne = 5;' },
			{ range: { start: { line: 11, character: 4 }, end: { line: 11, character: 5 } }, newText: '20' },
		]);
		assert.deepEqual(rewriteEdits(0, current, current, { line: 0, character: 0 }), []);
		assert.deepEqual(rewriteEdits(0, 'x\ny', 'y', { line: 0, character: 0 }), [{ range: { start: { line: 0, character: 0 }, end: { line: 1, character: 0 } }, newText: '' }]);
	});

	// Property: applying the edits to the current text gives the model's text, and none is a no-op.
	it('rewriteEdits reproduces the rewrite exactly, over generated texts', () => {
		const line = fc.array(fc.constantFrom('a', 'b', 'x1', ' ', '=', ';', '(', ')', 'foo'), { maxLength: 6 }).map((w) => w.join(''));
		const text = fc.array(line, { minLength: 1, maxLength: 8 }).map((l) => l.join('\n'));
		fc.assert(
			fc.property(text, text, fc.nat(7), (current, updated, cursorLine) => {
				const edits = rewriteEdits(0, current, updated, { line: cursorLine, character: 0 });
				const lines = current.split('\n');
				const offset = (p: { line: number; character: number }) => lines.slice(0, p.line).reduce((n, l) => n + l.length + 1, 0) + p.character;
				let result = current;
				for (const e of [...edits].sort((a, b) => offset(b.range.start) - offset(a.range.start))) {
					assert.notEqual(current.slice(offset(e.range.start), offset(e.range.end)), e.newText);
					result = result.slice(0, offset(e.range.start)) + e.newText + result.slice(offset(e.range.end));
				}
				assert.equal(result, updated);
			}),
			{ numRuns: 500 },
		);
	});

	it('parsers: sweep stops at its tokens, zeta wants exactly one pair of markers, instinct reads fences', () => {
		assert.equal(sweep.parse('x\ny\n</s>junk'), 'x\ny');
		assert.equal(sweep.parse('   \n'), undefined);
		assert.equal(zeta.parse('<|editable_region_start|>\na<|user_cursor_is_here|>b\n<|editable_region_end|>'), 'ab');
		assert.equal(zeta.parse('<|editable_region_start|>a<|editable_region_end|><|editable_region_end|>'), undefined);
		assert.equal(zeta.parse('<|editable_region_end|>a<|editable_region_start|>'), undefined);
		assert.equal(instinct.parse('```\nq\n```'), 'q');
		assert.equal(instinct.parse('<|editable_region_start|>\nq\n'), undefined);
	});

	it('configuration from the environment: off without an endpoint, defaults, and clear errors', () => {
		assert.equal(modelConfigFromEnv({}), undefined);
		assert.deepEqual(modelConfigFromEnv({ AGENT_LINK_NES_MODEL_ENDPOINT: 'http://localhost:11434/v1', AGENT_LINK_NES_MODEL: 'sweep-next-edit' }), {
			ok: true,
			config: { endpoint: 'http://localhost:11434/v1', model: 'sweep-next-edit', format: 'sweep', apiKey: undefined, timeoutMs: 2000, maxTokens: 512 },
		});
		const bad = (env: Record<string, string>) => {
			const r = modelConfigFromEnv({ AGENT_LINK_NES_MODEL_ENDPOINT: 'http://localhost:11434/v1', AGENT_LINK_NES_MODEL: 'm', ...env });
			assert.ok(r && !r.ok);
			return r.reason;
		};
		assert.match(bad({ AGENT_LINK_NES_MODEL_FORMAT: 'gpt' }), /AGENT_LINK_NES_MODEL_FORMAT/);
		assert.match(bad({ AGENT_LINK_NES_MODEL_TIMEOUT_MS: 'soon' }), /AGENT_LINK_NES_MODEL_TIMEOUT_MS: must be a whole number/);
		assert.match(bad({ AGENT_LINK_NES_MODEL_ENDPOINT: 'ftp://x' }), /AGENT_LINK_NES_MODEL_ENDPOINT/);
		assert.match(bad({ AGENT_LINK_NES_MODEL: '' }), /AGENT_LINK_NES_MODEL/);
	});
});
