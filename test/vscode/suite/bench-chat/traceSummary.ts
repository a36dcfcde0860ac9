// A performance trace (bridge.mjs, trace start/stop) summed up as the processor time of the
// browser's main thread, which the chat page shares with the workbench: per task, the thread time
// (`tdur`), which unlike the wall time leaves out the time the thread waited for a processor, so
// it says what the page cost even on a shared, loaded machine. Also where that time went, by the
// trace's event names (script, style, layout, paint, intersection checks, garbage collection).
import * as fs from 'node:fs';

interface TraceEvent {
	name: string;
	ph: string;
	pid: number;
	tid: number;
	ts: number;
	dur?: number;
	tdur?: number;
	args?: { name?: string };
}

export interface CpuSummary {
	tasks: number;
	totalMs: number;
	/** Tasks that took over 50 ms of processor time. */
	over50: number;
	longestMs: number;
	/** Processor time by the trace's event names, the largest first (self time: nested events taken out). */
	by: Record<string, number>;
}

export function summarizeTrace(file: string): CpuSummary {
	const data = JSON.parse(fs.readFileSync(file, 'utf8')) as { traceEvents: TraceEvent[] } | TraceEvent[];
	const events = Array.isArray(data) ? data : data.traceEvents;
	// The renderer's main thread with the most tasks (the workbench and the chat page run on it).
	const mains = events.filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
	const complete = events.filter((e) => e.ph === 'X' && e.dur !== undefined && e.tdur !== undefined);
	const tasksOf = (m: TraceEvent) => complete.filter((e) => e.pid === m.pid && e.tid === m.tid);
	const main = mains.map((m) => ({ m, n: tasksOf(m).filter((e) => e.name === 'RunTask').length })).sort((a, b) => b.n - a.n)[0]?.m;
	if (!main) {
		return { tasks: 0, totalMs: 0, over50: 0, longestMs: 0, by: {} };
	}
	const own = tasksOf(main).sort((a, b) => a.ts - b.ts || b.dur! - a.dur!);
	// The task that starts the trace's sampling profiler is the trace's own work, not the page's.
	const starts = own.filter((e) => e.name === 'CpuProfiler::StartProfiling');
	const profilerStart = (task: TraceEvent) => starts.some((s) => s.ts >= task.ts && s.ts <= task.ts + task.dur!);
	// The events nested, to take each one's self time.
	const by = new Map<string, number>();
	const tasks: number[] = [];
	const stack: { e: TraceEvent; children: number }[] = [];
	const close = (until: number) => {
		while (stack.length > 0 && stack[stack.length - 1]!.e.ts + stack[stack.length - 1]!.e.dur! <= until) {
			const { e, children } = stack.pop()!;
			by.set(e.name, (by.get(e.name) ?? 0) + (e.tdur! - children));
			if (stack.length > 0) {
				stack[stack.length - 1]!.children += e.tdur!;
			} else if (e.name === 'RunTask' && !profilerStart(e)) {
				tasks.push(e.tdur! / 1000);
			}
		}
	};
	for (const e of own) {
		close(e.ts);
		stack.push({ e, children: 0 });
	}
	close(Infinity);
	by.delete('CpuProfiler::StartProfiling');
	const sorted = [...by].sort((a, b) => b[1] - a[1]).slice(0, 10);
	return {
		tasks: tasks.length,
		totalMs: Math.round(tasks.reduce((a, b) => a + b, 0)),
		over50: tasks.filter((t) => t > 50).length,
		longestMs: Number(Math.max(0, ...tasks).toFixed(1)),
		by: Object.fromEntries(sorted.map(([name, us]) => [name, Math.round(us / 1000)])),
	};
}
