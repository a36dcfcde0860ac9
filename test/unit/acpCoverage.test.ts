// ACP v1 coverage: every method and client capability of the stable schema the SDK ships
// (schema/v1/schema.json) is either implemented or listed in the README's "ACP v1 coverage" table
// with a reason. What is implemented is read from the code: the methods from where the source
// registers a handler (`onRequest`/`onNotification`) or sends them (`sendRequest`/`sendNotification`)
// by their `Methods` constant, the capabilities from the object the features advertise
// (src/common/clientCapabilities.ts). A new SDK that adds a method or capability fails here until
// it is implemented or listed.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { ACP_V1_CLIENT_CAPABILITIES } from '../../src/common/clientCapabilities';
import { Methods } from '../../src/common/protocol';
import { sourceFiles } from '../shared/sourceFiles';

const root = join(__dirname, '..', '..', '..');

interface SchemaNode {
	readonly $ref?: string;
	readonly type?: string | readonly string[];
	readonly properties?: Record<string, SchemaNode>;
	readonly allOf?: readonly SchemaNode[];
	readonly anyOf?: readonly SchemaNode[];
	readonly 'x-side'?: string;
	readonly 'x-method'?: string;
}

const schema = JSON.parse(readFileSync(join(root, 'node_modules', '@agentclientprotocol', 'sdk', 'schema', 'v1', 'schema.json'), 'utf8')) as { $defs: Record<string, SchemaNode> };
const defs = schema.$defs;

/** The schema's methods by side: `client` (the agent asks, the client answers), `agent` (the client asks), `protocol` (both). */
function schemaMethods(): Map<string, string> {
	const methods = new Map<string, string>();
	for (const def of Object.values(defs)) {
		const method = def['x-method'];
		if (method && def['x-side']) {
			methods.set(method, def['x-side']);
		}
	}
	return methods;
}

/** The definition `node` stands for, through `$ref`, `allOf` and a nullable `anyOf`. */
function resolve(node: SchemaNode): SchemaNode {
	if (node.$ref) {
		return resolve(defs[node.$ref.replace('#/$defs/', '')]!);
	}
	const inner = [...(node.allOf ?? []), ...(node.anyOf ?? [])].filter((n) => n.type !== 'null');
	return inner.length === 1 && !node.properties ? resolve(inner[0]!) : node;
}

/** The capability paths under `node`: a field whose value has fields of its own (other than `_meta`) is followed, any other is a capability. */
function capabilityPaths(node: SchemaNode, prefix = ''): string[] {
	const paths: string[] = [];
	for (const [name, field] of Object.entries(resolve(node).properties ?? {})) {
		if (name === '_meta') {
			continue;
		}
		const value = resolve(field);
		const inner = Object.keys(value.properties ?? {}).filter((k) => k !== '_meta');
		paths.push(...(inner.length > 0 ? capabilityPaths(value, `${prefix}${name}.`) : [`${prefix}${name}`]));
	}
	return paths;
}

/** Whether the advertised object holds `path` with a value that means "supported" (true, or an object). */
function advertised(path: string): boolean {
	let value: unknown = ACP_V1_CLIENT_CAPABILITIES;
	for (const key of path.split('.')) {
		value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
	}
	return value === true || (typeof value === 'object' && value !== null);
}

/** The wire name of a `Methods` constant's path (`session.new` → `session/new`). */
function wireName(path: string): string | undefined {
	let value: unknown = Methods;
	for (const key of path.split('.')) {
		value = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[key] : undefined;
	}
	return typeof value === 'string' ? value : undefined;
}

/** The methods the extension handles (`on…`) and sends (`send…`), found in its source by their `Methods` constants. */
function methodsInCode(): { readonly handled: Set<string>; readonly sent: Set<string> } {
	const handled = new Set<string>();
	const sent = new Set<string>();
	for (const file of [...sourceFiles(join(root, 'src', 'vscode')), ...sourceFiles(join(root, 'src', 'node'))]) {
		for (const match of readFileSync(file, 'utf8').matchAll(/\.(on|send)(?:Request|Notification)\(\s*Methods\.([\w.]+)/g)) {
			const name = wireName(match[2]!);
			assert.ok(name, `${file}: Methods.${match[2]} is no method`);
			(match[1] === 'on' ? handled : sent).add(name);
		}
	}
	return { handled, sent };
}

/** The README's "ACP v1 coverage" table: what is not supported, with the reason. */
function notSupported(): Map<string, string> {
	const readme = readFileSync(join(root, 'README.md'), 'utf8');
	const start = readme.indexOf('\n### ACP v1 coverage\n');
	assert.ok(start >= 0, 'README has an "ACP v1 coverage" section');
	const section = readme.slice(start + 1).split(/\n#{2,3} /)[0]!;
	const rows = new Map<string, string>();
	for (const line of section.split('\n')) {
		const cells = /^\|\s*`([^`]+)`\s*\|([^|]*)\|([^|]*)\|\s*$/.exec(line);
		if (cells) {
			rows.set(cells[1]!, cells[3]!.trim());
		}
	}
	return rows;
}

describe('ACP v1 coverage', () => {
	const methods = schemaMethods();
	const capabilities = capabilityPaths(defs.ClientCapabilities!);
	const listed = notSupported();
	const code = methodsInCode();

	it('reads the schema: methods of both sides and the client capabilities', () => {
		for (const method of ['initialize', 'session/new', 'fs/read_text_file', 'session/update', 'logout', '$/cancel_request']) {
			assert.ok(methods.has(method), method);
		}
		for (const path of ['fs.readTextFile', 'terminal', 'auth.terminal', 'session.configOptions.boolean']) {
			assert.ok(capabilities.includes(path), path);
		}
	});

	it('every method the agent may call on the client is handled, or listed as not supported with a reason', () => {
		const missing = [...methods].filter(([m, side]) => (side === 'client' || side === 'protocol') && !code.handled.has(m) && !listed.get(m)).map(([m]) => m);
		assert.deepEqual(missing, [], 'methods neither handled (onRequest/onNotification with Methods.…) nor in the README table');
	});

	it('every method the client may call on the agent is sent, or listed as not supported with a reason', () => {
		const missing = [...methods].filter(([m, side]) => (side === 'agent' || side === 'protocol') && !code.sent.has(m) && !listed.get(m)).map(([m]) => m);
		assert.deepEqual(missing, [], 'methods neither sent (sendRequest/sendNotification with Methods.…) nor in the README table');
	});

	it('every client capability is advertised, or listed as not supported with a reason', () => {
		assert.deepEqual(
			capabilities.filter((path) => !advertised(path) && !listed.get(path)),
			[],
			'capabilities neither in ACP_V1_CLIENT_CAPABILITIES nor in the README table',
		);
	});

	it('nothing is both supported and listed as not supported, and every row names something of the schema', () => {
		const supported = (name: string) => (methods.has(name) ? code.handled.has(name) || code.sent.has(name) : advertised(name));
		assert.deepEqual([...listed.keys()].filter(supported), [], 'listed as not supported, yet implemented');
		assert.deepEqual(
			[...listed.keys()].filter((name) => !methods.has(name) && !capabilities.includes(name)),
			[],
			'rows that are no method or client capability of the schema',
		);
	});

	it('advertises nothing the schema does not have', () => {
		const paths = (value: unknown, prefix = ''): string[] =>
			Object.entries(value as Record<string, unknown>).flatMap(([k, v]) =>
				typeof v === 'object' && v !== null && Object.keys(v).length > 0 ? paths(v, `${prefix}${k}.`) : [`${prefix}${k}`],
			);
		assert.deepEqual(
			paths(ACP_V1_CLIENT_CAPABILITIES).filter((p) => !capabilities.includes(p)),
			[],
		);
	});
});
