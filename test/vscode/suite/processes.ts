// CPU time spent by each process of this editor (the server, the extension host, the browser's
// processes, the agents), from /proc: where a benchmark's work lands, in this process or another. Only the
// processes of this run count (the machine is shared): the server's session (the runner starts it with
// setsid) and the browser whose profile lives in this run's temporary folder, with their children.
// Linux only; elsewhere it reports nothing. Benchmarks only.
import * as fs from 'node:fs';
import * as path from 'node:path';

export interface CpuSample {
	readonly name: string;
	readonly seconds: number;
}

interface Proc {
	readonly pid: number;
	readonly ppid: number;
	readonly session: number;
	readonly cmdline: string;
	readonly ticks: number;
}

/** Clock ticks per second of /proc's times: 100 on every Linux this runs on (USER_HZ). */
const TICKS = 100;

function readProcs(): Proc[] {
	let entries: string[];
	try {
		entries = fs.readdirSync('/proc');
	} catch {
		return [];
	}
	const procs: Proc[] = [];
	for (const entry of entries) {
		const pid = Number(entry);
		if (!Number.isInteger(pid)) {
			continue;
		}
		try {
			const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
			// Fields after the command name, which is in parentheses and may hold spaces.
			const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
			const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ');
			procs.push({ pid, ppid: Number(fields[1]), session: Number(fields[3]), cmdline, ticks: Number(fields[11]) + Number(fields[12]) });
		} catch {
			// The process ended meanwhile.
		}
	}
	return procs;
}

function roleOf(proc: Proc): string {
	const type = /--type=([\w-]+)/.exec(proc.cmdline)?.[1];
	if (proc.pid === process.pid) {
		return 'extension host';
	}
	if (proc.cmdline.includes('hostile-flood-agent')) {
		return 'agent';
	}
	if (proc.cmdline.includes('nes-scripted-agent')) {
		return 'peer agent';
	}
	if (proc.cmdline.includes('fixtures/agents/')) {
		return 'agent';
	}
	if (/chrom/i.test(proc.cmdline)) {
		return `browser ${type ?? 'main'}`;
	}
	if (proc.cmdline.includes('server-main')) {
		return 'server';
	}
	return `server child${type ? ` ${type}` : ''}`;
}

/** This run's processes, by pid, with their role and CPU ticks so far. */
function ours(): Map<number, { role: string; ticks: number }> {
	const procs = readProcs();
	const self = procs.find((p) => p.pid === process.pid);
	if (!self) {
		return new Map();
	}
	const runDir = process.env.TMPDIR ? path.dirname(process.env.TMPDIR) : undefined;
	const mine = new Set(procs.filter((p) => p.session === self.session || (runDir !== undefined && /chrom/i.test(p.cmdline) && p.cmdline.includes(runDir))).map((p) => p.pid));
	for (let grew = true; grew; ) {
		grew = false;
		for (const p of procs) {
			if (!mine.has(p.pid) && mine.has(p.ppid)) {
				mine.add(p.pid);
				grew = true;
			}
		}
	}
	return new Map(procs.filter((p) => mine.has(p.pid)).map((p) => [p.pid, { role: roleOf(p), ticks: p.ticks }]));
}

export type CpuSnapshot = Map<number, { role: string; ticks: number }>;

/** Without `before`, a snapshot to pass back later; with it, the CPU seconds per role since then. */
export function cpuByProcess(): CpuSnapshot;
export function cpuByProcess(before: CpuSnapshot): CpuSample[];
export function cpuByProcess(before?: CpuSnapshot): CpuSnapshot | CpuSample[] {
	const now = ours();
	if (!before) {
		return now;
	}
	const byRole = new Map<string, number>();
	for (const [pid, { role, ticks }] of now) {
		byRole.set(role, (byRole.get(role) ?? 0) + ticks - (before.get(pid)?.ticks ?? 0));
	}
	return [...byRole]
		.filter(([, ticks]) => ticks > 0)
		.sort((x, y) => y[1] - x[1])
		.map(([name, ticks]) => ({ name, seconds: ticks / TICKS }));
}
