// Elicitations (`elicitation/create`): the agent's schema read into a form, the form's check
// (the page's and the host's), and the transcript drawing and settling them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { checkForm, initialInput, type ElicitationField } from '../../src/common/chat/elicitationForm';
import { createElicitationParamsSchema, readElicitation, type CreateElicitationParams } from '../../src/common/chat/elicitationRequest';
import { Transcript, type Elicitation, type ElicitationEntry, type ToolCallEntry } from '../../src/common/chat/transcript';
import { transcriptSnapshotSchema } from '../../src/common/chat/transcriptWire';

/** Every kind of field the schema has. */
export const everyField = {
	type: 'object',
	title: 'Deploy',
	description: 'Where and how to deploy.',
	properties: {
		branch: { type: 'string', title: 'Branch', description: 'The branch to deploy.', minLength: 2, maxLength: 20, pattern: '^[a-z0-9/-]+$', default: 'main' },
		email: { type: 'string', format: 'email', title: 'Email' },
		docs: { type: 'string', format: 'uri' },
		day: { type: 'string', format: 'date' },
		at: { type: 'string', format: 'date-time' },
		env: { type: 'string', title: 'Environment', oneOf: [{ const: 'dev', title: 'Development' }, { const: 'prod', title: 'Production', description: 'Careful.' }] },
		region: { type: 'string', enum: ['eu', 'us'], default: 'eu' },
		replicas: { type: 'integer', minimum: 1, maximum: 5, default: 2 },
		ratio: { type: 'number', minimum: 0, maximum: 1 },
		dryRun: { type: 'boolean', title: 'Dry run', default: true },
		checks: { type: 'array', items: { type: 'string', enum: ['lint', 'test', 'e2e'] }, minItems: 1, maxItems: 2 },
		owners: { type: 'array', items: { anyOf: [{ const: 'ada', title: 'Ada' }, { const: 'bob', title: 'Bob' }] } },
	},
	required: ['branch', 'email', 'env', 'replicas', 'checks'],
};

function params(extra: Partial<CreateElicitationParams> & Record<string, unknown>): CreateElicitationParams {
	return createElicitationParamsSchema.parse({ message: 'Which environment?', mode: 'form', sessionId: 's1', ...extra });
}

function form(schema: unknown): readonly ElicitationField[] {
	const read = readElicitation(params({ requestedSchema: schema }));
	assert.ok(read.ok, read.ok ? '' : read.reason);
	return read.read.elicitation.fields;
}

function declined(extra: Record<string, unknown>): string {
	const read = readElicitation(params(extra));
	assert.equal(read.ok, false);
	return read.ok ? '' : read.reason;
}

describe('elicitation: the schema read into a form', () => {
	it('reads every field type with its title, description, default, required and constraints', () => {
		const read = readElicitation(params({ requestedSchema: everyField, toolCallId: 'call-1' }));
		assert.ok(read.ok);
		assert.equal(read.read.sessionId, 's1');
		assert.equal(read.read.toolCallId, 'call-1');
		assert.equal(read.read.elicitation.title, 'Deploy');
		assert.equal(read.read.elicitation.description, 'Where and how to deploy.');
		const byName = Object.fromEntries(read.read.elicitation.fields.map((f) => [f.name, f]));
		assert.deepEqual(byName.branch, { name: 'branch', title: 'Branch', description: 'The branch to deploy.', required: true, type: 'text', minLength: 2, maxLength: 20, pattern: '^[a-z0-9/-]+$', default: 'main' });
		assert.deepEqual(byName.email, { name: 'email', title: 'Email', required: true, type: 'text', format: 'email' });
		assert.equal(byName.docs?.type === 'text' && byName.docs.format, 'uri');
		assert.equal(byName.docs?.title, 'docs', 'a property without a title is named by its key');
		assert.deepEqual(byName.env, { name: 'env', title: 'Environment', required: true, type: 'choice', choices: [{ value: 'dev', title: 'Development' }, { value: 'prod', title: 'Production', description: 'Careful.' }] });
		assert.deepEqual(byName.region, { name: 'region', title: 'region', required: false, type: 'choice', choices: [{ value: 'eu', title: 'eu' }, { value: 'us', title: 'us' }], default: 'eu' });
		assert.deepEqual(byName.replicas, { name: 'replicas', title: 'replicas', required: true, type: 'number', integer: true, minimum: 1, maximum: 5, default: 2 });
		assert.deepEqual(byName.ratio, { name: 'ratio', title: 'ratio', required: false, type: 'number', integer: false, minimum: 0, maximum: 1 });
		assert.deepEqual(byName.dryRun, { name: 'dryRun', title: 'Dry run', required: false, type: 'boolean', default: true });
		assert.deepEqual(byName.checks, { name: 'checks', title: 'checks', required: true, type: 'multi', choices: ['lint', 'test', 'e2e'].map((v) => ({ value: v, title: v })), minItems: 1, maxItems: 2 });
		assert.deepEqual(byName.owners, { name: 'owners', title: 'owners', required: false, type: 'multi', choices: [{ value: 'ada', title: 'Ada' }, { value: 'bob', title: 'Bob' }] });
	});

	it('takes null as absent and ignores a title or default of the wrong type', () => {
		const [field] = form({ properties: { name: { type: 'string', title: 7, description: null, default: 3, minLength: null, format: null } }, required: null });
		assert.deepEqual(field, { name: 'name', title: 'name', required: false, type: 'text' });
	});

	it('reads a URL elicitation, showing its host', () => {
		const read = readElicitation(params({ mode: 'url', elicitationId: 'e1', url: 'https://login.example.com/device?code=1' }));
		assert.ok(read.ok);
		assert.equal(read.read.elicitationId, 'e1');
		assert.deepEqual(read.read.elicitation, { mode: 'url', message: 'Which environment?', fields: [], url: 'https://login.example.com/device?code=1', host: 'login.example.com', state: 'pending' });
	});

	it('is tied to a request when it names no session', () => {
		const read = readElicitation(createElicitationParamsSchema.parse({ message: 'Sign in', mode: 'form', requestId: 4, requestedSchema: { properties: {} } }));
		assert.ok(read.ok);
		assert.equal(read.read.sessionId, undefined);
	});

	it('declines, with the reason, what it cannot draw', () => {
		assert.match(declined({ mode: 'carrier-pigeon' }), /mode "carrier-pigeon"/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'object' } } } }), /field "f": type "object"/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'string', format: 'ipv4' } } } }), /format "ipv4"/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'string', pattern: '([' } } } }), /pattern/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'integer', minimum: 5, maximum: 1 } } } }), /minimum is above its maximum/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'integer', minimum: 1.5 } } } }), /minimum is not a whole number/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'string', minLength: -1 } } } }), /minLength is not a count/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'array', items: { type: 'number' } } } } }), /not string choices/);
		assert.match(declined({ requestedSchema: { properties: { f: { type: 'string', enum: ['a', 'a'] } } } }), /twice/);
		assert.match(declined({ requestedSchema: { properties: {}, required: ['ghost'] } }), /"ghost" is required but not defined/);
		assert.match(declined({ requestedSchema: 'a form' }), /not an object schema/);
		assert.match(declined({ requestedSchema: { properties: Object.fromEntries(Array.from({ length: 65 }, (_, i) => [`f${i}`, { type: 'boolean' }])) } }), /65 fields/);
		assert.match(declined({ mode: 'url', elicitationId: 'e', url: 'javascript:alert(1)' }), /not an http or https/);
		assert.match(declined({ mode: 'url', url: 'https://example.com' }), /without its elicitationId/);
		assert.match(readElicitation(createElicitationParamsSchema.parse({ message: 'm', mode: 'form', requestedSchema: {} })).ok ? '' : 'neither', /neither/);
	});

	it('refuses a malformed envelope at the boundary', () => {
		assert.equal(createElicitationParamsSchema.safeParse({ mode: 'form', sessionId: 's' }).success, false, 'no message');
		assert.equal(createElicitationParamsSchema.safeParse({ message: 'm', sessionId: 's' }).success, false, 'no mode');
		assert.equal(createElicitationParamsSchema.safeParse({ message: 1, mode: 'form' }).success, false);
	});
});

describe('elicitation: the form checked', () => {
	const fields = form(everyField);
	const good = { branch: 'feature/x', email: ' ada@example.com ', docs: '', day: '2026-02-28', at: '2026-02-28T09:30:00+01:00', env: 'prod', region: 'eu', replicas: '3', ratio: '0.5', dryRun: false, checks: ['lint', 'test'], owners: [] };

	it('gives the content to send, typed, empty values left out and booleans always sent', () => {
		assert.deepEqual(checkForm(fields, good), {
			ok: true,
			content: { branch: 'feature/x', email: 'ada@example.com', day: '2026-02-28', at: '2026-02-28T09:30:00+01:00', env: 'prod', region: 'eu', replicas: 3, ratio: 0.5, dryRun: false, checks: ['lint', 'test'] },
		});
	});

	it('accepts the typed content it made (the host checks the page’s answer again)', () => {
		const first = checkForm(fields, good);
		assert.ok(first.ok);
		assert.deepEqual(checkForm(fields, first.content), first);
	});

	it('says what is wrong with each field, in words', () => {
		const bad = checkForm(fields, { ...good, branch: 'x', email: 'ada@', docs: 'not a url', day: '2026-02-30', at: '2026-02-28 25:00Z', env: 'staging', replicas: '9', ratio: 'half', checks: ['lint', 'test', 'e2e'] });
		assert.deepEqual(bad, {
			ok: false,
			errors: {
				branch: 'At least 2 characters.',
				email: 'Enter an email address, such as name@example.com.',
				docs: 'Enter a URL, such as https://example.com.',
				day: 'Enter a date as YYYY-MM-DD, such as 2026-03-31.',
				at: 'Enter a date and time with its zone, such as 2026-03-31T14:30:00Z.',
				env: 'Choose one of the listed options.',
				replicas: 'At most 5.',
				ratio: 'Enter a number.',
				checks: 'Choose at most 2.',
			},
		});
		const missing = checkForm(fields, { ...good, branch: '', email: '', env: '', replicas: '', checks: [] });
		assert.deepEqual(missing.ok ? {} : missing.errors, { branch: 'Required.', email: 'Required.', env: 'Choose one.', replicas: 'Required.', checks: 'Choose at least 1.' });
		const pattern = checkForm(fields, { ...good, branch: 'Feature X' });
		assert.deepEqual(pattern.ok ? {} : pattern.errors, { branch: 'Does not have the expected form (^[a-z0-9/-]+$).' });
		const integer = checkForm(fields, { ...good, replicas: '2.5' });
		assert.deepEqual(integer.ok ? {} : integer.errors, { replicas: 'Enter a whole number.' });
	});

	it('refuses values of the wrong type (an answer from a page that was tampered with)', () => {
		const wrong = checkForm(fields, { ...good, branch: 42, dryRun: 'yes', checks: 'lint', replicas: true } as never);
		assert.deepEqual(Object.keys(wrong.ok ? {} : wrong.errors).sort(), ['branch', 'checks', 'dryRun', 'replicas']);
	});

	it('starts each field at its default', () => {
		const byName = Object.fromEntries(fields.map((f) => [f.name, initialInput(f)]));
		assert.equal(byName.branch, 'main');
		assert.equal(byName.replicas, '2');
		assert.equal(byName.dryRun, true);
		assert.deepEqual(byName.checks, []);
		assert.equal(byName.email, '');
	});
});

describe('elicitation: in the transcript', () => {
	const asked = (requestId: string, extra: Partial<Elicitation> = {}): Elicitation => ({ requestId, mode: 'form', message: 'Which branch?', fields: form(everyField), state: 'pending', ...extra });

	it('is drawn in the card of the tool call it names, else as its own entry', () => {
		const t = new Transcript();
		t.apply({ type: 'prompt', blocks: [{ type: 'text', text: 'deploy' }] });
		t.update({ sessionUpdate: 'tool_call', toolCallId: 'call-1', title: 'Deploy' } as never);
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-1'), toolCallId: 'call-1' });
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-2'), toolCallId: 'no-such-call' });
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-3', { mode: 'url', fields: [], url: 'https://example.com/', host: 'example.com' }) });
		const entries = t.snapshot().entries;
		const card = entries.find((e): e is ToolCallEntry => e.kind === 'tool_call');
		assert.equal(card?.elicitation?.requestId, 'e-1');
		const own = entries.filter((e): e is ElicitationEntry => e.kind === 'elicitation').map((e) => e.elicitation.requestId);
		assert.deepEqual(own, ['e-2', 'e-3']);
		assert.equal(transcriptSnapshotSchema.safeParse(t.snapshot()).success, true, 'the wire schema takes it');
	});

	it('settles: answered, a URL opened then completed, pending ones cancelled when the session ends', () => {
		const t = new Transcript();
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-1') });
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-2', { mode: 'url', fields: [], url: 'https://example.com/', host: 'example.com' }) });
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-3') });
		t.apply({ type: 'elicitation_settled', requestId: 'e-1', state: 'declined' });
		t.apply({ type: 'elicitation_settled', requestId: 'e-2', state: 'accepted' });
		t.apply({ type: 'elicitation_settled', requestId: 'e-2', state: 'completed' });
		assert.equal(t.apply({ type: 'elicitation_settled', requestId: 'e-1', state: 'accepted' }), false, 'settled once');
		t.apply({ type: 'conversation_ended' });
		const states = t
			.snapshot()
			.entries.filter((e): e is ElicitationEntry => e.kind === 'elicitation')
			.map((e) => `${e.elicitation.requestId}:${e.elicitation.state}`);
		assert.deepEqual(states, ['e-1:declined', 'e-2:completed', 'e-3:cancelled']);
	});

	it('a stored chat taken up again shows a pending one as cancelled', () => {
		const t = new Transcript();
		t.apply({ type: 'elicitation_asked', elicitation: asked('e-1') });
		const restored = Transcript.restore(t.snapshot());
		const entry = restored.snapshot().entries[0] as ElicitationEntry;
		assert.equal(entry.elicitation.state, 'cancelled');
	});
});
