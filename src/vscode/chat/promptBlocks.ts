/**
 * A prompt from the chat's input as ACP content blocks: the text, then each attachment as the
 * agent accepts it (its prompt capabilities): an image only to an agent that takes images; a
 * file, selection or symbol embedded as a resource for an agent that takes context, a link
 * otherwise (and when the file cannot be read); a folder as a link; an OpenCtx mention as the
 * OpenCtx feature makes it. What is left out is said (`warn`); nothing here sends anything.
 */
import * as path from 'node:path';
import * as vscode from 'vscode';
import type { Attachment } from '../../common/chat/messages';
import type { ContentBlock } from '../../common/chat/updates';
import { errorMessage } from '../../common/log';
import type { ExtensionLog } from '../log';
import type { OpenCtxFeature } from '../openctx/feature';

export interface PromptTarget {
	readonly agentName: string;
	readonly accepts: { readonly image: boolean; readonly embeddedContext: boolean };
	readonly openctx: OpenCtxFeature | undefined;
	/** Tells the user in the chat what was not sent. */
	readonly warn: (message: string) => void;
	readonly log: ExtensionLog;
}

/** The prompt's content blocks: the text, then each attachment as the agent accepts it. */
export async function promptBlocks(text: string, attachments: readonly Attachment[], target: PromptTarget): Promise<ContentBlock[]> {
	const blocks: ContentBlock[] = text.length > 0 ? [{ type: 'text', text }] : [];
	for (const attachment of attachments) {
		if (attachment.type === 'image') {
			if (target.accepts.image) {
				blocks.push({ type: 'image', mimeType: attachment.mimeType, data: attachment.data });
			} else {
				target.warn(`${target.agentName} does not accept images, so the image was not sent.`);
			}
		} else if (attachment.type === 'openctx') {
			blocks.push(...(await openctxBlocks(text, attachment, target)));
		} else {
			blocks.push(await resourceBlock(attachment, target));
		}
	}
	return blocks;
}

/** A file, selection, symbol or folder: embedded when the agent takes context and it can be read, else a link. */
async function resourceBlock(attachment: Exclude<Attachment, { type: 'image' | 'openctx' }>, target: PromptTarget): Promise<ContentBlock> {
	const uri = vscode.Uri.file(attachment.path);
	const name = attachment.type === 'symbol' ? attachment.name : path.basename(attachment.path);
	const lines = attachment.type === 'folder' ? undefined : attachment.lines;
	const linked = lines ? uri.with({ fragment: `L${lines.start}-${lines.end}` }).toString() : uri.toString();
	if (attachment.type !== 'folder' && target.accepts.embeddedContext) {
		try {
			const document = await vscode.workspace.openTextDocument(uri);
			const range = lines ? new vscode.Range(lines.start - 1, 0, lines.end, 0) : undefined;
			return { type: 'resource', resource: { uri: linked, text: document.getText(range), mimeType: 'text/plain' } };
		} catch (error) {
			target.log.warn(`Chat: ${attachment.path} could not be read, sent as a link: ${errorMessage(error)}`);
		}
	}
	return { type: 'resource_link', uri: linked, name };
}

/**
 * An OpenCtx mention's items (or, for a message suggestion the user kept, the items for the
 * message), as the OpenCtx feature makes them into blocks. A provider that fails is said in the
 * chat; the prompt goes without it.
 */
async function openctxBlocks(text: string, attachment: Extract<Attachment, { type: 'openctx' }>, target: PromptTarget): Promise<ContentBlock[]> {
	if (!target.openctx) {
		return [];
	}
	try {
		return await target.openctx.promptBlocks(attachment, text, target.accepts.embeddedContext);
	} catch (error) {
		target.warn(`OpenCtx: "${attachment.title}" was not sent: ${errorMessage(error)}`);
		return [];
	}
}
