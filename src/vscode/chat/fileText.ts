/**
 * Changing a file's text on behalf of an agent, or putting it back, without ever overwriting what
 * the user has not saved. A document without unsaved edits is the file on disk: its new text is
 * written to the disk, and VS Code's reload of the document (an undoable step of its own) follows;
 * the editor's buffer is never edited and saved over a disk that may have changed under it (an
 * agent's own tools write the same file at the same moment), which would end in a save conflict or
 * in old text saved back. A document with unsaved edits is edited in the buffer and left unsaved.
 */
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import * as vscode from 'vscode';
import { smallestEdit } from '../../common/fsWrite';
import { ABSENT, text as fileText, type FileNow, type FileText, type Where } from '../../common/chat/turnFiles';

/** How long a write waits for VS Code to load the new text into an open document. */
export const RELOAD_WAIT_MS = 5000;

const UTF8_BOM = new Uint8Array([0xef, 0xbb, 0xbf]);

/** The open document of `file` (as given, or its resolved path), if any. */
export function findOpen(file: string, real = file): vscode.TextDocument | undefined {
	const uri = vscode.Uri.file(file).toString();
	return vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri || (d.uri.scheme === 'file' && (d.uri.fsPath === real || d.uri.fsPath === file)));
}

/**
 * The file's text on disk (UTF-8, a byte order mark left out), and whether it has that mark;
 * undefined when there is no file. Read again while the file's size is not what was read (another
 * program is writing it at that moment).
 */
export async function readDisk(file: string): Promise<{ text: string; bom: boolean } | undefined> {
	let bytes: Buffer | undefined;
	for (let attempt = 0; attempt < 5; attempt++) {
		bytes = await fs.readFile(file).catch(() => undefined);
		const size = await fs.stat(file).then(
			(s) => s.size,
			() => undefined,
		);
		if (!bytes || size === bytes.length) {
			break;
		}
		await new Promise((resolve) => setTimeout(resolve, 10));
	}
	if (!bytes) {
		return undefined;
	}
	const bom = bytes.length >= 3 && bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf;
	return { text: new TextDecoder('utf-8').decode(bytes), bom };
}

/** Resolves once `document` holds `text` (line ends aside: the editor keeps one kind), true; or after `ms`, false. */
export function holds(document: vscode.TextDocument, text: string, ms = RELOAD_WAIT_MS): Promise<boolean> {
	const expected = text.replace(/\r\n?/g, '\n');
	const held = () => document.getText().replace(/\r\n?/g, '\n') === expected;
	if (held()) {
		return Promise.resolve(true);
	}
	return new Promise((resolve) => {
		const done = (value: boolean) => {
			clearTimeout(timer);
			listener.dispose();
			resolve(value);
		};
		const listener = vscode.workspace.onDidChangeTextDocument((e) => {
			if (e.document === document && held()) {
				done(true);
			}
		});
		const timer = setTimeout(() => done(held()), ms);
	});
}

/**
 * Writes `text` to `file` on disk (its folders made; a UTF-8 byte order mark kept when `bom`),
 * then waits until an open document of it holds the text (VS Code reloads a document without
 * unsaved edits when its file changes). The document is opened first when the file exists, so the
 * reload is one undoable step in it. VS Code watches a file outside the workspace folders only
 * while an editor shows it: such a file is neither opened nor waited for otherwise (its document,
 * if any, is read from the disk again when it is shown).
 */
export async function writeThroughDisk(file: string, text: string, bom: boolean): Promise<void> {
	const exists = await fs.stat(file).then(
		(s) => s.isFile(),
		() => false,
	);
	const uri = vscode.Uri.file(file);
	const document = exists ? (findOpen(file) ?? (followed(uri) ? await vscode.workspace.openTextDocument(uri) : undefined)) : undefined;
	await fs.mkdir(path.dirname(file), { recursive: true });
	const bytes = new TextEncoder().encode(text);
	await fs.writeFile(file, bom ? Buffer.concat([UTF8_BOM, bytes]) : bytes);
	if (document && !document.isDirty && followed(document.uri)) {
		await holds(document, text);
	}
}

/** Whether VS Code reloads a document of `uri` when its file changes on disk: in a workspace folder, or shown in an editor. */
function followed(uri: vscode.Uri): boolean {
	const key = uri.toString();
	return vscode.workspace.getWorkspaceFolder(uri) !== undefined || vscode.window.visibleTextEditors.some((e) => e.document.uri.toString() === key);
}

/** Replaces the whole text of an open document's buffer (one undoable step); false when the editor refused. */
export async function editBuffer(document: vscode.TextDocument, text: string): Promise<boolean> {
	const change = smallestEdit(document.getText(), text);
	if (!change) {
		return true;
	}
	const edit = new vscode.WorkspaceEdit();
	edit.replace(document.uri, new vscode.Range(document.positionAt(change.start), document.positionAt(change.end)), change.text);
	return vscode.workspace.applyEdit(edit);
}

/** A file as it is now, for undo: the buffer's text for a change made in the buffer, else the disk's; and whether its editor holds unsaved edits. */
export async function fileNow(file: string, where: Where): Promise<FileNow> {
	const open = findOpen(file);
	if (where === 'buffer') {
		return { text: open ? fileText(open.getText()) : ABSENT, dirty: open?.isDirty ?? false };
	}
	const disk = await readDisk(file);
	return { text: disk ? fileText(disk.text) : ABSENT, dirty: open?.isDirty ?? false };
}

/**
 * Puts `file` back to `before`, as one undoable step: a file the agent created is deleted, one it
 * deleted is created again, one it changed gets its text back (in the buffer for a change made
 * only there, else on disk, the open document following).
 */
export async function restoreFile(file: string, before: FileText, where: Where): Promise<void> {
	const uri = vscode.Uri.file(file);
	if (before.kind === 'unknown') {
		throw new Error(`${file}: its text before the turn is not known.`);
	}
	if (before.kind === 'absent') {
		const edit = new vscode.WorkspaceEdit();
		edit.deleteFile(uri, { ignoreIfNotExists: true });
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`The editor could not delete ${file}.`);
		}
		return;
	}
	const exists = await fs.stat(file).then(
		() => true,
		() => false,
	);
	if (!exists) {
		const edit = new vscode.WorkspaceEdit();
		edit.createFile(uri, { contents: new TextEncoder().encode(before.text), ignoreIfExists: true });
		if (!(await vscode.workspace.applyEdit(edit))) {
			throw new Error(`The editor could not create ${file} again.`);
		}
		return;
	}
	const open = findOpen(file);
	if (where === 'buffer' && open) {
		if (!(await editBuffer(open, before.text))) {
			throw new Error(`The editor could not change ${file}.`);
		}
		return;
	}
	const disk = await readDisk(file);
	await writeThroughDisk(file, before.text, disk?.bom ?? false);
}

/** The same text, line ends aside (a document keeps one kind). */
export function sameLines(a: string, b: string): boolean {
	return a === b || a.replace(/\r\n?/g, '\n') === b.replace(/\r\n?/g, '\n');
}

/** Saves the open document of `uri` when `save` says it had no unsaved edits before it was edited for the user (it is left unsaved otherwise). */
export async function saveIfClean(uri: vscode.Uri, save: boolean): Promise<void> {
	if (!save) {
		return;
	}
	const document = vscode.workspace.textDocuments.find((d) => d.uri.toString() === uri.toString());
	if (document?.isDirty) {
		await document.save();
	}
}
