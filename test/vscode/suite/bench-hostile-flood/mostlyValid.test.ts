// Benchmark, not a test: a flood that is mostly valid requests (test/fixtures/agents/hostile-flood-agent.mjs,
// mix 'mostlyValid': 100 000 lines, one in eight a valid `workspace/*` request, every tenth of those with
// an extra member nested 5 000 deep, random Unicode garbage, cut JSON, the hostile rotation, and a 2 MiB
// `agent_message_chunk` every 1 000 lines into the flooding agent's own chat), then at once a valid
// `workspace/active_document`. A second agent (Peer Agent) serves a chat in the panel and next edit
// suggestions. Measured in the same run, in this order:
//   1. the flood's 12 500 valid requests alone (the peer of the flood's rate), once the editor has
//      settled (the file just opened keeps the language server and the page busy for seconds) and
//      after 2 500 of them to warm the code; the same count cold is printed beside it;
//   2. the second agent alone: a chat turn of 2 000 streamed chunks (Enter pressed in the page to the
//      turn drawn as ended; the host's receipt of the chunks), and keystrokes to ghost text visible;
//      then 10 s of nothing, for the CPU each process spends idle (a control);
//   3. the flood alone: lines/s, answers/s, valid requests answered/s, the valid request after it, the
//      extension host's peak heap (sampled every 50 ms), its longest event-loop block, CPU by process;
//   4. the flood again, with the second agent's chat and suggestions measured while it runs;
//   5. the flood from an agent without flow control (its writes never wait, so the flood piles up in the
//      agent and the request after it waits there).
// Printed and written to bench/results/, never asserted, except that every owed answer came.
//
//   node scripts/test.mjs --tier=vscode --suite=bench-hostile-flood --target=latest
// AGENT_LINK_BENCH_PROFILE=<dir> also writes CPU profiles of the extension host during the valid requests
// alone, and of the extension host and the workbench page during the flood alone.
import * as assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import * as vscode from 'vscode';
import * as z from 'zod/mini';
import type { AgentLinkApi } from '../../../../src/vscode/extension';
import type { AgentConnection } from '../../../../src/node/connection';
import { GHOST_TEXT, hasBrowser, press, pressAndTime, profile as pageProfile, query, type, waitFor, webviewQuery } from '../browser';
import { api, repoRoot, waitUntil } from '../util';
import { cpuByProcess, type CpuSample } from '../processes';
import { startProfile } from './profile';
import type { FloodReport } from '../../../shared/floodReport';

const FLOOD_AGENT = 'Hostile Flood Agent';
const PEER = 'Peer Agent';
const LINES = Number(process.env.AGENT_LINK_BENCH_FLOOD_LINES || 100_000);
/** Chunks of the Peer Agent's chat turn (test/vscode/suites.mjs). */
const CHAT_CHUNKS = 2000;
const NES_ROUNDS = 12;

interface Flood extends FloodReport {
	readonly heapPeakMiB: number;
	readonly heapBeforeMiB: number;
	readonly longestBlockMs: number;
	readonly cpu: CpuSample[];
	/** Host time when the flood's answer came, for telling whether other measurements ran during it. */
	readonly endedAt: number;
}

interface Others {
	/** Enter to the chat turn drawn as ended in the page, and to every chunk received in the host. */
	readonly chatDrawnMs: number;
	readonly chatReceivedMs: number;
	/** Keystroke to ghost text visible, per round. */
	readonly nesMs: number[];
	/** Host time when the last measurement ended. */
	readonly endedAt: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const mib = (bytes: number) => bytes / (1024 * 1024);

/**
 * Waits until this editor's processes together spend under 30% of a core for a second (at most
 * `maxMs`): a file just opened keeps the language server and the page busy, and on two cores that
 * work would be counted against whatever is measured next. Returns how long it waited.
 */
async function settle(maxMs = 20_000): Promise<number> {
	const started = performance.now();
	while (performance.now() - started < maxMs) {
		const before = cpuByProcess();
		await sleep(1000);
		const busy = cpuByProcess(before).reduce((sum, c) => sum + c.seconds, 0);
		if (busy < 0.3) {
			break;
		}
	}
	return performance.now() - started;
}

function median(xs: readonly number[]): number {
	const s = [...xs].sort((a, b) => a - b);
	return s[Math.floor(s.length / 2)]!;
}

async function flood(connection: AgentConnection, params: Record<string, unknown>): Promise<Flood> {
	const heap = () => getHeapStatistics().used_heap_size;
	const heapBefore = heap();
	let peak = heapBefore;
	const sampler = setInterval(() => (peak = Math.max(peak, heap())), 50);
	const histogram = monitorEventLoopDelay({ resolution: 1 });
	const cpuBefore = cpuByProcess();
	histogram.enable();
	try {
		const report = (await connection.sendRequest('_test/hostileFlood', { lines: LINES, mix: 'mostlyValid', ...params }, z.unknown())) as FloodReport;
		return { ...report, heapPeakMiB: mib(Math.max(peak, heap())), heapBeforeMiB: mib(heapBefore), longestBlockMs: histogram.max / 1e6, cpu: cpuByProcess(cpuBefore), endedAt: performance.now() };
	} finally {
		histogram.disable();
		clearInterval(sampler);
	}
}

/** A chat with the Peer Agent in the panel: 'go' and Enter typed in the page, until the turn is drawn as ended. */
async function chatTurn(a: AgentLinkApi): Promise<Pick<Others, 'chatDrawnMs' | 'chatReceivedMs'>> {
	const key = (await vscode.commands.executeCommand<string | undefined>('agentLink.chat.new', PEER))!;
	await waitUntil(() => a.chatController.tab(key)?.state === 'ready', 30_000, `${PEER} ready`);
	await waitFor(async () => (await webviewQuery('textarea.prompt-input:focus')).count === 1, 'the input focused');
	const session = a.chatController.tab(key)!.session!;
	let received = 0;
	let receivedAt = 0;
	const subscription = session.onDidUpdate(() => {
		if (++received === CHAT_CHUNKS) {
			receivedAt = performance.now();
		}
	});
	await type('go', 0);
	const started = performance.now();
	await press('Enter');
	await waitFor(async () => (await webviewQuery('.turn-end')).count > 0, 'the turn drawn as ended', 120_000);
	const drawnAt = performance.now();
	subscription.dispose();
	assert.equal(received, CHAT_CHUNKS, 'every chunk received');
	await a.chatController.closeTab(key);
	return { chatDrawnMs: drawnAt - started, chatReceivedMs: receivedAt - started };
}

/** Keystrokes in the editor, each timed until the Peer Agent's suggestion shows as ghost text. */
async function suggestions(a: AgentLinkApi, editor: vscode.TextEditor): Promise<number[]> {
	await vscode.window.showTextDocument(editor.document, { preview: false });
	const end = editor.document.lineAt(500).range.end;
	editor.selection = new vscode.Selection(end, end);
	await vscode.commands.executeCommand('workbench.action.focusActiveEditorGroup');
	const times: number[] = [];
	for (let i = 0; i < NES_ROUNDS; i++) {
		if (a.nesController.shown) {
			await press('Escape');
		}
		await waitUntil(async () => a.nesController.shown === undefined && (await query(GHOST_TEXT)).count === 0, 20_000, 'no ghost text');
		times.push(await pressAndTime(i % 2 === 0 ? 'x' : 'Backspace', GHOST_TEXT));
	}
	await press('Escape');
	return times;
}

async function others(a: AgentLinkApi, editor: vscode.TextEditor): Promise<Others> {
	const chat = await chatTurn(a);
	const nesMs = await suggestions(a, editor);
	return { ...chat, nesMs, endedAt: performance.now() };
}

function print(name: string, f: Flood): void {
	const host = f.cpu.find((c) => c.name === 'extension host')?.seconds;
	console.log(
		`  ${name}: ${Math.round(f.linesPerSecond).toLocaleString('en')} lines/s, ${Math.round(f.answersPerSecond).toLocaleString('en')} answers/s, ` +
			`valid requests ${Math.round(f.validPerSecond).toLocaleString('en')}/s (${(f.floodMs / 1000).toFixed(2)} s) | the valid request after it answered in ${(f.validLatencyMs / 1000).toFixed(2)} s | ` +
			`heap ${f.heapBeforeMiB.toFixed(0)} MiB before, peak ${f.heapPeakMiB.toFixed(0)} MiB | longest event-loop block ${f.longestBlockMs.toFixed(0)} ms`,
	);
	const perCpu = host ? ` (${Math.round(f.lines / host).toLocaleString('en')} lines per extension-host CPU second)` : '';
	console.log(`    CPU s by process: ${f.cpu.map((c) => `${c.name} ${c.seconds.toFixed(2)}`).join(', ') || 'not measured (no /proc)'}${perCpu}`);
}

function printOthers(name: string, o: Others): void {
	console.log(
		`  ${name}: chat turn of ${CHAT_CHUNKS} chunks drawn ${o.chatDrawnMs.toFixed(0)} ms after Enter (received in ${o.chatReceivedMs.toFixed(0)} ms); ` +
			`keystroke to suggestion shown median ${median(o.nesMs).toFixed(0)} ms, longest ${Math.max(...o.nesMs).toFixed(0)} ms (${o.nesMs.length} keys)`,
	);
}

function checkAnswers(name: string, f: FloodReport): void {
	assert.deepEqual({ missing: f.missing, timedOut: f.timedOut, got: f.got, unexpected: f.unexpected }, { missing: 0, timedOut: false, got: f.expected, unexpected: [] }, name);
	assert.ok(f.valid.result !== undefined, `${name}: the valid request got a result: ${JSON.stringify(f.valid)}`);
}

describe('benchmark: a flood that is mostly valid requests', function () {
	this.timeout(30 * 60_000);

	before(function () {
		if (!hasBrowser()) {
			this.skip();
		}
	});

	after(async () => {
		await vscode.workspace.getConfiguration('agentLink').update('nes.agent', undefined, vscode.ConfigurationTarget.Global);
	});

	it(`answers ${LINES} lines, most of them valid requests, while another agent's chat and suggestions go on`, async () => {
		const a = await api();
		await vscode.workspace.getConfiguration('agentLink').update('nes.agent', PEER, vscode.ConfigurationTarget.Global);
		await waitUntil(() => a.nesAgents.readyAgent?.name === PEER && a.nes.current !== undefined, 30_000, `the NES session of ${PEER}`);
		const folder = vscode.workspace.workspaceFolders![0]!.uri;
		const floodChat = await a.chat.create(a.agents.findChoice(FLOOD_AGENT)!, folder.fsPath);
		const connection = floodChat.agent!.handle.connection;
		const sessionId = floodChat.sessionId!;
		const editor = await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(vscode.Uri.joinPath(folder, 'src', 'peer.ts')), { preview: false });

		const profileDir = process.env.AGENT_LINK_BENCH_PROFILE;
		type Valid = { validPerSecond: number; validMs: number; missing: number };
		const validAlone = async () => {
			const cpuBefore = cpuByProcess();
			const result = (await connection.sendRequest('_test/validRequests', { sessionId, count: Math.floor(LINES / 8) }, z.unknown())) as Valid;
			return { ...result, cpu: cpuByProcess(cpuBefore) };
		};
		// Cold: as the test met it, the file just opened.
		const cold = await validAlone();
		const settledMs = await settle();
		await connection.sendRequest('_test/validRequests', { sessionId, count: Math.floor(LINES / 40) }, z.unknown());
		await settle();
		const aloneProfile = profileDir ? await startProfile() : undefined;
		const { cpu: aloneCpu, ...alone } = await validAlone();
		if (aloneProfile && profileDir) {
			fs.mkdirSync(profileDir, { recursive: true });
			fs.writeFileSync(path.join(profileDir, `mostly-valid-alone-${vscode.version}-host.cpuprofile`), JSON.stringify(await aloneProfile.stop()));
		}
		assert.equal(alone.missing, 0);
		assert.equal(cold.missing, 0);
		const quiet = await others(a, editor);
		// A control: what each process spends in 10 s with nothing happening, at this point of the run.
		const idleBefore = cpuByProcess();
		await sleep(10_000);
		const idle = cpuByProcess(idleBefore);
		const hostProfile = profileDir ? await startProfile() : undefined;
		if (profileDir) {
			await pageProfile('start');
		}
		const floodAlone = await flood(connection, { sessionId, chunkSessionId: sessionId });
		if (hostProfile && profileDir) {
			fs.mkdirSync(profileDir, { recursive: true });
			fs.writeFileSync(path.join(profileDir, `mostly-valid-flood-${vscode.version}-host.cpuprofile`), JSON.stringify(await hostProfile.stop()));
			await pageProfile('stop', path.join(profileDir, `mostly-valid-flood-${vscode.version}-page.cpuprofile`));
		}
		const during = flood(connection, { sessionId, chunkSessionId: sessionId });
		await sleep(500);
		const busy = await others(a, editor);
		const floodDuring = await during;
		const unpaced = await flood(connection, { sessionId, chunkSessionId: sessionId, flowControl: false });
		await floodChat.close();

		console.log(`BENCH mostly valid flood: VS Code ${vscode.version}, node ${process.version}, ${LINES} lines then one valid workspace/active_document`);
		const hostOf = (cpu: readonly CpuSample[]) => cpu.find((c) => c.name === 'extension host')?.seconds;
		const validLine = (v: Valid, cpu: readonly CpuSample[]) => {
			const host = hostOf(cpu);
			const perCpu = host ? `, ${Math.round(Math.floor(LINES / 8) / host).toLocaleString('en')} per host CPU second` : '';
			return `${Math.round(v.validPerSecond).toLocaleString('en')}/s (${(v.validMs / 1000).toFixed(2)} s; extension host CPU ${host?.toFixed(2) ?? '?'} s${perCpu})`;
		};
		console.log(`  the ${Math.floor(LINES / 8).toLocaleString('en')} valid requests alone, the editor settled (${(settledMs / 1000).toFixed(1)} s) and the code warm: ${validLine(alone, aloneCpu)}`);
		console.log(`    cold, just after the file opened: ${validLine(cold, cold.cpu)}; CPU s by process: ${cold.cpu.map((c) => `${c.name} ${c.seconds.toFixed(2)}`).join(', ')}`);
		console.log(`    settled: CPU s by process: ${aloneCpu.map((c) => `${c.name} ${c.seconds.toFixed(2)}`).join(', ')}`);
		console.log(`  idle control, 10 s: CPU s by process: ${idle.map((c) => `${c.name} ${c.seconds.toFixed(2)}`).join(', ') || 'not measured (no /proc)'}`);
		print('the flood', floodAlone);
		printOthers(`${PEER} without a flood`, quiet);
		printOthers(`${PEER} during a flood`, busy);
		print('  that flood', floodDuring);
		console.log(`    the measurements ended ${((floodDuring.endedAt - busy.endedAt) / 1000).toFixed(2)} s before the flood did${busy.endedAt > floodDuring.endedAt ? ' (NOT all during it)' : ''}`);
		print('from an agent without flow control', unpaced);
		const out = path.join(repoRoot, 'bench', 'results');
		fs.mkdirSync(out, { recursive: true });
		fs.writeFileSync(
			path.join(out, `hostile-flood-mostly-valid-vscode-${vscode.version}.json`),
			`${JSON.stringify({ vscode: vscode.version, node: process.version, lines: LINES, alone: { ...alone, cpu: aloneCpu, settledMs }, cold, idle, quiet, floodAlone, busy, floodDuring, unpaced }, null, 2)}\n`,
		);
		for (const [name, f] of [['the flood', floodAlone], ['the flood during the peer', floodDuring], ['without flow control', unpaced]] as const) {
			checkAnswers(name, f);
		}
	});
});
