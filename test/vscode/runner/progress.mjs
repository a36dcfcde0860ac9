// What the runner and `npm start` print while they work: every line stamped with the time it was
// written, and an install's progress read from npm's own output (what it downloads, which native
// module it compiles) with the size of the install folder so far.
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import { StringDecoder } from 'node:string_decoder';

/**
 * `text` with each of its lines prefixed by the time `at` (UTC, to the millisecond), so every line
 * of a log says when it was written, a message of several lines included.
 * @param {string} text
 * @param {Date} [at]
 */
export function stampLines(text, at = new Date()) {
  const prefix = `[vscode-test ${at.toISOString().slice(11, 23)}]`;
  return text.replace(/\n$/, '').split('\n').map((line) => `${prefix} ${line}\n`).join('');
}

/**
 * A function to feed a stream's chunks to: it calls `onLine` with each whole line (without its
 * end) as soon as the line is complete, so whatever handles it sees it when it came. `flush()`
 * passes on a last line that had no end.
 * @param {(line: string) => void} onLine
 * @returns {((chunk: Buffer | string) => void) & { flush: () => void }}
 */
export function lineSplitter(onLine) {
  let rest = '';
  const decoder = new StringDecoder('utf8'); // a character cut between two chunks stays whole
  const feed = (/** @type {Buffer | string} */ chunk) => {
    const lines = (rest + (typeof chunk === 'string' ? chunk : decoder.write(chunk))).split(/\r?\n/);
    rest = lines.pop() ?? '';
    for (const line of lines) onLine(line);
  };
  return Object.assign(feed, {
    flush() {
      rest += decoder.end();
      if (rest !== '') onLine(rest);
      rest = '';
    },
  });
}

// npm's lines, as printed with --loglevel=http and --foreground-scripts:
//   npm http fetch GET 200 <registry>/<name>/-/<name>-<version>.tgz 812ms (cache miss)   a package downloaded
//   npm http fetch GET 200 <registry>/<name> 95ms (cache miss)                          its metadata
//   npm http cache <name>@<registry>/…/<file>.tgz 0ms (cache hit)                       a package from npm's cache
//   > <name>@<version> <install|postinstall|…>                                          a package's script starts
//     CC(target) Release/obj.target/<target>/<file>.o                                     node-gyp compiles a file
//   added <n> packages in <time>                                                        an install finished
const FETCH = /^npm http fetch GET \d+ (\S+) \d+ms(?: \(cache (\w+)\))?/;
const CACHED = /^npm http cache \S+\.tgz \d+ms \(cache hit\)/;
const SCRIPT = /^> ((?:@[^@\s/]+\/)?[^@\s/]+)@\S+ (\w+)$/;
const COMPILE = /^\s+(?:CC|CXX)\(target\) \S*?([^/\s]+)\.o$/;
const ADDED = /^added (\d+) packages? in /;
// code-server's postinstall installs the dependencies of the VS Code it bundles, a second npm install.
const SECOND_INSTALL = /^Installing Code dependencies/;

/** The progress of an npm install, from its output lines. */
export class InstallProgress {
  /** Package archives downloaded. */
  downloaded = 0;
  /** Package archives taken from npm's cache. */
  fromCache = 0;
  /** Packages looked up (their metadata). */
  lookedUp = 0;
  /** Files compiled for native modules. */
  compiled = 0;
  /** Packages installed (npm's `added` lines, the nested install's included). */
  added = 0;
  /** What the install does now. */
  step = 'looking up the packages';
  /** @type {string | undefined} the package whose script runs now */
  #scriptOf;
  /** @type {Set<string>} packages that compiled something */
  #built = new Set();

  /**
   * Takes one line of npm's output.
   * @param {string} line
   * @returns {string | undefined} a step worth saying at once (a native module starts compiling,
   *   a second install starts), else undefined
   */
  feed(line) {
    const fetch = FETCH.exec(line);
    if (fetch) {
      const archive = /\/-\/([^/]+)\.tgz$/.exec(fetch[1] ?? '');
      if (!archive) {
        this.lookedUp++;
      } else if (fetch[2] === 'hit') {
        this.fromCache++;
      } else {
        this.downloaded++;
        this.step = `downloading (last: ${archive[1]})`;
      }
      return undefined;
    }
    if (CACHED.test(line)) {
      this.fromCache++;
      this.step = 'unpacking the packages';
      return undefined;
    }
    const script = SCRIPT.exec(line);
    if (script) {
      this.#scriptOf = script[1];
      this.step = `running ${script[1]}'s ${script[2]} script`;
      return undefined;
    }
    const compile = COMPILE.exec(line);
    if (compile) {
      this.compiled++;
      const name = this.#scriptOf ?? 'a native module';
      this.step = `compiling ${name} (${compile[1]}.o)`;
      if (this.#built.has(name)) return undefined;
      this.#built.add(name);
      return `compiling ${name}, a native module, from source`;
    }
    const added = ADDED.exec(line);
    if (added) {
      this.added += Number(added[1]);
      return undefined;
    }
    if (SECOND_INSTALL.test(line)) {
      this.step = 'installing the dependencies of the VS Code it bundles';
      return this.step;
    }
    return undefined;
  }

  /**
   * One line saying how far the install is.
   * @param {number} seconds since it started
   * @param {number | undefined} bytes the install folder's size now, if known
   */
  summary(seconds, bytes) {
    const parts = [`${Math.round(seconds)} s`];
    if (bytes !== undefined) parts.push(`${formatMegabytes(bytes)} on disk`);
    return `${parts.join(', ')}; ${this.counts()}; now ${this.step}`;
  }

  /** What was fetched and compiled so far. */
  counts() {
    const plural = (/** @type {number} */ n, /** @type {string} */ what) => `${n} ${what}${n === 1 ? '' : 's'}`;
    const counts = [`${plural(this.downloaded, 'package')} downloaded`];
    if (this.fromCache > 0) counts.push(`${this.fromCache} from npm's cache`);
    if (this.downloaded + this.fromCache === 0 && this.lookedUp > 0) counts.push(`${this.lookedUp} looked up`);
    if (this.compiled > 0) counts.push(`${plural(this.compiled, 'native file')} compiled`);
    return counts.join(', ');
  }
}

/** @param {number} bytes */
export function formatMegabytes(bytes) {
  return `${(bytes / 1e6).toFixed(bytes < 10e6 ? 1 : 0)} MB`;
}

/**
 * The size of the files under `dir`, counted as they are now (files that go while it counts are
 * skipped).
 * @param {string} dir
 * @returns {Promise<number>}
 */
export async function folderBytes(dir) {
  let total = 0;
  /** @type {import('node:fs').Dirent[]} */
  let entries;
  try {
    entries = await fs.readdir(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      total += await folderBytes(full);
    } else if (entry.isFile()) {
      total += await fs.stat(full).then((s) => s.size, () => 0);
    }
  }
  return total;
}
