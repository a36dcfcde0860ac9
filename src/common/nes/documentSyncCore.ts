/**
 * The editor-independent half of NES document events (`nes/did*` in the seed
 * revision, `document/did*` in the merged one; `shared/specs/protocols.md` §2):
 * which documents the agent has been told are open, the size limit, and the
 * params of each event in the agent's position encoding and sync kind.
 * `src/vscode/nes/documentSync.ts` feeds it VS Code's events.
 *
 * Guarantees, whatever order the editor's events come in:
 * - a document gets `didChange`, `didSave`, `didFocus` and `didClose` only
 *   between its `didOpen` and its `didClose` (it is tracked as open even when
 *   the agent did not declare `didOpen`, so the other events still follow it);
 * - only events the agent declared are built and sent;
 * - a document over `maxFileBytes` (UTF-8) is never sent. One that grows past
 *   the limit gets `didClose`; either way it stays out until the editor closes
 *   it (a file hovering around the limit does not flap), and the log says so
 *   once per document per session.
 */
import { createPositionConverter, type Position, type PositionConverter, type PositionEncoding, type Range, type TextLines } from '../positionEncoding';
import type { NesEventName, NesProfile } from './protocol';
import { ShadowDocument } from './shadowDocument';

/** One change of an editor event: a UTF-16 range of the text the previous change left, and its replacement. */
export interface ContentChange {
	/** A plain object (it may be sent as it is), not a `vscode.Range`, which serializes to an array. */
	readonly range: Range;
	/** The UTF-16 length of the replaced text. */
	readonly rangeLength: number;
	readonly text: string;
}

/**
 * Copies an editor event's changes into plain objects: VS Code's `Range`
 * serializes to an array, and other listeners have been seen mutating the array.
 */
export function copyContentChanges(changes: readonly ContentChange[]): ContentChange[] {
	return changes.map(({ range: { start, end }, rangeLength, text }) => ({
		range: { start: { line: start.line, character: start.character }, end: { line: end.line, character: end.character } },
		rangeLength,
		text,
	}));
}

export interface DocumentSyncOptions {
	readonly events: NesProfile['events'];
	readonly encoding: PositionEncoding;
	readonly maxFileBytes: number;
	/** UTF-8 size of a string (Node's `Buffer.byteLength` in the extension host). */
	readonly byteLength: (text: string) => number;
	/** Sends one event; called only for declared events. */
	readonly send: (event: NesEventName, params: Record<string, unknown>) => void;
	readonly log: (message: string) => void;
}

interface OpenDocument {
	version: number;
	/**
	 * An upper bound of the document's UTF-8 size: exact at open, then grown by
	 * each change's inserted bytes minus its replaced UTF-16 units (every unit is
	 * at least one byte). Only when it passes the limit is the text measured again.
	 */
	maxBytes: number;
	/** Pre-change text, only for incremental sync in UTF-8 or UTF-32. */
	readonly shadow: ShadowDocument | undefined;
	/** Converts ranges of `shadow`'s text to the agent's encoding. */
	readonly converter: PositionConverter | undefined;
}

export class DocumentSyncCore {
	private readonly open = new Map<string, OpenDocument>();
	private readonly tooLarge = new Set<string>();
	private readonly logged = new Set<string>();
	private readonly needsShadow: boolean;

	constructor(private readonly options: DocumentSyncOptions) {
		this.needsShadow = options.events.didChange === 'incremental' && options.encoding !== 'utf-16';
	}

	/** Whether the agent has been told `uri` is open. */
	isOpen(uri: string): boolean {
		return this.open.has(uri);
	}

	/** The URIs the agent has been told are open. */
	openUris(): string[] {
		return [...this.open.keys()];
	}

	/** Whether a shadow copy is kept for `uri` (only incremental sync in UTF-8 or UTF-32 needs one). */
	hasShadow(uri: string): boolean {
		return this.open.get(uri)?.shadow !== undefined;
	}

	/** The editor opened a document (or it was open when the session started). */
	didOpen(uri: string, languageId: string, version: number, getText: () => string): void {
		if (this.open.has(uri) || this.tooLarge.has(uri)) {
			return;
		}
		const text = getText();
		const bytes = this.options.byteLength(text);
		if (bytes > this.options.maxFileBytes) {
			this.exclude(uri, bytes, false);
			return;
		}
		const shadow = this.needsShadow ? new ShadowDocument(text) : undefined;
		const converter = shadow ? createPositionConverter(this.options.encoding, shadow) : undefined;
		this.open.set(uri, { version, maxBytes: bytes, shadow, converter });
		if (this.options.events.didOpen) {
			this.options.send('didOpen', { uri, languageId, version, text });
		}
	}

	/**
	 * The editor changed a document: `changes` apply in order, each to the text
	 * the previous one left (VS Code's own extension-host mirror applies them so),
	 * which is also how the agent applies them.
	 */
	didChange(uri: string, version: number, changes: readonly ContentChange[], getText: () => string): void {
		const doc = this.open.get(uri);
		if (!doc || changes.length === 0) {
			return;
		}
		for (const change of changes) {
			doc.maxBytes += this.options.byteLength(change.text) - change.rangeLength;
		}
		if (doc.maxBytes > this.options.maxFileBytes) {
			doc.maxBytes = this.options.byteLength(getText());
			if (doc.maxBytes > this.options.maxFileBytes) {
				this.open.delete(uri);
				this.exclude(uri, doc.maxBytes, true);
				return;
			}
		}
		doc.version = version;
		const kind = this.options.events.didChange;
		if (kind === undefined) {
			return;
		}
		if (kind === 'full') {
			this.options.send('didChange', { uri, version, contentChanges: [{ text: getText() }] });
			return;
		}
		const contentChanges: { range: Range; text: string }[] = [];
		const { shadow, converter } = doc;
		for (const change of changes) {
			if (shadow && converter) {
				// Converted against the text this change applies to, then applied, so the next one sees its result.
				contentChanges.push({ range: converter.toAgentRange(change.range), text: change.text });
				shadow.apply(change.range, change.text);
			} else {
				contentChanges.push({ range: change.range, text: change.text });
			}
		}
		this.options.send('didChange', { uri, version, contentChanges });
	}

	didSave(uri: string): void {
		if (this.options.events.didSave && this.open.has(uri)) {
			this.options.send('didSave', { uri });
		}
	}

	/** The editor closed a document. A document left out for its size may come back when reopened. */
	didClose(uri: string): void {
		this.tooLarge.delete(uri);
		if (this.open.delete(uri) && this.options.events.didClose) {
			this.options.send('didClose', { uri });
		}
	}

	/** A document became the active editor; `lines` is its current text. */
	didFocus(uri: string, version: number, position: Position, visibleRange: Range, lines: TextLines): void {
		if (!this.options.events.didFocus || !this.open.has(uri)) {
			return;
		}
		const converter = createPositionConverter(this.options.encoding, lines);
		this.options.send('didFocus', { uri, version, position: converter.toAgentPosition(position), visibleRange: converter.toAgentRange(visibleRange) });
	}

	private exclude(uri: string, bytes: number, wasOpen: boolean): void {
		this.tooLarge.add(uri);
		if (wasOpen && this.options.events.didClose) {
			this.options.send('didClose', { uri });
		}
		if (!this.logged.has(uri)) {
			this.logged.add(uri);
			const size = `${(bytes / 1024 / 1024).toFixed(2)} MiB`;
			const limit = `${(this.options.maxFileBytes / 1024 / 1024).toFixed(2)} MiB`;
			this.options.log(
				wasOpen
					? `${uri} grew to ${size}, over agentLink.nes.maxFileSize (${limit}): it is closed for the NES agent until the editor reopens it.`
					: `${uri} is ${size}, over agentLink.nes.maxFileSize (${limit}): it is not sent to the NES agent.`,
			);
		}
	}
}
