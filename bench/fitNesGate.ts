// Fits the NES gate (`src/nes-agent/engines/gate.ts`) on the NES eval's training set and writes its
// weights to `src/nes-agent/engines/gateWeights.ts`. Never the dev sets: their figures must say how
// the agent fares on projects it was not fitted on.
//
// Each training case is replayed through engine 1 without the gate (`nesReplay.ts`); every case
// where a rule proposed something gives one example: the proposal's features and whether its
// suggestion was right with partial progress counted. A logistic model over the features and the
// pairs `activeWeights` names is fitted by gradient descent with an L2 penalty. The threshold is
// chosen on out-of-project predictions (each project's cases scored by a model fitted on the other
// projects): the lowest that keeps their precision at least `TARGET_PRECISION` and wrong mixed
// cases at most `TARGET_WRONG_MIXED`, so it holds for a project the model has not seen.
//
//   node scripts/build.mjs && node out/bench/fitNesGate.js [--train <train.jsonl.gz>] [--dry]
// (the training set is looked for in `../shared/nes-eval/` beside the repository, or the folder
// `AGENT_LINK_NES_EVAL` names, as `nesEval.bench.ts` does)
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { activeWeights, type GateFeatures } from '../src/nes-agent/engines/gate';
import { readCases, replay } from './nesReplay';

const TARGET_PRECISION = 0.92;
const TARGET_WRONG_MIXED = 0.04;
/** The L2 penalty per weight, and the gradient descent's rate and rounds. */
const L2 = 0.02;
const RATE = 0.5;
const ROUNDS = 600;

interface Example {
	readonly repo: string;
	readonly kind: 'repeat' | 'mixed';
	readonly features: GateFeatures;
	readonly names: readonly string[];
	readonly right: boolean;
}

function fit(examples: readonly Example[]): { bias: number; weights: Map<string, number> } {
	const weights = new Map<string, number>();
	let bias = 0;
	const n = examples.length;
	for (let round = 0; round < ROUNDS; round++) {
		const grad = new Map<string, number>();
		let gradBias = 0;
		for (const e of examples) {
			let z = bias;
			for (const name of e.names) {
				z += weights.get(name) ?? 0;
			}
			const err = 1 / (1 + Math.exp(-z)) - (e.right ? 1 : 0);
			gradBias += err;
			for (const name of e.names) {
				grad.set(name, (grad.get(name) ?? 0) + err);
			}
		}
		bias -= (RATE * gradBias) / n;
		for (const [name, g] of grad) {
			const w = weights.get(name) ?? 0;
			weights.set(name, w - RATE * (g / n + L2 * w));
		}
	}
	return { bias, weights };
}

function predict(model: { bias: number; weights: Map<string, number> }, e: Example): number {
	let z = model.bias;
	for (const name of e.names) {
		z += model.weights.get(name) ?? 0;
	}
	return 1 / (1 + Math.exp(-z));
}

/** Precision, recall of repeat cases and wrong mixed cases when only examples scored at least `threshold` speak. */
function outcome(scored: readonly { e: Example; p: number }[], threshold: number, repeatCases: number, mixedCases: number) {
	let right = 0;
	let made = 0;
	let wrongMixed = 0;
	for (const { e, p } of scored) {
		if (p >= threshold) {
			made++;
			right += e.right ? 1 : 0;
			wrongMixed += !e.right && e.kind === 'mixed' ? 1 : 0;
		}
	}
	const hits = scored.filter(({ e, p }) => p >= threshold && e.right && e.kind === 'repeat').length;
	return { precision: made === 0 ? 1 : right / made, recall: hits / repeatCases, wrongMixed: wrongMixed / mixedCases, made };
}

function main(): void {
	const { values } = parseArgs({ options: { train: { type: 'string' }, dry: { type: 'boolean' } } });
	const root = join(__dirname, '..', '..');
	const evalDir = resolve(root, process.env.AGENT_LINK_NES_EVAL ?? join('..', 'shared', 'nes-eval'));
	const file = resolve(values.train ?? join(evalDir, 'train.jsonl.gz'));
	const cases = readCases(file);
	const examples: Example[] = [];
	for (const [k, c] of cases.entries()) {
		const r = replay(c, k, false);
		if (r.features && r.partial.length > 0) {
			examples.push({ repo: c.repo ?? '', kind: c.kind, features: r.features, names: activeWeights(r.features), right: r.partial.every((v) => v !== 'wrong') });
		}
	}
	const repeatCases = cases.filter((c) => c.kind === 'repeat').length;
	const mixedCases = cases.length - repeatCases;
	console.log(`${cases.length} training cases, ${examples.length} proposals (${examples.filter((e) => e.right).length} right)`);

	// Out-of-project predictions: each project scored by a model fitted on the others.
	const scored: { e: Example; p: number }[] = [];
	for (const repo of new Set(examples.map((e) => e.repo))) {
		const model = fit(examples.filter((e) => e.repo !== repo));
		for (const e of examples.filter((x) => x.repo === repo)) {
			scored.push({ e, p: predict(model, e) });
		}
	}
	let threshold = 0.99;
	for (let t = 0.3; t < 0.99; t += 0.01) {
		const o = outcome(scored, t, repeatCases, mixedCases);
		if (o.precision >= TARGET_PRECISION && o.wrongMixed <= TARGET_WRONG_MIXED) {
			threshold = Math.round(t * 100) / 100;
			break;
		}
	}
	for (const t of [0, 0.5, 0.6, 0.7, 0.75, 0.8, 0.85, 0.9, threshold]) {
		const o = outcome(scored, t, repeatCases, mixedCases);
		console.log(`out of project, threshold ${t.toFixed(2)}: precision ${(100 * o.precision).toFixed(1)}%, recall ${(100 * o.recall).toFixed(1)}%, wrong on mixed ${(100 * o.wrongMixed).toFixed(1)}% (${o.made} said)`);
	}

	const model = fit(examples);
	const all = examples.map((e) => ({ e, p: predict(model, e) }));
	const o = outcome(all, threshold, repeatCases, mixedCases);
	console.log(`fitted on all, threshold ${threshold}: precision ${(100 * o.precision).toFixed(1)}%, recall ${(100 * o.recall).toFixed(1)}%, wrong on mixed ${(100 * o.wrongMixed).toFixed(1)}%`);
	const kept = [...model.weights].filter(([, w]) => Math.abs(w) >= 0.05).sort(([a], [b]) => a.localeCompare(b));
	const body = kept.map(([name, w]) => `\t'${name}': ${w.toFixed(2)},`).join('\n');
	const source = `/**
 * The gate's weights (\`gate.ts\`), written by \`bench/fitNesGate.ts\` from the NES eval's training
 * set (${cases.length} real edits from projects other than the dev sets'; ${examples.length} proposals, ${examples.filter((e) => e.right).length} right
 * with partial progress counted); regenerate them with it rather than editing them by hand. A
 * proposal is said when the logistic of \`BIAS\` plus the weights its features turn on is at least
 * \`THRESHOLD\` (chosen on out-of-project predictions for precision ${100 * TARGET_PRECISION}%, wrong on mixed at most ${100 * TARGET_WRONG_MIXED}%).
 * Positive weights make a proposal likelier to be said; weights under 0.05 are left out.
 */
export const BIAS = ${model.bias.toFixed(2)};
export const THRESHOLD = ${threshold};
export const WEIGHTS: Readonly<Record<string, number>> = {
${body}
};
`;
	if (!values.dry) {
		writeFileSync(join(root, 'src', 'nes-agent', 'engines', 'gateWeights.ts'), source);
		console.log(`wrote src/nes-agent/engines/gateWeights.ts (${kept.length} weights)`);
	}
}

main();
