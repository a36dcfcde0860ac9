/**
 * Ending a process and everything it started. On POSIX the process leads its own process group
 * (spawned `detached`), so one signal reaches the group; descendants that left the group (`setsid`,
 * a `detached` spawn of their own) are found by walking parent ids while their parent still runs.
 * On Windows, `taskkill /T /F`.
 */
import { spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';

/** Sends `signal` to the process group `pgid`; false when no process of it is left. */
export function signalGroup(pgid: number, signal: NodeJS.Signals | 0): boolean {
	try {
		process.kill(-pgid, signal);
		return true;
	} catch {
		return false;
	}
}

/**
 * Whether any process of the group still runs. Exited processes that nobody has reaped yet
 * (zombies, common in containers whose init does not reap) still answer signals; on Linux they are
 * told apart through /proc.
 */
export function groupAlive(pgid: number): boolean {
	if (!signalGroup(pgid, 0)) {
		return false;
	}
	if (process.platform !== 'linux') {
		return true;
	}
	try {
		for (const entry of fs.readdirSync('/proc')) {
			if (!/^\d+$/.test(entry)) {
				continue;
			}
			const stat = procStat(Number(entry));
			if (stat && stat.pgrp === pgid && stat.state !== 'Z' && stat.state !== 'X') {
				return true;
			}
		}
		return false;
	} catch {
		return true;
	}
}

/** Whether the process runs (a zombie does not count). */
export function processAlive(pid: number): boolean {
	try {
		process.kill(pid, 0);
	} catch {
		return false;
	}
	if (process.platform !== 'linux') {
		return true;
	}
	const stat = procStat(pid);
	return stat !== undefined && stat.state !== 'Z' && stat.state !== 'X';
}

/** State, parent and process group of a process, from /proc/<pid>/stat (Linux). */
export function procStat(pid: number): { state: string; ppid: number; pgrp: number } | undefined {
	try {
		const text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
		// The command name is in parentheses and may contain spaces: read after the last ')'.
		const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
		return { state: fields[0] ?? '', ppid: Number(fields[1]), pgrp: Number(fields[2]) };
	} catch {
		return undefined;
	}
}

/** Every process's parent: /proc on Linux, `ps` elsewhere on POSIX; empty when neither answers. */
function parents(): Map<number, number> {
	const map = new Map<number, number>();
	if (process.platform === 'linux') {
		try {
			for (const entry of fs.readdirSync('/proc')) {
				if (/^\d+$/.test(entry)) {
					const stat = procStat(Number(entry));
					if (stat) {
						map.set(Number(entry), stat.ppid);
					}
				}
			}
		} catch {
			// no /proc: nothing to walk
		}
		return map;
	}
	const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid='], { encoding: 'utf8', timeout: 2000 });
	for (const line of (ps.stdout ?? '').split('\n')) {
		const [pid, ppid] = line.trim().split(/\s+/).map(Number);
		if (pid !== undefined && ppid !== undefined && Number.isInteger(pid) && Number.isInteger(ppid)) {
			map.set(pid, ppid);
		}
	}
	return map;
}

/** The processes below `pid` (children, their children, …), as running now. */
export function descendants(pid: number): number[] {
	const children = new Map<number, number[]>();
	for (const [child, parent] of parents()) {
		const list = children.get(parent);
		if (list) {
			list.push(child);
		} else {
			children.set(parent, [child]);
		}
	}
	const found: number[] = [];
	const queue = [pid];
	while (queue.length > 0) {
		for (const child of children.get(queue.shift()!) ?? []) {
			if (!found.includes(child)) {
				found.push(child);
				queue.push(child);
			}
		}
	}
	return found;
}

/**
 * Ends the process `pid` (the leader of its own process group on POSIX) and everything it started:
 * SIGTERM to the group and to every descendant, then SIGKILL after `graceMs` to whatever is left.
 * The first signals go out before this returns its promise, so a caller that cannot wait (the
 * extension deactivating) still ends the tree. Resolves once nothing is left, or shortly after the
 * SIGKILL. With `exited` (the process has exited and been reaped), only its group is signalled: its
 * children went to init, and its pid may now be another process's.
 */
export async function killTree(pid: number, graceMs: number, options: { readonly exited?: boolean } = {}): Promise<void> {
	if (process.platform === 'win32') {
		await new Promise<void>((resolve) => {
			const killer = spawn('taskkill', ['/pid', String(pid), '/T', '/F'], { windowsHide: true });
			killer.once('exit', () => resolve());
			killer.once('error', () => resolve());
		});
		return;
	}
	const strays = options.exited ? [] : descendants(pid);
	const left = () => [...(groupAlive(pid) ? [-pid] : []), ...strays.filter(processAlive)];
	const signal = (target: number, name: NodeJS.Signals) => {
		try {
			process.kill(target, name);
		} catch {
			// gone already
		}
	};
	signal(-pid, 'SIGTERM');
	strays.forEach((p) => signal(p, 'SIGTERM'));
	const deadline = Date.now() + graceMs;
	while (left().length > 0) {
		if (Date.now() >= deadline) {
			// Whatever started meanwhile below the survivors goes too.
			for (const target of left()) {
				if (target > 0) {
					descendants(target).forEach((p) => signal(p, 'SIGKILL'));
				}
				signal(target, 'SIGKILL');
			}
			const until = Date.now() + 1000;
			while (left().length > 0 && Date.now() < until) {
				await delay(25);
			}
			return;
		}
		await delay(25);
	}
}

function delay(ms: number): Promise<void> {
	return new Promise((resolve) => setTimeout(resolve, ms));
}
