// Acting on the workbench page like a person: real key presses and typing through Playwright, and
// looking at what the page renders. Calls the runner's bridge (test/vscode/runner/bridge.mjs),
// whose address the runner passes in AGENT_LINK_TEST_BROWSER.

async function call<T>(body: Record<string, unknown>): Promise<T> {
	const url = process.env.AGENT_LINK_TEST_BROWSER;
	if (!url) {
		throw new Error('AGENT_LINK_TEST_BROWSER is not set: this suite needs the code-server runner (test/vscode/runner/run.mjs)');
	}
	const response = await fetch(url, { method: 'POST', body: JSON.stringify(body) });
	const json = (await response.json()) as T & { error?: string };
	if (!response.ok) {
		throw new Error(`browser bridge: ${json.error ?? response.status}`);
	}
	return json;
}

export const hasBrowser = () => process.env.AGENT_LINK_TEST_BROWSER !== undefined;

/** Presses keys one after the other (Playwright names: 'Tab', 'Escape', 'Enter', 'Alt+Backslash', 'a'). */
export async function press(...keys: string[]): Promise<void> {
	await call({ keys });
}

/** Types text key by key. */
export async function type(text: string, delayMs = 30): Promise<void> {
	await call({ type: text, delayMs });
}

/** How many elements match a CSS selector in the page, with their text. */
export async function query(selector: string): Promise<{ count: number; texts: string[] }> {
	const result = await call<{ count: number; texts?: string[] }>({ count: selector, text: true });
	return { count: result.count, texts: result.texts ?? [] };
}

/** Presses `key` and resolves with the milliseconds until `selector` is visible in the page. */
export async function pressAndTime(key: string, selector: string): Promise<number> {
	return (await call<{ ms: number }>({ press: key, waitFor: selector })).ms;
}

/** Saves a PNG of the page (or of the first element matching `selector`). */
export async function screenshot(file: string, selector?: string): Promise<void> {
	await call({ screenshot: file, ...(selector ? { selector } : {}) });
}

/** Ghost text the editor renders (inline completions) in the active editor. */
export const GHOST_TEXT = '.editor-instance .monaco-editor .ghost-text-decoration, .editor-instance .monaco-editor .ghost-text, .editor-instance .monaco-editor .ghost-text-decoration-preview';
