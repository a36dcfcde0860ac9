import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
	EDITOR_TOOL_NAMES,
	EditorToolError,
	callEditorTool,
	editorToolList,
	enabledEditorTools,
	isPathInside,
	summarizeToolArgs,
	type EditorToolCallRecord,
	type EditorToolsBackend,
} from '../../src/common/editorTools';

describe('editor tools (pure parts)', () => {
	it('tells whether a path is inside a folder, on both kinds of separator', () => {
		assert.ok(isPathInside('/ws/src/a.ts', '/ws'));
		assert.ok(isPathInside('/ws', '/ws'));
		assert.ok(isPathInside('/ws/', '/ws'));
		assert.ok(!isPathInside('/ws-other/a.ts', '/ws'));
		assert.ok(!isPathInside('/w', '/ws'));
		assert.ok(!isPathInside('/etc/passwd', '/ws'));
		assert.ok(isPathInside('/anything', '/'));
		assert.ok(isPathInside('C:\\ws\\src\\a.ts', 'C:\\ws'));
		assert.ok(!isPathInside('C:\\wsx\\a.ts', 'C:\\ws'));
		assert.ok(!isPathInside('c:\\WS\\a.ts', 'C:\\ws'));
		assert.ok(isPathInside('c:\\WS\\a.ts', 'C:\\ws', true));
	});

	it('keeps the tools not turned off, ignoring names it does not know', () => {
		assert.deepEqual([...enabledEditorTools([])], EDITOR_TOOL_NAMES);
		assert.deepEqual([...enabledEditorTools(['hover', 'nonsense'])], EDITOR_TOOL_NAMES.filter((n) => n !== 'hover'));
	});

	it('lists each tool with a JSON schema of its arguments (no $schema, object type, required keys)', () => {
		const list = editorToolList(new Set(EDITOR_TOOL_NAMES));
		assert.equal(list.length, 11);
		const definition = list.find((t) => t.name === 'go_to_definition')!;
		assert.equal(definition.inputSchema.type, 'object');
		assert.equal(definition.inputSchema.$schema, undefined);
		assert.deepEqual(definition.inputSchema.required, ['path', 'line', 'character']);
		assert.equal(list.find((t) => t.name === 'get_selection')!.inputSchema.type, 'object');
	});

	it('summarizes arguments for the log: long strings and long lines cut', () => {
		assert.equal(summarizeToolArgs({ path: 'src/a.ts' }), '{"path":"src/a.ts"}');
		assert.equal(summarizeToolArgs(undefined), '{}');
		assert.ok(summarizeToolArgs({ query: 'x'.repeat(500) }).length < 80);
		assert.ok(summarizeToolArgs(Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`k${i}`, i]))).length <= 200);
	});

	it('runs a call: validated arguments reach the editor; refusals, failures and bad arguments become isError; each is recorded', async () => {
		const seen: unknown[] = [];
		const backend = {
			stat: async (args: unknown) => {
				seen.push(args);
				return { exists: true };
			},
			hover: async () => {
				throw new EditorToolError('outside');
			},
			find_symbols: async () => {
				throw new Error('provider crashed');
			},
		} as unknown as EditorToolsBackend;
		const records: EditorToolCallRecord[] = [];
		let t = 0;
		const run = (name: string, args: unknown) => callEditorTool(backend, new Set(EDITOR_TOOL_NAMES.filter((n) => n !== 'document_symbols')), name, args, (r) => records.push(r), () => (t += 5));
		assert.deepEqual(await run('stat', { path: ' a.ts ' }), { content: [{ type: 'text', text: '{"exists":true}' }] });
		assert.deepEqual(seen, [{ path: 'a.ts' }]);
		assert.deepEqual(records[0], { tool: 'stat', args: '{"path":" a.ts "}', ms: 5, outcome: 'ok' });
		const refused = await run('hover', { path: 'a', line: 1, character: 1 });
		assert.equal(refused.isError, true);
		assert.equal(refused.content[0]!.text, 'outside');
		assert.equal(records[1]!.outcome, 'refused');
		const failed = await run('find_symbols', { query: 'x' });
		assert.equal(failed.content[0]!.text, 'provider crashed');
		assert.equal(records[2]!.outcome, 'failed');
		assert.match((await run('document_symbols', { path: 'a' })).content[0]!.text, /turned off/);
		assert.match((await run('stat', { path: 3 })).content[0]!.text, /^Invalid arguments for stat: path: /);
		assert.match((await run('stat', null)).content[0]!.text, /^Invalid arguments for stat: path/);
		assert.match((await run('get_selection', { extra: true })).content[0]!.text, /^Invalid arguments for get_selection/);
		assert.equal(seen.length, 1, 'nothing invalid reached the editor');
	});
});
