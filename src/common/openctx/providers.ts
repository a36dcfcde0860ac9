/**
 * `agentLink.openctx.providers` read into providers: which entries are enabled and what kind of
 * provider each is. Apart from the answers' schemas (protocol.ts) so that the extension's start-up
 * bundle can tell whether any provider is configured without carrying them.
 */
import * as z from 'zod/mini';
import type { Logger } from '../log';

/** `agentLink.openctx.providers` values: on, off, or the provider's settings (which means on). */
export const providerSettingValueSchema = z.union([z.boolean(), z.record(z.string(), z.unknown())]);

/** One configured provider. */
export interface ProviderConfig {
	/** As written in the setting: an `http(s)` endpoint or a `file://` module. */
	readonly uri: string;
	readonly kind: 'http' | 'module';
	/** Sent with every call. */
	readonly settings: Readonly<Record<string, unknown>>;
}

/** The enabled providers of the setting, in its order; entries that cannot be a provider are reported. */
export function parseProviders(raw: Readonly<Record<string, unknown>>): { providers: ProviderConfig[]; problems: string[] } {
	const providers: ProviderConfig[] = [];
	const problems: string[] = [];
	for (const [uri, value] of Object.entries(raw)) {
		const parsed = providerSettingValueSchema.safeParse(value);
		if (!parsed.success) {
			problems.push(`"${uri}": expected true, false or a settings object; left out`);
			continue;
		}
		if (parsed.data === false) {
			continue;
		}
		const kind = /^https?:\/\/\S+$/i.test(uri) ? 'http' : /^file:\/\/\/?\S/i.test(uri) ? 'module' : undefined;
		if (!kind) {
			problems.push(`"${uri}": a provider is an http(s) endpoint or a file:// JavaScript module; left out`);
			continue;
		}
		providers.push(Object.freeze({ uri, kind, settings: Object.freeze(parsed.data === true ? {} : { ...parsed.data }) }));
	}
	return { providers, problems };
}

/**
 * The setting read as the client and the extension's start-up both read it: the enabled providers,
 * those that run (none in an untrusted workspace), and the setting's problems and an untrusted
 * workspace's refusal logged.
 */
export function readProviders(raw: Readonly<Record<string, unknown>>, trusted: boolean, log: Pick<Logger, 'warn' | 'info'>): { configured: ProviderConfig[]; running: ProviderConfig[] } {
	const { providers, problems } = parseProviders(raw);
	for (const problem of problems) {
		log.warn(`Setting agentLink.openctx.providers ${problem}`);
	}
	if (!trusted && providers.length > 0) {
		log.info('OpenCtx: the workspace is not trusted, so no provider runs.');
	}
	return { configured: providers, running: trusted ? providers : [] };
}
