/**
 * Two abilities an agent advertises in `initialize` (ACP v1, `AgentCapabilities`) and what the
 * client does with them: signing out (`auth.logout`, the `logout` method) and sessions over more
 * than one folder (`sessionCapabilities.additionalDirectories`, the `additionalDirectories` of
 * `session/new`, `session/load` and `session/resume`).
 *
 * The schema deserializes a malformed capability as absent (`x-deserialize-default-on-error`), so
 * anything but an object counts as not advertised here too.
 */
import * as z from 'zod/mini';

const advertised = z.looseObject({});
const capabilitiesSchema = z.looseObject({
	auth: z.catch(z.nullish(z.looseObject({ logout: z.catch(z.nullish(advertised), undefined) })), undefined),
	sessionCapabilities: z.catch(z.nullish(z.looseObject({ additionalDirectories: z.catch(z.nullish(advertised), undefined) })), undefined),
});

function parse(agentCapabilities: unknown): z.infer<typeof capabilitiesSchema> {
	const parsed = z.safeParse(capabilitiesSchema, agentCapabilities);
	return parsed.success ? parsed.data : {};
}

/** Whether the agent takes `logout` (`agentCapabilities.auth.logout` is an object). */
export function canSignOut(agentCapabilities: unknown): boolean {
	return !!parse(agentCapabilities).auth?.logout;
}

/** Whether the agent takes `additionalDirectories` on session/new, load and resume. */
export function takesAdditionalDirectories(agentCapabilities: unknown): boolean {
	return !!parse(agentCapabilities).sessionCapabilities?.additionalDirectories;
}

/** `folder` without trailing separators (a root such as `/` kept). */
function trimmed(folder: string): string {
	const stripped = folder.replace(/[\\/]+$/, '');
	return stripped === '' || /^[A-Za-z]:$/.test(stripped) ? folder : stripped;
}

/**
 * The workspace's other folders for a session whose working directory is `cwd`: every absolute
 * folder of `folders` except `cwd` itself, each once, in the workspace's order. What goes in
 * `additionalDirectories` when the agent takes it.
 */
export function otherFolders(cwd: string, folders: readonly string[]): string[] {
	const seen = new Set([trimmed(cwd)]);
	const others: string[] = [];
	for (const folder of folders) {
		const key = trimmed(folder);
		if (!seen.has(key) && (key.startsWith('/') || /^[A-Za-z]:[\\/]/.test(folder) || folder.startsWith('\\\\'))) {
			seen.add(key);
			others.push(folder);
		}
	}
	return others;
}
