/**
 * Engine 1, edit-by-example (#9): deterministic, offline, no model. Rename
 * propagation first (an identifier changed in place), then a Python string
 * made bytes or unicode (the strings in the same place), then repeated
 * transformation (the last line edit as a template), then a version bumped
 * (the same version elsewhere), then the same line elsewhere (lines that read
 * like the edited one); silent when none is sure.
 */
import { renamePropagation } from './renamePropagation';
import { repeatedTransformation } from './repeatedTransformation';
import { sameLines } from './sameLines';
import { stringPrefix } from './stringPrefix';
import { versionBump } from './versionBump';
import type { EngineInput, NesEngine, Proposal } from './types';

export function editByExample(input: EngineInput): Proposal | undefined {
	return renamePropagation(input) ?? stringPrefix(input) ?? repeatedTransformation(input) ?? versionBump(input) ?? sameLines(input);
}

export const editByExampleEngine: NesEngine = {
	name: 'edit-by-example',
	suggest: (input) => editByExample(input),
};
