/**
 * Engine 2 (#9): an open next-edit model behind an OpenAI-compatible endpoint,
 * opt-in. The prompt is built by the configured format from the agent's copy
 * of the document, the edits it saw and the related snippets the client sent;
 * the model's rewrite of the region becomes minimal edits.
 *
 * One request at a time: a newer `nes/suggest` aborts the older HTTP request
 * (which then answers nothing: the client has moved on). A model that fails,
 * is slower than the timeout, or suggests nothing is logged (never the key)
 * and engine 1 answers instead. A request the client cancels aborts the HTTP
 * request too.
 */
import { linesOf } from './formats/types';
import type { FormatName, PromptContext, PromptFormat } from './formats/types';
import { instinct } from './formats/instinct';
import { sweep } from './formats/sweep';
import { zeta } from './formats/zeta';
import { ModelError, requestModel } from './client';
import type { ModelConfig } from './config';
import { rewriteEdits } from './edits';
import type { EngineInput, NesEngine, Proposal } from '../engines/types';

export const FORMATS: Readonly<Record<FormatName, PromptFormat>> = { sweep, zeta, instinct };

/** Why an older request was aborted. */
class Superseded extends Error {
	constructor() {
		super('superseded by a newer request');
		this.name = 'Superseded';
	}
}

export class ModelEngine implements NesEngine {
	readonly name: string;
	private current: AbortController | undefined;

	constructor(
		private readonly config: ModelConfig,
		private readonly fallback: NesEngine,
		private readonly log: (message: string) => void,
		private readonly fetchImpl: typeof fetch = (input, init) => fetch(input, init),
	) {
		this.name = `model ${config.model} (${config.format} format) at ${config.endpoint.replace(/\/\/[^@/]*@/, '//')}, edit-by-example when it has nothing`;
	}

	async suggest(input: EngineInput, signal: AbortSignal): Promise<Proposal | undefined> {
		const format = FORMATS[this.config.format];
		let prompt;
		try {
			prompt = format.build(promptContext(input));
		} catch (error) {
			this.log(`No model request: ${error instanceof Error ? error.message : String(error)}; edit-by-example answers.`);
			return this.fallback.suggest(input, signal);
		}
		this.current?.abort(new Superseded());
		const controller = new AbortController();
		this.current = controller;
		const cancel = () => controller.abort(signal.reason);
		signal.addEventListener('abort', cancel, { once: true });
		const timer = setTimeout(() => controller.abort(new ModelError(`no answer within ${this.config.timeoutMs} ms`)), this.config.timeoutMs);
		try {
			const reply = await requestModel(this.config, prompt.request, controller.signal, this.fetchImpl);
			const rewrite = format.parse(reply);
			// Trailing empty lines are left as they are: models drop or add them freely.
			const current = linesOf(input.document, prompt.region.startLine, prompt.region.endLine).join('\n').replace(/\n+$/, '');
			const edits = rewrite === undefined ? [] : rewriteEdits(prompt.region.startLine, current, rewrite.replace(/\n+$/, ''), input.cursor);
			if (edits.length > 0) {
				return { kind: 'edits', edits };
			}
		} catch (error) {
			if (signal.aborted) {
				throw signal.reason;
			}
			if (controller.signal.reason instanceof Superseded) {
				return undefined;
			}
			const reason = controller.signal.aborted ? controller.signal.reason : error;
			this.log(`The model failed (${reason instanceof Error ? reason.message : String(reason)}); edit-by-example answers instead.`);
		} finally {
			clearTimeout(timer);
			signal.removeEventListener('abort', cancel);
			if (this.current === controller) {
				this.current = undefined;
			}
		}
		signal.throwIfAborted();
		return this.fallback.suggest(input, signal);
	}
}

function promptContext(input: EngineInput): PromptContext {
	const path = input.path ?? input.uri;
	return {
		path,
		document: input.document,
		cursor: input.cursor,
		lastEdit: input.lastEdit,
		recentEdits: input.recentEdits ?? [...input.earlierEdits, ...(input.lastEdit ? [input.lastEdit] : [])].map((edit) => ({ path, edit })),
		snippets: input.relatedSnippets ?? [],
	};
}
