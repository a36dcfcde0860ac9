// Lint rules, including the layering of src/: common (pure) <- node (process, stdio) <- vscode (features).
// Imports run one way; a rule the build checks beats a rule in a document.
import tseslint from 'typescript-eslint';
import importX, { createNodeResolver } from 'eslint-plugin-import-x';

const nodeBuiltins = ['node:*', 'fs', 'path', 'os', 'child_process', 'stream', 'net', 'url', 'util', 'crypto', 'events', 'process'];

export default tseslint.config(
	{ ignores: ['dist/**', 'out/**', 'node_modules/**', '.vscode-test/**', '*.vsix'] },
	...tseslint.configs.recommended,
	{
		files: ['**/*.ts'],
		plugins: { 'import-x': importX },
		settings: { 'import-x/resolver-next': [createNodeResolver({ extensions: ['.ts', '.js', '.mjs'] })] },
		languageOptions: { parserOptions: { projectService: true } },
		rules: {
			'@typescript-eslint/no-floating-promises': 'error',
			'@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports' }],
			'@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
			'no-console': 'error',
			eqeqeq: ['error', 'always'],
			'import-x/no-restricted-paths': [
				'error',
				{
					zones: [
						{ target: './src/common', from: ['./src/node', './src/vscode', './src/webview'], message: 'src/common is pure: it imports no other layer.' },
						{ target: './src/node', from: ['./src/vscode', './src/webview'], message: 'src/node must not depend on the vscode or webview layers.' },
						{ target: './src/webview', from: ['./src/node', './src/vscode'], message: 'The webview runs in a browser: only src/common may be shared.' },
					],
				},
			],
		},
	},
	{
		files: ['src/common/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { paths: ['vscode'], patterns: [{ group: nodeBuiltins, message: 'src/common is pure: no Node built-ins.' }] }],
		},
	},
	{
		files: ['src/node/**/*.ts'],
		rules: {
			'no-restricted-imports': ['error', { paths: [{ name: 'vscode', message: 'src/node must not use the vscode API.' }] }],
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
