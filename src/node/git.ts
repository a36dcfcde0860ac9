import { execFile } from 'node:child_process';

function git(cwd: string, args: string[]): Promise<string | undefined> {
	return new Promise((resolve) => {
		execFile('git', args, { cwd, timeout: 5000, windowsHide: true }, (error, stdout) => resolve(error ? undefined : stdout.trim()));
	});
}

/**
 * The URL of the folder's git remote: `origin` if there is one, else the first
 * remote. `undefined` when the folder is not in a git repository, has no
 * remote, or git is not installed.
 */
export async function readGitRemoteUrl(folder: string): Promise<string | undefined> {
	const origin = await git(folder, ['remote', 'get-url', 'origin']);
	if (origin) {
		return origin;
	}
	const first = (await git(folder, ['remote']))?.split('\n')[0]?.trim();
	return first ? git(folder, ['remote', 'get-url', first]) : undefined;
}
