// Agent Link NES (built in) on real code: the NES eval's dev set, when it is present beside the
// repository (`../shared/nes-eval/`, or the folder `AGENT_LINK_NES_EVAL` names; its cases are never
// copied here). Its runner replays each case against `node dist/nes-agent.js` over stdio (the
// file opened, its first change typed, `nes/suggest` at the end of it) and scores what comes back
// against the commit's real text, in both scorings:
//   - strict: every line a suggestion changes becomes exactly the developer's line;
//   - partial (`--partial`): also right when the line lies on a shortest edit path toward it.
// Reported per scoring: precision (suggestions right / made), recall (repeat cases with a right
// suggestion), wrong on mixed cases (cases with no repeated change where anything was suggested
// wrong), and the latency per `nes/suggest` as the runner sees it (stdio round trip included).
// Goal: partial precision at least 90%, recall at least 35%, wrong on at most 5% of mixed cases.
//
//   node out/bench/nesEval.bench.js [--cases <file.jsonl[.gz]>] [--dump <dir>]
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { cases: { type: 'string' }, dump: { type: 'string' } } });
const root = join(__dirname, '..', '..');
const evalDir = resolve(root, process.env.AGENT_LINK_NES_EVAL ?? join('..', 'shared', 'nes-eval'));
const runner = join(evalDir, 'run.mjs');
const agent = join(root, 'dist', 'nes-agent.js');

function main(): number {
	if (!existsSync(runner)) {
		console.log(`NES eval: no dev set at ${evalDir} (set AGENT_LINK_NES_EVAL to its folder); skipped.`);
		return 0;
	}
	if (!existsSync(agent)) {
		console.log('NES eval: dist/nes-agent.js is not built (node scripts/build.mjs); skipped.');
		return 0;
	}
	for (const scoring of ['strict', 'partial'] as const) {
		const args = [runner, '--agent', `${process.execPath} ${agent}`];
		if (scoring === 'partial') {
			args.push('--partial');
		}
		if (values.cases) {
			args.push('--cases', resolve(values.cases));
		}
		if (values.dump) {
			args.push('--dump', join(resolve(values.dump), `nes-eval-${scoring}.jsonl`));
		}
		const result = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
		if (result.status !== 0) {
			console.log(`NES eval (${scoring}) failed: ${(result.stdout + result.stderr).trim().split('\n').slice(-3).join(' | ')}`);
			return 1;
		}
		console.log(`\nNES eval, ${scoring} scoring:`);
		for (const line of result.stdout.trim().split('\n')) {
			console.log(`  ${line}`);
		}
	}
	return 0;
}

process.exitCode = main();
