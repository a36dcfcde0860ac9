// An agent process floods the client with hostile lines of every kind (test/fixtures/agents/
// hostile-flood-agent.mjs): every request it can identify is answered, a valid request after the flood
// is answered, and the log and the trace hold the first few lines of each kind and then one summary
// with the exact count of those left out. The limits' window is an hour here, so the counts do not
// depend on how fast the machine is.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ResponseError } from 'vscode-jsonrpc/node';
import * as z from 'zod/mini';
import { EditorStateMethods, recentDocumentsParamsSchema, sessionParamsSchema } from '../../src/common/editorStateProtocol';
import { MessageKinds } from '../../src/common/jsonrpc';
import { AgentHandle } from '../../src/node/agentHandle';
import { WireTracer } from '../../src/common/trace';
import { MemoryLog, clientInfo, fixture, repoRoot } from './helpers';
import type { FloodReport } from '../shared/floodReport';

const any = z.unknown();
const SESSION = 'known-session';
const BURST = 5;
const HOUR = 60 * 60_000;


/** The agent's kinds of hostile line that Agent Link logs, by the kind it logs them as, with what a full line says. */
const LOGGED = [
	{ kind: MessageKinds.notJson, agentKinds: ['not JSON', 'cut JSON'], full: /^warn Ignored a line from the agent that is not JSON: / },
	{ kind: MessageKinds.paramsNotStructured, agentKinds: ['params not an object'], full: /^warn Answered -32602 to a message from the agent/ },
	{
		kind: MessageKinds.invalidRequest,
		agentKinds: ['batch', 'not an object', 'wrong jsonrpc version', 'no method, result or error'],
		full: /^warn Answered -32600 to a message from the agent/,
	},
	{ kind: MessageKinds.unknownNotification, agentKinds: ['unknown method (notification)'], full: /^trace Ignored notification hostile\/notice_\d+ from the agent: no handler$/ },
	{ kind: MessageKinds.unexpectedResponse, agentKinds: ['response to an unknown id', 'error response to an unknown id'], full: /^warn Ignored a response from the agent to request / },
	{ kind: MessageKinds.responseWithoutId, agentKinds: ['response without an id'], full: /^warn The agent sent a response without an id/ },
	{ kind: MessageKinds.badResponse, agentKinds: ['malformed response'], full: /^warn Ignored a response from the agent that is not valid JSON-RPC 2\.0/ },
	{ kind: MessageKinds.badNotification, agentKinds: ['notification params not an object'], full: /^warn Ignored notification hostile\/notice from the agent: / },
	{ kind: MessageKinds.invalidNotificationParams, agentKinds: ['invalid $/cancel_request'], full: /^warn Ignored notification \$\/cancel_request from the agent: / },
];

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('a flood of hostile lines from an agent process', () => {
	it('answers all it owes, and logs and traces the first lines of each kind and one summary with the count of the rest', async () => {
		const log = new MemoryLog();
		const traced: string[] = [];
		const tracer = new WireTracer(() => 'messages', (line) => traced.push(line), undefined, { windowMs: HOUR });
		const h = await AgentHandle.launch({ definition: fixture('hostile-flood-agent.mjs'), defaultCwd: repoRoot, maxLineBytes: 1024 * 1024, log, logLimits: { windowMs: HOUR }, tracer });
		const checkSession = (sessionId: string) => {
			if (sessionId !== SESSION) {
				throw new ResponseError(-32602, `Invalid params: sessionId: unknown session ${JSON.stringify(sessionId)}`);
			}
		};
		h.connection.onRequest(EditorStateMethods.activeDocument, sessionParamsSchema, (p) => (checkSession(p.sessionId), { document: null }));
		h.connection.onRequest(EditorStateMethods.openDocuments, sessionParamsSchema, (p) => (checkSession(p.sessionId), { documents: [] }));
		h.connection.onRequest(EditorStateMethods.recentDocuments, recentDocumentsParamsSchema, (p) => (checkSession(p.sessionId), { documents: [] }));
		await h.initialize(clientInfo, {});
		const logBefore = log.lines.length;

		const report = (await h.connection.sendRequest('_test/hostileFlood', { sessionId: SESSION, lines: 18 * 300 }, any)) as FloodReport;
		assert.deepEqual({ missing: report.missing, timedOut: report.timedOut, unexpected: report.unexpected, got: report.got }, { missing: 0, timedOut: false, unexpected: [], got: report.expected });
		assert.deepEqual(report.valid, { result: { document: null } });
		assert.equal(h.connection.isClosed, false);
		// Closing writes the summaries still pending.
		await h.dispose();

		const flood = log.lines.slice(logBefore);
		for (const { kind, agentKinds, full } of LOGGED) {
			const sent = agentKinds.reduce((n, k) => n + (report.byKind[k] ?? 0), 0);
			assert.ok(sent > BURST, `the flood has more than ${BURST} lines of ${kind.what}`);
			assert.equal(flood.filter((l) => full.test(l)).length, BURST, `lines logged in full: ${kind.what}`);
			const summaries = flood.filter((l) => l.includes(`Left out of the log: `) && l.includes(` more ${kind.what} in `));
			assert.equal(summaries.length, 1, `one summary: ${kind.what}\n${summaries.join('\n')}`);
			assert.match(summaries[0]!, new RegExp(`Left out of the log: ${(sent - BURST).toLocaleString('en')} more ${escape(kind.what)} in `));
		}
		const summaries = flood.filter((l) => l.includes('Left out of the log: '));
		assert.equal(summaries.length, LOGGED.length, summaries.join('\n'));
		// Besides: stopping the agent.
		assert.ok(flood.length <= LOGGED.length * (BURST + 1) + 10, `${flood.length} log lines for a flood of ${report.lines}:\n${flood.slice(0, 200).join('\n')}`);

		// The trace: the same, per kind and direction; the requests the handler refused (unknown session) are ordinary traffic.
		const invalidParams = ['wrong param type (sessionId)', 'wrong param type (limit)'].reduce((n, k) => n + report.byKind[k]!, 0);
		const unknownMethod = report.byKind['unknown method (request)']!;
		for (const [arrow, what, count] of [
			['←', MessageKinds.invalidParams.what, invalidParams],
			['→', `answers to ${MessageKinds.invalidParams.what}`, invalidParams],
			['←', MessageKinds.unknownMethod.what, unknownMethod],
			['→', `answers to ${MessageKinds.unknownMethod.what}`, unknownMethod],
		] as const) {
			assert.equal(traced.filter((l) => l.startsWith(`${arrow} Left out of the trace: ${(count - BURST).toLocaleString('en')} more ${what} in `)).length, 1, `${arrow} ${what}\n${traced.filter((l) => l.includes('Left out')).join('\n')}`);
		}
		const unknownSession = report.byKind['unknown session']!;
		const floodTraced = traced.filter((l) => /#(flood-|never-sent-|1\d{9}\b)/.test(l));
		assert.ok(floodTraced.length <= 2 * unknownSession + 2 * 20 * BURST, `${floodTraced.length} trace lines name the flood's ids`);
	});
});
