// The browser bridge: lets tests running inside the extension host act on the workbench page like a
// person would (real key presses through Playwright) and look at what is rendered. The runner starts
// it on 127.0.0.1 before VS Code and passes its address in AGENT_LINK_TEST_BROWSER; the helper in
// test/vscode/suite/browser.ts calls it. Only a fixed set of operations, one JSON object per POST:
//   {keys: ['Tab', 'Escape', ...]}          page.keyboard.press, one after the other
//   {type: 'text', delayMs?}                page.keyboard.type
//   {count: selector, text?: true, visible?: true}  how many elements match (and their text); only
//                                           the visible ones with `visible`
//   {screenshot: absolute .png path, selector?}  a PNG of the page, or of the first match
//   {click: selector, text?}                a mouse click on the first match (holding `text`, if given)
//   {press: key, waitFor: selector, timeoutMs?}  presses a key, waits until the selector is visible,
//                                           returns the milliseconds in between, the page checked
//                                           on every animation frame (benchmarks)
import * as http from 'node:http';
import * as path from 'node:path';

/**
 * @param {() => import('playwright-core').Page | undefined} getPage the workbench page, once it exists
 * @returns {Promise<{ url: string, close: () => Promise<void> }>}
 */
export async function startBridge(getPage) {
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk) => { body += chunk; if (body.length > 1_000_000) req.destroy(); });
    req.on('end', () => {
      handle(body).then(
        (result) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end(JSON.stringify(result ?? {})); },
        (error) => { res.writeHead(500, { 'content-type': 'application/json' }); res.end(JSON.stringify({ error: error instanceof Error ? error.message : String(error) })); },
      );
    });
  });

  /** @param {string} body */
  async function handle(body) {
    const page = getPage();
    if (!page) throw new Error('the workbench page is not open yet');
    const request = JSON.parse(body || '{}');
    if (Array.isArray(request.keys)) {
      for (const key of request.keys) {
        if (typeof key !== 'string') throw new Error('keys must be strings');
        await page.keyboard.press(key);
      }
      return { pressed: request.keys.length };
    }
    if (typeof request.type === 'string') {
      await page.keyboard.type(request.type, { delay: typeof request.delayMs === 'number' ? request.delayMs : 30 });
      return { typed: request.type.length };
    }
    if (typeof request.press === 'string' && typeof request.waitFor === 'string') {
      // Checked on every animation frame in the page (Playwright's own waitFor polls at growing
      // intervals, up to 500 ms apart, which would measure its polling rather than the editor).
      const timeout = typeof request.timeoutMs === 'number' ? request.timeoutMs : 10_000;
      const started = performance.now();
      await page.keyboard.press(request.press);
      await page.waitForFunction(
        (selector) => [...document.querySelectorAll(selector)].some((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0; }),
        request.waitFor,
        { polling: 'raf', timeout },
      );
      return { ms: performance.now() - started };
    }
    if (typeof request.count === 'string') {
      const locator = request.visible === true ? page.locator(request.count).filter({ visible: true }) : page.locator(request.count);
      const count = await locator.count();
      return { count, ...(request.text ? { texts: await locator.allTextContents() } : {}) };
    }
    if (typeof request.click === 'string') {
      const matches = page.locator(request.click);
      await (typeof request.text === 'string' ? matches.filter({ hasText: request.text }) : matches).first().click({ timeout: 10_000 });
      return { clicked: request.click };
    }
    if (typeof request.screenshot === 'string') {
      if (!path.isAbsolute(request.screenshot) || !request.screenshot.endsWith('.png')) throw new Error('screenshot needs an absolute .png path');
      if (typeof request.selector === 'string') {
        await page.locator(request.selector).first().screenshot({ path: request.screenshot });
      } else {
        await page.screenshot({ path: request.screenshot });
      }
      return { saved: request.screenshot };
    }
    throw new Error(`unknown bridge request: ${body.slice(0, 200)}`);
  }

  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    url: `http://127.0.0.1:${address.port}/`,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}
