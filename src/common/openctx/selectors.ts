/**
 * Which documents and messages a provider is called for, as OpenCtx's reference client decides:
 * no selectors means everything, an empty list means nothing, otherwise any one selector that
 * matches (each with all of its conditions) is enough.
 */
import picomatch from 'picomatch';
import type { MessageSelector, MetaResult, Selector } from './protocol';

const globs = new Map<string, (path: string) => boolean>();

function glob(pattern: string): (path: string) => boolean {
	let matcher = globs.get(pattern);
	if (!matcher) {
		try {
			matcher = picomatch(pattern, { dot: true });
		} catch {
			matcher = () => false; // a pattern picomatch cannot read matches nothing
		}
		globs.set(pattern, matcher);
	}
	return matcher;
}

/** What a selector's `path` glob is matched against: the URI's host and path, leading slashes stripped. */
export function selectorPath(uri: string): string {
	const match = /^[a-z][a-z0-9+.-]*:\/\/([^/?#]*)([^?#]*)/i.exec(uri);
	const hostAndPath = match ? `${match[1]}${decodeSafely(match[2] ?? '')}` : uri;
	return hostAndPath.replace(/^\/+/, '');
}

function decodeSafely(s: string): string {
	try {
		return decodeURIComponent(s);
	} catch {
		return s;
	}
}

export function matchSelector(selector: Selector, resource: { uri: string; content: string }): boolean {
	if (selector.path !== undefined && !glob(selector.path)(selectorPath(resource.uri))) {
		return false;
	}
	if (selector.contentContains !== undefined && !resource.content.includes(selector.contentContains)) {
		return false;
	}
	return true;
}

export function matchSelectors(selectors: readonly Selector[] | undefined, resource: { uri: string; content: string }): boolean {
	return selectors === undefined || selectors.some((s) => matchSelector(s, resource));
}

/** The selectors that scope a provider's annotations: the newer `annotations.selectors`, else the first protocol's `selector`. */
export function annotationSelectors(meta: MetaResult): readonly Selector[] | undefined {
	return meta.annotations?.selectors ?? meta.selector;
}

const patterns = new Map<string, RegExp | null>();

/** Whether a message matches a provider's `items.messageSelectors` (regular expressions; an invalid one matches nothing). */
export function matchMessageSelectors(selectors: readonly MessageSelector[] | undefined, message: string): boolean {
	if (!selectors || selectors.length === 0) {
		return false;
	}
	return selectors.some(({ pattern }) => {
		let re = patterns.get(pattern);
		if (re === undefined) {
			try {
				re = new RegExp(pattern);
			} catch {
				re = null;
			}
			patterns.set(pattern, re);
		}
		// Bounded input: a provider's pattern should not stall the editor on a huge message.
		return re !== null && re.test(message.slice(0, 10_000));
	});
}
