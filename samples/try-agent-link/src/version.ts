// try-agent-link v1.4.2
export const VERSION = '1.4.2';

export function userAgent(platform: string): string {
	return `try-agent-link/1.4.2 (${platform})`;
}
