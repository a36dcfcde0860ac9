// The chat-turns suite's scripted agents (test/vscode/suite/chat-turns): agents that change files
// themselves, on disk, as Claude Code, OpenCode with its default permissions, or a shell command
// do, never through fs/write_text_file; and the files they change, as the workspace starts.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/** src/greet.js; the Editor agent changes lines 2 and 9 (two blocks). */
export const GREET =
	"export function greet(name) {\n\treturn 'Hello, ' + name + '.';\n}\n\nexport function farewell(name) {\n\treturn 'Goodbye, ' + name + '.';\n}\n\nexport const DEFAULT_NAME = 'world';\n\nexport default greet;\n";
export const GREET_EDITED = GREET.replace("'Hello, '", "'Hi there, '").replace("'world'", "'friend'");

/** What the Shell agent's "formatter" does: rewrites src/util.js and notes.md, creates src/gen/routes.js, deletes src/legacy.js. */
export const UTIL = 'export function add(a,b){return a+b}\nexport function sub(a,b){return a-b}\n';
export const UTIL_FORMATTED = 'export function add(a, b) {\n\treturn a + b;\n}\n\nexport function sub(a, b) {\n\treturn a - b;\n}\n';
export const NOTES = '# Notes\n\n- formatter: none yet\n';
export const NOTES_FORMATTED = '# Notes\n\n- formatter: on, run before each commit\n';
export const ROUTES = "export const routes = ['/', '/about'];\n";
export const LEGACY = 'export const legacy = true;\n';

/** A file beside the workspace folder, outside it: the Outside agent edits its second line. */
export const outsideFile = (workspace) => join(dirname(workspace), 'outside.md');
export const OUTSIDE = '# Outside\n\nfirst draft\n';
export const OUTSIDE_EDITED = '# Outside\n\nsecond draft\n';

/** The files every test starts from (they write them again before they begin). */
export function turnFiles(workspace) {
	return {
		[join(workspace, 'src', 'greet.js')]: GREET,
		[join(workspace, 'src', 'util.js')]: UTIL,
		[join(workspace, 'notes.md')]: NOTES,
		[join(workspace, 'src', 'legacy.js')]: LEGACY,
		[join(workspace, 'src', 'draft.js')]: 'export const draft = 1;\n',
		[join(workspace, 'steps', 'a.txt')]: 'a0\n',
		[join(workspace, 'steps', 'b.txt')]: 'b0\n',
		[join(workspace, 'steps', 'c.txt')]: 'c0\n',
	};
}

export function prepareTurnWorkspace(workspace) {
	for (const [file, content] of Object.entries(turnFiles(workspace))) {
		mkdirSync(dirname(file), { recursive: true });
		writeFileSync(file, content);
	}
}

export function chatTurnAgents(ctx) {
	const ws = (...parts) => join(ctx.workspace, ...parts);
	const text = (t) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
	const ask = (toolCallId, title) => ({
		permission: {
			toolCall: { toolCallId, title },
			options: [
				{ optionId: 'yes', name: 'Yes', kind: 'allow_once' },
				{ optionId: 'always', name: 'Yes, allow all edits during this session', kind: 'allow_always' },
				{ optionId: 'no', name: 'No', kind: 'reject_once' },
			],
		},
	});
	const greet = ws('src', 'greet.js');
	const write = (file, content) => ({ files: [{ write: file, content }] });
	return {
		// Claude Code's way: an Edit tool call with the replaced strings as its diff, the user's leave, then the file written by the agent itself
		// as Claude Code writes it: a temporary file beside it, renamed over it a moment later (long enough for the watcher to see the temporary one).
		'Turn Editor': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				text('I will make the greeting friendlier.'),
				{
					sessionUpdate: 'tool_call',
					toolCallId: 'edit-1',
					title: 'Edit src/greet.js',
					kind: 'edit',
					status: 'pending',
					locations: [{ path: greet }],
					content: [
						{ type: 'diff', path: greet, oldText: "\treturn 'Hello, ' + name + '.';", newText: "\treturn 'Hi there, ' + name + '.';" },
						{ type: 'diff', path: greet, oldText: "export const DEFAULT_NAME = 'world';", newText: "export const DEFAULT_NAME = 'friend';" },
					],
				},
				ask('edit-1', 'Edit src/greet.js'),
				write(`${greet}.tmp.4242.5f3c1a`, GREET_EDITED),
				{ waitMs: 600 },
				{ files: [{ rename: `${greet}.tmp.4242.5f3c1a`, to: greet }] },
				{ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' },
				text('The greeting is friendlier now.'),
			],
		}),
		// A shell command that rewrites two files, creates one and deletes one; no tool call names them.
		'Turn Shell': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'npm run format', kind: 'execute', status: 'in_progress' },
				{
					files: [
						{ write: ws('src', 'util.js'), content: UTIL_FORMATTED },
						{ write: ws('notes.md'), content: NOTES_FORMATTED },
						{ write: ws('src', 'gen', 'routes.js'), content: ROUTES },
						{ delete: ws('src', 'legacy.js') },
					],
				},
				{ sessionUpdate: 'tool_call_update', toolCallId: 'run-1', status: 'completed' },
				text('Formatted the project.'),
			],
		}),
		// Two turns: the first changes a.txt and c.txt, the second b.txt and c.txt.
		'Turn Steps': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurns: [
				[{ files: [{ write: ws('steps', 'a.txt'), content: 'a1\n' }, { write: ws('steps', 'c.txt'), content: 'c1\n' }] }, text('Step one.')],
				[{ files: [{ write: ws('steps', 'b.txt'), content: 'b2\n' }, { write: ws('steps', 'c.txt'), content: 'c2\n' }] }, text('Step two.')],
			],
		}),
		// OpenCode's way: src/greet.js written by the agent itself, then the same text through fs/write_text_file at once.
		'Turn Writes Twice': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [write(greet, GREET_EDITED), { ask: { method: 'fs/write_text_file', params: { path: greet, content: GREET_EDITED }, quiet: true } }, text('The greeting is friendlier now.')],
		}),
		// An edit of a file outside the workspace folder (beside it), named by its tool call, allowed, and written by the agent itself.
		'Turn Outside': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ sessionUpdate: 'tool_call', toolCallId: 'edit-out', title: 'Edit outside.md', kind: 'edit', status: 'pending', locations: [{ path: outsideFile(ctx.workspace) }] },
				ask('edit-out', 'Edit outside.md'),
				write(outsideFile(ctx.workspace), OUTSIDE_EDITED),
				{ sessionUpdate: 'tool_call_update', toolCallId: 'edit-out', status: 'completed' },
				text('Edited the notes beside the project.'),
			],
		}),
		// Writes src/draft.js on disk while the user has unsaved edits in it.
		'Turn Under Edits': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [write(ws('src', 'draft.js'), 'export const draft = 2; // the agent\n'), text('Bumped the draft.')],
		}),
	};
}
