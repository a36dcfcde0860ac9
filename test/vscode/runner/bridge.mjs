// The browser bridge: lets tests running inside the extension host act on the workbench page like a
// person would (real key presses through Playwright) and look at what is rendered. The runner starts
// it on 127.0.0.1 before VS Code and passes its address in AGENT_LINK_TEST_BROWSER; the helper in
// test/vscode/suite/browser.ts calls it. Only a fixed set of operations, one JSON object per POST:
//   {keys: ['Tab', 'Escape', ...]}          page.keyboard.press, one after the other
//   {type: 'text', delayMs?}                page.keyboard.type
//   {count: selector, text?: true, visible?: true}  how many elements match (and their text; a form
//                                           control's value); only the visible ones with `visible`
//   {pseudoTexts: selector}                 the text CSS puts before and after the visible matches
//                                           (`::before`/`::after` content, as an editor decoration's
//                                           contentText is drawn), in document order
//   {screenshot: absolute .png path, selector?}  a PNG of the page, or of the first match
//   {click: selector, text?}                a mouse click on the first match (holding `text`, if given)
//   {press: key, waitFor: selector, timeoutMs?}  presses a key, waits until the selector is visible,
//                                           returns the milliseconds in between, the page checked
//                                           on every animation frame (benchmarks)
//   {appears: selector, text?, pseudo?: true, timeoutMs?}  waits until an element matching the selector
//                                           (and holding `text`, if given; with `pseudo`, in the text CSS puts
//                                           before or after it, as a decoration's contentText) is visible,
//                                           checked on every animation frame, and returns the page's
//                                           Date.now() at that frame (benchmarks)
//   {webviewCount: selector, text?: true}   the same count (and texts; a form control's value) inside
//                                           webview pages: the frames nested in the workbench that hold
//                                           an element #app (the chat page); read only
//   {webviewClick: selector, text?}         a mouse click on the first match in those pages
//   {webviewBox: selector}                  the first visible match's height as drawn, its scrollHeight and
//                                           clientHeight, and its page's innerHeight (CSS pixels)
//   {webviewPasteImage: true}               pastes a 1×1 PNG (a fixed image) into the focused element of
//                                           the page whose document has the focus, as a clipboard paste
//   {webviewDrop: selector, file: {name, mimeType, base64}, shift?: true}  drops a file on the first match
//                                           in those pages as the browser does for a file dragged in from
//                                           outside: dragenter, dragover, and drop if dragover was cancelled,
//                                           each with a DataTransfer holding the file (and Shift held, with
//                                           `shift`); returns whether the drop was fired
//   {webviewAudit: true}                    what in those pages could run: script elements, frames,
//                                           objects and embeds, style elements, event-handler
//                                           attributes, javascript: URLs (each with a short
//                                           description), and whether a payload set window.__xss
//   {webviewEval: 'frames'|'longTasks'|'scroll', …}  benchmark probes inside those pages (see below)
//   {profile: 'start'}, {profile: 'stop', path}  a CPU profile of the workbench page (Chrome DevTools
//                                           protocol), written to `path` (a .cpuprofile) on stop
//   {trace: 'start'}, {trace: 'stop', path} a performance trace of the page and its frames (frames,
//                                           tasks, layout, paint, scripts, samples), written to `path`
//                                           (a .json the browser's Performance panel opens) on stop
//   {opened: true}                          the addresses of the pages the browser opened (window.open: an
//                                           extension's openExternal; each as first asked for, before any
//                                           redirect) since the last `opened` request; they are closed
//                                           and the workbench brought to the front again by this
//                                           request (call it right after what opens one); pages are
//                                           watched from the first request on
//   {behind: true}, {behind: false}         puts a blank page of the browser in front of the workbench (not
//                                           one the `opened` request reports), or closes it and brings the
//                                           workbench to the front again; returns the workbench's
//                                           document.visibilityState (headless, it stays `visible`)
//   {focusTrail: true}                      each chat page's last keyboard events and focus moves
//   {focus: true}                           where the keyboard is: each frame whose document has the
//                                           focus, with its active element described (failure reports)
//   {frameTree: true}                       each frame but the workbench's: its file, whether its document
//                                           has loaded and holds a chat page, its iframes, and which webview's
//                                           service worker controls it (failure reports: a blank webview)
//   {webviewTypeOnFocus: selector, type: 'text', delayMs?, timeoutMs?, count?: selector}
//                                           waits until a chat page has the keyboard in an element matching
//                                           the selector (checked every few milliseconds), then types at once,
//                                           as a person who sees the caret; returns how many elements matched
//                                           `count` in that page just before the first key and just after the
//                                           last (whether the keys came before something was drawn)
import * as fs from 'node:fs';
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

  let profiler;
  let tracer;
  /** @type {{ page: import('playwright-core').Page, address: Promise<string> }[]} pages opened since the last `opened` request */
  const openedPages = [];
  /** @type {import('playwright-core').BrowserContext | undefined} */
  let watchedContext;
  /** The blank page a `behind` request put in front of the workbench, until the next one closes it (never one `opened` reports). */
  let blankInFront;
  /** From the first request on, each page the browser opens is noted with its address. */
  function watchOpenedPages(page) {
    if (watchedContext === page.context()) return;
    watchedContext = page.context();
    watchedContext.on('page', (opened) => {
      // The address asked for: the first navigation's (a redirect, as code-server's port proxy answers, comes after).
      const address = new Promise((resolve) => {
        opened.on('request', (request) => { if (request.isNavigationRequest() && request.url() !== 'about:blank') resolve(request.url()); });
        opened.waitForURL((url) => url.href !== 'about:blank', { timeout: 5_000 }).then(() => resolve(opened.url()), () => resolve(opened.url()));
      });
      openedPages.push({ page: opened, address });
    });
  }
  /**
   * The addresses of the pages opened since the last call; each page closed and the workbench's
   * window in front again (as a person's browser returns to it) within this request, so that no
   * focus moves later, in the middle of another test's keys.
   */
  async function takeOpenedPages(page) {
    const taken = openedPages.splice(0).filter((o) => o.page !== blankInFront);
    const urls = await Promise.all(taken.map((o) => o.address));
    if (taken.length > 0) {
      await Promise.all(taken.map((o) => o.page.close().catch(() => {})));
      await page.bringToFront().catch(() => {});
    }
    return urls;
  }
  /**
   * Waits until a chat page has the keyboard in an element matching `request.webviewTypeOnFocus`, then types
   * `request.type` at once (see the list at the top of this file).
   */
  async function typeOnWebviewFocus(page, request) {
    const timeout = typeof request.timeoutMs === 'number' ? request.timeoutMs : 20_000;
    const deadline = Date.now() + timeout;
    const probe = typeof request.count === 'string' ? request.count : undefined;
    const look = (frame) => frame.evaluate(([selector, count]) => ({
      focused: document.getElementById('app') !== null && document.hasFocus() && document.activeElement?.matches(selector) === true,
      count: count ? document.querySelectorAll(count).length : 0,
    }), [request.webviewTypeOnFocus, probe]);
    for (;;) {
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        let seen;
        try {
          seen = await look(frame);
        } catch {
          continue; // a frame navigating or gone
        }
        if (seen.focused) {
          await page.keyboard.type(request.type, { delay: typeof request.delayMs === 'number' ? request.delayMs : 30 });
          const after = await look(frame).catch(() => ({ count: -1 }));
          return { before: seen.count, after: after.count };
        }
      }
      if (Date.now() > deadline) throw new Error(`no chat page had the keyboard in ${request.webviewTypeOnFocus} within ${timeout} ms`);
      await new Promise((r) => setTimeout(r, 5));
    }
  }

  /** @param {string} body */
  async function handle(body) {
    const page = getPage();
    if (!page) throw new Error('the workbench page is not open yet');
    const request = JSON.parse(body || '{}');
    watchOpenedPages(page);
    if (request.opened === true) {
      return { urls: await takeOpenedPages(page) };
    }
    // Before the plain `type` and `count` requests, whose fields it shares.
    if (typeof request.webviewTypeOnFocus === 'string' && typeof request.type === 'string') {
      return typeOnWebviewFocus(page, request);
    }
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
    if (typeof request.appears === 'string') {
      const timeout = typeof request.timeoutMs === 'number' ? request.timeoutMs : 10_000;
      const handle = await page.waitForFunction(
        ([selector, text, pseudo]) => {
          const holds = (e) => !text || (pseudo ? ['::before', '::after'].some((p) => getComputedStyle(e, p).content.includes(text)) : (e.textContent ?? '').includes(text));
          const shown = [...document.querySelectorAll(selector)].some((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.height > 0 && holds(e); });
          return shown ? Date.now() : false;
        },
        [request.appears, typeof request.text === 'string' ? request.text : '', request.pseudo === true],
        { polling: 'raf', timeout },
      );
      return { at: await handle.jsonValue() };
    }
    if (typeof request.count === 'string') {
      // One look at the page (Playwright's selector engine, which also looks inside shadow roots), the
      // matches filtered as Playwright's `visible` does: tests ask this many times a second as they wait.
      const found = await page.locator(request.count).evaluateAll((elements, [visibleOnly, withText]) => {
        const shown = (e) => {
          const style = getComputedStyle(e);
          if (style.visibility === 'hidden') return false;
          if (style.display === 'contents') return [...e.children].some(shown);
          const box = e.getBoundingClientRect();
          return box.width > 0 && box.height > 0;
        };
        return elements
          .filter((e) => !visibleOnly || shown(e))
          .map((e) => (!withText ? '' : e instanceof HTMLInputElement || e instanceof HTMLTextAreaElement ? e.value : (e.textContent ?? '')));
      }, [request.visible === true, request.text === true]);
      return { count: found.length, ...(request.text ? { texts: found } : {}) };
    }
    if (typeof request.pseudoTexts === 'string') {
      const texts = await page.evaluate((selector) => {
        const out = [];
        for (const e of document.querySelectorAll(selector)) {
          const box = e.getBoundingClientRect();
          if (box.width === 0 && box.height === 0) continue;
          for (const pseudo of ['::before', '::after']) {
            const content = getComputedStyle(e, pseudo).content;
            if (content && content !== 'none' && content !== 'normal') out.push(content.replace(/^"|"$/g, '').replace(/\\(.)/g, '$1'));
          }
        }
        return out;
      }, request.pseudoTexts);
      return { texts };
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
    if (typeof request.webviewCount === 'string') {
      let count = 0;
      const texts = [];
      // One look at each frame, which answers only if it is a chat page (webviewFrames's test): tests ask this many times a second as they wait.
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const found = await frame.evaluate((selector) => (document.getElementById('app') === null ? null : [...document.querySelectorAll(selector)].map((e) => (e instanceof HTMLTextAreaElement || e instanceof HTMLInputElement || e instanceof HTMLSelectElement ? e.value : (e.textContent ?? '')))), request.webviewCount).catch(() => null); // null too: a frame navigating or gone
        if (found === null) continue;
        count += found.length;
        texts.push(...found);
      }
      return { count, ...(request.text ? { texts } : {}) };
    }
    if (typeof request.webviewBox === 'string') {
      for (const frame of await webviewFrames(page)) {
        const box = await frame.evaluate((selector) => {
          const e = [...document.querySelectorAll(selector)].find((x) => x.getClientRects().length > 0);
          return e ? { height: e.getBoundingClientRect().height, scrollHeight: e.scrollHeight, clientHeight: e.clientHeight, innerHeight: window.innerHeight } : undefined;
        }, request.webviewBox);
        if (box) return box;
      }
      throw new Error(`nothing visible matches ${request.webviewBox} in the webview pages`);
    }
    if (typeof request.webviewClick === 'string') {
      for (const frame of await webviewFrames(page)) {
        const matches = frame.locator(request.webviewClick);
        const target = typeof request.text === 'string' ? matches.filter({ hasText: request.text }) : matches;
        if ((await target.count()) > 0) {
          await target.first().click({ timeout: 10_000 });
          return { clicked: request.webviewClick };
        }
      }
      throw new Error(`nothing matches ${request.webviewClick} in the webview pages`);
    }
    if (request.webviewPasteImage === true) {
      for (const frame of await webviewFrames(page)) {
        const pasted = await frame.evaluate(() => {
          if (!document.hasFocus() || !document.activeElement) return false;
          const png = Uint8Array.from(atob('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=='), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([png], 'pixel.png', { type: 'image/png' }));
          document.activeElement.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
          return true;
        });
        if (pasted) return { pasted: true };
      }
      throw new Error('no focused chat page to paste into');
    }
    if (typeof request.webviewDrop === 'string') {
      const file = request.file;
      if (typeof file?.name !== 'string' || typeof file.mimeType !== 'string' || typeof file.base64 !== 'string') throw new Error('webviewDrop needs file: {name, mimeType, base64}');
      for (const frame of await webviewFrames(page)) {
        const result = await frame.evaluate(({ selector, name, mimeType, base64, shiftKey }) => {
          const target = document.querySelector(selector);
          if (!target) return undefined;
          const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
          const data = new DataTransfer();
          data.items.add(new File([bytes], name, { type: mimeType }));
          const box = target.getBoundingClientRect();
          const at = { clientX: box.left + box.width / 2, clientY: box.top + box.height / 2 };
          // dispatchEvent is false when a listener cancelled the event.
          const fire = (type) => !target.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true, composed: true, shiftKey, ...at }));
          fire('dragenter');
          // A browser drops only where the last dragover was cancelled.
          if (!fire('dragover')) return { dropped: false };
          fire('drop');
          return { dropped: true };
        }, { selector: request.webviewDrop, name: file.name, mimeType: file.mimeType, base64: file.base64, shiftKey: request.shift === true });
        if (result) return result;
      }
      throw new Error(`nothing matches ${request.webviewDrop} in the webview pages`);
    }
    if (request.webviewAudit === true) {
      const findings = [];
      let pages = 0;
      for (const frame of await webviewFrames(page)) {
        pages++;
        findings.push(...(await frame.evaluate(() => {
          const out = [];
          const describe = (e) => `<${e.tagName.toLowerCase()}${[...e.attributes].map((a) => ` ${a.name}="${a.value.slice(0, 60)}"`).join('')}>`;
          // Allowed: the page's entry script (with the nonce, in the body) and the script VS Code puts in
          // every webview's head (#_vscodeApiScript, acquireVsCodeApi). Anything else is a finding.
          const own = (e) => (e.hasAttribute('nonce') && e.parentElement === document.body && e.getAttribute('src')?.endsWith('/chat.js')) || (e.id === '_vscodeApiScript' && e.parentElement === document.head);
          for (const e of document.querySelectorAll('script')) if (!own(e)) out.push(`script: ${describe(e)}`);
          for (const e of document.querySelectorAll('iframe, frame, frameset, object, embed, applet, portal')) out.push(`frame: ${describe(e)}`);
          for (const e of document.querySelectorAll('#app style, #app link, #app meta, #app base, #app form')) out.push(`element: ${describe(e)}`);
          for (const e of document.querySelectorAll('#app *')) {
            for (const a of e.attributes) {
              if (/^on/i.test(a.name)) out.push(`event handler: ${describe(e)}`);
              if (/^\s*(javascript|vbscript|data):/i.test(a.value.replace(/[\u0000-\u0020]/g, '')) && /^(href|src|xlink:href|action|formaction|srcdoc|data)$/i.test(a.name)) out.push(`url: ${describe(e)}`);
              if (a.name === 'srcdoc') out.push(`srcdoc: ${describe(e)}`);
            }
          }
          if (window.__xss !== undefined || (window.top && (() => { try { return window.top.__xss !== undefined; } catch { return false; } })())) out.push(`window.__xss was set: ${String(window.__xss)}`);
          return out;
        })));
      }
      return { pages, findings };
    }
    if (typeof request.behind === 'boolean') {
      if (request.behind) {
        blankInFront ??= await page.context().newPage();
        await blankInFront.bringToFront();
      } else {
        await blankInFront?.close();
        blankInFront = undefined;
        await page.bringToFront();
      }
      return { visibility: await page.evaluate(() => document.visibilityState) };
    }
    if (request.profile === 'start') {
      profiler = await page.context().newCDPSession(page);
      await profiler.send('Profiler.enable');
      await profiler.send('Profiler.setSamplingInterval', { interval: 250 });
      await profiler.send('Profiler.start');
      return {};
    }
    if (request.profile === 'stop' && profiler) {
      const { profile } = await profiler.send('Profiler.stop');
      fs.writeFileSync(request.path, JSON.stringify(profile));
      await profiler.detach();
      profiler = undefined;
      return {};
    }
    if (request.trace === 'start') {
      // A performance trace (what the browser's Performance panel records) of the workbench page and
      // the frames in its process, the chat page's included.
      tracer = await page.context().newCDPSession(page);
      await tracer.send('Tracing.start', {
        transferMode: 'ReturnAsStream',
        traceConfig: { includedCategories: ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'disabled-by-default-devtools.timeline.frame', 'v8.execute', 'blink.user_timing', 'v8', 'disabled-by-default-v8.cpu_profiler', 'disabled-by-default-v8.gc'] },
      });
      return {};
    }
    if (request.trace === 'stop' && tracer) {
      if (typeof request.path !== 'string' || !path.isAbsolute(request.path)) throw new Error('trace stop needs an absolute path');
      const session = tracer;
      tracer = undefined;
      const complete = new Promise((resolve) => session.once('Tracing.tracingComplete', resolve));
      await session.send('Tracing.end');
      const { stream } = await complete;
      const out = fs.openSync(request.path, 'w');
      try {
        for (;;) {
          const chunk = await session.send('IO.read', { handle: stream, size: 1 << 20 });
          fs.writeSync(out, chunk.base64Encoded ? Buffer.from(chunk.data, 'base64') : chunk.data);
          if (chunk.eof) break;
        }
      } finally {
        fs.closeSync(out);
        await session.send('IO.close', { handle: stream });
        await session.detach();
      }
      return {};
    }
    if (request.focus === true) {
      const frames = [];
      for (const frame of page.frames()) {
        try {
          const seen = await frame.evaluate(() => {
            const e = document.activeElement;
            const describe = (el) => el ? `<${el.tagName.toLowerCase()}${el.id ? ` id="${el.id}"` : ''}${el.className && typeof el.className === 'string' ? ` class="${el.className.slice(0, 80)}"` : ''}${el.getAttribute('aria-label') ? ` aria-label="${el.getAttribute('aria-label').slice(0, 60)}"` : ''}>` : 'none';
            return { hasFocus: document.hasFocus(), active: describe(e) };
          });
          if (seen.hasFocus) frames.push(`${frame === page.mainFrame() ? 'workbench' : 'frame'}: ${seen.active}`);
        } catch {
          // a frame navigating or gone
        }
      }
      return { frames };
    }
    if (request.frameTree === true) {
      const frames = [];
      for (const frame of page.frames()) {
        if (frame === page.mainFrame()) continue;
        const url = URL.canParse(frame.url()) ? new URL(frame.url()) : undefined;
        const id = url?.searchParams.get('id');
        const name = `${url?.pathname.split('/').pop() || frame.url() || '(no address yet)'}${id ? ` (webview ${id.slice(0, 8)})` : ''}`;
        try {
          const seen = await frame.evaluate(() => {
            const controller = navigator.serviceWorker?.controller;
            return {
              state: document.readyState,
              chat: document.querySelector('#app') !== null,
              iframes: document.querySelectorAll('iframe').length,
              worker: controller ? (new URL(controller.scriptURL).searchParams.get('id')?.slice(0, 8) ?? controller.scriptURL.split('/').pop()) : 'none',
            };
          });
          frames.push(`${name}: ${seen.state}${seen.chat ? ', a chat page' : ''}, ${seen.iframes} iframe(s), service worker ${seen.worker}`);
        } catch {
          frames.push(`${name}: not readable`);
        }
      }
      return { frames };
    }
    if (request.focusTrail === true) {
      // The chat pages' keyboard events and focus moves (run.mjs: recordFocusTrail).
      const trails = [];
      for (const frame of await webviewFrames(page)) {
        trails.push(await frame.evaluate(() => window.__agentLinkFocusTrail ?? []).catch(() => []));
      }
      return { trails };
    }
    if (typeof request.webviewEval === 'string') {
      const frames = await webviewFrames(page);
      if (frames.length === 0) throw new Error('no webview page with #app');
      return await probe(frames[0], request);
    }
    throw new Error(`unknown bridge request: ${body.slice(0, 200)}`);
  }

  /** The frames nested in the workbench that hold the chat page (an element #app). */
  async function webviewFrames(page) {
    const found = [];
    for (const frame of page.frames()) {
      if (frame === page.mainFrame()) continue;
      try {
        if (await frame.evaluate(() => document.getElementById('app') !== null)) found.push(frame);
      } catch {
        // a frame navigating or gone
      }
    }
    return found;
  }

  /**
   * Benchmark probes inside the chat page, each a fixed measurement (no code from the caller):
   *   frames start / frames stop         records requestAnimationFrame gaps and long tasks until stopped;
   *                                      stop returns { frames, maxGapMs, p95GapMs, over50, longTasks, maxLongTaskMs }
   *   scroll {steps, stepPx, untilEnd}   scrolls the transcript from the top by steps, one per frame
   *                                      (with untilEnd: 1, stopping at the end), returns the gaps
   *                                      between frames while doing so, and the
   *                                      entries drawn in full before (at the top) and after
   */
  async function probe(frame, request) {
    switch (request.webviewEval) {
      case 'framesStart':
        return frame.evaluate(() => {
          const work = window.__agentLinkChatWork;
          if (work) Object.assign(work, { frames: 0, maxMs: 0, totalMs: 0 });
          const state = { gaps: [], longTasks: [], running: true, last: performance.now() };
          window.__probe = state;
          try {
            state.observer = new PerformanceObserver((list) => { for (const e of list.getEntries()) state.longTasks.push(e.duration); });
            state.observer.observe({ type: 'longtask', buffered: false });
          } catch { /* no long task API */ }
          const tick = (now) => { state.gaps.push(now - state.last); state.last = now; if (state.running) requestAnimationFrame(tick); };
          requestAnimationFrame(tick);
          return { started: true };
        });
      case 'framesStop':
        return frame.evaluate(() => {
          const state = window.__probe;
          state.running = false;
          state.observer?.disconnect();
          const gaps = state.gaps.slice(1);
          const work = window.__agentLinkChatWork;
          const p95 = gaps.length > 0 ? [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.95)] : 0;
          return { frames: gaps.length, maxGapMs: Math.max(0, ...gaps), p95GapMs: p95, over50: gaps.filter((g) => g > 50).length, longTasks: state.longTasks.length, maxLongTaskMs: Math.max(0, ...state.longTasks), pageWork: work ? { ...work } : undefined };
        });
      case 'scroll':
        return frame.evaluate(async ({ steps, stepPx, untilEnd }) => {
          const scroller = document.querySelector('.scroller');
          const work = window.__agentLinkChatWork;
          if (work) Object.assign(work, { frames: 0, maxMs: 0, totalMs: 0 });
          scroller.scrollTop = 0;
          await new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)));
          const drawnBefore = document.querySelectorAll('.entry:not(.placeholder):not(.drawing)').length;
          const gaps = [];
          let last = performance.now();
          for (let i = 0; i < steps; i++) {
            if (untilEnd && scroller.scrollTop + scroller.clientHeight >= scroller.scrollHeight - 1) break;
            scroller.scrollTop += stepPx;
            await new Promise((r) => requestAnimationFrame(r));
            const now = performance.now();
            gaps.push(now - last);
            last = now;
          }
          const p95 = [...gaps].sort((a, b) => a - b)[Math.floor(gaps.length * 0.95)];
          return { frames: gaps.length, maxGapMs: Math.max(...gaps), p95GapMs: p95, over50: gaps.filter((g) => g > 50).length, pageWork: work ? { ...work } : undefined, scrollHeight: scroller.scrollHeight, drawnBefore, rendered: document.querySelectorAll('.entry:not(.placeholder):not(.drawing)').length, entries: document.querySelectorAll('.entry').length };
        }, { steps: request.steps ?? 200, stepPx: request.stepPx ?? 400, untilEnd: request.untilEnd === 1 });
      default:
        throw new Error(`unknown probe ${request.webviewEval}`);
    }
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
