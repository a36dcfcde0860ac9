// Notifications as a person sees them: a toast, or (headless Chromium often shows no toast) a row
// of the notification center, opened as the bell in the status bar does.
import * as vscode from 'vscode';
import { query } from './browser';

/** A notification on the page: a toast or a row of the notification center. */
export const NOTIFICATIONS = '.notifications-toasts .notification-toast, .notifications-center .notification-list-item';

/**
 * Whether a notification holding `text` (or matching it) is shown; when none is, the notification
 * center is opened for the next look (poll it with waitFor or waitUntil).
 */
export async function notificationShown(text: string | RegExp): Promise<boolean> {
	const holds = (shown: string) => (typeof text === 'string' ? shown.includes(text) : text.test(shown));
	if ((await query(NOTIFICATIONS, { visible: true })).texts.some(holds)) {
		return true;
	}
	await vscode.commands.executeCommand('notifications.showList');
	return false;
}
