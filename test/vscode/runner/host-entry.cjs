'use strict';
// Runs inside the VS Code extension host: run.mjs passes THIS file as extensionTestsPath and the
// real tests module in the environment variable AGENT_LINK_EXTENSION_TESTS.
//
// Why: in test mode the workbench sends extension-host console output and its own log lines
// through the same window.codeAutomationLog(type, args) channel, indistinguishably. This entry
// replaces the global console with one that formats each call like Node's console does and
// prefixes a marker, so run.mjs prints exactly the extension host's output to stdout (mocha's
// reporter lines included, blank lines too) and keeps workbench noise for diagnostics.
// VS Code's own console forwarder makes console.log & co. non-writable, but `globalThis.console`
// itself can be swapped; writes to process.stdout/stderr are turned into console calls by VS Code
// (line-buffered) and so get marked too.
//
// CommonJS (.cjs) on purpose: the extension host require()s the tests module.

const { format } = require('node:util');
const { pathToFileURL } = require('node:url');

/** Must match HOST_OUTPUT_MARKER in run.mjs. */
const MARKER = '\u001e[ext-host]\u001f';

function installMarkedConsole() {
  const original = globalThis.console;
  if (original.__agentLinkMarked) return;
  /** @param {'log' | 'info' | 'warn' | 'error' | 'debug'} method */
  const marked = (method) => (...args) => original[method](MARKER + format(...args));
  const replacement = Object.create(original);
  // defineProperty, not assignment: VS Code defines console.log & co. as accessors with no-op
  // setters, and plain assignment on an object inheriting them would silently hit those setters.
  const methods = {
    log: marked('log'),
    info: marked('info'),
    debug: marked('log'),
    warn: marked('warn'),
    error: marked('error'),
    trace: (...args) => {
      const error = new Error(format(...args));
      error.name = 'Trace';
      original.error(MARKER + String(error.stack));
    },
    __agentLinkMarked: true,
  };
  for (const [name, value] of Object.entries(methods)) {
    Object.defineProperty(replacement, name, { value, writable: true, configurable: true, enumerable: true });
  }
  try {
    globalThis.console = replacement;
  } catch {
    // leave the console alone: output still arrives, just unmarked
  }
}

/** @returns {Promise<void>} */
exports.run = async function run() {
  installMarkedConsole();
  const testsModule = process.env.AGENT_LINK_EXTENSION_TESTS;
  if (!testsModule) throw new Error('AGENT_LINK_EXTENSION_TESTS is not set (start the tests through test/vscode/runner/run.mjs)');
  const loaded = /\.mjs$/.test(testsModule)
    ? await import(pathToFileURL(testsModule).href)
    : require(testsModule);
  const run = loaded && (typeof loaded.run === 'function' ? loaded.run : loaded.default && loaded.default.run);
  if (typeof run !== 'function') throw new Error(`${testsModule} does not export run(): Promise<void>`);
  await run(); // a rejection is logged by VS Code itself and turns into exit code 1
};
