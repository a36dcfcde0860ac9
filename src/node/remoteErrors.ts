/**
 * Why the link to a remote agent ended. Kept apart from remoteTransport.ts (a bundle of its own,
 * loaded on first use) so the agent manager can tell them apart without loading it: across
 * bundles a class is not the same class, so {@link isRemoteAuthError} looks at the name.
 */
import { describeUrl } from '../common/remoteAgent';

/** The server refused the credential (HTTP 401 or 403): ask for it again rather than retry. */
export class RemoteAuthError extends Error {
	constructor(
		readonly status: number,
		url: string,
	) {
		super(status === 403 ? `${describeUrl(url)} refused the credential (HTTP 403: wrong, or without access there).` : `${describeUrl(url)} wants a valid credential (HTTP ${status}).`);
		this.name = 'RemoteAuthError';
	}
}

/** The link to a remote agent failed or closed; `status` when the server answered with an HTTP error. */
export class RemoteLinkError extends Error {
	constructor(
		message: string,
		readonly status?: number,
	) {
		super(message);
		this.name = 'RemoteLinkError';
	}
}

/** Whether `error` is a {@link RemoteAuthError}, from whichever bundle made it. */
export function isRemoteAuthError(error: unknown): error is RemoteAuthError {
	return error instanceof Error && error.name === 'RemoteAuthError' && typeof (error as { status?: unknown }).status === 'number';
}

/**
 * What the chat says when a remote agent stays refused: `asked` whether the user was asked for a
 * credential and gave none (nothing stored; the next start asks again), else the one just given was
 * refused too (HTTP 403) and nothing more is asked in this start.
 */
export function refusedMessage(name: string, cause: RemoteAuthError, asked: boolean): string {
	if (asked) {
		return `${cause.message} No credential was given, so nothing was stored. Start a new chat with ${name} (or Restart Agent) to be asked again.`;
	}
	return `${cause.message} The credential just given has no access there either. Check the token with the server's owner, then start a new chat with ${name} to enter another.`;
}
