/**
 * Settings under `agentLink.*`, parsed with zod into a typed, frozen snapshot.
 * An invalid value is reported and replaced by its default; one bad agent entry
 * does not take the others with it. `test/unit/config.test.ts` checks that these
 * keys and defaults match `contributes.configuration` in package.json.
 */
import * as z from 'zod/mini';
import { parseMcpServer, type McpServerConfig } from './mcp';
import { BUILT_IN_NES_AGENT } from './presets';
import { DEFAULT_REGISTRY_URL } from './registry';
import { remoteAgentDefinitionSchema, type RemoteAgentDefinition } from './remoteAgent';

export const localAgentDefinitionSchema = z.object({
	command: z.string().check(z.trim(), z.minLength(1, 'command must not be empty')),
	args: z._default(z.array(z.string()), []),
	env: z._default(z.record(z.string(), z.string()), {}),
	cwd: z.optional(z.string().check(z.trim(), z.minLength(1, 'cwd must not be empty'))),
});
export type LocalAgentDefinition = z.infer<typeof localAgentDefinitionSchema>;
/** An agent this client starts (`command`), or one on another machine (`url`: remoteAgent.ts). */
export type AgentDefinition = LocalAgentDefinition | RemoteAgentDefinition;

/** One entry of `agentLink.agents`: `url` makes it a remote agent, else `command` a local one; never both. */
export function parseAgentDefinition(value: unknown): { readonly definition: AgentDefinition } | { readonly problem: string; readonly path: string } {
	if (typeof value === 'object' && value !== null && 'url' in value && 'command' in value) {
		return { problem: 'give either command (an agent to start) or url (an agent on another machine), not both', path: '' };
	}
	const remote = typeof value === 'object' && value !== null && 'url' in value;
	const parsed = remote ? remoteAgentDefinitionSchema.safeParse(value) : localAgentDefinitionSchema.safeParse(value);
	if (parsed.success) {
		return { definition: parsed.data };
	}
	const issue = parsed.error.issues[0];
	return { problem: issue?.message ?? 'invalid', path: issue && issue.path.length > 0 ? `.${issue.path.map(String).join('.')}` : '' };
}

export const traceSchema = z.enum(['off', 'messages', 'verbose']);
export type TraceLevel = z.infer<typeof traceSchema>;

/** Each setting: its key under `agentLink.` and the schema that parses it, default included. */
export const settingSchemas = {
	agents: z._default(z.record(z.string(), z.unknown()), {}),
	defaultAgent: z._default(z.string(), ''),
	trace: z._default(traceSchema, 'off'),
	maxMessageSize: z._default(z.int().check(z.minimum(1), z.maximum(1024)), 64),
	'nes.enabled': z._default(z.boolean(), true),
	'nes.maxFileSize': z._default(z.number().check(z.positive(), z.maximum(1024)), 2),
	'nes.debounce': z._default(z.int().check(z.minimum(0), z.maximum(2000)), 100),
	'nes.disabledLanguages': z._default(z.array(z.string()), []),
	'nes.agent': z._default(z.string(), BUILT_IN_NES_AGENT),
	// The built-in NES agent's optional model (engine 2): an OpenAI-compatible endpoint; empty: edit-by-example only.
	'nesAgent.model.endpoint': z._default(z.string().check(z.trim(), z.refine((s) => s === '' || /^https?:\/\/\S+$/.test(s), 'expected an http(s) URL, or empty for no model')), ''),
	'nesAgent.model.model': z._default(z.string().check(z.trim()), ''),
	'nesAgent.model.format': z._default(z.enum(['sweep', 'zeta', 'instinct']), 'sweep'),
	// Empty turns the registry off; otherwise an http(s) URL (plain HTTP is only ever fetched from this machine).
	// MCP servers every chat gets, in the shape of VS Code's mcp.json `servers` (mcp.ts parses each).
	mcpServers: z._default(z.record(z.string(), z.unknown()), {}),
	// Agent Link's own MCP server of editor tools (src/common/editorTools.ts), in every chat session; tools named here are left out.
	'editorTools.enabled': z._default(z.boolean(), true),
	'editorTools.disabled': z._default(z.array(z.string()), []),
	// Megabytes of chat history kept per workspace; 0 keeps none.
	'history.maxSize': z._default(z.number().check(z.minimum(0), z.maximum(4096)), 64),
	// OpenCtx providers by URI: true, false or the provider's settings (common/openctx/protocol.ts parses each).
	'openctx.providers': z._default(z.record(z.string(), z.unknown()), {}),
	'openctx.timeout': z._default(z.int().check(z.minimum(100), z.maximum(60_000)), 5000),
	'openctx.annotations': z._default(z.boolean(), true),
	'registry.url': z._default(z.string().check(z.trim(), z.refine((s) => s === '' || /^https?:\/\/\S+$/.test(s), 'expected an http(s) URL, or empty to turn the registry off')), DEFAULT_REGISTRY_URL),
} as const;

export type SettingKey = keyof typeof settingSchemas;

export interface Config {
	/** User-defined agents by display name; only entries that parsed. */
	readonly agents: Readonly<Record<string, AgentDefinition>>;
	readonly defaultAgent: string;
	readonly trace: TraceLevel;
	/** Cap on one message line, in bytes. */
	readonly maxMessageBytes: number;
	readonly nes: {
		readonly enabled: boolean;
		/** Documents larger than this are never sent to an NES agent. */
		readonly maxFileBytes: number;
		/** Quiet time after typing or a cursor move before an automatic request, in milliseconds. */
		readonly debounceMs: number;
		/** Language ids that get no automatic suggestions. */
		readonly disabledLanguages: readonly string[];
		/** The agent next edit suggestions come from, by name; empty: the chat agent. */
		readonly agent: string;
	};
	/** The ACP Agent Registry's URL; empty when the registry is turned off. */
	readonly registryUrl: string;
	/** MCP servers given to every chat session, in the order the setting lists them; only entries that parsed. */
	readonly mcpServers: readonly McpServerConfig[];
	readonly editorTools: {
		/** Whether chat sessions get the editor tools' MCP server. */
		readonly enabled: boolean;
		/** Tool names the agents do not see. */
		readonly disabled: readonly string[];
	};
	readonly history: {
		/** Bytes of stored chats kept per workspace; the oldest are dropped beyond it. */
		readonly maxBytes: number;
	};
	readonly openctx: {
		/** `agentLink.openctx.providers` as written; the OpenCtx client parses each entry. */
		readonly providers: Readonly<Record<string, unknown>>;
		/** How long one call to a provider may take, in milliseconds. */
		readonly timeoutMs: number;
		/** Annotations shown in the editor. */
		readonly annotations: boolean;
	};
	readonly nesAgent: {
		/** The built-in NES agent's model; `endpoint` empty when it has none. */
		readonly model: { readonly endpoint: string; readonly model: string; readonly format: 'sweep' | 'zeta' | 'instinct' };
	};
}

export interface ConfigProblem {
	readonly key: string;
	readonly message: string;
}

/**
 * Parses raw setting values (as read from the editor, `undefined` when unset).
 * Never throws: every problem is returned for the log, with the default used instead.
 */
export function parseConfig(raw: Partial<Record<SettingKey, unknown>>): { config: Config; problems: ConfigProblem[] } {
	const problems: ConfigProblem[] = [];
	function read<K extends SettingKey>(key: K): z.infer<(typeof settingSchemas)[K]> {
		const schema = settingSchemas[key];
		const parsed = schema.safeParse(raw[key]);
		if (parsed.success) {
			return parsed.data as z.infer<(typeof settingSchemas)[K]>;
		}
		problems.push({ key: `agentLink.${key}`, message: `${parsed.error.issues[0]?.message ?? 'invalid value'}; using the default` });
		return schema.parse(undefined) as z.infer<(typeof settingSchemas)[K]>;
	}

	const agents: Record<string, AgentDefinition> = {};
	for (const [name, value] of Object.entries(read('agents'))) {
		const parsed = parseAgentDefinition(value);
		if (!name.trim()) {
			problems.push({ key: 'agentLink.agents', message: 'an agent has an empty name; it was left out' });
		} else if ('definition' in parsed) {
			agents[name] = Object.freeze(parsed.definition);
		} else {
			problems.push({ key: `agentLink.agents["${name}"]${parsed.path}`, message: `${parsed.problem}; this agent was left out` });
		}
	}

	const mcpServers: McpServerConfig[] = [];
	for (const [name, value] of Object.entries(read('mcpServers'))) {
		const parsed = parseMcpServer(name, value);
		if ('error' in parsed) {
			problems.push({ key: `agentLink.mcpServers["${name}"]`, message: `${parsed.error}; this server was left out` });
		} else {
			mcpServers.push(Object.freeze(parsed.server));
		}
	}

	const config: Config = Object.freeze({
		agents: Object.freeze(agents),
		defaultAgent: read('defaultAgent').trim(),
		trace: read('trace'),
		maxMessageBytes: read('maxMessageSize') * 1024 * 1024,
		nes: Object.freeze({
			enabled: read('nes.enabled'),
			maxFileBytes: Math.round(read('nes.maxFileSize') * 1024 * 1024),
			debounceMs: read('nes.debounce'),
			disabledLanguages: Object.freeze([...read('nes.disabledLanguages')]),
			agent: read('nes.agent').trim(),
		}),
		registryUrl: read('registry.url').trim(),
		mcpServers: Object.freeze(mcpServers),
		editorTools: Object.freeze({ enabled: read('editorTools.enabled'), disabled: Object.freeze(read('editorTools.disabled')) }),
		history: Object.freeze({ maxBytes: Math.round(read('history.maxSize') * 1024 * 1024) }),
		openctx: Object.freeze({ providers: Object.freeze({ ...read('openctx.providers') }), timeoutMs: read('openctx.timeout'), annotations: read('openctx.annotations') }),
		nesAgent: Object.freeze({
			model: Object.freeze({ endpoint: read('nesAgent.model.endpoint').trim(), model: read('nesAgent.model.model').trim(), format: read('nesAgent.model.format') }),
		}),
	});
	return { config, problems };
}
