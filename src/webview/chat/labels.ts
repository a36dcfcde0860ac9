/**
 * How the input names what it shows: an attachment's chip (a file and its lines, a symbol, an
 * image, an OpenCtx item) and the session's token count. Text only; no DOM.
 */
import type { Attachment } from '../../common/chat/messages';

/** An attachment's label on its chip: `config.json:2-3`, `README.md`, `parse`, `image.png`, `Docs: Intro`. */
export function attachmentLabel(attachment: Attachment): string {
	if (attachment.type === 'image') {
		return attachment.name ?? 'image';
	}
	if (attachment.type === 'openctx') {
		return attachment.message ? `${attachment.providerName} (for this message)` : `${attachment.providerName}: ${attachment.title}`;
	}
	const name = attachment.type === 'symbol' ? attachment.name : (attachment.path.split(/[\\/]/).pop() ?? attachment.path);
	return 'lines' in attachment && attachment.lines ? `${name}:${attachment.lines.start}-${attachment.lines.end}` : name;
}

/** A token count as the input's usage line shows it: `950`, `12.3k`, `1.2M` (never `1000.0k`). */
export function formatTokens(n: number): string {
	return n >= 999_950 ? `${(n / 1_000_000).toFixed(1)}M` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n);
}
