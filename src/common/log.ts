/** The logging surface every layer writes to; the vscode layer backs it with a LogOutputChannel. */
export interface Logger {
	trace(message: string): void;
	debug(message: string): void;
	info(message: string): void;
	warn(message: string): void;
	error(message: string): void;
}

export const nullLogger: Logger = {
	trace() {},
	debug() {},
	info() {},
	warn() {},
	error() {},
};

/** Error text for logs and notifications, whatever was thrown. */
export function errorMessage(error: unknown): string {
	if (error instanceof Error) {
		return error.message;
	}
	return typeof error === 'string' ? error : JSON.stringify(error);
}
