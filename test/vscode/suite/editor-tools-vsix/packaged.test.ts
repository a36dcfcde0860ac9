// The editor tools from the packaged extension (the .vsix, unpacked): the lazily loaded server
// (dist/editor-tools.js) and the stdio bridge (dist/mcp-bridge.js) are in it and work, over both
// transports, with TypeScript's diagnostics as the answer. OpenCtx's lazily loaded module
// (dist/openctx.js) and the chat history picker's (dist/history-picker.js) are in it too.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import { sourceFiles } from '../../../shared/sourceFiles';
import { EXTENSION_ID, api, repoRoot, waitUntil } from '../util';

type Answer = { result?: { content: { text?: string }[]; isError?: boolean }; error?: { message: string } };

describe('editor tools in the packaged extension', function () {
	this.timeout(120_000);

	it('runs from the .vsix, not from the repository', () => {
		const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
		assert.ok(/agent-link-vsix-/.test(extension.extensionPath), `unpacked from the .vsix: ${extension.extensionPath}`);
	});

	for (const [agent, transport] of [
		['Tools Stdio', 'stdio'],
		['Tools HTTP', 'http'],
	] as const) {
		it(`${agent}: connects over ${transport} and lists TypeScript's diagnostics`, async () => {
			const a = await api();
			const folder = vscode.workspace.workspaceFolders![0]!.uri.fsPath;
			const use = vscode.Uri.file(path.join(folder, 'src', 'use.ts'));
			await vscode.window.showTextDocument(use);
			const session = await a.chat.create(a.agents.findChoice(agent)!, folder);
			try {
				const connection = session.agent!.handle.connection;
				const info = (await connection.sendRequest('_test/mcpInfo', { sessionId: session.sessionId }, z.unknown())) as { transport: string; entry: { args?: string[] } };
				assert.equal(info.transport, transport);
				if (transport === 'stdio') {
					const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
					assert.equal(info.entry.args![0], path.join(extension.extensionPath, 'dist', 'mcp-bridge.js'));
				}
				let text = '';
				await waitUntil(
					async () => {
						const answer = (await connection.sendRequest('_test/mcpTool', { sessionId: session.sessionId, name: 'get_diagnostics', arguments: { path: 'src/use.ts' } }, z.unknown())) as Answer;
						text = answer.result?.content.map((c) => c.text ?? '').join('') ?? JSON.stringify(answer.error);
						return /not assignable/.test(text);
					},
					60_000,
					'TypeScript’s diagnostics through the tools',
				).catch((error: unknown) => {
					throw new Error(`${String(error)}: ${text}`);
				});
			} finally {
				await session.close();
			}
		});
	}

	it('carries every file of media/ the extension names (icons, the chat page\'s style)', () => {
		// Each `'media', '…'` path in the extension's source (Uri.joinPath and the chat page's assets).
		const named = new Set<string>();
		for (const file of sourceFiles(path.join(repoRoot, 'src', 'vscode'))) {
			for (const match of fs.readFileSync(file, 'utf8').matchAll(/'media'((?:\s*,\s*'[^']+')+)/g)) {
				named.add(path.join('media', ...[...match[1]!.matchAll(/'([^']+)'/g)].map((m) => m[1]!)));
			}
		}
		assert.ok(named.has(path.join('media', 'chat.svg')), `the source's media files found: ${[...named].join(', ')}`);
		const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
		const missing = [...named].filter((file) => !fs.existsSync(path.join(extension.extensionPath, file)));
		assert.deepEqual(missing, [], 'named in the source, missing from the package (.vscodeignore)');
	});

	it('loads OpenCtx\'s module (dist/openctx.js) from the .vsix', async () => {
		const a = await api();
		const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
		const file = path.join(extension.extensionPath, 'dist', 'openctx.js');
		assert.ok(fs.existsSync(file), 'dist/openctx.js in the package');
		// No provider is configured, so it was not loaded at start-up; the annotations load it.
		const loaded = () => fs.realpathSync(file) in require.cache;
		assert.ok(!loaded(), 'not loaded with no provider configured');
		const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path.join(vscode.workspace.workspaceFolders![0]!.uri.fsPath, 'src', 'use.ts')));
		assert.deepEqual(await a.openctx.annotations.annotationsFor(document), []);
		assert.ok(loaded(), 'loaded on first use');
	});

	it('loads the chat history picker (dist/history-picker.js) from the .vsix when it is first used', async () => {
		const extension = vscode.extensions.getExtension(EXTENSION_ID)!;
		const file = path.join(extension.extensionPath, 'dist', 'history-picker.js');
		assert.ok(fs.existsSync(file), 'dist/history-picker.js in the package');
		const loaded = () => fs.realpathSync(file) in require.cache;
		assert.ok(!loaded(), 'not loaded at start-up');
		const a = await api();
		assert.ok(Array.isArray(a.historyPicker.items()), 'the picker lists the stored chats');
		assert.ok(loaded(), 'loaded on first use');
	});
});
