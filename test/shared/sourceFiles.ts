import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The TypeScript files under `folder`, its subfolders included. */
export function sourceFiles(folder: string): string[] {
	return readdirSync(folder, { withFileTypes: true }).flatMap((entry) =>
		entry.isDirectory() ? sourceFiles(join(folder, entry.name)) : entry.name.endsWith('.ts') ? [join(folder, entry.name)] : [],
	);
}
