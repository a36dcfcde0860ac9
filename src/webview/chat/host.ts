/**
 * The page's side of the messages with the host (`src/common/chat/messages.ts`): commands, requests
 * with answers, and the host's notifications, each checked with the shared schemas on arrival.
 */
import {
	decodeHostNotification,
	decodeResponse,
	encodeCommand,
	encodeRequest,
	isResponse,
	type CommandType,
	type HostNotifications,
	type ParamsOf,
	type RequestType,
} from '../../common/chat/messages';

interface VsCodeApi {
	postMessage(message: unknown): void;
	getState(): unknown;
	setState(state: unknown): void;
}

declare function acquireVsCodeApi(): VsCodeApi;

type Notification = Exclude<ReturnType<typeof decodeHostNotification>, { kind: 'invalid' }>;
export type HostNotification = Notification;
export type { HostNotifications };

/** The API the page's document acquired as it arrived (chatView.ts), taken off the window; acquired here when there is none. */
function takeApi(): VsCodeApi {
	const page = globalThis as { agentLinkVsCodeApi?: VsCodeApi };
	const api = page.agentLinkVsCodeApi ?? acquireVsCodeApi();
	delete page.agentLinkVsCodeApi;
	return api;
}

export class Host {
	private readonly api = takeApi();
	private nextId = 1;
	private readonly pending = new Map<number, { type: RequestType<string, unknown, unknown>; resolve: (value: unknown) => void; reject: (error: Error) => void }>();

	constructor(onNotification: (notification: Notification) => void) {
		window.addEventListener('message', (event: MessageEvent) => {
			const raw: unknown = event.data;
			if (isResponse(raw)) {
				const waiting = this.pending.get(raw.id);
				if (!waiting) {
					return;
				}
				this.pending.delete(raw.id);
				const answer = decodeResponse(waiting.type, raw);
				if (answer.ok) {
					waiting.resolve(answer.result);
				} else {
					waiting.reject(new Error(answer.error));
				}
				return;
			}
			const notification = decodeHostNotification(raw);
			if (notification.kind === 'invalid') {
				this.warn(notification.error);
				return;
			}
			onNotification(notification);
		});
	}

	send<M extends string, P>(type: CommandType<M, P>, params: P): void {
		this.api.postMessage(encodeCommand(type, params));
	}

	request<M extends string, P, R>(type: RequestType<M, P, R>, params: P): Promise<R> {
		const id = this.nextId++;
		return new Promise<R>((resolve, reject) => {
			this.pending.set(id, { type: type as RequestType<string, unknown, unknown>, resolve: resolve as (value: unknown) => void, reject });
			this.api.postMessage(encodeRequest(type, id, params));
		});
	}

	/** What the page keeps across being hidden (drafts, history): VS Code's webview state. */
	get saved(): unknown {
		return this.api.getState();
	}

	save(state: unknown): void {
		this.api.setState(state);
	}

	private warn(message: string): void {
		// Shown in the webview's developer tools only; the host logs what it sends.
		(globalThis as { console?: { warn(...args: unknown[]): void } }).console?.warn(`Agent Link chat: ${message}`);
	}
}

export type { ParamsOf };
