/**
 * A version bumped: `1.7.8` made `1.7.9` in a header comment, a string or a changelog line, and
 * the other places of the file that name that same version (a `VERSION` constant, a banner, a
 * badge) get the new one. A version here has three or four numeric parts and an optional
 * pre-release or build tail (`1.7.0-beta.2`, `2.0.0+1`), so a decimal or a `major.minor` pair is
 * never taken for one, and it is matched whole (`1.7.0` is not part of `1.7.0-beta.2` or `11.7.0`).
 * The edit must change that version and nothing else on its line.
 *
 * Not a dependency's version: one after a range or a pin (`"^2.0.0"`, `>=1.2.3`, `==2.31.0`) names
 * what another package must be, and other packages share the number; lock files are left alone,
 * and a version found in more than `MAX_PLACES` other places is many things' version, not one
 * release's.
 *
 * A copyright's year works alike: `(c) 2014` made `(c) 2015` on a line that says copyright, and
 * the other lines that say copyright with that year (`__copyright__ = 'Copyright 2014 …'`) get the
 * new one; a year elsewhere (a date, a changelog) is another thing.
 */
import { escapeRegExp } from './identifiers';
import { exampleChange, MAX_LINE_LENGTH } from './lineChange';
import { nearestFirst } from './renamePropagation';
import type { EditsProposal, EngineInput, TextEdit } from './types';

/** More places than this name the version: it is not one release's number. */
const MAX_PLACES = 5;
/** A range or a pin right before a version (`^`, `~`, `~>`, `<`, `>=`, `==`, `!=`, `~=`): a dependency's. A lone `=` (`version=1.2.3`) is an assignment. */
const CONSTRAINT = /(?:[\^~<>]|[<>!=~]=)\s*[vV]?$/;
/** Lock files (`package-lock.json`, `yarn.lock`, `Cargo.lock`, `pnpm-lock.yaml`, `bun.lockb`). */
const LOCK_FILE = /(?:\.lockb?|-lock\.(?:json|ya?ml))$/i;
/** Three or four numeric parts, then a pre-release or build tail if any. */
const CORE = '\\d+(?:\\.\\d+){2,3}(?:[-+][0-9A-Za-z]+(?:[.-][0-9A-Za-z]+)*)?';
/** Not inside a longer word or number; a `v` before it (`v1.7.8`) is allowed. */
const BEFORE = '(?:(?<![\\w.+-])|(?<=(?<![\\w.+-])[vV]))';
const AFTER = '(?![\\w+]|[.-][0-9A-Za-z])';
const VERSION = new RegExp(`${BEFORE}${CORE}${AFTER}`, 'g');
const WHOLE_VERSION = new RegExp(`^${CORE}$`);

/** A line that states a copyright. */
const COPYRIGHT = /copyright|\(c\)|\u00A9/i;
const YEAR = /(?<!\d)(?:19|20)\d\d(?!\d)/g;

/** The year the edit changed on a copyright line and what it became, when that is all the edit changed. */
export function bumpedYear(oldLine: string, newLine: string): { from: string; to: string } | undefined {
	if (!COPYRIGHT.test(oldLine)) {
		return undefined;
	}
	for (const match of oldLine.matchAll(YEAR)) {
		const head = oldLine.slice(0, match.index);
		const tail = oldLine.slice(match.index + 4);
		const to = newLine.slice(head.length, newLine.length - tail.length);
		if (newLine.length === oldLine.length && newLine.startsWith(head) && newLine.endsWith(tail) && to !== match[0] && /^(?:19|20)\d\d$/.test(to)) {
			return { from: match[0], to };
		}
	}
	return undefined;
}

/** The version the edit changed and what it became, when that is all the edit changed. */
export function bumpedVersion(oldLine: string, newLine: string): { from: string; to: string } | undefined {
	for (const match of oldLine.matchAll(VERSION)) {
		const from = match[0];
		const head = oldLine.slice(0, match.index);
		if (CONSTRAINT.test(head)) {
			continue;
		}
		const tail = oldLine.slice(match.index + from.length);
		if (newLine.length <= head.length + tail.length || !newLine.startsWith(head) || !newLine.endsWith(tail)) {
			continue;
		}
		const to = newLine.slice(head.length, newLine.length - tail.length);
		if (to !== from && WHOLE_VERSION.test(to)) {
			return { from, to };
		}
	}
	return undefined;
}

export function versionBump(input: EngineInput): EditsProposal | undefined {
	const change = exampleChange(input.lastEdit);
	if (!change || LOCK_FILE.test(input.uri)) {
		return undefined;
	}
	const version = bumpedVersion(change.oldLine, change.newLine);
	const year = version ? undefined : bumpedYear(change.oldLine, change.newLine);
	const bump = version ?? year;
	if (!bump) {
		return undefined;
	}
	const { document, cursor } = input;
	const place = year ? new RegExp(`(?<!\\d)${bump.from}(?!\\d)`, 'g') : new RegExp(`${BEFORE}${escapeRegExp(bump.from)}${AFTER}`, 'g');
	const edits: TextEdit[] = [];
	for (let line = 0; line < document.lineCount; line++) {
		const text = document.lineText(line);
		if (line === change.line || text.length > MAX_LINE_LENGTH || !text.includes(bump.from) || (year && !COPYRIGHT.test(text))) {
			continue;
		}
		for (const match of text.matchAll(place)) {
			if (CONSTRAINT.test(text.slice(0, match.index))) {
				continue;
			}
			if (edits.length === MAX_PLACES) {
				return undefined;
			}
			edits.push({ range: { start: { line, character: match.index }, end: { line, character: match.index + bump.from.length } }, newText: bump.to });
		}
	}
	return edits.length > 0 ? { kind: 'edits', edits: nearestFirst(edits, cursor) } : undefined;
}
