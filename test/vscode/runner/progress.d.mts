// Types of progress.mjs, for the TypeScript tests that import it (test/unit/startProgress.test.ts).
export function stampLines(text: string, at?: Date): string;
export function lineSplitter(onLine: (line: string) => void): ((chunk: Buffer | string) => void) & { flush: () => void };
export class InstallProgress {
	downloaded: number;
	fromCache: number;
	lookedUp: number;
	compiled: number;
	added: number;
	step: string;
	feed(line: string): string | undefined;
	summary(seconds: number, bytes: number | undefined): string;
	counts(): string;
}
export function formatMegabytes(bytes: number): string;
export function folderBytes(dir: string): Promise<number>;
