// The rules around the mirror: only declared events, only file documents, the size limit, didClose
// and didOpen when a document closes or changes language, didFocus with the cursor converted to the
// agent's encoding.
import * as assert from 'node:assert/strict';
import * as vscode from 'vscode';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import { api, waitUntil } from '../util';
import { agentView, assertMirrors, random, randomEdits, selectNesAgent, waitForVersions, workspaceFile, type RandomSession } from './mirror';

async function open(file: string): Promise<vscode.TextEditor> {
	const document = await vscode.workspace.openTextDocument(workspaceFile(file));
	return vscode.window.showTextDocument(document, { preview: false });
}

/** Opens `file` and waits until the agent has it: every event sent before has been handled by then. */
async function barrier(a: AgentLinkApi, file: string): Promise<void> {
	const uri = (await open(file)).document.uri.toString();
	await waitUntil(async () => (await agentView(a)).documents[uri] !== undefined, 15_000, `the agent to have ${file}`);
}

function logLines(a: AgentLinkApi, pattern: RegExp): string[] {
	return a.recentLog().filter((l) => pattern.test(l));
}

describe('Agent Link: NES document sync rules', function () {
	let a: AgentLinkApi;

	before(async () => {
		a = await api();
	});

	afterEach(async () => {
		await vscode.commands.executeCommand('agentLink.stopAgent');
	});

	for (const revision of ['merged', 'seed'] as const) {
		it(`sends an agent that declared only didOpen nothing else (${revision} revision)`, async function () {
			this.timeout(120_000);
			await selectNesAgent(a, `Mirror ${revision} didOpen only`);
			const documents = [(await open('main.py')).document, (await open('unicode.md')).document];
			const run: RandomSession = { documents, recent: [], operations: 0, focusSwitches: 0 };
			await randomEdits(run, 60, random(revision === 'merged' ? 1 : 2), false);
			await documents[0]!.save();
			await vscode.window.showTextDocument(documents[0]!);
			await vscode.languages.setTextDocumentLanguage(documents[1]!, 'plaintext');
			await barrier(a, 'closing.txt');
			const view = await agentView(a);
			assert.deepEqual(view.violations, []);
			assert.deepEqual(Object.keys(view.counts), [revision === 'merged' ? 'document/didOpen' : 'nes/didOpen'], JSON.stringify(view.counts));
			// Its languageId changed: VS Code closes and reopens the document, and the agent gets the second didOpen only.
			assert.ok(run.focusSwitches > 0 && run.operations === 60);
		});
	}

	it('leaves out a file over agentLink.nes.maxFileSize, closes one that grows past it, and logs each once', async function () {
		this.timeout(120_000);
		await selectNesAgent(a, 'Mirror merged incremental utf-8');
		const big = await open('big.txt');
		await big.edit((builder) => builder.insert(new vscode.Position(0, 0), 'typed into a big file\n'));
		const grows = await open('grows.txt');
		const growsUri = grows.document.uri.toString();
		assertMirrors(await waitForVersions(a, [grows.document]), [grows.document], []);
		await open('big.txt');
		// A TextEditor object dies when its tab is hidden: edit through a fresh one.
		const grown = await vscode.window.showTextDocument(grows.document);
		await grown.edit((builder) => builder.insert(new vscode.Position(800, 0), 'z'.repeat(5000)));
		await waitUntil(async () => (await agentView(a)).closed.includes(growsUri), 15_000, 'didClose of grows.txt');
		// Back under the limit, it stays out until the editor closes it: no flapping.
		const shrunk = await vscode.window.showTextDocument(grows.document);
		await vscode.commands.executeCommand('undo');
		await shrunk.edit((builder) => builder.insert(new vscode.Position(0, 0), 'more\n'));
		await barrier(a, 'closing.txt');
		const view = await agentView(a);
		assert.deepEqual(view.violations, []);
		assert.equal(view.documents[big.document.uri.toString()], undefined, 'big.txt never sent');
		assert.equal(view.documents[growsUri], undefined, 'grows.txt closed for the agent');
		assert.ok(!view.focus.some((f) => f.uri === big.document.uri.toString()), 'no didFocus for big.txt');
		assert.equal(logLines(a, /big\.txt is 0\.06 MiB, over agentLink\.nes\.maxFileSize \(0\.05 MiB\): it is not sent/).length, 1, 'big.txt logged once');
		assert.equal(logLines(a, /grows\.txt grew to 0\.05 MiB, over agentLink\.nes\.maxFileSize/).length, 1, 'grows.txt logged once');
		assert.deepEqual(a.documentSync.openDocuments().includes(growsUri), false);
	});

	// VS Code keeps a document an extension opened for minutes after its editor closes, so closing
	// the tab is no way to get onDidCloseTextDocument in a test; a language change closes and reopens it at once.
	it('sends didClose then didOpen when a document changes language', async function () {
		this.timeout(60_000);
		await selectNesAgent(a, 'Mirror seed incremental utf-32');
		const editor = await open('closing.txt');
		const uri = editor.document.uri.toString();
		await waitUntil(async () => (await agentView(a)).documents[uri]?.languageId === 'plaintext', 15_000, 'didOpen of closing.txt');
		const markdown = await vscode.languages.setTextDocumentLanguage(editor.document, 'markdown');
		await waitUntil(async () => (await agentView(a)).documents[uri]?.languageId === 'markdown', 15_000, 'didOpen as markdown');
		const view = await agentView(a);
		assert.deepEqual(view.violations, [], 'didClose came before the second didOpen');
		// closing.txt closed once and opened again. Another document may close on its own meanwhile (VS
		// Code drops a document no editor shows some minutes after, here one an earlier suite of the
		// window left), so the rest is counted as a balance: each didOpen is of a document open now
		// or of one closed since.
		assert.equal(view.closes[uri], 1, `one didClose of closing.txt (all: ${JSON.stringify(view.closes)})`);
		assert.equal(view.opens[uri], 2, 'closing.txt opened, then opened again as markdown');
		assert.equal(view.counts['nes/didOpen']! - view.counts['nes/didClose']!, a.documentSync.openDocuments().length, `every didOpen is of a document open now or closed since (closes: ${JSON.stringify(view.closes)})`);
		assert.equal(markdown.languageId, 'markdown');
	});

	it('sends didFocus on every switch, with the cursor in the agent encoding', async function () {
		this.timeout(60_000);
		await selectNesAgent(a, 'Mirror merged full utf-8');
		const unicode = await open('unicode.md');
		// The cursor just after an emoji (the random edits of other tests moved things around).
		let lineNumber = 0;
		while (lineNumber + 1 < unicode.document.lineCount && !unicode.document.lineAt(lineNumber).text.includes('😀')) {
			lineNumber++;
		}
		const line = unicode.document.lineAt(lineNumber).text;
		assert.ok(line.includes('😀'), 'unicode.md still has an emoji');
		const cursor = new vscode.Position(lineNumber, line.indexOf('😀') + 2);
		// Its own didFocus goes out once its cursor settles: count from there.
		const unicodeUri = unicode.document.uri.toString();
		await waitUntil(async () => (await agentView(a)).focus.at(-1)?.uri === unicodeUri, 10_000, 'didFocus of unicode.md');
		const before = (await agentView(a)).counts['document/didFocus'] ?? 0;
		await open('main.py');
		await vscode.window.showTextDocument(unicode.document, { selection: new vscode.Range(cursor, cursor) });
		await open('main.py');
		await vscode.window.showTextDocument(unicode.document, { selection: new vscode.Range(cursor, cursor) });
		await open('crlf.txt');
		// main.py, unicode.md, main.py, unicode.md, crlf.txt (sent once its cursor has settled).
		await waitUntil(async () => ((await agentView(a)).counts['document/didFocus'] ?? 0) - before >= 5, 10_000, 'five didFocus');
		const view = await agentView(a);
		assert.deepEqual(view.violations, []);
		assert.equal((view.counts['document/didFocus'] ?? 0) - before, 5);
		const focus = view.focus.filter((f) => f.uri === unicodeUri).at(-1);
		assert.deepEqual(focus && { version: focus.version, position: focus.position }, {
			version: unicode.document.version,
			position: { line: lineNumber, character: Buffer.byteLength(line.slice(0, cursor.character)) },
		});
	});
});
