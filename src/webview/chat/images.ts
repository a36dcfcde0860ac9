/**
 * Images pasted or dropped into the chat's input, read into attachments (base64). Only image files,
 * each at most {@link MAX_IMAGE_BYTES}; anything else is left to the browser.
 */
import type { Attachment } from '../../common/chat/messages';

/** The largest image taken (its base64 must stay under the messages' MAX_IMAGE_CHARS). */
const MAX_IMAGE_BYTES = 14_000_000;

/** Reads each image among `files` and gives it to `take` once read; whether there was any. */
export function readImages(files: FileList | undefined | null, take: (image: Attachment) => void): boolean {
	const images = [...(files ?? [])].filter((f) => /^image\/[\w.+-]+$/.test(f.type) && f.size <= MAX_IMAGE_BYTES);
	for (const file of images) {
		const reader = new FileReader();
		reader.onload = () => {
			const data = String(reader.result).replace(/^data:[^,]*,/, '');
			take({ type: 'image', mimeType: file.type, data, name: file.name || 'image' });
		};
		reader.readAsDataURL(file);
	}
	return images.length > 0;
}
