/**
 * The ACP v1 client capabilities Agent Link advertises in `initialize` (schema
 * `ClientCapabilities`), in one place. Each feature fills in its own part when it is registered
 * (`fillClientCapabilities`: fileAccess.ts, terminals.ts, chatSessionManager.ts, auth.ts), taken
 * from here; the coverage test (test/unit/acpCoverage.test.ts) checks this object against the
 * schema and the README's list of what is not supported. Capabilities of protocol extensions
 * (`workspace`, `nes`, `positionEncodings`) are not ACP v1's and live with their features.
 */
export const ACP_V1_CLIENT_CAPABILITIES = {
	/** `fs/read_text_file` and `fs/write_text_file` (chat/fileAccess.ts). */
	fs: { readTextFile: true, writeTextFile: true },
	/** Every `terminal/*` method (chat/terminals.ts). */
	terminal: true,
	/** What the chat panel draws: boolean config options, notices and compactions (chat/chatSessionManager.ts). */
	session: { configOptions: { boolean: {} }, notices: {}, compaction: {} },
	/** Terminal sign-in methods (auth.ts). */
	auth: { terminal: true },
	/** `elicitation/create` as a form or a URL, drawn in the chat (chat/chatSessionManager.ts, chat/elicitationAsks.ts). */
	elicitation: { form: {}, url: {} },
} as const;
