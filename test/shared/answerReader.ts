// Reads what the client writes to an agent over an in-memory stream, one JSON-RPC message a line,
// for tests and benchmarks that play the agent's side themselves.
import type { Readable } from 'node:stream';

export interface Answer {
	readonly id: string | number | null;
	readonly result?: unknown;
	readonly error?: { readonly code: number; readonly message: string };
}

/** Calls `each` with every message the client writes to `stream`. */
export function onMessages(stream: Readable, each: (message: Answer) => void): void {
	let buffered = '';
	stream.setEncoding('utf8');
	stream.on('data', (chunk: string) => {
		buffered += chunk;
		let nl: number;
		while ((nl = buffered.indexOf('\n')) !== -1) {
			const message = JSON.parse(buffered.slice(0, nl)) as Answer;
			buffered = buffered.slice(nl + 1);
			each(message);
		}
	});
}

/** The client's answers by id, and a count of those with `id: null`. */
export class AnswerBook {
	readonly byId = new Map<string | number, Answer[]>();
	nullAnswers = 0;

	constructor(stream: Readable) {
		onMessages(stream, (answer) => {
			if (answer.id === null) {
				this.nullAnswers++;
			} else {
				this.byId.set(answer.id, [...(this.byId.get(answer.id) ?? []), answer]);
			}
		});
	}
}
