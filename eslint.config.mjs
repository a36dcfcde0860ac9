// Lint rules, including the layering of src/: common (pure) <- node (process, stdio) <- vscode (features), and
// common <- nes-agent (Agent Link's NES agent, a program of its own; its engines are pure).
// Imports run one way; a rule the build checks beats a rule in a document. The layering uses ESLint's
// own no-restricted-imports with patterns on relative paths (no resolver plugin needed).
import tseslint from 'typescript-eslint';

/** A relative import that climbs into one of the given top-level folders of src/. */
const layer = (...names) => `^(\\.\\./)+(${names.join('|')})(/|$)`;

/** The NES agent's pure parts: engine 1, the model's prompt formats and its diff into edits. */
const nesAgentPure = ['src/nes-agent/engines/**/*.ts', 'src/nes-agent/model/formats/**/*.ts', 'src/nes-agent/model/edits.ts'];

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'stream', 'net', 'url', 'util', 'crypto', 'events', 'process'];

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '*.vsix', 'samples/**'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		languageOptions: { parserOptions: { projectService: true } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-console': 'error',
			eqeqeq: ['error', 'always'],
		},
	},
	{
		// The house's sizes: no source file over 500 lines, no function over 80.
		files: ['src/**/*.ts'],
		rules: {
			'max-lines': ['error', { max: 500 }],
			'max-lines-per-function': ['error', { max: 80 }],
		},
	},
	{
		files: ['src/common/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'src/common is pure: no vscode API.' }],
					patterns: [
						{ group: nodeBuiltins, message: 'src/common is pure: no Node built-ins.' },
						{ regex: layer('node', 'vscode', 'webview', 'nes-agent'), message: 'src/common is pure: it imports no other layer.' },
					],
				},
			],
		},
	},
	{
		// The chat's model and messages are bundled into the webview as well as the extension: besides
		// src/common, only zod/mini, and the ACP SDK as types (its code would weigh on the page).
		files: ['src/common/chat/**/*.ts'],
		rules: {
			'no-restricted-imports': 'off',
			'@typescript-eslint/no-restricted-imports': [
				'error',
				{
					paths: [{ name: '@agentclientprotocol/sdk', allowTypeImports: true, message: 'src/common/chat runs in the webview too: the ACP SDK as types only (import type).' }],
					patterns: [
						{ regex: '^(\\.\\./){2,}', message: 'src/common/chat imports nothing outside src/common.' },
						// No vscode, no Node built-ins, no other package.
						{ regex: '^(?!\\.|zod/mini$|@agentclientprotocol/sdk$)', message: 'src/common/chat runs in the webview too: it imports only src/common, zod/mini and the ACP SDK (types).' },
					],
				},
			],
		},
	},
	{
		files: ['src/node/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'src/node must not use the vscode API.' }],
					patterns: [{ regex: layer('vscode', 'webview', 'nes-agent'), message: 'src/node must not depend on the vscode, webview or nes-agent layers.' }],
				},
			],
		},
	},
	{
		files: ['src/nes-agent/**/*.ts'],
		ignores: nesAgentPure,
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'The NES agent is a program of its own: no vscode API.' }],
					patterns: [{ regex: layer('node', 'vscode', 'webview'), message: 'The NES agent may use src/common only.' }],
				},
			],
		},
	},
	{
		files: nesAgentPure,
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'The NES agent is a program of its own: no vscode API.' }],
					patterns: [
						{ group: nodeBuiltins, message: 'Engines and prompt formats are pure functions over plain data: no Node built-ins.' },
						{ regex: layer('node', 'vscode', 'webview'), message: 'The NES agent may use src/common only.' },
					],
				},
			],
		},
	},
	{
		// The chat page shares only the chat's messages, transcript model and mirror with the host (src/common/chat),
		// and uses only the packages it bundles: no vscode, no Node built-ins, nothing else of src/.
		files: ['src/webview/**/*.ts'],
		rules: {
			'no-restricted-imports': [
				'error',
				{
					paths: [{ name: 'vscode', message: 'The webview runs in a browser: it talks to the host through messages.' }],
					patterns: [
						{ group: nodeBuiltins, message: 'The webview runs in a browser.' },
						{ regex: '^(\\.\\./){2,}(?!common/chat/(messages|transcriptModel|transcriptMirror|elicitationForm)$)', message: 'The webview may import only the chat messages, the transcript model, its mirror and the elicitation form check from src/common/chat.' },
						{ regex: '^(?!\\.|markdown-it$|dompurify$|diff$|highlight\\.js/lib/)', message: 'The webview bundles only markdown-it, dompurify, diff and highlight.js.' },
					],
				},
			],
		},
	},
	{
		files: ['test/**/*.ts', 'bench/**/*.ts'],
		rules: {
			'no-console': 'off',
			'@typescript-eslint/no-non-null-assertion': 'off',
			'@typescript-eslint/no-floating-promises': ['error', { allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['describe', 'it', 'test', 'before', 'after', 'beforeEach', 'afterEach'] }] }],
		},
	},
	{
		files: ['**/*.mjs', '**/*.js', '**/*.cjs'],
		languageOptions: { globals: { process: 'readonly', console: 'readonly', Buffer: 'readonly', setTimeout: 'readonly', clearTimeout: 'readonly', URL: 'readonly', require: 'readonly', module: 'writable', __dirname: 'readonly' } },
		rules: { '@typescript-eslint/no-require-imports': 'off' },
	},
);
