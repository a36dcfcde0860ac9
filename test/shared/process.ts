import * as fs from 'node:fs';

/** Whether a process runs; an exited process nobody has reaped yet (a zombie) does not count. */
export function isAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	try {
		const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
		return state !== 'Z' && state !== 'X';
	} catch {
		return process.platform !== 'linux';
	}
}
