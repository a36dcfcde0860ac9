/**
 * The snooze command's question: from its argument and whether suggestions are snoozed, what to
 * do, asking the user for the minutes when the argument does not say. It must not snooze,
 * resume or end anything itself: the caller carries out the answer.
 */
import * as vscode from 'vscode';
import { chosenAction, snoozeAction, SNOOZE_CHOICES, type SnoozeOutcome } from '../../common/nes/snooze';

export async function askSnooze(minutes: unknown, snoozed: boolean): Promise<SnoozeOutcome> {
	const action = snoozeAction(minutes, snoozed);
	if (action.do !== 'ask') {
		return action;
	}
	const pick = await vscode.window.showQuickPick(
		SNOOZE_CHOICES.map((m) => ({ label: `${m} minutes`, minutes: m })),
		{ title: 'Agent Link: Snooze next edit suggestions', placeHolder: 'No automatic suggestions for…' },
	);
	return chosenAction(pick?.minutes);
}
