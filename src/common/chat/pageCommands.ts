/**
 * The page's commands (what the user did in the chat page) routed to their handlers: one handler
 * per command of {@link PageCommands}, named as the command is, given its checked params. The
 * compiler holds the table whole (a command without a handler does not build); a method that is
 * not a command is refused. Knows nothing of the host: the handlers are given to it.
 */
import { PageCommands, type ParamsOf } from './messages';

type Commands = typeof PageCommands;

/** One handler per page command, given the command's params (checked by `decodePageMessage`). */
export type PageCommandHandlers = {
	readonly [K in keyof Commands]: (params: ParamsOf<Commands[K]>) => PromiseLike<unknown> | void;
};

const byMethod = new Map<string, keyof Commands>(Object.entries(PageCommands).map(([name, command]) => [command.method, name as keyof Commands]));

/** Runs page command `method` on its handler; rejects for a method that is no page command. */
export async function runPageCommand(handlers: PageCommandHandlers, method: string, params: unknown): Promise<void> {
	const name = byMethod.get(method);
	if (name === undefined) {
		throw new Error(`Unknown page command ${method}`);
	}
	await (handlers[name] as (params: unknown) => PromiseLike<unknown> | void)(params);
}
