import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { PageCommands, decodePageMessage, encodeCommand } from '../../src/common/chat/messages';
import { runPageCommand, type PageCommandHandlers } from '../../src/common/chat/pageCommands';

/** Handlers that write down which ran, with what. */
function recording(): { handlers: PageCommandHandlers; calls: [string, unknown][] } {
	const calls: [string, unknown][] = [];
	const handlers = Object.fromEntries(Object.keys(PageCommands).map((name) => [name, (params: unknown) => void calls.push([name, params])])) as unknown as PageCommandHandlers;
	return { handlers, calls };
}

describe('page commands (src/common/chat/pageCommands.ts)', () => {
	it('runs each page command on the handler named for it, with its params', async () => {
		const { handlers, calls } = recording();
		for (const [name, command] of Object.entries(PageCommands)) {
			const params = { marker: name };
			await runPageCommand(handlers, command.method, params);
			assert.deepEqual(calls.at(-1), [name, params], command.method);
		}
		assert.equal(calls.length, Object.keys(PageCommands).length, 'one call each');
	});

	it('refuses a method that is no page command (a request, or nothing at all), running no handler', async () => {
		const { handlers, calls } = recording();
		await assert.rejects(runPageCommand(handlers, 'chat/getState', {}), /Unknown page command chat\/getState/);
		await assert.rejects(runPageCommand(handlers, 'chat/nothing', {}), /Unknown page command chat\/nothing/);
		await assert.rejects(runPageCommand(handlers, 'toString', {}), /Unknown page command toString/);
		assert.deepEqual(calls, []);
	});

	it('passes on a handler’s failure, for the host to show', async () => {
		const { handlers } = recording();
		const failing: PageCommandHandlers = { ...handlers, closeTab: () => Promise.reject(new Error('no such chat')) };
		await assert.rejects(runPageCommand(failing, PageCommands.closeTab.method, { sessionKey: 'x' }), /no such chat/);
	});

	it('takes what the page sent, once checked: keep and undo go to their own handlers', async () => {
		const { handlers, calls } = recording();
		for (const raw of [encodeCommand(PageCommands.keepChanges, { sessionKey: 'tab-1', path: '/w/a.ts' }), encodeCommand(PageCommands.undoChanges, { sessionKey: 'tab-1' })]) {
			const message = decodePageMessage(raw);
			assert.equal(message.kind, 'command');
			if (message.kind === 'command') {
				await runPageCommand(handlers, message.method, message.params);
			}
		}
		assert.deepEqual(calls, [
			['keepChanges', { sessionKey: 'tab-1', path: '/w/a.ts' }],
			['undoChanges', { sessionKey: 'tab-1' }],
		]);
	});
});
