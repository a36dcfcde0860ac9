// A million generated lines of every shape (test/shared/jsonrpcCases.ts) through the real
// AgentConnection over in-memory streams, checking the same invariants as the property tests:
// each identifiable request answered exactly once with the right code, no answer where none is owed,
// one id-null answer per unreadable message, nothing thrown, the connection still open. Prints the
// rate and how many of each outcome were checked; exits 1 on any violation.
//
//   node out/bench/jsonrpcFuzz.bench.js [--lines 1000000] [--batch 5000] [--seed 42]
import { PassThrough } from 'node:stream';
import { parseArgs } from 'node:util';
import fc from 'fast-check';
import { nullLogger } from '../src/common/log';
import { AgentConnection } from '../src/node/connection';
import { AnswerBook } from '../test/shared/answerReader';
import { generateCase, registerAnswerers } from '../test/shared/jsonrpcCases';

const { values } = parseArgs({ options: { lines: { type: 'string', default: '1000000' }, batch: { type: 'string', default: '5000' }, seed: { type: 'string', default: '42' } } });
const total = Number(values.lines);
const batchSize = Number(values.batch);
const seed = Number(values.seed);

async function main(): Promise<void> {
	const toClient = new PassThrough();
	const fromClient = new PassThrough();
	const connection = new AgentConnection({ input: toClient, output: fromClient, maxLineBytes: 64 * 1024 * 1024, log: nullLogger });
	registerAnswerers(connection);
	const book = new AnswerBook(fromClient);
	const answers = book.byId;
	let thrown = 0;
	process.on('uncaughtException', () => thrown++);
	process.on('unhandledRejection', () => thrown++);
	connection.listen();

	const arbitrary = generateCase({ maxDepth: 200, maxStringLength: 2000 });
	const outcomes = { answered: 0, nullAnswered: 0, unanswered: 0 };
	const byCode = new Map<string, number>();
	let violations = 0;
	let sent = 0;
	let generatingMs = 0;
	let bytes = 0;
	const started = performance.now();
	for (let batch = 0; sent < total; batch++) {
		const genStart = performance.now();
		const cases = fc.sample(arbitrary, { numRuns: Math.min(batchSize, total - sent), seed: seed + batch });
		generatingMs += performance.now() - genStart;
		answers.clear();
		const nullsBefore = book.nullAnswers;
		const text = cases.map((c) => `${c.line}\n`).join('');
		bytes += text.length;
		toClient.write(text);
		const sentinel = `sentinel-${batch}`;
		toClient.write(`{"jsonrpc":"2.0","id":"${sentinel}","method":"workspace/active_document","params":{"sessionId":"s"}}\n`);
		const ids = cases.flatMap((c) => (c.expect.kind === 'answer' ? [c.expect.id] : []));
		const expectedNulls = cases.filter((c) => c.expect.kind === 'nullAnswer').length;
		const deadline = Date.now() + 60_000;
		while (!(answers.has(sentinel) && ids.every((id) => answers.has(id)) && book.nullAnswers - nullsBefore >= expectedNulls) && Date.now() < deadline) {
			await new Promise((resolve) => setImmediate(resolve));
		}
		answers.delete(sentinel);
		for (const c of cases) {
			if (c.expect.kind === 'answer') {
				const got = answers.get(c.expect.id) ?? [];
				const ok = got.length === 1 && got[0]!.error?.code === c.expect.code;
				if (!ok) {
					violations++;
					if (violations <= 5) {
						console.error(`violation: ${c.label}: ${c.line.slice(0, 160)} -> ${JSON.stringify(got)}`);
					}
				}
				outcomes.answered++;
				const key = c.expect.code === undefined ? 'result' : String(c.expect.code);
				byCode.set(key, (byCode.get(key) ?? 0) + 1);
			} else if (c.expect.kind === 'nullAnswer') {
				outcomes.nullAnswered++;
			} else {
				outcomes.unanswered++;
			}
		}
		if (book.nullAnswers - nullsBefore !== expectedNulls) {
			violations++;
			console.error(`violation: ${book.nullAnswers - nullsBefore} id-null answers in batch ${batch}, expected ${expectedNulls}`);
		}
		if (answers.size !== ids.length) {
			violations++;
			console.error(`violation: ${answers.size - ids.length} answers nobody asked for in batch ${batch}`);
		}
		sent += cases.length;
	}
	const elapsedMs = performance.now() - started - generatingMs;
	connection.dispose();
	console.log(`lines: ${sent.toLocaleString('en')} (${(bytes / 1024 / 1024).toFixed(1)} MiB) in ${(elapsedMs / 1000).toFixed(1)} s through the connection (generation excluded): ${Math.round(sent / (elapsedMs / 1000)).toLocaleString('en')} lines/s`);
	console.log(`checked: ${outcomes.answered.toLocaleString('en')} answers by id (${[...byCode].map(([code, n]) => `${code}: ${n.toLocaleString('en')}`).join(', ')}), ${outcomes.nullAnswered.toLocaleString('en')} id-null answers, ${outcomes.unanswered.toLocaleString('en')} lines owed no answer`);
	console.log(`violations: ${violations}, thrown out of the connection: ${thrown}, connection closed: ${connection.isClosed ? 'only by dispose' : 'no'}`);
	process.exit(violations > 0 || thrown > 0 ? 1 : 0);
}

void main();
