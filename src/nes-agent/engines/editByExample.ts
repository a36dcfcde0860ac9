/**
 * Engine 1, edit-by-example (#9): deterministic, offline, no model. Rename
 * propagation first (an identifier changed in place), then repeated
 * transformation (the last line edit as a template); silent when neither is sure.
 */
import { renamePropagation } from './renamePropagation';
import { repeatedTransformation } from './repeatedTransformation';
import type { EngineInput, NesEngine, Proposal } from './types';

export function editByExample(input: EngineInput): Proposal | undefined {
	return renamePropagation(input) ?? repeatedTransformation(input);
}

export const editByExampleEngine: NesEngine = {
	name: 'edit-by-example',
	suggest: (input) => editByExample(input),
};
