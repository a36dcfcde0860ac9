// The ACP schema check the real agents' launcher makes of every client message
// (test/fixtures/real-agents/acpSchema.mjs): what it accepts, and that it refuses what the schema does.
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { before, describe, it } from 'node:test';
import { pathToFileURL } from 'node:url';
import { repoRoot } from './helpers';

interface Checker {
	sawFromAgent(message: unknown): void;
	check(message: unknown): string[];
}

describe('the ACP schema check of client messages', () => {
	let checker: Checker;
	before(async () => {
		const module = (await import(pathToFileURL(join(repoRoot, 'test', 'fixtures', 'real-agents', 'acpSchema.mjs')).href)) as { AcpSchemaChecker: new () => Checker };
		checker = new module.AcpSchemaChecker();
	});

	it('accepts requests, notifications and answers that fit', () => {
		const capabilities = { fs: { readTextFile: true, writeTextFile: true }, terminal: true, session: { configOptions: { boolean: {} } }, workspace: { openDocuments: {} } };
		assert.deepEqual(checker.check({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: 1, clientInfo: { name: 'agent-link', version: '1' }, clientCapabilities: capabilities } }), []);
		assert.deepEqual(checker.check({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'text', text: 'hi' }] } }), []);
		assert.deepEqual(checker.check({ jsonrpc: '2.0', method: 'session/cancel', params: { sessionId: 's' } }), []);
		checker.sawFromAgent({ jsonrpc: '2.0', id: 7, method: 'fs/write_text_file', params: {} });
		assert.deepEqual(checker.check({ jsonrpc: '2.0', id: 7, result: {} }), []);
		checker.sawFromAgent({ jsonrpc: '2.0', id: 'p', method: 'session/request_permission', params: {} });
		assert.deepEqual(checker.check({ jsonrpc: '2.0', id: 'p', error: { code: -32603, message: 'no' } }), []);
	});

	it('refuses what the schema refuses', () => {
		assert.match(checker.check({ jsonrpc: '2.0', id: 1, method: 'session/prompt', params: { sessionId: 's', prompt: [{ type: 'txt', text: 'hi' }] } }).join(), /PromptRequest/);
		assert.match(checker.check({ jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: 1, clientCapabilities: { fs: { readTextFile: 'yes' } } } }).join(), /readTextFile must be boolean/);
		assert.match(checker.check({ jsonrpc: '2.0', method: 'session/cancel', params: {} }).join(), /sessionId/);
		assert.match(checker.check({ jsonrpc: '2.0', id: 3, method: 'session/frobnicate', params: {} }).join(), /not a method a client sends/);
		assert.match(checker.check({ jsonrpc: '1.0', id: 4, method: 'session/cancel' }).join(), /jsonrpc/);
		checker.sawFromAgent({ jsonrpc: '2.0', id: 8, method: 'fs/write_text_file', params: {} });
		assert.match(checker.check({ jsonrpc: '2.0', id: 8, result: null }).join(), /WriteTextFileResponse/);
		checker.sawFromAgent({ jsonrpc: '2.0', id: 9, method: 'fs/read_text_file', params: {} });
		assert.match(checker.check({ jsonrpc: '2.0', id: 9, result: { text: 'x' } }).join(), /content/);
		assert.match(checker.check({ jsonrpc: '2.0', id: 99, result: {} }).join(), /never asked/);
	});
});
