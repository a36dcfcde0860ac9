/**
 * Agent Link's OpenCtx client: the providers of `agentLink.openctx.providers`, each an HTTP
 * endpoint or a JavaScript module, asked with a timeout per call, their answers checked
 * (src/common/openctx/protocol.ts) and their `meta` cached. A provider that fails, hangs or
 * answers nonsense is logged and left out of that call's results; the others still count.
 *
 * Not `@openctx/client`: it is ESM-only and built on observables, has no timeout per call,
 * passes provider answers on unchecked, swallows provider errors unless given a hook, and its
 * module loading needs an import function to work in a bundled extension anyway. The protocol
 * is four methods; the client is this file.
 */
import * as vscode from 'vscode';
import { errorMessage, type Logger } from '../../common/log';
import { parseResult, responseMessageSchema, type MethodParams, type MethodResult, type MetaResult, type OpenCtxMethod } from '../../common/openctx/protocol';
import { readProviders, type ProviderConfig } from '../../common/openctx/providers';

/** The largest HTTP answer read from a provider, in bytes. */
const MAX_RESPONSE_BYTES = 16 * 1024 * 1024;

/** What the client needs from the settings. */
export interface OpenCtxSettings {
	readonly providers: Readonly<Record<string, unknown>>;
	readonly timeoutMs: number;
}

/** A module provider as loaded: the `Provider` interface of `@openctx/provider`. */
type ModuleProvider = Partial<Record<OpenCtxMethod, (params: unknown, settings: unknown) => unknown>>;

/** Loads a module provider (an ESM or CommonJS file) from its file URL. */
export type ImportFunction = (url: string) => Promise<unknown>;

/**
 * `import()` as Node itself runs it. The bundler would turn a literal `import(x)` into `require`,
 * which cannot load an ES module: a function made at run time keeps the real one.
 */
export const nodeImport: ImportFunction = new Function('url', 'return import(url)') as ImportFunction;

/** One provider's answer to one call. */
export type ProviderOutcome<T> = { readonly provider: ProviderHandle; readonly ok: true; readonly value: T; readonly ms: number } | { readonly provider: ProviderHandle; readonly ok: false; readonly error: string; readonly ms: number };

/** A configured provider, with its meta once asked. */
export class ProviderHandle {
	private metaPromise: Promise<MetaResult> | undefined;
	private module: Promise<ModuleProvider> | undefined;

	constructor(
		readonly config: ProviderConfig,
		private readonly client: OpenCtxClient,
	) {}

	get uri(): string {
		return this.config.uri;
	}

	/** The provider's name as its meta gives it, else its URI. */
	name = '';

	/** `meta`, asked once (again after a failure). */
	meta(): Promise<MetaResult> {
		if (!this.metaPromise) {
			this.metaPromise = this.call('meta', {}).then(
				(meta) => {
					this.name = meta.name?.trim() || this.config.uri;
					return meta;
				},
				(error: unknown) => {
					this.metaPromise = undefined;
					throw error;
				},
			);
		}
		return this.metaPromise;
	}

	/** Whether a module provider has the method (HTTP providers are asked what their meta announces). */
	async implements(method: OpenCtxMethod): Promise<boolean> {
		if (this.config.kind !== 'module') {
			return true;
		}
		const module = await this.loadModule();
		return typeof module[method] === 'function';
	}

	/** Calls a method with the timeout, and checks the answer. */
	async call<M extends OpenCtxMethod>(method: M, params: MethodParams[M]): Promise<MethodResult<M>> {
		const timeoutMs = this.client.timeoutMs;
		const controller = new AbortController();
		let timer: NodeJS.Timeout | undefined;
		const timeout = new Promise<never>((_, reject) => {
			timer = setTimeout(() => {
				controller.abort();
				reject(new Error(`no answer to ${method} within ${timeoutMs} ms`));
			}, timeoutMs);
		});
		try {
			const raw = await Promise.race([this.config.kind === 'http' ? this.post(method, params, controller.signal) : this.invoke(method, params), timeout]);
			const parsed = parseResult(method, raw);
			if (!parsed.ok) {
				throw new Error(parsed.error);
			}
			return parsed.value;
		} finally {
			clearTimeout(timer);
		}
	}

	private async post(method: OpenCtxMethod, params: unknown, signal: AbortSignal): Promise<unknown> {
		const response = await fetch(this.config.uri, {
			method: 'POST',
			headers: { 'content-type': 'application/json', accept: 'application/json' },
			body: JSON.stringify({ method, params, settings: this.config.settings }),
			signal,
		});
		const length = Number(response.headers.get('content-length') ?? 0);
		if (length > MAX_RESPONSE_BYTES) {
			throw new Error(`answer of ${length} bytes is over the limit of ${MAX_RESPONSE_BYTES}`);
		}
		const body = await response.text();
		if (body.length > MAX_RESPONSE_BYTES) {
			throw new Error(`answer of ${body.length} characters is over the limit`);
		}
		let json: unknown;
		try {
			json = JSON.parse(body);
		} catch {
			throw new Error(`HTTP ${response.status}, not JSON: ${body.slice(0, 120)}`);
		}
		const message = responseMessageSchema.safeParse(json);
		if (!message.success) {
			throw new Error(`HTTP ${response.status}, not an OpenCtx response`);
		}
		if (message.data.error) {
			throw new Error(`error ${message.data.error.code ?? '?'}: ${message.data.error.message ?? 'no message'}`);
		}
		if (!response.ok) {
			throw new Error(`HTTP ${response.status}`);
		}
		return message.data.result;
	}

	private async invoke(method: OpenCtxMethod, params: unknown): Promise<unknown> {
		const module = await this.loadModule();
		const fn = module[method];
		if (typeof fn !== 'function') {
			// A module may leave out any method but meta; an absent one answers nothing.
			if (method === 'meta') {
				throw new Error('the module has no meta method');
			}
			return undefined;
		}
		return await fn.call(module, params, this.config.settings);
	}

	private loadModule(): Promise<ModuleProvider> {
		if (!this.module) {
			this.module = this.client.importModule(this.config.uri).then((loaded) => {
				// ESM: the default export; CommonJS through import(): module.exports as default,
				// which may itself hold a transpiled `default`.
				let candidate = (loaded as { default?: unknown } | undefined)?.default ?? loaded;
				if (candidate && typeof candidate === 'object' && 'default' in candidate && typeof (candidate as { meta?: unknown }).meta !== 'function') {
					candidate = (candidate as { default: unknown }).default;
				}
				if (!candidate || typeof candidate !== 'object' || typeof (candidate as { meta?: unknown }).meta !== 'function') {
					throw new Error('the module does not export a provider (an object with a meta method) as its default');
				}
				return candidate as ModuleProvider;
			});
			this.module.catch(() => (this.module = undefined));
		}
		return this.module;
	}

	dispose(): void {
		void this.module?.then((m) => (m as { dispose?: () => void }).dispose?.()).catch(() => undefined);
	}
}

/**
 * The configured providers. A change of the setting replaces them (meta asked again, modules
 * loaded again) without a reload; in an untrusted workspace there are none.
 */
export class OpenCtxClient implements vscode.Disposable {
	private handles: ProviderHandle[] = [];
	private generation = 0;
	private readonly emitter = new vscode.EventEmitter<void>();
	/** Fires when the providers changed (setting, trust). */
	readonly onDidChangeProviders = this.emitter.event;
	timeoutMs = 5000;

	constructor(
		private readonly settings: () => OpenCtxSettings,
		private readonly log: Logger,
		private readonly importFn: ImportFunction = nodeImport,
	) {
		this.reload();
	}

	get providers(): readonly ProviderHandle[] {
		return this.handles;
	}

	/** Reads the setting again; called on configuration and trust changes. */
	reload(): void {
		const settings = this.settings();
		this.timeoutMs = settings.timeoutMs;
		const trusted = vscode.workspace.isTrusted;
		const { configured, running: next } = readProviders(settings.providers, trusted, this.log);
		const signature = JSON.stringify(configured);
		if (signature === this.signature && trusted === this.trusted) {
			return;
		}
		this.signature = signature;
		this.trusted = trusted;
		this.generation++;
		this.handles.forEach((h) => h.dispose());
		this.handles = next.map((config) => new ProviderHandle(config, this));
		if (this.handles.length > 0) {
			this.log.info(`OpenCtx providers: ${this.handles.map((h) => h.uri).join(', ')}.`);
		}
		this.emitter.fire();
	}
	private signature = '';
	private trusted = false;

	/** Loads a module provider; a reload of the setting loads a changed file anew. */
	importModule(uri: string): Promise<unknown> {
		// ES modules are cached by URL: the query makes a new generation a new module.
		const url = `${uri}${uri.includes('?') ? '&' : '?'}agent-link-generation=${this.generation}`;
		return this.importFn(uri.endsWith('.cjs') ? uri : url);
	}

	/**
	 * Calls `method` on every provider that `wanted` accepts (given its meta), in parallel;
	 * each outcome as it comes (`onEach`), all of them at the end.
	 */
	async callAll<M extends OpenCtxMethod>(
		method: M,
		params: MethodParams[M],
		wanted: (meta: MetaResult, provider: ProviderHandle) => boolean | Promise<boolean>,
		onEach?: (outcome: ProviderOutcome<MethodResult<M>>) => void,
	): Promise<ProviderOutcome<MethodResult<M>>[]> {
		const outcomes = await Promise.all(
			this.handles.map(async (provider): Promise<ProviderOutcome<MethodResult<M>> | undefined> => {
				const started = performance.now();
				try {
					const meta = await provider.meta();
					if (!(await wanted(meta, provider))) {
						return undefined;
					}
					const value = await provider.call(method, params);
					const outcome = { provider, ok: true as const, value, ms: performance.now() - started };
					onEach?.(outcome);
					return outcome;
				} catch (error) {
					const outcome = { provider, ok: false as const, error: errorMessage(error), ms: performance.now() - started };
					this.log.warn(`OpenCtx provider ${provider.name || provider.uri}: ${method} failed, left out: ${outcome.error}`);
					onEach?.(outcome);
					return outcome;
				}
			}),
		);
		return outcomes.filter((o): o is ProviderOutcome<MethodResult<M>> => o !== undefined);
	}

	dispose(): void {
		this.handles.forEach((h) => h.dispose());
		this.handles = [];
		this.emitter.dispose();
	}
}
