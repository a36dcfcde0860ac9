/** `nes/start`'s `repository`, read from a git remote URL; nothing is guessed. */
export interface NesRepository {
	readonly name: string;
	readonly owner: string;
	readonly remoteUrl: string;
}

/**
 * Owner and name from the common remote URL forms: `https://host/owner/name(.git)`,
 * `ssh://git@host[:port]/owner/name.git`, `git@host:owner/name.git`. For nested
 * groups (`host/group/sub/name`), the owner is the full group path. Anything
 * else gives `undefined`.
 */
export function parseRemoteUrl(remoteUrl: string): NesRepository | undefined {
	const url = remoteUrl.trim();
	let path: string | undefined;
	const scp = /^(?:[\w.-]+@)?[\w.-]+:(?!\/\/)(.+)$/.exec(url);
	if (/^[a-z][a-z0-9+.-]*:\/\//i.test(url)) {
		try {
			path = new URL(url).pathname;
		} catch {
			return undefined;
		}
	} else if (scp) {
		path = scp[1];
	}
	if (!path) {
		return undefined;
	}
	const parts = path.replace(/\/+$/, '').replace(/\.git$/, '').split('/').filter((p) => p.length > 0);
	if (parts.length < 2) {
		return undefined;
	}
	const name = decodeURIComponent(parts[parts.length - 1] ?? '');
	const owner = parts.slice(0, -1).map(decodeURIComponent).join('/');
	return name && owner ? { name, owner, remoteUrl: url } : undefined;
}
