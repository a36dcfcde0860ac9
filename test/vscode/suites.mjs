// The suites that run inside a real VS Code, one VS Code window each. scripts/test.mjs runs every
// suite on every target (min, latest). A suite is the mocha files in test/vscode/suite/<name>/.
//
// Descriptor fields:
//   name        folder under test/vscode/suite/
//   trust       true: Workspace Trust on and the folder untrusted (default: trust off)
//   settings    (ctx) => extra user settings (merged over the shared agent definitions)
//   prepare     (workspace, ctx) => void: fill the workspace folder before VS Code opens it
//   folders     folder names: VS Code opens a multi-root workspace of these folders (made in the workspace
//               folder, in this order) through a .code-workspace file there, instead of the folder itself
//   bench       true: a benchmark, run only when named with --suite, in VS Code as it ships (runner/run.mjs: asShipped)
//   vsix        true: VS Code loads the packaged extension (the .vsix, unpacked) instead of this repository
//   phases      number of consecutive runs sharing one VS Code profile (storage kept across
//               restarts); the tests read AGENT_LINK_TEST_PHASE (1, 2, …). Default 1.
//   realAgents  true: the suite runs the real agents of test/fixtures/real-agents, installed into the
//               test cache (once) before it starts
//   guests      names of other suites run in this suite's window after its own tests (when they are
//               chosen too; a phased suite's in its last phase), sharing its start of VS Code: their
//               workspaces are prepared into one folder
//               and their settings merged (two that set a key or an agent differently cannot share; the
//               window's agentLink.defaultAgent is the host's, so a guest opens its chats by agent name)
// ctx: { root, node, fixtures, fixtureAgent(script, options) => {command, args, env} }; settings() also gets ctx.workspace
import { execFileSync } from 'node:child_process';
import { copyFileSync, cpSync, mkdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { chatTurnAgents, prepareTurnWorkspace } from './chatTurnAgents.mjs';

/**
 * The TypeScript server's full language service (test windows run its syntax server alone, see
 * QUIET_WORKBENCH in runner/run.mjs): for the suites that ask the language for symbols, definitions,
 * diagnostics or renames.
 */
const TYPESCRIPT_LANGUAGE_SERVICE = { 'typescript.tsserver.useSyntaxServer': 'auto' };

/** Agents every suite can select by name. */
export function sharedAgents(ctx) {
	return {
		'SDK Example Agent': { command: ctx.node, args: [join(ctx.root, 'node_modules', 'acp-sdk-1-9', 'dist', 'examples', 'agent.js')] },
		'Fixture Agent': ctx.fixtureAgent('well-behaved.mjs', { spawnChild: true }),
		'Crash Agent': ctx.fixtureAgent('crash-agent.mjs'),
		'Garbage Agent': ctx.fixtureAgent('garbage-agent.mjs'),
		'Exits At Once': { command: ctx.node, args: ['-e', "process.stderr.write('cannot start\\n'); process.exit(4)"] },
		'Missing Agent': { command: 'agent-link-missing-command' },
	};
}

/** The maxCount each nes-context agent declares for each context key (test/vscode/suite/nes-context mirrors it). */
const NES_CONTEXT_MAX_COUNTS = { recentFiles: 2, relatedSnippets: 3, editHistory: 3, userActions: 40, openFiles: 3, diagnostics: 4 };

/** nes-context agents: `NES <revision> <key>` declares one context key, `NES <revision> all utf-8` all of them. */
function nesContextAgents(ctx) {
	const agents = {};
	for (const revision of ['merged', 'seed']) {
		const nes = (context) => (revision === 'merged' ? { events: { document: {} }, context } : { context });
		for (const [key, maxCount] of Object.entries(NES_CONTEXT_MAX_COUNTS)) {
			agents[`NES ${revision} ${key}`] = ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: nes({ [key]: { maxCount } }) } });
		}
		const all = Object.fromEntries(Object.entries(NES_CONTEXT_MAX_COUNTS).map(([key, maxCount]) => [key, { maxCount }]));
		agents[`NES ${revision} all utf-8`] = ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: nes(all), positionEncoding: 'utf-8' } });
	}
	agents['NES merged no context'] = ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: { events: { document: {} } } } });
	agents['NES merged invalid answer'] = ctx.fixtureAgent('well-behaved.mjs', {
		agentCapabilities: { nes: { events: { document: {} }, context: { userActions: {} } } },
		nesSuggestResponse: { suggestions: [{ kind: 'edit', id: 7, edits: 'none' }] },
	});
	return agents;
}

/** The OpenCtx suites' workspace: TODO comments to annotate, code one of them links to, a malformed ES module provider. */
function prepareOpenCtxWorkspace(workspace) {
	mkdirSync(join(workspace, 'src'), { recursive: true });
	mkdirSync(join(workspace, 'providers'), { recursive: true });
	writeFileSync(
		join(workspace, 'src', 'tasks.ts'),
		"export function plan(): string[] {\n\tconst steps: string[] = [];\n\t// TODO(#12): retry failed steps\n\tsteps.push('build');\n\t// TODO(#34): see src/lib.ts#L2-L4\n\tsteps.push('test');\n\treturn steps;\n}\n",
	);
	writeFileSync(join(workspace, 'src', 'lib.ts'), 'export const limit = 3;\nexport function retry(times: number): number {\n\treturn Math.min(times, limit);\n}\n');
	writeFileSync(
		join(workspace, 'providers', 'malformed.mjs'),
		"export default {\n\tmeta() {\n\t\treturn { name: 'Malformed provider' };\n\t},\n\tannotations(params) {\n\t\treturn [{ uri: params.uri, item: { nope: true } }];\n\t},\n};\n",
	);
}

/**
 * The real agents under their preset names, each run by the launcher (test/fixtures/real-agents) with
 * its log and private home beside the workspace, in the suite's scratch folder.
 */
function realAgentDefinitions(ctx) {
	const scratch = dirname(ctx.workspace);
	const agent = (name) => ({
		command: ctx.node,
		args: [join(ctx.root, 'test', 'fixtures', 'real-agents', 'launcher.mjs'), name],
		env: { AGENT_LINK_REAL_AGENT_LOG: join(scratch, `${name}.jsonl`), AGENT_LINK_REAL_AGENT_HOME: scratch },
	});
	return { 'Claude Code': agent('claude'), OpenCode: agent('opencode'), 'Gemini CLI': agent('gemini'), 'Qwen Code': agent('qwen') };
}

/** The chat panel's scripted agents. */
/** The file the review test's agent edits: twelve lines; the agent changes lines 2, 6 and 10. */
export const LEDGER = Array.from({ length: 12 }, (_, i) => `entry ${i + 1}: ${(i + 1) * 10}\n`).join('');
export const LEDGER_EDITED = LEDGER.replace('entry 2: 20', 'entry 2: 25').replace('entry 6: 60', 'entry 6: 65').replace('entry 10: 100', 'entry 10: 105');

/** The file chat-panel's side-by-side test writes in the workspace once both turns run (its agents' go-ahead). */
const SIDE_BY_SIDE_GO = '.chat-side-by-side-go';

function chatPanelAgents(ctx) {
	const text = (t) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
	const sdkExample = sharedAgents(ctx)['SDK Example Agent'];
	return {
		// The SDK's example agent without its 1 s pauses, for a test that needs its turns but not their pace.
		'SDK Example Agent, quick': { ...sdkExample, args: ['--import', join(ctx.fixtures, 'agents', 'quick-pace.mjs'), ...sdkExample.args] },
		// The SDK's example agent's turn from its permission prompt on: the call answered, 1 s, its last words, the end
		// (habits.test.ts opens the palette as such a turn ends; the example agent's 4 s before the prompt it does not need).
		'Chat Ask Then End': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				text("I'll change the configuration."),
				{ sessionUpdate: 'tool_call', toolCallId: 'call_2', title: 'Modifying critical configuration file', kind: 'edit', status: 'pending' },
				{
					permission: {
						toolCall: { toolCallId: 'call_2', title: 'Modifying critical configuration file' },
						options: [
							{ optionId: 'allow', name: 'Allow this change', kind: 'allow_once' },
							{ optionId: 'reject', name: 'Skip this change', kind: 'reject_once' },
						],
					},
				},
				{ sessionUpdate: 'tool_call_update', toolCallId: 'call_2', status: 'completed' },
				{ waitMs: 1000 },
				text(' The changes have been applied.'),
			],
		}),
		// Two agents answering in two chunks at once: no test waits on their turns (the turn of one that must still run
		// waits for a go-ahead, as the side-by-side agents below; a pause here cost each test that used it seconds).
		'Chat A': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text('A one.'), text(' A two.')] }),
		'Chat B': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text('B one.'), text(' B two.')] }),
		// The two chats of the side-by-side test: each turn waits for the test's go-ahead (a file), so both are running at
		// once however long chat B's agent takes to start on a busy machine.
		'Chat Side A': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text('A one.'), { waitForFile: join(ctx.workspace, SIDE_BY_SIDE_GO) }, text(' A two.')] }),
		'Chat Side B': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text('B one.'), { waitForFile: join(ctx.workspace, SIDE_BY_SIDE_GO) }, text(' B two.')] }),
		'Chat Long': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text('Thinking hard.'), { waitMs: 60_000 }, text(' Never reached.')] }),
		// A 300-message conversation replayed in one turn, and an answer of 400 paragraphs in one chunk (longChat.test.ts).
		'Chat Many': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [{ conversation: { count: 150, user: 'A question.', agent: 'An answer with `code` and a list:\n\n- one\n- two' } }] }),
		'Chat Burst': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [text(Array.from({ length: 400 }, (_, i) => `Paragraph ${i + 1} of the answer.`).join('\n\n'))] }),
		'Chat Showcase': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: 'The retries should come from the config, not a constant.' } },
				{
					sessionUpdate: 'plan',
					entries: [
						{ content: 'Read the config', priority: 'medium', status: 'completed' },
						{ content: 'Raise the retry limit', priority: 'high', status: 'in_progress' },
						{ content: 'Run the tests', priority: 'low', status: 'pending' },
					],
				},
				text('The retry limit lives in `src/config.json`. I will raise it to 5 and read it like this:\n\n```ts\nimport config from "./config.json";\n\nexport function retries(): number {\n\treturn config.retries ?? 3;\n}\n```\n'),
				{
					sessionUpdate: 'tool_call',
					toolCallId: 'edit-1',
					title: 'Edit src/config.json',
					kind: 'edit',
					status: 'pending',
					locations: [{ path: join(ctx.workspace, 'src', 'config.json'), line: 3 }],
					content: [{ type: 'diff', path: join(ctx.workspace, 'src', 'config.json'), oldText: '{\n\t"name": "demo",\n\t"retries": 3\n}\n', newText: '{\n\t"name": "demo",\n\t"retries": 5\n}\n' }],
				},
				{ sessionUpdate: 'usage_update', used: 18_200, size: 200_000, cost: { amount: 0.04, currency: 'USD' } },
				{
					permission: {
						toolCall: { toolCallId: 'edit-1', title: 'Edit src/config.json' },
						options: [
							{ optionId: 'once', name: 'Allow once', kind: 'allow_once' },
							{ optionId: 'always', name: 'Always allow edits', kind: 'allow_always' },
							{ optionId: 'no', name: 'Reject', kind: 'reject_once' },
						],
					},
				},
				{ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' },
				text('Done: the limit is 5.'),
			],
		}),
		'Chat Notify': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				text('Working.'),
				// The test's go-aheads (files it writes once the chat is out of sight), not timers it could lose to.
				{ waitForFile: join(ctx.workspace, '.chat-notify-go-1') },
				{ sessionUpdate: 'tool_call', toolCallId: 'run-1', title: 'Run the tests', kind: 'execute', status: 'pending', content: [{ type: 'terminal', terminalId: 'term-1' }] },
				{ permission: { toolCall: { toolCallId: 'run-1', title: 'Run the tests' }, options: [{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } },
				{ waitForFile: join(ctx.workspace, '.chat-notify-go-2') },
				text(' All green.'),
			],
		}),
		// Asks for a sign-in two seconds after the prompt (session/prompt answers -32000): the sign-in card
		// takes the keyboard only if the page has it.
		'Chat Late Sign-in': ctx.fixtureAgent('well-behaved.mjs', { promptAuthRequired: true, delayMethods: { 'session/prompt': 2000 }, authMethods: [{ id: 'login', name: 'Log in' }], chatTurn: [text('Signed in.')] }),
		'Chat Variants': ctx.fixtureAgent('well-behaved.mjs', {
			sessionSetup: { modes: { currentModeId: 'ask', availableModes: [{ id: 'ask', name: 'Ask' }, { id: 'code', name: 'Code', description: 'Edits files' }] } },
			chatTurn: [
				{ sessionUpdate: 'session_info_update', title: 'Tidying the config' },
				{ sessionUpdate: 'current_mode_update', currentModeId: 'code' },
				{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'in_progress' },
				{ sessionUpdate: 'compaction_summary_chunk', compactionId: 'c1', content: { type: 'text', text: 'Earlier: the user asked to tidy the config.' } },
				{ sessionUpdate: 'compaction_update', compactionId: 'c1', status: 'completed' },
				{ sessionUpdate: 'notice', severity: 'warning', title: 'Rate limited', description: 'Retrying in 2 s.' },
				{ sessionUpdate: 'agent_message_chunk', content: { type: 'resource_link', uri: `file://${join(ctx.workspace, 'README.md')}`, name: 'README.md' } },
				{ sessionUpdate: 'some_future_update', whatever: true },
				text('All done.'),
			],
		}),
		'Chat Images': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { promptCapabilities: { image: true } }, chatTurn: [text('Nice picture.')] }),
		// Sign-in from the panel (signin.test.ts): an agent, an env_var and a terminal method.
		'Chat Sign-in': ctx.fixtureAgent('well-behaved.mjs', {
			chatAuthRequired: true,
			authMethods: [
				{ id: 'login', name: 'Log in with the fixture', description: 'The fixture signs you in at once.' },
				{ id: 'key', name: 'Use an API key', type: 'env_var', vars: [{ name: 'FIXTURE_API_KEY', label: 'Fixture API key' }], link: 'https://example.invalid/keys' },
				{ id: 'tui', name: 'Log in in a terminal', type: 'terminal', args: ['--login'] },
			],
			chatTurn: [text('Signed in and listening.')],
		}),
		'Chat Key': ctx.fixtureAgent('well-behaved.mjs', {
			chatAuthRequired: true,
			authEnv: { name: 'FIXTURE_API_KEY', value: 'fixture-secret-1234' },
			pidLog: join(ctx.workspace, '.chat-key-pids'),
			authMethods: [{ id: 'key', name: 'Use an API key', type: 'env_var', vars: [{ name: 'FIXTURE_API_KEY', label: 'Fixture API key' }], link: 'https://example.invalid/keys' }],
			chatTurn: [text('The key works.')],
		}),
		'Chat Prompt Sign-in': ctx.fixtureAgent('well-behaved.mjs', { promptAuthRequired: true, authMethods: [{ id: 'login', name: 'Log in' }], chatTurn: [text('Now I can answer.')] }),
		// Review (review.test.ts): the agent changes three separate lines of src/ledger.txt.
		'Chat Writer': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{
					sessionUpdate: 'tool_call',
					toolCallId: 'w1',
					title: 'Edit src/ledger.txt',
					kind: 'edit',
					status: 'in_progress',
					content: [{ type: 'diff', path: join(ctx.workspace, 'src', 'ledger.txt'), oldText: LEDGER, newText: LEDGER_EDITED }],
				},
				{ ask: { method: 'fs/write_text_file', params: { path: join(ctx.workspace, 'src', 'ledger.txt'), content: LEDGER_EDITED } } },
				{ sessionUpdate: 'tool_call_update', toolCallId: 'w1', status: 'completed' },
				text('Changed three entries.'),
			],
		}),
		// Makes src/notes.txt and writes src/same.txt with the text it has: one file changed.
		'Chat Notes Writer': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ sessionUpdate: 'tool_call', toolCallId: 'n1', title: 'Write the notes', kind: 'edit', status: 'in_progress' },
				{ ask: { method: 'fs/write_text_file', params: { path: join(ctx.workspace, 'src', 'notes.txt'), content: 'Notes.\n' }, quiet: true } },
				{ ask: { method: 'fs/write_text_file', params: { path: join(ctx.workspace, 'src', 'same.txt'), content: 'unchanged\n' }, quiet: true } },
				{ sessionUpdate: 'tool_call_update', toolCallId: 'n1', status: 'completed' },
				text('Wrote the notes.'),
			],
		}),
		'Chat Context': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { promptCapabilities: { embeddedContext: true } }, chatTurn: [text('Read it.')] }),
		'Chat Options': ctx.fixtureAgent('well-behaved.mjs', {
			sessionSetup: {
				configOptions: [
					{ id: 'model', name: 'Model', category: 'model', type: 'select', currentValue: 'small', options: [{ value: 'small', name: 'Small model' }, { value: 'large', name: 'Large model' }] },
				],
			},
			chatTurn: [
				{ sessionUpdate: 'available_commands_update', availableCommands: [{ name: 'review', description: 'Review the changes', input: { hint: 'what to review' } }, { name: 'explain', description: 'Explain the code' }] },
				text('Ready.'),
			],
		}),
	};
}

/**
 * A command that starts a grandchild in its process group and one that leaves the group
 * (`detached`), prints the three pids, and runs until it is killed.
 */
const TERMINAL_TREE = `
const { spawn } = require('node:child_process');
const keep = ['-e', 'setInterval(() => {}, 1000)'];
const inGroup = spawn(process.execPath, keep, { stdio: 'ignore' });
const escaped = spawn(process.execPath, keep, { stdio: 'ignore', detached: true });
console.log('pids', process.pid, inGroup.pid, escaped.pid);
setInterval(() => {}, 1000);
`;

/** What the README's terminal shows: a test run that then watches, until Enter is pressed in the terminal. */
const RUN_TESTS_SCRIPT = `const lines = [
	'\\x1b[2m> demo@1.0.0 test\\x1b[0m',
	'',
	'\\x1b[32m✔\\x1b[0m parses the config \\x1b[2m(3.1 ms)\\x1b[0m',
	'\\x1b[32m✔\\x1b[0m reads the retry limit from the config \\x1b[2m(0.9 ms)\\x1b[0m',
	'\\x1b[32m✔\\x1b[0m retries a failed request 5 times \\x1b[2m(12.4 ms)\\x1b[0m',
	'\\x1b[32m✔\\x1b[0m gives up after the last retry \\x1b[2m(11.8 ms)\\x1b[0m',
	'\\x1b[32m✔\\x1b[0m keeps the order of the requests \\x1b[2m(2.2 ms)\\x1b[0m',
	'ℹ tests 5 · pass 5 · fail 0',
	'',
	'Watching for changes… press Enter to stop.',
];
let i = 0;
const next = setInterval(() => {
	console.log(lines[i++]);
	if (i === lines.length) {
		clearInterval(next);
		process.stdin.once('data', () => {
			console.log('Stopped watching.');
			process.exit(0);
		});
	}
}, 100);
`;

/** The agents of the chat-terminals suite: each runs commands in client terminals (terminal/*) and reports what it got. */
function chatTerminalAgents(ctx) {
	const text = (t) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
	const node = (script, more = {}) => ({ command: ctx.node, args: ['-e', script], ...more });
	// The mark names the window's workspace: the suite of the other VS Code version may run at the same time.
	const mark = (value) => ({ env: [{ name: 'AGENT_LINK_TERMINAL_MARK', value: `${value} in ${ctx.workspace}` }] });
	const tree = (value) => ({ terminal: { create: node(TERMINAL_TREE, mark(value)), title: 'Start a server', waitFor: 'pids', then: 'leave' } });
	return {
		'Terminal Limit': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [{ terminal: { create: node("process.stdout.write('€' + 'é'.repeat(1500) + 'END')", { outputByteLimit: 104 }) } }],
		}),
		'Terminal Kill': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [{ terminal: { create: node("console.log('ready', process.pid); setInterval(() => {}, 1000)"), waitFor: 'ready', then: 'kill' } }],
		}),
		'Terminal Release': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [{ terminal: { create: node("console.log('ready', process.pid); setInterval(() => {}, 1000)"), waitFor: 'ready', then: 'release' } }],
		}),
		'Terminal Env': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ terminal: { create: node('console.log(process.env.FIXTURE_GREETING, process.cwd())', { env: [{ name: 'FIXTURE_GREETING', value: 'héllo wörld' }], cwd: join(ctx.workspace, 'sub') }) } },
				{ terminal: { create: { command: 'echo "$FIXTURE_GREETING" from the shell && exit 7', env: [{ name: 'FIXTURE_GREETING', value: 'hi' }] } } },
			],
		}),
		'Terminal Refused': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				{ terminal: { create: { command: 'pwd', cwd: '/' } } },
				{ terminal: { create: { command: 'pwd', cwd: 'sub' } } },
				{ terminal: { create: { command: 'pwd', cwd: join(ctx.workspace, 'missing') } } },
				{ terminal: { create: { args: ['--version'] } } },
				{ terminal: { create: { command: 'agent-link-no-such-program', args: ['--version'] } } },
				{ terminal: { create: { command: 'pwd', sessionId: 'made-up' } } },
				text('Refused as expected.'),
			],
		}),
		'Terminal Tree': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [tree('close'), text('Left it running.')] }),
		'Terminal Cancel': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [tree('cancel'), { waitMs: 120_000 }, text(' Never reached.')] }),
		'Terminal Crash': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [tree('crash'), text('Left it running.')] }),
		'Terminal Showcase': ctx.fixtureAgent('well-behaved.mjs', {
			chatTurn: [
				text('I will run the tests.'),
				{ terminal: { create: { command: 'node run-tests.mjs' }, title: 'Run the tests' } },
				text('All 5 tests pass.'),
			],
		}),
	};
}

/** The editor-tools agents: the same scripted MCP client, one taking HTTP servers, one stdio only. */
function editorToolsAgents(ctx) {
	return {
		'Tools HTTP': ctx.fixtureAgent('mcp-agent.mjs', { agentCapabilities: { mcpCapabilities: { http: true } } }),
		'Tools Stdio': ctx.fixtureAgent('mcp-agent.mjs'),
	};
}

/** A small TypeScript project with one type error, a .gitignored folder, a files.exclude'd one, a binary file and a link out of the workspace. */
function prepareEditorToolsWorkspace(workspace) {
	mkdirSync(join(workspace, 'src'), { recursive: true });
	writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'commonjs' }, include: ['src/**/*.ts'] }, null, 2));
	writeFileSync(join(workspace, 'src', 'lib.ts'), 'export function computeTotal(values: number[]): number {\n\treturn values.reduce((a, b) => a + b, 0);\n}\n');
	writeFileSync(join(workspace, 'src', 'use.ts'), "import { computeTotal } from './lib';\n\nexport const total = computeTotal([1, 2, 3]);\nexport const label: number = 'total';\n");
	writeFileSync(join(workspace, '.gitignore'), 'build/\n*.log\n');
	mkdirSync(join(workspace, 'build'), { recursive: true });
	writeFileSync(join(workspace, 'build', 'out.ts'), 'export {};\n');
	writeFileSync(join(workspace, 'debug.log'), 'log\n');
	mkdirSync(join(workspace, 'hidden'), { recursive: true });
	writeFileSync(join(workspace, 'hidden', 'secret.ts'), 'export {};\n');
	writeFileSync(join(workspace, 'data.bin'), Buffer.from([0, 1, 2, 3, 250, 251, 252, 253, 254, 255]));
	const outside = join(workspace, '..', `${basename(workspace)}-outside`);
	mkdirSync(outside, { recursive: true });
	writeFileSync(join(outside, 'private.txt'), 'not for agents\n');
	symlinkSync(outside, join(workspace, 'escape'));
}

/** The deployment form of chat-elicitation: every field type (test/vscode/suite/chat-elicitation fills it). */
export const ELICIT_FORM = {
	type: 'object',
	title: 'Deploy',
	description: 'Where the release goes.',
	properties: {
		branch: { type: 'string', title: 'Branch', description: 'Lower case, at least 2 characters.', minLength: 2, pattern: '^[a-z0-9/-]+$' },
		email: { type: 'string', title: 'Notify', format: 'email' },
		env: { type: 'string', title: 'Environment', oneOf: [{ const: 'dev', title: 'Development' }, { const: 'prod', title: 'Production' }] },
		replicas: { type: 'integer', title: 'Replicas', minimum: 1, maximum: 5, default: 2 },
		dryRun: { type: 'boolean', title: 'Dry run first', default: true },
		checks: { type: 'array', title: 'Checks', items: { type: 'string', enum: ['lint', 'test', 'e2e'] }, maxItems: 2 },
	},
	required: ['branch', 'env'],
};

/** chat-elicitation's agent: each turn asks one elicitation and reports the answer (messages it got logged to `logFile`). */
function elicitAgentOptions(logFile) {
	const ask = (params) => ({ ask: { method: 'elicitation/create', params } });
	return {
		logFile,
		chatTurns: [
			[
				{ sessionUpdate: 'tool_call', toolCallId: 'call-deploy', title: 'Deploy the release', kind: 'execute', status: 'in_progress' },
				ask({ mode: 'form', message: 'Which branch and environment?', toolCallId: 'call-deploy', requestedSchema: ELICIT_FORM }),
			],
			[ask({ mode: 'form', message: 'May I tag the release?', requestedSchema: { type: 'object', properties: { tag: { type: 'string', title: 'Tag' } } } })],
			[
				ask({ mode: 'url', message: 'Sign in to the deployment service', elicitationId: 'sign-in-1', url: 'http://127.0.0.1:9/device?code=ABCD' }),
				{ notify: { method: 'elicitation/complete', params: { elicitationId: 'sign-in-1' } } },
			],
			// Every text of a form is the agent's: shown as text, never run (the same payloads as XSS_PAYLOADS).
			[
				ask({
					mode: 'form',
					message: '<img src=x onerror="window.__xss = \'img\'">',
					requestedSchema: {
						type: 'object',
						title: '<script>window.__xss = "script"</script>',
						description: '<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
						properties: {
							'"><svg onload="window.__xss=1">': { type: 'string', title: '<svg onload="window.__xss = \'svg\'"><circle r=1 /></svg>', description: '[click me](javascript:window.__xss=\'link\')', default: '"><script>window.__xss = 1</script>' },
							pick: { type: 'string', oneOf: [{ const: '"><img src=x onerror=alert(1)>', title: '<details open ontoggle="window.__xss=\'details\'">x</details>' }] },
						},
					},
				}),
			],
			// Asked once the test has hidden the chat (its go-ahead file): answered through quick input.
			[
				{ waitForFile: join(dirname(logFile), 'elicit-go') },
				ask({ mode: 'form', message: 'Name the release', requestedSchema: { type: 'object', properties: { tag: { type: 'string', title: 'Tag', minLength: 2 }, notes: { type: 'boolean', title: 'Write release notes' } }, required: ['tag'] } }),
			],
			[ask({ mode: 'form', message: 'Anything else?', requestedSchema: { type: 'object', properties: { note: { type: 'string', title: 'Note' } } } })],
		],
	};
}

/**
 * chat-elicitation's second agent (test/vscode/suite/chat-elicitation/outOfSight.test.ts): the deployment form, kept
 * across the page being loaded again; then, once the test has hidden the chat (its go-ahead file), a URL, then done;
 * then a URL done before the user opened it.
 */
function laterElicitAgentOptions(logFile) {
	const ask = (params) => ({ ask: { method: 'elicitation/create', params } });
	return {
		logFile,
		chatTurns: [
			[
				{ sessionUpdate: 'tool_call', toolCallId: 'call-deploy', title: 'Deploy the release', kind: 'execute', status: 'in_progress' },
				ask({ mode: 'form', message: 'Which branch and environment?', toolCallId: 'call-deploy', requestedSchema: ELICIT_FORM }),
			],
			[
				{ waitForFile: join(dirname(logFile), 'elicit-url-go') },
				ask({ mode: 'url', message: 'Authorize the deployment', elicitationId: 'authorize-1', url: 'http://127.0.0.1:9/authorize?code=WXYZ' }),
				{ notify: { method: 'elicitation/complete', params: { elicitationId: 'authorize-1' } } },
			],
			// Asked once the test has hidden the chat again, and done (another file) while the user has it in a notification.
			[
				{ waitForFile: join(dirname(logFile), 'elicit-approve-go') },
				{ ask: { method: 'elicitation/create', params: { mode: 'url', message: 'Approve the release', elicitationId: 'approve-1', url: 'http://127.0.0.1:13/approve' }, completeWhen: { file: join(dirname(logFile), 'elicit-approved'), elicitationId: 'approve-1' } } },
			],
		],
	};
}

/**
 * chat-elicitation's agent that asks while it sets a chat up, inside session/new, before the session exists (a
 * request-scoped elicitation; test/vscode/suite/chat-elicitation/beforeSession.test.ts): a form for the first chat, then
 * four URLs for the second (opened, declined, dismissed, and one it says is done before the user opened it).
 */
function setupAgentOptions(logFile) {
	const scratch = dirname(logFile);
	const url = (elicitationId, message, address) => ({ method: 'elicitation/create', params: { mode: 'url', elicitationId, message, url: address } });
	const profile = { type: 'string', title: 'Profile', oneOf: [{ const: 'default', title: 'Default' }, { const: 'strict', title: 'Strict' }] };
	return {
		logFile,
		setupAsks: [
			[{ ask: { method: 'elicitation/create', params: { mode: 'form', message: 'Choose how the workspace is set up', requestedSchema: { type: 'object', title: 'Workspace setup', properties: { label: { type: 'string', title: 'Label', minLength: 2 }, profile }, required: ['label', 'profile'] } } } }],
			[
				{ ask: url('setup-1', 'Sign in to the workspace service', 'http://127.0.0.1:9/device?code=SETUP') },
				{ ask: url('setup-2', 'Link your account', 'http://127.0.0.1:10/link') },
				{ ask: url('setup-3', 'Approve the device', 'http://127.0.0.1:11/approve') },
				{ ask: url('setup-4', 'Confirm on your phone', 'http://127.0.0.1:12/confirm'), completeWhen: { file: join(scratch, 'setup-done'), elicitationId: 'setup-4' } },
			],
		],
	};
}

/** Every payload, in every place the chat shows agent text (test/vscode/suite/chat-xss lists them too). */
export const XSS_PAYLOADS = [
	'<script>window.__xss = "script"</script>',
	'<img src=x onerror="window.__xss = \'img\'">',
	'<svg onload="window.__xss = \'svg\'"><circle r=1 /></svg>',
	'[click me](javascript:window.__xss=\'link\')',
	'<a href="javascript:window.__xss=\'a\'">a link</a>',
	'<iframe src="javascript:window.__xss=\'iframe\'"></iframe>',
	'<iframe srcdoc="<script>parent.__xss=1</script>"></iframe>',
	'<style>body { display: none }</style>',
	'<details open ontoggle="window.__xss=\'details\'">x</details>',
	'<math><mtext><table><mglyph><style><img src=x onerror="window.__xss=\'math\'">',
	'<object data="javascript:window.__xss=\'object\'"></object>',
	'<form action="javascript:window.__xss=\'form\'"><button>go</button></form>',
	'[data link](data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==)',
	'![image](javascript:window.__xss=\'image\')',
	'<a href="&#106;avascript:window.__xss=\'entity\'">entity link</a>',
	'`<script>in code</script>`',
	'```html\n<script>window.__xss = "fenced"</script>\n<img src=x onerror=alert(1)>\n```',
];

function xssAgentOptions(file) {
	const all = XSS_PAYLOADS.join('\n\n');
	const update = (u) => u;
	return {
		chatTurn: [
			update({ sessionUpdate: 'session_info_update', title: '<img src=x onerror="window.__xss=\'title\'">' }),
			update({ sessionUpdate: 'available_commands_update', availableCommands: XSS_PAYLOADS.map((p, i) => ({ name: `cmd${i}<script>`, description: p, input: { hint: p } })) }),
			update({ sessionUpdate: 'agent_thought_chunk', content: { type: 'text', text: all } }),
			update({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: all } }),
			...XSS_PAYLOADS.map((p, i) =>
				update({
					sessionUpdate: 'tool_call',
					toolCallId: `xss-${i}`,
					title: p,
					kind: 'edit',
					status: 'completed',
					locations: [{ path: file, line: 1 }],
					content: [
						{ type: 'content', content: { type: 'text', text: p } },
						{ type: 'diff', path: file, oldText: `before ${p}\n`, newText: `after ${p}\n${p}\n` },
						{ type: 'content', content: { type: 'resource_link', uri: `javascript:window.__xss='resource'`, name: p } },
					],
					rawInput: { payload: p },
				}),
			),
			update({ sessionUpdate: 'plan', entries: XSS_PAYLOADS.map((p) => ({ content: p, priority: 'high', status: 'pending' })) }),
			update({ sessionUpdate: 'notice', severity: 'warning', title: XSS_PAYLOADS[1], description: XSS_PAYLOADS[0] }),
			{ permission: { toolCall: { toolCallId: 'xss-perm', title: XSS_PAYLOADS[2] }, options: [{ optionId: 'ok', name: XSS_PAYLOADS[0], kind: 'allow_once' }, { optionId: 'no', name: XSS_PAYLOADS[1], kind: 'reject_once' }] } },
		],
		sessionSetup: {
			configOptions: [{ id: 'model', name: XSS_PAYLOADS[0], type: 'select', currentValue: 'a', options: [{ value: 'a', name: XSS_PAYLOADS[1], description: XSS_PAYLOADS[2] }] }],
		},
	};
}

function nesContextSettings() {
	return {
		...TYPESCRIPT_LANGUAGE_SERVICE,
		// The tests count nes/suggest requests: only the ones they make by command.
		'agentLink.nes.disabledLanguages': ['typescript'],
		// Only the test's own diagnostics; definitions still come from the TypeScript extension.
		'typescript.validate.enable': false,
		// Nothing but the test may change the documents.
		'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
		'editor.suggestOnTriggerCharacters': false,
		'editor.acceptSuggestionOnEnter': 'off',
		'editor.formatOnType': false,
		'files.autoSave': 'off',
		'workbench.editor.enablePreview': false,
	};
}

function prepareNesContextWorkspace(workspace) {
	mkdirSync(join(workspace, 'src'), { recursive: true });
	writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext' }, include: ['src'] }, null, 2));
	writeFileSync(join(workspace, 'src', 'types.ts'), 'export interface Config {\n\tname: string;\n\tretries: number;\n}\n');
	writeFileSync(join(workspace, 'src', 'util.ts'), "import type { Config } from './types';\n\nexport function makeConfig(name: string): Config {\n\treturn { name, retries: 3 };\n}\n");
	writeFileSync(
		join(workspace, 'src', 'main.ts'),
		"import type { Config } from './types';\nimport { makeConfig } from './util';\n\nexport function run(): string {\n\tconst config: Config = makeConfig('demo');\n\treturn config.name;\n}\n\nexport const greeting = 'café 😀!';\n",
	);
	writeFileSync(join(workspace, 'src', 'other.ts'), "export const other = 'other';\n");
}

function oneProcessSettings(ctx) {
	const nes = { agentCapabilities: { nes: { events: { document: {} } } } };
	return {
		'agentLink.defaultAgent': 'Shared Agent',
		'agentLink.nes.agent': 'Shared Agent',
		'agentLink.agents': {
			'Shared Agent': ctx.fixtureAgent('well-behaved.mjs', { ...nes, pidLog: join(ctx.workspace, '.pids') }),
			'Other NES Agent': ctx.fixtureAgent('well-behaved.mjs', nes),
		},
	};
}

function prepareOneProcess(workspace) {
	writeFileSync(join(workspace, 'main.ts'), 'export const main = 1;\n');
}

export const suites = [
	{
		name: 'main',
		guests: ['registry', 'nes-display'],
		settings: () => ({ 'agentLink.trace': 'messages' }),
		prepare(workspace, ctx) {
			// A cloned repository trying to make the editor run its own program.
			const marker = join(workspace, 'pwned.txt');
			const evil = { command: ctx.node, args: ['-e', `require('fs').writeFileSync(${JSON.stringify(marker)}, 'ran')`] };
			mkdirSync(join(workspace, '.vscode'), { recursive: true });
			writeFileSync(
				join(workspace, '.vscode', 'settings.json'),
				JSON.stringify({ 'agentLink.agents': { 'Workspace Agent': evil, 'Fixture Agent': evil }, 'agentLink.defaultAgent': 'Workspace Agent', 'agentLink.maxMessageSize': 1 }, null, 2),
			);
			writeFileSync(join(workspace, 'hello.ts'), 'export const hello = 1;\n');
		},
	},
	{
		// Two agents at once: the NES agent (agentLink.nes.agent) beside the chat agent. editor-tools
		// runs in its window after it (its glob test lists the workspace's .ts files: this suite's own
		// file is JavaScript).
		name: 'nes-agents',
		guests: ['editor-tools'],
		settings: (ctx) => ({
			'agentLink.nes.agent': 'NES Fixture',
			'agentLink.agents': {
				'NES Fixture': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: { events: { document: {} } } } }),
				'Chat With NES': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: { events: { document: {} } } } }),
			},
		}),
		prepare(workspace) {
			writeFileSync(join(workspace, 'main.js'), 'export const main = 1;\n');
		},
	},
	{
		// The ACP Registry end to end through the keyboard: the test serves the registry and the agent's
		// archive on 127.0.0.1 itself and points agentLink.registry.url there.
		name: 'registry',
		prepare(workspace) {
			writeFileSync(join(workspace, 'hello.ts'), 'export const hello = 1;\n');
		},
	},
	{
		// Agent Link NES (built in) as a newcomer meets it: the packaged .vsix in a clean profile with no
		// agent installed, npm start's sample workspace and its README's steps.
		name: 'nes-builtin',
		vsix: true,
		guests: ['editor-tools-vsix'],
		settings: () => ({
			...TYPESCRIPT_LANGUAGE_SERVICE,
			'agentLink.nes.agent': 'Agent Link NES (built in)',
		}),
		prepare(workspace, ctx) {
			cpSync(join(ctx.root, 'samples', 'try-agent-link'), workspace, { recursive: true });
		},
	},
	{
		name: 'untrusted',
		trust: true,
		// The agents of one-process-trust, which runs in this window after it (and grants trust).
		guests: ['one-process-trust'],
		settings: oneProcessSettings,
		prepare: prepareOneProcess,
	},
	{
		// Chat sessions on the host side: the SDK's example agent, scripted agents side by side with
		// the NES agent, permissions, cancel, crashes.
		name: 'chat-sessions',
		settings: (ctx) => {
			const turn = [
				{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Working on it.' } },
				{ sessionUpdate: 'tool_call', toolCallId: 't1', title: 'Edit config', kind: 'edit', status: 'pending' },
				{ permission: { toolCall: { toolCallId: 't1', title: 'Edit config' }, options: [{ optionId: 'yes', name: 'Allow once', kind: 'allow_once' }, { optionId: 'no', name: 'Reject', kind: 'reject_once' }] } },
				{ sessionUpdate: 'tool_call_update', toolCallId: 't1', status: 'completed' },
			];
			return {
				'agentLink.nes.agent': 'Agent Link NES (built in)',
				// The terminal's text in the page's DOM (the WebGL renderer draws it on a canvas).
				'terminal.integrated.gpuAcceleration': 'off',
				'agentLink.agents': {
					'Chat A': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: turn }),
					// Its turn goes on until the test's go-ahead (a file), however long chat A's turn takes.
					'Chat B': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'B here.' } }, { waitForFile: join(ctx.workspace, '.chat-b-go') }, { sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: ' B done.' } }] }),
					'Chat Resumes': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { sessionCapabilities: { resume: {} } } }),
					'Chat Signs In': ctx.fixtureAgent('well-behaved.mjs', { chatAuthRequired: true, authMethods: [{ id: 'login', name: 'Log in' }] }),
					'Chat Terminal Sign-in': ctx.fixtureAgent('well-behaved.mjs', {
						chatAuthRequired: true,
						authFile: join(ctx.workspace, '.signed-in'),
						authMethods: [{ id: 'tui', name: 'Log in in a terminal', type: 'terminal', args: ['--login'], env: { FIXTURE_LOGIN_REALM: 'test realm' } }],
					}),
					// Sign Out of Agent (signout.test.ts): signed in with a kept env_var value; one without auth.logout; one whose logout fails.
					...Object.fromEntries(
						[
							['Chat Signs Out', { auth: { logout: {} } }, undefined],
							['Chat Keeps Sign-in', {}, undefined],
							['Chat Sign-out Fails', { auth: { logout: {} } }, { code: -32603, message: 'the token store is locked' }],
						].map(([name, agentCapabilities, logoutError]) => [
							name,
							ctx.fixtureAgent('well-behaved.mjs', {
								agentCapabilities,
								logoutError,
								chatAuthRequired: true,
								authEnv: { name: 'SIGN_OUT_KEY', value: 'sign-out-secret' },
								authMethods: [{ id: 'key', name: 'Use a key', type: 'env_var', vars: [{ name: 'SIGN_OUT_KEY' }] }],
							}),
						]),
					),
				},
			};
		},
		prepare(workspace) {
			writeFileSync(join(workspace, 'main.ts'), 'export const main = 1;\n');
		},
	},
	{
		// Claude Code, OpenCode, Gemini CLI and Qwen Code from npm (pinned in test/fixtures/real-agents/agents.mjs),
		// each against its scripted model server, in one window: whole turns through the chat panel with
		// real keys and clicks. Each runs behind the launcher, which logs every message and checks
		// Agent Link's against the ACP schema (the logs are beside the workspace: <agent>.jsonl).
		name: 'chat-real-agents',
		realAgents: true,
		// nes-sync after its own tests (it chooses its NES agents by name; none of its settings changes
		// what the real agents' tests see).
		guests: ['nes-sync'],
		settings: (ctx) => ({
			'agentLink.agents': realAgentDefinitions(ctx),
			// The chat agent (it starts with the window): among the quickest of the four to start.
			'agentLink.defaultAgent': 'Gemini CLI',
			'agentLink.trace': 'messages',
			'files.autoSave': 'off',
			'workbench.colorTheme': 'Default Light Modern',
		}),
		prepare(workspace, ctx) {
			copyFileSync(join(ctx.root, 'test', 'fixtures', 'real-agents', 'greet.js'), join(workspace, 'greet.js'));
		},
	},
	{
		// The chat panel end to end through the browser with real keys: a full turn with the SDK's
		// example agent from the palette (permission answered by keyboard), two agents side by side,
		// Stop, config options and slash commands, screenshots in both themes.
		name: 'chat-panel',
		// chat-turns after its own tests (its chats open by agent name; the same NES agent and theme).
		guests: ['chat-turns'],
		settings: (ctx) => ({
			...TYPESCRIPT_LANGUAGE_SERVICE,
			'agentLink.defaultAgent': 'SDK Example Agent',
			'agentLink.nes.agent': 'Agent Link NES (built in)',
			'agentLink.trace': 'messages',
			'agentLink.agents': { ...sharedAgents(ctx), ...chatPanelAgents(ctx) },
			'workbench.colorTheme': 'Default Light Modern',
		}),
		prepare(workspace) {
			mkdirSync(join(workspace, 'src'), { recursive: true });
			writeFileSync(join(workspace, 'src', 'config.json'), '{\n\t"name": "demo",\n\t"retries": 3\n}\n');
			writeFileSync(join(workspace, 'src', 'ledger.txt'), LEDGER);
			writeFileSync(join(workspace, 'src', 'same.txt'), 'unchanged\n');
			writeFileSync(join(workspace, 'README.md'), '# Demo\n');
			// A TypeScript project: the built-in TypeScript extension finds its symbols for @-mentions.
			writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext' }, include: ['src/**/*.ts'] }, null, 2));
			writeFileSync(join(workspace, 'src', 'shapes.ts'), 'export interface Circle {\n\tradius: number;\n}\n\nexport function circleArea(circle: Circle): number {\n\tconst r = circle.radius;\n\treturn Math.PI * r * r;\n}\n');
		},
	},
	{
		// OpenCtx providers (test/vscode/suite/openctx/providers.ts, served over HTTP by the test and
		// loaded as modules): annotations, hovers, chat mentions and items, NES related snippets.
		name: 'openctx',
		guests: ['chat-elicitation', 'chat-files', 'chat-xss', 'chat-remote'],
		settings: (ctx) => ({
			'agentLink.defaultAgent': 'OpenCtx Agent',
			// The chat agent serves next edit suggestions too.
			'agentLink.nes.agent': '',
			'agentLink.agents': {
				'OpenCtx Agent': ctx.fixtureAgent('well-behaved.mjs', {
					agentCapabilities: { promptCapabilities: { embeddedContext: true }, nes: { events: { document: {} }, context: { relatedSnippets: { maxCount: 3 } } } },
					chatTurn: [{ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: 'Read it.' } }],
				}),
			},
			'agentLink.nes.disabledLanguages': ['typescript'],
			'workbench.colorTheme': 'Default Light Modern',
			'editor.minimap.enabled': false,
			'workbench.editor.enablePreview': false,
		}),
		prepare: prepareOpenCtxWorkspace,
	},
	{
		// Annotations of three gated HTTP providers on a 5 000-line file: answers to marks and lenses
		// drawn; extension host time per keystroke with the providers on and off.
		name: 'bench-openctx',
		bench: true,
		settings: () => ({ 'editor.minimap.enabled': false, 'files.autoSave': 'off', 'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' }, 'agentLink.nes.enabled': false }),
	},
	{
		// Chat history across window reloads (phase 1 chats, phase 2 is a new window on the same
		// profile, phase 3 reloads its window through the browser): an agent that lists, loads and
		// deletes its sessions (kept in a file across its processes), one that only resumes, one that
		// can do neither; MCP servers from the settings in a transport each agent takes.
		name: 'chat-history',
		phases: 3,
		// In its last phase, after its own tests (chat-terminals before chat-sessions: it reads the terminal's first rows).
		guests: ['chat-terminals', 'chat-sessions'],
		settings: (ctx) => {
			const text = (t) => ({ sessionUpdate: 'agent_message_chunk', content: { type: 'text', text: t } });
			const scratch = join(ctx.workspace, '..');
			return {
				'agentLink.defaultAgent': 'History Lister',
				'agentLink.nes.agent': 'Agent Link NES (built in)',
				'agentLink.mcpServers': {
					files: { command: 'mcp-files', args: ['--root', '.'], env: { MCP_DEBUG: 1 } },
					web: { type: 'http', url: 'https://mcp.example.com/mcp', headers: { Authorization: 'Bearer fixture' } },
					events: { type: 'sse', url: 'http://127.0.0.1:9/sse' },
				},
				'agentLink.agents': {
					'History Lister': ctx.fixtureAgent('well-behaved.mjs', {
						agentCapabilities: { loadSession: true, sessionCapabilities: { list: {}, delete: {}, close: {} }, mcpCapabilities: { http: true } },
						sessionStore: join(scratch, 'lister-sessions.json'),
						listPageSize: 2,
						logFile: join(scratch, 'lister-messages.jsonl'),
						chatTurn: [text('Listed answer.')],
					}),
					'History Resumer': ctx.fixtureAgent('well-behaved.mjs', {
						agentCapabilities: { sessionCapabilities: { resume: {} }, mcpCapabilities: { http: true, sse: true } },
						sessionStore: join(scratch, 'resumer-sessions.json'),
						logFile: join(scratch, 'resumer-messages.jsonl'),
						chatTurn: [text('Resumed answer.')],
					}),
					'History Plain': ctx.fixtureAgent('well-behaved.mjs', {
						logFile: join(scratch, 'plain-messages.jsonl'),
						// It writes notes.md (a change the history counts), and shows a diff of README.md it never makes (one it does not).
						chatTurn: [
							{ sessionUpdate: 'tool_call', toolCallId: 'edit-1', title: 'Edit notes.md', kind: 'edit', status: 'in_progress', content: [{ type: 'diff', path: join(ctx.workspace, 'notes.md'), oldText: '# Notes\n', newText: '# Notes\n\nBuild with npm run build.\n' }] },
							{ ask: { method: 'fs/write_text_file', params: { path: join(ctx.workspace, 'notes.md'), content: '# Notes\n\nBuild with npm run build.\n' }, quiet: true } },
							{ sessionUpdate: 'tool_call_update', toolCallId: 'edit-1', status: 'completed' },
							{ sessionUpdate: 'tool_call', toolCallId: 'edit-2', title: 'Edit README.md', kind: 'edit', status: 'pending', content: [{ type: 'diff', path: join(ctx.workspace, 'README.md'), oldText: '', newText: '# Plain\n' }] },
							text('Plain answer: the build runs esbuild.'),
						],
					}),
				},
				'workbench.colorTheme': 'Default Light Modern',
			};
		},
		prepare(workspace) {
			writeFileSync(join(workspace, 'notes.md'), '# Notes\n');
		},
	},
	{
		// Elicitations (elicitation/create): a form in a tool call filled by keyboard, one declined, a URL opened by a
		// click and completed, one cancelled with the turn; a form's typed values kept across the page loaded again; a URL
		// asked out of sight; a form and URLs asked before any session (test/vscode/suite/chat-elicitation).
		name: 'chat-elicitation',
		settings: (ctx) => ({
			'agentLink.defaultAgent': 'Elicit Agent',
			'agentLink.nes.agent': '',
			'agentLink.agents': {
				'Elicit Agent': ctx.fixtureAgent('well-behaved.mjs', elicitAgentOptions(join(dirname(ctx.workspace), 'elicit-messages.jsonl'))),
				'Elicit Agent B': ctx.fixtureAgent('well-behaved.mjs', laterElicitAgentOptions(join(dirname(ctx.workspace), 'elicit-b-messages.jsonl'))),
				'Setup Agent': ctx.fixtureAgent('well-behaved.mjs', setupAgentOptions(join(dirname(ctx.workspace), 'setup-messages.jsonl'))),
			},
			'workbench.colorTheme': 'Default Light Modern',
		}),
	},
	{
		// Agent content that tries to run: every payload in every place the page shows agent text.
		name: 'chat-xss',
		settings: (ctx) => ({ 'agentLink.agents': { 'XSS Agent': ctx.fixtureAgent('well-behaved.mjs', xssAgentOptions(join(ctx.workspace, 'target.ts'))) } }),
		prepare(workspace) {
			writeFileSync(join(workspace, 'target.ts'), 'export const target = 1;\n');
		},
	},
	{
		// Review of an agent's changes to a 5 000-line file with 200 changed blocks: the diff editor open.
		name: 'bench-review',
		bench: true,
		settings: () => ({}),
	},
	{
		// The chat page under load: 20 000 streamed chunks, a 2 000-message transcript scrolled.
		name: 'bench-chat',
		bench: true,
		settings: (ctx) => ({
			'agentLink.agents': {
				'Stream Agent': ctx.fixtureAgent('well-behaved.mjs', { chatTurn: [{ stream: { count: 20_000, text: 'word ', paragraphEvery: 40 } }] }),
				'Long Agent': ctx.fixtureAgent('well-behaved.mjs', {
					chatTurn: [
						{
							conversation: {
								count: 1000,
								user: 'A question about the code, a line or two long.',
								agent: 'An answer with `code`, **bold** text and a [link](https://example.com), long enough to wrap on a narrow side bar.\n\n```ts\nconst answer = 42;\n```\n\n- one point\n- another point',
							},
						},
					],
				}),
			},
		}),
	},
	{
		// Agents on another machine (url entries): the SDK's AcpServer on loopback in front of the fixture
		// agent, started by the suite, over WebSocket and Streamable HTTP; a token asked for in a password
		// box; a connection dropped mid-turn and the chat resumed; next edit suggestions from a remote agent.
		name: 'chat-remote',
		settings: () => ({
			'agentLink.defaultAgent': 'Fixture Agent',
			'agentLink.trace': 'messages',
			// Nothing but the test and the agent may change the documents (the NES test types in an editor).
			'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
			'editor.suggestOnTriggerCharacters': false,
			'editor.wordBasedSuggestions': 'off',
		}),
		prepare(workspace) {
			writeFileSync(join(workspace, 'README.md'), '# Remote\n');
		},
	},
	{
		// A new chat in a multi-root workspace: the folder it runs in, picked with the keyboard, or none.
		name: 'chat-folders',
		folders: ['api', 'web app'],
		settings: (ctx) => ({
			'agentLink.defaultAgent': 'Fixture Agent',
			'agentLink.agents': {
				// Takes additionalDirectories; its turn reads, writes and runs a command in the other folder (folders.test.ts).
				'Folders Agent': ctx.fixtureAgent('well-behaved.mjs', {
					agentCapabilities: { sessionCapabilities: { additionalDirectories: {}, resume: {} } },
					chatTurn: [
						{ ask: { method: 'fs/read_text_file', params: { path: join(ctx.workspace, 'web app', 'index.html') } } },
						{ ask: { method: 'fs/write_text_file', params: { path: join(ctx.workspace, 'web app', 'notes.txt'), content: 'written from the api chat\n' } } },
						{ terminal: { create: { command: ctx.node, args: ['-e', 'console.log("ran in " + process.cwd())'], cwd: join(ctx.workspace, 'web app') }, then: 'wait' } },
					],
				}),
			},
		}),
		prepare(workspace) {
			writeFileSync(join(workspace, 'api', 'server.ts'), 'export const port = 8080;\n');
			writeFileSync(join(workspace, 'web app', 'index.html'), '<!doctype html>\n');
		},
	},
	{
		// Terminals for chat sessions (terminal/*): real processes, output limits, kill and release, live
		// in the tool call and as a VS Code terminal, and no process left once its session is over.
		name: 'chat-terminals',
		settings: (ctx) => ({
			'agentLink.agents': chatTerminalAgents(ctx),
			// The terminal's text in the page's DOM (the WebGL renderer draws it on a canvas).
			'terminal.integrated.gpuAcceleration': 'off',
		}),
		prepare(workspace) {
			mkdirSync(join(workspace, 'sub'), { recursive: true });
			writeFileSync(join(workspace, 'run-tests.mjs'), RUN_TESTS_SCRIPT);
		},
	},
	{
		// Agent Link's editor tools (an MCP server in every chat session), met by scripted agents that
		// connect to it as session/new says: one over HTTP (it declares mcpCapabilities.http), one through
		// the stdio bridge; a TypeScript workspace gives real diagnostics, definitions and references.
		name: 'editor-tools',
		settings: (ctx) => ({
			...TYPESCRIPT_LANGUAGE_SERVICE,
			'agentLink.agents': editorToolsAgents(ctx),
			'files.exclude': { '**/.git': true, '**/hidden': true },
			'workbench.editor.enablePreview': false,
			'workbench.colorTheme': 'Default Light Modern',
		}),
		prepare: prepareEditorToolsWorkspace,
	},
	{
		// The same agents against the packaged extension: the .vsix carries the server and the bridge.
		name: 'editor-tools-vsix',
		vsix: true,
		settings: (ctx) => ({ ...TYPESCRIPT_LANGUAGE_SERVICE, 'agentLink.agents': editorToolsAgents(ctx) }),
		prepare: prepareEditorToolsWorkspace,
	},
	{
		// Tool call round trips (agent to answer) for stat and get_diagnostics in a 2 000-file workspace.
		name: 'bench-editor-tools',
		bench: true,
		settings: (ctx) => ({ 'agentLink.agents': editorToolsAgents(ctx) }),
		prepare(workspace) {
			prepareEditorToolsWorkspace(workspace);
			for (let d = 0; d < 20; d++) {
				mkdirSync(join(workspace, 'src', 'gen', `d${d}`), { recursive: true });
				for (let i = 0; i < 100; i++) {
					writeFileSync(join(workspace, 'src', 'gen', `d${d}`, `m${i}.ts`), `export const v${d}_${i}: number = ${i};\nexport function f${d}_${i}(x: number): number {\n\treturn x + v${d}_${i};\n}\n`);
				}
			}
		},
	},
	{
		// The history with 500 stored chats: phase 1 stores them, phase 2 (a new window) opens the
		// history from the palette and times it to the rows drawn in the browser.
		name: 'bench-chat-history',
		bench: true,
		phases: 2,
	},
	{
		// The agent reads files through the editor (fs/read_text_file) for its chat sessions.
		name: 'chat-files',
		settings: () => ({ 'agentLink.defaultAgent': 'Fixture Agent', 'files.autoSave': 'off' }),
		prepare(workspace) {
			mkdirSync(join(workspace, 'src'), { recursive: true });
			writeFileSync(join(workspace, 'src', 'notes.txt'), 'first\nsecond\nthird\nfourth\n');
			writeFileSync(join(workspace, 'src', 'open.ts'), 'export const saved = 1;\n');
		},
	},
	{
		// What a turn changed, whoever wrote it (agents that write files themselves, a shell command):
		// listed, reviewed, and undone per turn, through the browser.
		name: 'chat-turns',
		settings: (ctx) => ({
			'agentLink.defaultAgent': 'Turn Editor',
			'agentLink.nes.agent': 'Agent Link NES (built in)',
			'agentLink.agents': chatTurnAgents(ctx),
			'files.autoSave': 'off',
			'workbench.colorTheme': 'Default Light Modern',
		}),
		prepare: prepareTurnWorkspace,
	},
	{
		// One agent for everything: the window opens with both roles naming the same agent, which
		// writes its pid to .pids in the workspace each time a process of it starts.
		name: 'one-process',
		settings: oneProcessSettings,
		prepare: prepareOneProcess,
	},
	{
		// The same, opened untrusted: nothing starts until trust is granted through the workbench.
		name: 'one-process-trust',
		trust: true,
		settings: oneProcessSettings,
		prepare: prepareOneProcess,
	},
	{
		name: 'nes-session',
		settings: (ctx) => ({
			'agentLink.agents': {
				'NES Merged': ctx.fixtureAgent('well-behaved.mjs', {
					agentCapabilities: { nes: { events: { document: { didOpen: {} } } } },
					logFile: join(ctx.workspace, '.agent-messages.jsonl'),
				}),
				'NES Seed': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: { events: { didOpen: {} } } } }),
				'NES Auth': ctx.fixtureAgent('well-behaved.mjs', {
					agentCapabilities: { nes: { events: { document: {} } } },
					nesAuthRequired: true,
					authMethods: [{ id: 'browser-login', name: 'Log in with a browser', description: 'Opens a browser' }],
				}),
				'NES Invalid': ctx.fixtureAgent('well-behaved.mjs', { agentCapabilities: { nes: { events: { document: { didChange: { syncKind: 'sometimes' } } } } } }),
			},
		}),
		prepare(workspace) {
			writeFileSync(join(workspace, 'main.ts'), 'export {};\n');
			const git = (...args) => execFileSync('git', args, { cwd: workspace, stdio: 'ignore' });
			git('init', '-q');
			git('remote', 'add', 'origin', 'https://example.com/alice/my-app.git');
		},
	},
	{
		// nes/suggest context: an agent per context key and revision, plus all keys in utf-8.
		name: 'nes-context',
		settings: (ctx) => ({ ...nesContextSettings(), 'agentLink.agents': nesContextAgents(ctx) }),
		prepare: prepareNesContextWorkspace,
	},
	{
		// Context recording per keystroke and nes/suggest build time in a 20 000-line file.
		name: 'bench-nes-context',
		bench: true,
		settings: (ctx) => ({ ...nesContextSettings(), 'agentLink.agents': nesContextAgents(ctx) }),
		prepare(workspace) {
			prepareNesContextWorkspace(workspace);
			const line = (i) => `export const value${i} = makeConfig('item ${i}').retries + ${i}; // line ${i}\n`;
			writeFileSync(join(workspace, 'src', 'big.ts'), `import { makeConfig } from './util';\n${Array.from({ length: 19_999 }, (_, i) => line(i)).join('')}`);
		},
	},
	{
		name: 'bench-activation',
		bench: true,
	},
	{
		// Editor state for agents (workspace/open_documents, recent_documents, active_document).
		// Phase 2 restarts VS Code on the same profile: recent documents and restored tabs.
		name: 'editor-state',
		phases: 2,
		// In its last phase, after its own tests.
		guests: ['nes-context', 'nes-session'],
		settings: (ctx) => ({
			'files.associations': { '*.special': 'json' },
			'agentLink.agents': {
				'Editor State Agent': ctx.fixtureAgent('editor-state-agent.mjs', { agentCapabilities: { nes: { events: { document: {} } } } }),
			},
		}),
		prepare(workspace) {
			const files = {
				'a.ts': 'export const a = 1;\n',
				'b.md': '# b\n',
				'c.json': '{}\n',
				'left.txt': 'left\n',
				'right.txt': 'right\n',
				'doomed.ts': 'export {};\n',
				'with space.ts': 'export {};\n',
				'hash#1.ts': 'export {};\n',
				'percent%41.ts': 'export {};\n',
				'ünïcødé 日本.md': '# ü\n',
				script: '#!/bin/bash\necho hi\n',
				'data.special': '{}\n',
				'tsconfig.json': '{}\n',
			};
			for (const [name, text] of Object.entries(files)) {
				writeFileSync(join(workspace, name), text);
			}
		},
	},
	{
		// Time per editor state call with 200 open tabs and a full recent list.
		name: 'bench-editor-state',
		bench: true,
		settings: (ctx) => ({
			'agentLink.agents': {
				'Editor State Agent': ctx.fixtureAgent('editor-state-agent.mjs', { agentCapabilities: { nes: { events: { document: {} } } } }),
			},
		}),
		prepare(workspace) {
			mkdirSync(join(workspace, 'src'), { recursive: true });
			for (let i = 0; i < 260; i++) {
				writeFileSync(join(workspace, 'src', `file ${String(i).padStart(3, '0')}.ts`), `export const n${i} = ${i};\n`);
			}
		},
	},
	{
		// 100 000 hostile lines from an agent, then a valid request: lines/s and that request's latency; the
		// same with most lines valid requests, and another agent's chat and suggestions meanwhile.
		name: 'bench-hostile-flood',
		bench: true,
		settings: (ctx) => ({
			'agentLink.agents': {
				'Hostile Flood Agent': ctx.fixtureAgent('hostile-flood-agent.mjs', { agentCapabilities: { nes: { events: { document: {} } } } }),
				// The other agent of the mostly-valid flood: a chat turn of 2 000 chunks, and a suggestion at once.
				'Peer Agent': ctx.fixtureAgent('nes-scripted-agent.mjs', {
					revision: 'merged',
					autoInsert: ' // next',
					chatTurn: [{ stream: { count: 2000, text: 'word ', paragraphEvery: 40 } }],
				}),
			},
			'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
			'editor.suggestOnTriggerCharacters': false,
			'editor.wordBasedSuggestions': 'off',
			'files.autoSave': 'off',
		}),
		prepare(workspace) {
			writeFileSync(join(workspace, 'main.ts'), 'export const main = 1;\n');
			mkdirSync(join(workspace, 'src'), { recursive: true });
			const line = (i) => `export const value${i} = compute('item ${i}') + ${i}; // line ${i}\n`;
			writeFileSync(join(workspace, 'src', 'peer.ts'), Array.from({ length: 1000 }, (_, i) => line(i)).join(''));
		},
	},
	{
		// Next edit suggestions shown in the editor, driven through the browser with real key presses
		// (test/vscode/runner/bridge.mjs), against a scripted NES agent per revision.
		name: 'nes-display',
		settings: (ctx) => ({
			...TYPESCRIPT_LANGUAGE_SERVICE,
			'agentLink.agents': {
				'NES Display merged': ctx.fixtureAgent('nes-scripted-agent.mjs', { revision: 'merged', logFile: join(ctx.workspace, '.agent-messages.jsonl') }),
				'NES Display seed': ctx.fixtureAgent('nes-scripted-agent.mjs', { revision: 'seed' }),
			},
			// Nothing but the test and the agent may change the documents.
			'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
			'editor.suggestOnTriggerCharacters': false,
			'editor.wordBasedSuggestions': 'off',
			'editor.acceptSuggestionOnEnter': 'off',
			'editor.autoClosingBrackets': 'never',
			'editor.autoClosingQuotes': 'never',
			'editor.formatOnType': false,
			'editor.insertSpaces': false,
			'editor.detectIndentation': false,
			'editor.minimap.enabled': false,
			'files.autoSave': 'off',
			'workbench.editor.enablePreview': false,
			'workbench.colorTheme': 'Default Light Modern',
		}),
		prepare(workspace) {
			mkdirSync(join(workspace, 'src'), { recursive: true });
			// A TypeScript project for the rename tests, one pair of files per revision.
			writeFileSync(join(workspace, 'tsconfig.json'), JSON.stringify({ compilerOptions: { strict: true, target: 'es2020', module: 'esnext' }, include: ['src/**/*.ts'] }, null, 2));
			for (const revision of ['merged', 'seed']) {
				writeFileSync(join(workspace, 'src', `lib-${revision}.ts`), 'export function computeTotal(values: number[]): number {\n\treturn values.reduce((a, b) => a + b, 0);\n}\n');
				writeFileSync(join(workspace, 'src', `use-${revision}.ts`), `import { computeTotal } from './lib-${revision}';\n\nexport const total = computeTotal([1, 2, 3]);\n`);
			}
		},
	},
	{
		// Answer to visible, host time per automatic trigger and keystroke to ghost text in a
		// 20 000-line file, with an agent that answers at once.
		name: 'bench-nes-display',
		bench: true,
		settings: (ctx) => ({
			'agentLink.agents': { 'NES Instant': ctx.fixtureAgent('nes-scripted-agent.mjs', { revision: 'merged', autoInsert: ' // next' }) },
			'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
			'editor.suggestOnTriggerCharacters': false,
			'editor.wordBasedSuggestions': 'off',
			'files.autoSave': 'off',
		}),
		prepare(workspace) {
			mkdirSync(join(workspace, 'src'), { recursive: true });
			const line = (i) => `export const value${i} = compute('item ${i}') + ${i}; // line ${i}\n`;
			writeFileSync(join(workspace, 'src', 'big.ts'), Array.from({ length: 20_000 }, (_, i) => line(i)).join(''));
		},
	},
	{
		// NES document events: a mirror agent per revision × sync kind × encoding, edited at random.
		name: 'nes-sync',
		settings: (ctx) => {
			const agents = {};
			for (const revision of ['merged', 'seed']) {
				for (const syncKind of ['incremental', 'full']) {
					for (const positionEncoding of ['utf-16', 'utf-8', 'utf-32']) {
						// The seed agent leaves utf-16 unsaid: the default must be utf-16.
						const encoding = revision === 'seed' && positionEncoding === 'utf-16' ? {} : { positionEncoding };
						agents[`Mirror ${revision} ${syncKind} ${positionEncoding}`] = ctx.fixtureAgent('nes-mirror-agent.mjs', { revision, syncKind, ...encoding });
					}
				}
				agents[`Mirror ${revision} didOpen only`] = ctx.fixtureAgent('nes-mirror-agent.mjs', { revision, events: ['didOpen'] });
			}
			return {
				'agentLink.agents': agents,
				// 51.2 KiB, so the size-limit test needs no multi-MiB files.
				'agentLink.nes.maxFileSize': 0.05,
				// The tests check every message the agents get: no automatic suggestions in their files.
				'agentLink.nes.disabledLanguages': ['python', 'markdown', 'plaintext'],
				// Nothing but the test may change the documents.
				'editor.quickSuggestions': { other: 'off', comments: 'off', strings: 'off' },
				'editor.suggestOnTriggerCharacters': false,
				'editor.acceptSuggestionOnEnter': 'off',
				'editor.formatOnType': false,
				'files.autoSave': 'off',
				'files.insertFinalNewline': false,
				'files.trimTrailingWhitespace': false,
				'workbench.editor.enablePreview': false,
			};
		},
		prepare(workspace) {
			const lines = (n, line) => Array.from({ length: n }, (_, i) => line(i));
			writeFileSync(join(workspace, 'main.py'), lines(40, (i) => `def f${i}(x):\n    return x * ${i}  # value ${i}\n`).join(''));
			writeFileSync(join(workspace, 'crlf.txt'), lines(30, (i) => `Line ${i}\twith CRLF endings, some words here.\r\n`).join(''));
			const unicode = ['Emoji 😀 and 👍🏽 and a family 👨‍👩‍👧 here', 'Combining: e\u0301te\u0301, n\u0303, a\u0308\u0304', 'CJK 中文字符 and 한국어 and かな', 'Math 𝄞 𝔸 𝟘 and € £ ß', 'Mixed: a😀b\u0301中'];
			writeFileSync(join(workspace, 'unicode.md'), lines(30, (i) => `${unicode[i % unicode.length]} ${i}\n`).join(''));
			writeFileSync(join(workspace, 'closing.txt'), 'A file to close.\n');
			writeFileSync(join(workspace, 'big.txt'), lines(1000, (i) => `${String(i).padStart(6, '0')} ${'x'.repeat(53)}\n`).join('')); // 60 000 bytes
			writeFileSync(join(workspace, 'grows.txt'), lines(800, (i) => `${String(i).padStart(6, '0')} ${'y'.repeat(53)}\n`).join('')); // 48 000 bytes
		},
	},
];
