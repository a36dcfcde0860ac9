// One esbuild script for everything that ships or runs in tests:
//   dist/extension.js          the extension (node, cjs, `vscode` external), minified with source maps
//   dist/archive.js            tar and zip reading, loaded by the extension on a registry agent's first install
//   dist/editor-tools.js       the editor tools' MCP server (with the MCP SDK) and their answers, loaded when the first chat session starts
//   dist/openctx.js            the OpenCtx client, annotations and selectors (with picomatch), loaded once a provider is configured
//   dist/history-picker.js     the chat history picker, loaded when it is first shown
//   dist/mcp-bridge.js         the stdio bridge to it, a tiny program agents start with the editor's runtime
//   dist/remote.js             the remote agents' transport (the ACP SDK's HTTP and WebSocket clients, ws), loaded on first use
//   dist/nes-agent.js          Agent Link's NES agent, a program of its own (node, cjs, the ACP SDK bundled in)
//   dist/webview/chat.js       the chat page (browser, ESM; the highlighter is a chunk beside it, loaded on
//                              first use), with the codicon font copied beside it
//   out/test/**.test.js         unit and protocol tests (plain Node)
//   out/test/vscode/suite/*.js  the suite that runs inside VS Code's extension host
//   out/bench/*.js              benchmarks (and the NES eval replay and gate fitting they share)
// The bundles marked `ships` are what the packaged extension holds: `npm start`, `npm run package`
// and the start test tier build them with --shipped, so no list of them is written anywhere else.
// Flags: --dev (no minification), --watch, --shipped (only what ships), --only=extension[,nes-agent,webview,tests].
import * as esbuild from 'esbuild';
import { copyFileSync, mkdirSync, readFileSync, readdirSync, statSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const args = new Set(process.argv.slice(2));
const dev = args.has('--dev');
const watch = args.has('--watch');
const shippedOnly = args.has('--shipped');
const only = [...args].find((a) => a.startsWith('--only='))?.slice('--only='.length).split(',');

function files(dir, test) {
	const abs = join(root, dir);
	try {
		statSync(abs);
	} catch {
		return [];
	}
	const out = [];
	for (const entry of readdirSync(abs, { withFileTypes: true })) {
		const rel = join(dir, entry.name);
		if (entry.isDirectory()) {
			out.push(...files(rel, test));
		} else if (test(entry.name)) {
			out.push(join(root, rel));
		}
	}
	return out;
}

const common = {
	bundle: true,
	platform: 'node',
	format: 'cjs',
	target: 'node20',
	sourcemap: true,
	logLevel: 'warning',
	// The SDK is ESM and uses import.meta in places we never reach from CJS.
	define: { 'import.meta.url': '__importMetaUrl' },
	banner: { js: "const __importMetaUrl = require('url').pathToFileURL(__filename).href;" },
};

/**
 * A module the extension loads on first use, from a bundle of its own beside extension.js: the
 * `specifier` imported from `importer` (a path under src/) is left to `require` at run time, as
 * `./<output>`.
 */
function lazyBundle(name, specifier, importer, output) {
	const filter = new RegExp(`^${specifier.replace(/[./]/g, (c) => `\\${c}`)}$`);
	return {
		name: `lazy-${name}`,
		setup(build) {
			build.onResolve({ filter }, (args) => (args.importer.endsWith(join('src', ...importer.split('/'))) ? { path: `./${output}`, external: true } : undefined));
		},
	};
}

const lazyBundles = [
	// The archive readers (tar, yauzl): needed only when a registry agent is installed.
	lazyBundle('archive', './archive', 'node/registryClient.ts', 'archive.js'),
	// The editor tools' MCP server (with the MCP SDK): needed once a chat session starts. The stdio
	// bridge agents run is dist/mcp-bridge.js.
	lazyBundle('editor-tools', './lazy', 'vscode/editorTools/editorTools.ts', 'editor-tools.js'),
	// The OpenCtx client, its annotations and selectors (with picomatch): needed once a provider is configured.
	lazyBundle('openctx', './lazy', 'vscode/openctx/feature.ts', 'openctx.js'),
	// The remote transport (the ACP SDK's HTTP and WebSocket clients, ws): needed when a remote agent connects.
	lazyBundle('remote', './remoteTransport', 'node/agentHandle.ts', 'remote.js'),
	// The chat history picker: needed when a person opens the history.
	lazyBundle('history-picker', './chat/historyPicker', 'vscode/extension.ts', 'history-picker.js'),
];

const builds = [
	{
		name: 'extension',
		ships: true,
		options: {
			...common,
			entryPoints: {
				extension: join(root, 'src/vscode/extension.ts'),
				archive: join(root, 'src/node/archive.ts'),
				'editor-tools': join(root, 'src/vscode/editorTools/lazy.ts'),
				'history-picker': join(root, 'src/vscode/chat/historyPicker.ts'),
				openctx: join(root, 'src/vscode/openctx/lazy.ts'),
				'mcp-bridge': join(root, 'src/node/editorTools/bridge.ts'),
				remote: join(root, 'src/node/remoteTransport.ts'),
			},
			outdir: join(root, 'dist'),
			external: ['vscode'],
			plugins: lazyBundles,
			minify: !dev,
			keepNames: false,
			metafile: true,
			sourcesContent: false,
		},
	},
	{
		name: 'nes-agent',
		ships: true,
		options: {
			...common,
			entryPoints: { 'nes-agent': join(root, 'src/nes-agent/main.ts') },
			outdir: join(root, 'dist'),
			minify: !dev,
			metafile: true,
			sourcesContent: false,
			define: { ...common.define, AGENT_LINK_VERSION: JSON.stringify(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version) },
		},
	},
	{
		name: 'webview',
		ships: true,
		options: {
			bundle: true,
			platform: 'browser',
			format: 'esm',
			splitting: true,
			target: 'es2022',
			entryPoints: { chat: join(root, 'src/webview/chat/main.ts') },
			outdir: join(root, 'dist', 'webview'),
			chunkNames: '[name]-[hash]',
			minify: !dev,
			sourcemap: true,
			sourcesContent: false,
			metafile: true,
			logLevel: 'warning',
		},
		/** The codicon font and its stylesheet, from @vscode/codicons, beside the page's script. */
		assets() {
			const from = join(root, 'node_modules', '@vscode', 'codicons', 'dist');
			mkdirSync(join(root, 'dist', 'webview'), { recursive: true });
			for (const file of ['codicon.css', 'codicon.ttf']) {
				copyFileSync(join(from, file), join(root, 'dist', 'webview', file));
			}
		},
	},
	{
		name: 'tests',
		options: {
			...common,
			entryPoints: [
				...files('test/unit', (n) => n.endsWith('.test.ts')),
				...files('test/protocol', (n) => n.endsWith('.test.ts')),
				...files('test/vscode/suite', (n) => n.endsWith('.ts')),
				...files('bench', (n) => n.endsWith('.ts')),
			],
			outbase: root,
			outdir: join(root, 'out'),
			external: ['vscode', 'mocha', 'fast-check', 'vscode-languageclient', 'vscode-languageclient/*'],
		},
	},
];

if (only?.some((name) => !builds.some((b) => b.name === name))) {
	console.error(`--only: unknown bundle in ${only.join(',')} (the bundles: ${builds.map((b) => b.name).join(', ')})`);
	process.exit(2);
}

if (!watch && !only && !shippedOnly) {
	rmSync(join(root, 'out'), { recursive: true, force: true });
}

for (const build of builds) {
	if ((only && !only.includes(build.name)) || (shippedOnly && !build.ships)) {
		continue;
	}
	if (build.options.entryPoints.length === 0) {
		continue;
	}
	if (build.name === 'webview' && !watch) {
		rmSync(join(root, 'dist', 'webview'), { recursive: true, force: true });
	}
	build.assets?.();
	if (watch) {
		const ctx = await esbuild.context(build.options);
		await ctx.watch();
		console.log(`watching ${build.name}`);
	} else {
		const result = await esbuild.build(build.options);
		if (result.metafile) {
			for (const [file, out] of Object.entries(result.metafile.outputs)) {
				if (file.endsWith('.js') && (out.entryPoint || build.name === 'webview')) {
					console.log(`${file}: ${(out.bytes / 1024).toFixed(1)} KiB${dev ? '' : ' (minified)'}`);
				}
			}
		}
	}
}
