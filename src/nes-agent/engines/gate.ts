/**
 * The gate: whether a rule's proposal is said or kept back. A rule proposes from one example and
 * knows its own evidence; what it cannot know is how often proposals like this one turned out
 * wrong in real histories. The gate knows that, as a small logistic model over a few facts of the
 * proposal (`GateFeatures`): the rule, the language, the kind of text edited (code, comment,
 * string), what kind of change it was (a name, a modifier, a generic type argument, a literal, an
 * insertion…), how many places it found, how far the nearest is and how alike its line is to the
 * edited one, and what the file says of the author's intent (`intent.ts`: the nearest place's
 * neighbouring lines, where the names the change brings in live, how many holders of the removed
 * text it reaches, how much of the line was rewritten). The weights are in `gateWeights.ts`,
 * fitted by `bench/fitNesGate.ts` on the NES eval's training set (real edits from other projects
 * than the dev sets), never on the dev sets. In JavaScript and Python, where it decides nothing,
 * the features are not computed (`decides`).
 *
 * Limits: the model sees only these coarse facts, so it can only keep back the kinds of proposal
 * that were mostly wrong (said when its estimate reaches the threshold `fitNesGate.ts` chose on
 * the training set, one for all the languages it decides for); thresholds set per language for a
 * target precision held on the training set's own projects but not on the dev sets' (see
 * `bench/fitNesGate.ts`). A proposal in a language it was not fitted on gets the weights of
 * `other` and is never kept back.
 */
import { KEYWORDS, isIdentifier } from './identifiers';
import { exampleChange, widenToTokens } from './lineChange';
import { lexerOf } from './syntax';
import { MODIFIERS } from './lineSpecific';
import { BIAS, THRESHOLDS, WEIGHTS } from './gateWeights';
import { alikeness, contextOf, rewriteRatio, sameHead, textEvidence } from './intent';
import type { EngineInput, Proposal } from './types';

export type RuleName = 'rename' | 'stringPrefix' | 'repeated' | 'version' | 'sameLines';

/** What the gate weighs: each a short word, so a weight reads as `rule=repeated&lang=java`. */
export interface GateFeatures {
	readonly rule: RuleName;
	readonly lang: string;
	readonly text: 'code' | 'comment' | 'string';
	readonly change: string;
	readonly sites: string;
	readonly distance: string;
	readonly alike: string;
	/** What the edited line is: an import, a declaration, control flow, a return, an assignment, a call. */
	readonly line: string;
	/** Where on its line the change is: at its start, its end or in the middle. */
	readonly where: string;
	/** How many tokens the change removes and inserts together. */
	readonly size: string;
	/** Evidence of intent (`intent.ts`): the holders of the removed text reached, the inserted text seen elsewhere, how much of the line changed, the nearest place's first word. */
	readonly covered: string;
	readonly seen: string;
	readonly ratio: string;
	readonly head: string;
	/** How the nearest place's neighbouring lines read against the edited line's (`intent.ts`). */
	readonly context: string;
	/** Where the names the change brought in already live, seen from the nearest place (`intent.ts`). */
	readonly names: string;
}

const LANGUAGES: readonly (readonly [string, RegExp, RegExp])[] = [
	['js', /^(?:javascript|typescript|javascriptreact|typescriptreact)$/, /\.(?:[cm]?[jt]sx?)$/i],
	['py', /^python$/, /\.pyi?$/i],
	['go', /^go$/, /\.go$/i],
	['rust', /^rust$/, /\.rs$/i],
	['java', /^java$/, /\.java$/i],
	['kotlin', /^kotlin$/, /\.kts?$/i],
	['ruby', /^ruby$/, /\.(?:rb|rake|gemspec)$/i],
	['php', /^php$/, /\.php$/i],
	['csharp', /^csharp$/, /\.cs$/i],
];

/** The language's short name (`other` when none of those the gate was fitted on). */
export function languageOf(languageId: string | undefined, uri: string): string {
	for (const [name, id] of LANGUAGES) {
		if (languageId !== undefined && id.test(languageId)) {
			return name;
		}
	}
	for (const [name, , file] of LANGUAGES) {
		if ((languageId === undefined || languageId === '' || languageId === 'plaintext') && file.test(uri)) {
			return name;
		}
	}
	return 'other';
}

/** Declaration modifiers and declaring keywords (the guard's, `lineSpecific.ts`), and `await`: copying one to another declaration changes what it is. */
const MODIFIER_WORDS: ReadonlySet<string> = new Set([...MODIFIERS, 'await']);

/** The kind of change the example made, from its removed and inserted text (widened to whole tokens). */
export function changeKind(removed: string, inserted: string): string {
	const words = `${removed} ${inserted}`.match(/[\p{L}_$][\p{L}\p{N}_$]*/gu) ?? [];
	if (words.some((w) => MODIFIER_WORDS.has(w))) {
		return 'modifier';
	}
	if (/[<>]/.test(removed + inserted) && !/[<>]=|=>|->|<<|>>/.test(removed + inserted)) {
		return 'generic';
	}
	const r = removed.trim();
	const i = inserted.trim();
	if (isIdentifier(r) && isIdentifier(i)) {
		return KEYWORDS.has(r) || KEYWORDS.has(i) ? 'keyword' : 'name';
	}
	if (r === '') {
		return words.length > 0 ? 'insert' : 'insertPunct';
	}
	if (i === '') {
		return words.length > 0 ? 'delete' : 'deletePunct';
	}
	if (/^[\d.\s'"x_a-fA-F-]*$/.test(r) && /^[\d.\s'"x_a-fA-F-]*$/.test(i)) {
		return 'literal';
	}
	return words.length > 0 ? 'words' : 'punct';
}

function bucket(n: number, bounds: readonly number[], names: readonly string[]): string {
	const at = bounds.findIndex((b) => n <= b);
	return names[at === -1 ? names.length - 1 : at]!;
}

/** The proposal's places (their start lines), nearest to the cursor first. */
function placesOf(proposal: Proposal): number[] {
	return proposal.kind === 'rename' ? proposal.occurrences.map((r) => r.start.line) : proposal.edits.map((e) => e.range.start.line);
}

const LINE_ROLES: readonly (readonly [string, RegExp])[] = [
	['import', /^\s*(?:import|from\s+\S+\s+import|using|use|require(?:_once)?|include|package|extern\s+crate|namespace)\b|\brequire\(/],
	['control', /^\s*(?:\}\s*)?(?:if|else|elif|elsif|while|for|foreach|switch|case|match|when|unless|catch|except|try|rescue)\b/],
	['return', /^\s*(?:return|yield|throw|raise)\b/],
	['declaration', /^\s*(?:@\w+(?:\([^)]*\))?\s+|\[[\w(), ]+\]\s*)*(?:public|private|protected|internal|static|final|readonly|abstract|override|virtual|sealed|async|export|pub(?:\(\w+\))?|fn|func|def|function|class|struct|interface|enum|trait|impl|type|const|let|var|val|fun|module)\b/],
	['assign', /^[^=(]*[^=!<>]=[^=>]/],
	['call', /[\w$]\s*\(/],
];

/** The role of a line, by its first words. */
export function lineRole(text: string): string {
	return LINE_ROLES.find(([, pattern]) => pattern.test(text))?.[0] ?? 'other';
}

export function featuresOf(rule: RuleName, input: EngineInput, proposal: Proposal): GateFeatures {
	const lang = languageOf(input.languageId, input.uri);
	const change = exampleChange(input.lastEdit);
	let text: GateFeatures['text'] = 'code';
	let kind = 'other';
	let distance = 'far';
	let alike = 'unlike';
	let line = 'other';
	let where = 'middle';
	let size = '1';
	let covered = 'ins';
	let seen = 'del';
	let ratio = 'small';
	let head = 'same';
	let context = 'unlike';
	let names = 'none';
	const places = placesOf(proposal);
	if (change) {
		const wide = widenToTokens(change);
		const removed = wide.oldLine.slice(wide.start, wide.oldEnd);
		const inserted = wide.newLine.slice(wide.start, wide.newEnd);
		kind = changeKind(removed, inserted);
		line = lineRole(change.oldLine);
		where = wide.oldLine.slice(0, wide.start).trim() === '' ? 'start' : wide.oldLine.slice(wide.oldEnd).trim().length <= 2 ? 'end' : 'middle';
		const tokens = (removed.match(/[\p{L}\p{N}_$]+|\S/gu) ?? []).length + (inserted.match(/[\p{L}\p{N}_$]+|\S/gu) ?? []).length;
		size = bucket(tokens, [1, 2, 4], ['1', '2', '4', 'more']);
		const lexed = lexerOf(input.document, input.languageId, input.uri).kindOfText(change.line, change.oldLine, change.start);
		text = lexed === 'code' ? 'code' : lexed.startsWith('string') ? 'string' : 'comment';
		const others = places.filter((line) => line !== change.line).length;
		ratio = rewriteRatio(change.oldLine, removed, inserted);
		const first = places.find((line) => line !== change.line);
		({ covered, seen, names } = textEvidence(input.document, change.line, first ?? -1, removed, inserted, others));
		if (first !== undefined) {
			head = sameHead(input.document.lineText(first), change.oldLine);
			context = contextOf(input.document, change.line, first);
			distance = bucket(Math.abs(first - change.line), [1, 3, 12, 50], ['1', '3', '12', '50', 'far']);
			const other = input.document.lineText(first).trim();
			const similarity = other === change.oldLine.trim() ? 1 : alikeness(other, change.oldLine);
			alike = similarity === 1 ? 'same' : similarity >= 0.6 ? 'alike' : similarity >= 0.3 ? 'some' : 'unlike';
		}
	}
	const sites = bucket(places.length, [1, 2, 4, 10], ['1', '2', '4', '10', 'many']);
	return { rule, lang, text, change: kind, sites, distance, alike, line, where, size, covered, seen, ratio, head, context, names };
}

/** The names of the weights a proposal's features turn on: each feature alone, and the pairs the model knows. */
export function activeWeights(f: GateFeatures): string[] {
	const single = [`rule=${f.rule}`, `lang=${f.lang}`, `text=${f.text}`, `change=${f.change}`, `sites=${f.sites}`, `distance=${f.distance}`, `alike=${f.alike}`, `line=${f.line}`, `where=${f.where}`, `size=${f.size}`, `covered=${f.covered}`, `seen=${f.seen}`, `ratio=${f.ratio}`, `head=${f.head}`, `context=${f.context}`, `names=${f.names}`];
	const pairs = [
		`rule=${f.rule}&lang=${f.lang}`,
		`rule=${f.rule}&text=${f.text}`,
		`rule=${f.rule}&change=${f.change}`,
		`rule=${f.rule}&alike=${f.alike}`,
		`rule=${f.rule}&sites=${f.sites}`,
		`lang=${f.lang}&text=${f.text}`,
		`lang=${f.lang}&change=${f.change}`,
		`text=${f.text}&change=${f.change}`,
		`rule=${f.rule}&line=${f.line}`,
		`lang=${f.lang}&line=${f.line}`,
		`change=${f.change}&line=${f.line}`,
		`rule=${f.rule}&where=${f.where}`,
		`rule=${f.rule}&size=${f.size}`,
		`rule=${f.rule}&distance=${f.distance}`,
		`rule=${f.rule}&covered=${f.covered}`,
		`alike=${f.alike}&covered=${f.covered}`,
		`rule=${f.rule}&seen=${f.seen}`,
		`rule=${f.rule}&ratio=${f.ratio}`,
		`rule=${f.rule}&head=${f.head}`,
		`rule=${f.rule}&context=${f.context}`,
		`alike=${f.alike}&context=${f.context}`,
		`rule=${f.rule}&names=${f.names}`,
		`alike=${f.alike}&names=${f.names}`,
	];
	return [...single, ...pairs];
}

/** The model's estimate that a proposal with these features is right. */
export function confidence(f: GateFeatures, weights: Readonly<Record<string, number>> = WEIGHTS, bias = BIAS): number {
	let z = bias;
	for (const name of activeWeights(f)) {
		z += weights[name] ?? 0;
	}
	return 1 / (1 + Math.exp(-z));
}

/** Whether the gate decides for a language at all (a threshold above 0); elsewhere every proposal is said. */
export function decides(lang: string): boolean {
	return (THRESHOLDS[lang] ?? 0) > 0;
}

/** Whether the proposal is said. */
export function speaks(f: GateFeatures): boolean {
	return !decides(f.lang) || confidence(f) >= THRESHOLDS[f.lang]!;
}
