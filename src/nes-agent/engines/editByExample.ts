/**
 * Engine 1, edit-by-example (#9): deterministic, offline, no model. Rename
 * propagation first (an identifier changed in place), then a Python string
 * made bytes or unicode (the strings in the same place), then repeated
 * transformation (the last line edit as a template), then a version bumped
 * (the same version elsewhere), then the same line elsewhere (lines that read
 * like the edited one); silent when none is sure. What the first rule that
 * fires proposes is then put to the gate (`gate.ts`): rules that proved wrong
 * too often, in that language, on that kind of text and change, stay silent.
 */
import { decides, featuresOf, languageOf, speaks, type GateFeatures, type RuleName } from './gate';
import { renamePropagation } from './renamePropagation';
import { repeatedTransformation } from './repeatedTransformation';
import { sameLines } from './sameLines';
import { stringPrefix } from './stringPrefix';
import { versionBump } from './versionBump';
import type { EngineInput, NesEngine, Proposal } from './types';

const RULES: readonly (readonly [RuleName, (input: EngineInput) => Proposal | undefined])[] = [
	['rename', renamePropagation],
	['stringPrefix', stringPrefix],
	['repeated', repeatedTransformation],
	['version', versionBump],
	['sameLines', sameLines],
];

/** The first rule that proposes something, and its proposal. */
function firstProposal(input: EngineInput): { rule: RuleName; proposal: Proposal } | undefined {
	for (const [rule, propose] of RULES) {
		const proposal = propose(input);
		if (proposal) {
			return { rule, proposal };
		}
	}
	return undefined;
}

/** The first rule's proposal and what the gate weighs, before the gate (the gate's fitting script replays this). */
export function proposeUngated(input: EngineInput): { proposal: Proposal; features: GateFeatures } | undefined {
	const found = firstProposal(input);
	return found && { proposal: found.proposal, features: featuresOf(found.rule, input, found.proposal) };
}

export function editByExample(input: EngineInput): Proposal | undefined {
	const found = firstProposal(input);
	if (!found || !decides(languageOf(input.languageId, input.uri))) {
		// A language the gate lets through whole: its features are not worth reading the file for.
		return found?.proposal;
	}
	return speaks(featuresOf(found.rule, input, found.proposal)) ? found.proposal : undefined;
}

export const editByExampleEngine: NesEngine = {
	name: 'edit-by-example',
	suggest: (input) => editByExample(input),
};
