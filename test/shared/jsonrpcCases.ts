// Generated lines of every shape an agent could send, each with the answer Agent Link owes it. Shared by
// the property tests (test/protocol/dispatcherProperties.test.ts) and the million-line benchmark
// (bench/jsonrpcFuzz.bench.ts). The expected answers are written out here from JSON-RPC 2.0 and the
// method schemas, not computed with the code under test.
import fc from 'fast-check';
import { EditorStateMethods, recentDocumentsParamsSchema, sessionParamsSchema } from '../../src/common/editorStateProtocol';
import type { AgentConnection } from '../../src/node/connection';

export type Expect =
	/** Exactly one answer with this id: a result (`code` undefined) or an error with this code, whose message names `mentions`. */
	| { readonly kind: 'answer'; readonly id: string | number; readonly code?: number; readonly mentions?: string }
	/** Exactly one answer with `id: null` (-32600). */
	| { readonly kind: 'nullAnswer' }
	/** No answer at all. */
	| { readonly kind: 'none' };

export interface Case {
	readonly label: string;
	/** One line, without its newline. */
	readonly line: string;
	readonly expect: Expect;
}

/** The methods Agent Link answers, with their real schemas and handlers that answer at once. */
export function registerAnswerers(connection: AgentConnection): void {
	connection.onRequest(EditorStateMethods.openDocuments, sessionParamsSchema, () => ({ documents: [] }));
	connection.onRequest(EditorStateMethods.recentDocuments, recentDocumentsParamsSchema, () => ({ documents: [] }));
	connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, () => ({ document: null }));
	connection.onRequest('test/throws', sessionParamsSchema, () => {
		throw new Error('handler failed');
	});
}

const METHODS = [EditorStateMethods.openDocuments, EditorStateMethods.recentDocuments, EditorStateMethods.activeDocument] as const;
type Method = (typeof METHODS)[number];

let counter = 0;
/** A fresh id for each case (strings and numbers alike), so answers can be matched to cases. */
const freshId = fc.boolean().map((asNumber) => (asNumber ? 1_000_000 + ++counter : `case-${++counter}`));

const json = (value: unknown): string => JSON.stringify(value);
const shortString = fc.string({ maxLength: 24 });

/** Limits on the costliest shapes: the property tests go deep and big, the million-line benchmark keeps lines small. */
export interface CaseLimits {
	readonly maxDepth: number;
	readonly maxStringLength: number;
}

const DEFAULT_LIMITS: CaseLimits = { maxDepth: 20_000, maxStringLength: 300_000 };

/** Members that are valid anywhere in params, some of them hostile to JavaScript code. */
const extraMember = (limits: CaseLimits) => fc.oneof(
	fc.constant('"__proto__":{"polluted":true}'),
	fc.constant('"constructor":{"prototype":{"polluted":true}}'),
	fc.constant('"toString":"not a function"'),
	fc.integer({ min: 1, max: limits.maxDepth }).map((depth) => `"deep":${'['.repeat(depth)}${']'.repeat(depth)}`),
	fc.integer({ min: 1, max: limits.maxDepth }).map((depth) => `"deepObject":${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}`),
	fc.integer({ min: 0, max: limits.maxStringLength }).map((n) => `"huge":"${'x'.repeat(n)}"`),
	fc.tuple(shortString, fc.jsonValue({ maxDepth: 2 })).map(([k, v]) => `${json(`x-${k}`)}:${json(v)}`),
	fc.constant('"unicode":"😀 é \\u0000 \\ud800"'),
);

const sessionId = fc.string({ minLength: 1, maxLength: 40 });
const meta = fc.oneof(fc.constant(undefined), fc.constant(null), fc.dictionary(shortString, fc.jsonValue({ maxDepth: 1 }), { maxKeys: 3 }));

function validParams(method: Method, limits: CaseLimits): fc.Arbitrary<string> {
	const limit = method === EditorStateMethods.recentDocuments ? fc.oneof(fc.constant(undefined), fc.constant(null), fc.nat(), fc.constant(2 ** 60)) : fc.constant(undefined);
	return fc.tuple(sessionId, limit, meta, fc.array(extraMember(limits), { maxLength: 2 })).map(([sid, lim, m, extras]) => {
		const members = [`"sessionId":${json(sid)}`, ...extras];
		if (lim !== undefined) {
			members.push(`"limit":${json(lim)}`);
		}
		if (m !== undefined) {
			members.push(`"_meta":${json(m)}`);
		}
		return `{${members.join(',')}}`;
	});
}

/** A field of a method's params and values of the wrong type for it. */
const WRONG: Record<string, readonly unknown[]> = {
	sessionId: [5, true, null, {}, [], '', ['s'], { id: 's' }],
	limit: [-1, 1.5, '3', true, {}, [], -0.5],
	_meta: ['x', 5, true, [1]],
};

const request = (id: string | number, method: string, params?: string) => `{"jsonrpc":"2.0","id":${json(id)},"method":${json(method)}${params === undefined ? '' : `,"params":${params}`}}`;

const caseShapes = (limits: CaseLimits): Record<string, fc.Arbitrary<Case>> => ({
	valid: fc.tuple(freshId, fc.constantFrom(...METHODS)).chain(([id, method]) =>
		validParams(method, limits).map((params) => ({ label: 'valid request', line: request(id, method, params), expect: { kind: 'answer' as const, id } })),
	),
	wrongType: fc.tuple(freshId, fc.constantFrom(...METHODS), fc.constantFrom('sessionId', 'limit', '_meta'), fc.nat()).map(([id, method, field, pick]) => {
		const f = method !== EditorStateMethods.recentDocuments && field === 'limit' ? 'sessionId' : field;
		const wrong = WRONG[f]![pick % WRONG[f]!.length];
		const members = [`"sessionId":${json(f === 'sessionId' ? wrong : 'session-1')}`];
		if (f !== 'sessionId') {
			members.push(`${json(f)}:${json(wrong)}`);
		}
		return { label: `${method} with ${f} = ${json(wrong)}`, line: request(id, method, `{${members.join(',')}}`), expect: { kind: 'answer' as const, id, code: -32602, mentions: f } };
	}),
	missingField: fc.tuple(freshId, fc.constantFrom(...METHODS), fc.constantFrom(undefined, 'null', '{}', '{"_meta":null}')).map(([id, method, params]) => ({
		label: `${method} without sessionId (params ${params ?? 'absent'})`,
		line: request(id, method, params),
		expect: { kind: 'answer' as const, id, code: -32602, mentions: 'sessionId' },
	})),
	scalarParams: fc.tuple(freshId, fc.constantFrom(...METHODS, 'no/such_method'), fc.constantFrom('5', '"s"', 'true', 'false', '0', '-1.5')).map(([id, method, params]) => ({
		label: `params ${params}`,
		line: request(id, method, params),
		expect: { kind: 'answer' as const, id, code: -32602 },
	})),
	positionalParams: fc.tuple(freshId, fc.constantFrom(...METHODS)).map(([id, method]) => ({
		label: 'params by position',
		line: request(id, method, '[{"sessionId":"s"},5]'),
		expect: { kind: 'answer' as const, id, code: -32602 },
	})),
	unknownMethod: fc.tuple(freshId, fc.oneof(fc.constantFrom('__proto__', 'constructor', 'toString', 'hasOwnProperty', '', 'session/new', '$/cancel_request'), shortString.map((s) => `unknown/${s}`))).map(([id, method]) => ({
		label: `unknown method ${json(method)}`,
		line: request(id, method, '{}'),
		expect: { kind: 'answer' as const, id, code: -32601 },
	})),
	throwingHandler: freshId.map((id) => ({ label: 'handler throws', line: request(id, 'test/throws', '{"sessionId":"s"}'), expect: { kind: 'answer' as const, id, code: -32603 } })),
	methodNotString: fc.tuple(freshId, fc.constantFrom(5, null, true, {}, ['m'])).map(([id, method]) => ({
		label: `method ${json(method)}`,
		line: `{"jsonrpc":"2.0","id":${json(id)},"method":${json(method)},"params":{}}`,
		expect: { kind: 'answer' as const, id, code: -32600 },
	})),
	badJsonrpc: fc.tuple(freshId, fc.constantFrom('"1.0"', '2', '2.0', 'null', '"2"', undefined), fc.constantFrom(...METHODS)).map(([id, version, method]) => ({
		label: `jsonrpc ${version ?? 'absent'}`,
		line: `{${version === undefined ? '' : `"jsonrpc":${version},`}"id":${json(id)},"method":${json(method)},"params":{"sessionId":"s"}}`,
		expect: { kind: 'answer' as const, id, code: -32600 },
	})),
	unreadableId: fc.constantFrom('{}', '[]', 'true', 'false', 'null', '{"a":1}', '[1,2]', '1e999').map((id) => ({
		label: `id ${id}`,
		line: `{"jsonrpc":"2.0","id":${id},"method":"workspace/active_document","params":{"sessionId":"s"}}`,
		expect: { kind: 'nullAnswer' as const },
	})),
	batch: fc.array(fc.tuple(freshId, fc.constantFrom(...METHODS)), { maxLength: 3 }).map((items) => ({
		label: 'batch',
		line: `[${items.map(([id, method]) => request(id, method, '{"sessionId":"s"}')).join(',')}]`,
		expect: { kind: 'nullAnswer' as const },
	})),
	scalar: fc.constantFrom('5', '"a string"', 'null', 'true', '-0', '"{\\"jsonrpc\\":\\"2.0\\"}"').map((line) => ({ label: `scalar ${line}`, line, expect: { kind: 'nullAnswer' as const } })),
	neither: fc.tuple(freshId, fc.boolean()).map(([id, withId]) =>
		withId
			? { label: 'neither request nor response, with id', line: `{"jsonrpc":"2.0","id":${json(id)}}`, expect: { kind: 'answer' as const, id, code: -32600 } }
			: { label: 'neither request nor response', line: '{"jsonrpc":"2.0","hello":"world"}', expect: { kind: 'nullAnswer' as const } },
	),
	cutOff: fc.tuple(freshId, fc.constantFrom(...METHODS), fc.double({ min: 0.01, max: 0.99, noNaN: true })).chain(([id, method, at]) =>
		validParams(method, limits).map((params) => {
			const line = request(id, method, params);
			return { label: 'cut-off JSON', line: line.slice(0, Math.max(1, Math.floor(line.length * at))), expect: { kind: 'none' as const } };
		}),
	),
	garbage: shortString.map((s) => ({ label: 'not JSON', line: `not json ${s.replace(/[\r\n]/g, ' ')}`, expect: { kind: 'none' as const } })),
	notification: fc.tuple(fc.constantFrom(...METHODS, '$/cancel_request', 'unknown/notification', '__proto__'), fc.constantFrom(undefined, 'null', '{}', '5', '"s"', '[1]', '{"requestId":"case-1"}', '{"requestId":{}}')).map(([method, params]) => ({
		label: `notification ${method}`,
		line: `{"jsonrpc":"2.0","method":${json(method)}${params === undefined ? '' : `,"params":${params}`}}`,
		expect: { kind: 'none' as const },
	})),
	strayResponse: fc.tuple(fc.oneof(fc.nat(), shortString), fc.constantFrom('"result":{"x":1}', '"result":null', '"error":{"code":-32603,"message":"boom"}', '"error":"bad"', '"result":1,"error":{"code":1,"message":"m"}')).map(([id, body]) => ({
		label: 'response to an id never used',
		line: `{"jsonrpc":"2.0","id":${json(typeof id === 'number' ? 5_000_000 + id : `never-${id}`)},${body}}`,
		expect: { kind: 'none' as const },
	})),
});

/** One case of any shape, common shapes as often as rare ones. */
export function generateCase(limits: CaseLimits = DEFAULT_LIMITS): fc.Arbitrary<Case> {
	return fc.oneof(...Object.values(caseShapes(limits)));
}
