// Evidence of intent (`intent.ts`): each fact the gate weighs about whether the author meant the
// typed change for the other places too, one small document each, and the gate's use of them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { TrackedDocument } from '../../src/nes-agent/documents';
import { confidence, type GateFeatures } from '../../src/nes-agent/engines/gate';
import { contextOf, rewriteRatio, sameHead, textEvidence } from '../../src/nes-agent/engines/intent';
import type { TextLines } from '../../src/nes-agent/engines/types';
import { places, suggestAfterLineEdit } from '../shared/nesLineEdit';

function doc(lines: readonly string[]): TrackedDocument {
	return new TrackedDocument('file:///project/f.java', 'java', 1, lines.join('\n'));
}

/** Each count of `textEvidence` alone: how many holders of `removed` the proposal's `places` reach, */
const coverage = (d: TextLines, line: number, removed: string, places: number) => textEvidence(d, line, -1, removed, '', places).covered;
/** how many other lines hold `inserted` already, */
const seenElsewhere = (d: TextLines, line: number, inserted: string) => textEvidence(d, line, -1, '', inserted, 0).seen;
/** and where the names `inserted` brings in live, seen from `place`. */
const namesReach = (d: TextLines, line: number, place: number, removed: string, inserted: string) => textEvidence(d, line, place, removed, inserted, 0).names;

describe('evidence of intent', () => {
	it('covered: how many of the other lines holding the removed text the proposal reaches', () => {
		const d = doc(['a = List.of();', 'b = List.of();', 'c = List.of();', 'd = List.of();', 'e = List.of();']);
		assert.equal(coverage(d, 0, '', 2), 'ins', 'a pure insertion');
		assert.equal(coverage(d, 0, 'List', 4), 'all');
		assert.equal(coverage(d, 0, 'List', 2), 'half');
		assert.equal(coverage(d, 0, 'List', 1), 'few');
	});

	it('counts only the lines within 1 500 of the edited one, so a long file costs a bounded pass', () => {
		const lines = ['a = List.of();', 'b = List.of();', ...Array.from({ length: 1600 }, () => ''), 'z = List.of();'];
		assert.equal(coverage(doc(lines), 0, 'List', 1), 'all', 'the holder 1 600 lines away is not counted');
		assert.equal(coverage(doc(lines.slice(0, 2).concat(['z = List.of();'])), 0, 'List', 1), 'half', 'counted when near');
	});

	it('seen: how many other lines already hold the inserted text', () => {
		const d = doc(['x = Set.of();', 'y = Set.of();', 'z = Set.of();', 'w = Set.of();']);
		assert.equal(seenElsewhere(d, 0, ''), 'del');
		assert.equal(seenElsewhere(d, 0, 'HashSet'), '0');
		assert.equal(seenElsewhere(d, 3, 'x = '), '1-2');
		assert.equal(seenElsewhere(d, 0, 'Set.of'), '3+');
	});

	it('ratio: how much of the edited line the change replaced', () => {
		assert.equal(rewriteRatio('assertEquals(expected, actual, message);', 'E', 'S'), 'small');
		assert.equal(rewriteRatio('assertEquals(expected, actual);', 'assertEquals', 'assertSame'), 'part');
		assert.equal(rewriteRatio('return NumberOutput.toString(v);', 'NumberOutput.toString', 'Integer.toString'), 'half');
		assert.equal(rewriteRatio('for (int i = 0; i < n; i++) {', 'int i = 0; i < n; i++', 'int i = n - 1; i >= 0; i--'), 'most');
	});

	it('head: whether the place begins with the same word as the edited line', () => {
		assert.equal(sameHead('    assertTrue(a);', 'assertTrue(b);'), 'same');
		assert.equal(sameHead('assertFalse(a);', 'assertTrue(a);'), 'diff');
	});

	it("context: how the place's neighbouring lines read against the edited line's", () => {
		const d = doc(['void a() {', '    int x = 1;', '    run(x);', '}', '', 'void a() {', '    int x = 1;', '    run(x);', '}', 'if (ready) {', '    run(x);', '    log.info("ok");', '}', 'while (go) {', '    run(x);', '}']);
		assert.equal(contextOf(d, 7, 2), 'same', 'a copied body: both neighbours the same');
		assert.equal(contextOf(d, 2, 14), 'one', 'the line below the same only');
		assert.equal(contextOf(d, 2, 10), 'unlike', 'other surroundings');
		const alike = doc(['case 1:', '    handle(one);', '    break;', 'case 2:', '    handle(two);', '    break;;']);
		assert.equal(contextOf(alike, 1, 4), 'alike', 'a sibling of a switch: neighbours alike, not the same');
	});

	it("names: where the names a change brings in already live, seen from the place", () => {
		const lines = [
			'class Parser {',
			'    double asDouble(boolean useFastParser) {',
			'        return contentsAsDouble(defaults(), useFastParser);',
			'    }',
			'    BigDecimal asDecimal() {',
			'        check();',
			'        return contentsAsDecimal(defaults(), false);',
			'    }',
			'',
			'    // numbers',
			'',
			'    BigDecimal asNumber(boolean useFastParser) {',
			'        return contentsAsNumber(defaults(), false);',
			'    }',
			'}',
		];
		const d = doc(lines);
		assert.equal(namesReach(d, 2, 6, 'false', 'useFastParser'), 'far', 'a parameter of the edited method only');
		assert.equal(namesReach(d, 2, 12, 'false', 'useFastParser'), 'near', "the place's own method has it too");
		assert.equal(namesReach(d, 2, 6, 'false', 'StreamReadConstraints'), 'new', 'a name the file does not use yet');
		assert.equal(namesReach(d, 2, 6, 'false, ', ''), 'none', 'no name brought in');
	});

	it('the gate weighs them: the same surroundings and a new name speak for the place, other surroundings and a far name against', () => {
		const base: GateFeatures = { rule: 'repeated', lang: 'java', text: 'code', change: 'name', sites: '1', distance: '12', alike: 'alike', line: 'return', where: 'end', size: '2', covered: 'all', seen: '0', ratio: 'small', head: 'same', context: 'same', names: 'new' };
		assert.ok(confidence(base) > confidence({ ...base, context: 'unlike' }));
		assert.ok(confidence(base) > confidence({ ...base, names: 'far' }));
		assert.ok(confidence(base) > confidence({ ...base, covered: 'few' }));
		assert.ok(confidence(base) > confidence({ ...base, ratio: 'most' }));
	});

	it("a local of the edited method is not passed where it is not defined (Java)", () => {
		const lines = [
			'class Parser {',
			'    double asDouble(boolean useFastParser) {',
			'        log(useFastParser);',
			'        return contentsAsDouble(StreamReadConstraints.defaults(), false);',
			'    }',
			'',
			'    static final int LIMIT = 10;',
			'',
			'    BigDecimal asDecimal() {',
			'        check();',
			'        return contentsAsDecimal(StreamReadConstraints.defaults(), false);',
			'    }',
			'}',
		];
		assert.deepEqual(places(suggestAfterLineEdit('java', 'java', lines, 3, '        return contentsAsDouble(StreamReadConstraints.defaults(), useFastParser);')), []);
	});
});
