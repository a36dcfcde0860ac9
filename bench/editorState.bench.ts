// The pure part of client editor state at the sizes the issue names: 200 open tabs, a full recent
// list. Plain Node, no VS Code; the in-editor figures (through the real connection, with VS Code's
// tabs) come from the `bench-editor-state` suite.
//
//   node out/bench/editorState.bench.js [--calls 2000]
import { parseArgs } from 'node:util';
import { FocusOrder, LanguageResolver, RecentDocuments, fileUriFromPath, orderOpenDocuments } from '../src/common/editorState';
import { MAX_RECENT_DOCUMENTS } from '../src/common/editorStateProtocol';

const { values } = parseArgs({ options: { calls: { type: 'string', default: '2000' } } });
const calls = Number(values.calls);
const TABS = 200;

function measure(label: string, work: () => unknown): void {
	for (let i = 0; i < 100; i++) {
		work();
	}
	const ms: number[] = [];
	for (let i = 0; i < calls; i++) {
		const start = performance.now();
		work();
		ms.push(performance.now() - start);
	}
	ms.sort((x, y) => x - y);
	const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!;
	console.log(`  ${label.padEnd(44)} median ${(at(0.5) * 1000).toFixed(1)} µs, p95 ${(at(0.95) * 1000).toFixed(1)} µs`);
}

const paths = Array.from({ length: TABS }, (_, i) => `/home/alice/work space/project #${i % 7}/src/módulo ${i}.ts`);
const uris = paths.map((p) => fileUriFromPath(p, false)!);
const recent = new RecentDocuments();
for (let i = 0; i < MAX_RECENT_DOCUMENTS + 60; i++) {
	recent.touch({ uri: `file:///home/alice/older/${i}.ts`, languageId: 'typescript' });
}
for (const uri of uris) {
	recent.touch({ uri, languageId: 'typescript' });
}
const focus = new FocusOrder();
for (const uri of uris.slice(0, 50)) {
	focus.focus(uri);
}
// About what VS Code's built-in extensions contribute (1.139: 84 languages, 346 extensions,
// 72 file names, 26 patterns), plus margin.
const resolver = new LanguageResolver(
	Array.from({ length: 100 }, (_, i) => ({
		id: `lang${i}`,
		extensions: [`.ext${i}`, `.e${i}x`, `.x${i}`, `.y${i}`],
		filenames: [`File${i}`],
		filenamePatterns: i < 30 ? [`*.pat${i}.json`] : [],
	})).concat([{ id: 'typescript', extensions: ['.ts'], filenames: [], filenamePatterns: [] }]),
);
const tabs = uris.map((uri) => ({ uri }));

console.log(`editor state (pure): ${TABS} tabs, recent list ${recent.size}/${MAX_RECENT_DOCUMENTS}, ${calls} calls each`);
measure(`spell ${TABS} file URIs (odd names)`, () => paths.map((p) => fileUriFromPath(p, false)));
measure(`order ${TABS} open documents`, () => orderOpenDocuments(tabs, focus, recent));
measure('touch the recent list (move to front)', () => recent.touch({ uri: uris[(Math.random() * TABS) | 0]!, languageId: 'typescript' }));
measure(`languages of ${TABS} paths (100 languages)`, () => paths.map((p) => resolver.byPath(p)));
