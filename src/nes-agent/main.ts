/**
 * `node dist/nes-agent.js`: Agent Link's NES agent over stdio (ACP, newline-
 * delimited JSON-RPC). Any ACP client that speaks the merged NES revision can
 * run it. Logs go to stderr; stdout carries only protocol messages.
 */
import { Readable, Writable } from 'node:stream';
import { agent, ndJsonStream } from '@agentclientprotocol/sdk/experimental/nes';
import { NesAgent } from './agent';
import { editByExampleEngine } from './engines/editByExample';
import { modelConfigFromEnv } from './model/config';
import { ModelEngine } from './model/modelEngine';

declare const AGENT_LINK_VERSION: string;

const log = (message: string) => process.stderr.write(`[agent-link-nes] ${message}\n`);

// Engine 2 when a model endpoint is configured (see model/config.ts), engine 1 otherwise.
const model = modelConfigFromEnv(process.env);
if (model && !model.ok) {
	log(`The model settings are invalid (${model.reason}); using edit-by-example only.`);
}
const engine = model?.ok ? new ModelEngine(model.config, editByExampleEngine, log) : editByExampleEngine;
const handlers = new NesAgent({ engine, relatedSnippets: model?.ok === true, version: typeof AGENT_LINK_VERSION === 'string' ? AGENT_LINK_VERSION : '0.0.0', log });

const connection = agent({ name: 'agent-link-nes' })
	.onRequest('initialize', ({ params }) => handlers.initialize(params))
	.onRequest('nes/start', ({ params }) => handlers.start(params))
	.onRequest('nes/suggest', ({ params, signal }) => handlers.suggest(params, signal))
	.onRequest('nes/close', ({ params }) => handlers.close(params))
	.onNotification('nes/accept', ({ params }) => handlers.accept(params))
	.onNotification('nes/reject', ({ params }) => handlers.reject(params))
	.onNotification('document/didOpen', ({ params }) => handlers.didOpen(params))
	.onNotification('document/didChange', ({ params }) => handlers.didChange(params))
	.onNotification('document/didClose', ({ params }) => handlers.didClose(params))
	.connect(ndJsonStream(Writable.toWeb(process.stdout) as WritableStream<Uint8Array>, Readable.toWeb(process.stdin) as ReadableStream<Uint8Array>));

// The client closing our stdin ends the agent.
void connection.closed.then(() => process.exit(0));
