/**
 * The agent's requests being handled, by id: each one's cancellation token, and
 * its end, which comes once: the handler's result or error, or the agent's
 * `$/cancel_request` (the request then ends at once, whatever its handler still
 * does). A handler that answers at once is answered at once: no promise, timer or
 * listener per request, which a flood of editor state requests pays for on each.
 */
import { CancellationTokenSource, ResponseError, type CancellationId, type CancellationToken } from 'vscode-jsonrpc/node';
import { ErrorCodes } from '../common/protocol';

/** How a request ended: with its result, or `failed` with an error (a thrown value, or the cancellation). */
export type RequestEnd = (failed: boolean, value: unknown) => void;

class Incoming {
	readonly source = new CancellationTokenSource();
	private ended = false;

	constructor(private readonly onEnd: RequestEnd) {}

	/** Ends the request, unless it has ended. */
	end(failed: boolean, value: unknown): void {
		if (!this.ended) {
			this.ended = true;
			this.source.dispose();
			this.onEnd(failed, value);
		}
	}
}

const cancelled = () => new ResponseError(ErrorCodes.RequestCancelled, 'Request cancelled');

function isThenable(value: unknown): value is PromiseLike<unknown> {
	return typeof value === 'object' && value !== null && typeof (value as { then?: unknown }).then === 'function';
}

export class IncomingRequests {
	private readonly byId = new Map<CancellationId, Incoming>();

	/** Handles request `id` with `handle`, and reports its end to `onEnd`, once. */
	run(id: CancellationId, handle: (token: CancellationToken) => unknown, onEnd: RequestEnd): void {
		const incoming = new Incoming(onEnd);
		this.byId.set(id, incoming);
		let result: unknown;
		try {
			result = handle(incoming.source.token);
		} catch (error) {
			this.end(id, incoming, true, error);
			return;
		}
		if (isThenable(result)) {
			result.then(
				(value) => this.end(id, incoming, false, value),
				(error: unknown) => this.end(id, incoming, true, error),
			);
		} else {
			this.end(id, incoming, false, result);
		}
	}

	/** `$/cancel_request` for `id`: its token is cancelled and it ends now with -32800. */
	cancel(id: CancellationId): void {
		const incoming = this.byId.get(id);
		if (incoming) {
			incoming.source.cancel();
			this.end(id, incoming, true, cancelled());
		}
	}

	/** Cancels every request being handled (the connection is closing). */
	cancelAll(): void {
		for (const [id, incoming] of [...this.byId]) {
			incoming.source.cancel();
			this.end(id, incoming, true, cancelled());
		}
	}

	private end(id: CancellationId, incoming: Incoming, failed: boolean, value: unknown): void {
		if (this.byId.get(id) === incoming) {
			this.byId.delete(id);
		}
		incoming.end(failed, value);
	}
}
