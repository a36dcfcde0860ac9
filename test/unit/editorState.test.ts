import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fileURLToPath, pathToFileURL } from 'node:url';
import * as fc from 'fast-check';
import {
	FocusOrder,
	LanguageResolver,
	RecentDocuments,
	agentFileUri,
	fileUriFromPath,
	globToRegExp,
	orderOpenDocuments,
	selectExisting,
} from '../../src/common/editorState';
import {
	DEFAULT_RECENT_LIMIT,
	EditorStateMethods,
	MAX_RECENT_DOCUMENTS,
	clientEditorStateCapabilities,
	recentDocumentsParamsSchema,
	recentLimit,
	sessionParamsSchema,
} from '../../src/common/editorStateProtocol';
import { describeZodError } from '../../src/common/protocol';

const ODD_NAMES = ['with space.ts', 'hash#1.ts', 'percent%41.ts', 'ünïcødé 日本語.ts', 'colon:semi;.ts', 'q?&=+$,@!.md', "brackets[]{}()'^`|~.txt", 'emoji 🎉.py', 'tab\tand\nnewline'];

describe('fileUriFromPath', () => {
	it('spells POSIX paths exactly as url.pathToFileURL does, and they map back', () => {
		for (const name of ODD_NAMES) {
			const path = `/home/alice/work space/${name}`;
			const uri = fileUriFromPath(path, false);
			assert.equal(uri, pathToFileURL(path).href, name);
			assert.equal(fileURLToPath(uri!), path, name);
		}
	});

	it('spells Windows paths as url.pathToFileURL does, with an upper-case drive letter', () => {
		for (const name of ODD_NAMES.filter((n) => !/[:?|\t\n]/.test(n))) {
			const path = `C:\\Users\\alice\\work space\\${name}`;
			const uri = fileUriFromPath(path, true);
			assert.equal(uri, pathToFileURL(path, { windows: true }).href, name);
			assert.equal(fileURLToPath(uri!, { windows: true }), path, name);
		}
		// VS Code's fsPath has a lower-case drive letter; the file system says C:.
		assert.equal(fileUriFromPath('c:\\src\\a.ts', true), 'file:///C:/src/a.ts');
		assert.equal(fileUriFromPath('\\\\server\\share\\dir\\a b.ts', true), 'file://server/share/dir/a%20b.ts');
		assert.equal(fileURLToPath('file://server/share/dir/a%20b.ts', { windows: true }), '\\\\server\\share\\dir\\a b.ts');
	});

	it('refuses paths that are not absolute or cannot be named exactly', () => {
		assert.equal(fileUriFromPath('relative/a.ts', false), undefined);
		assert.equal(fileUriFromPath('', false), undefined);
		assert.equal(fileUriFromPath('//host/share/a.ts', false), undefined);
		assert.equal(fileUriFromPath('\\relative\\a.ts', true), undefined);
		assert.equal(fileUriFromPath('C:relative', true), undefined);
		assert.equal(fileUriFromPath('/tmp/lone\ud800surrogate', false), undefined);
	});

	it('round-trips every POSIX path through url.fileURLToPath (property)', () => {
		const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => !s.includes('/') && !s.includes('\0'));
		fc.assert(
			fc.property(fc.array(segment, { minLength: 1, maxLength: 5 }), (segments) => {
				const path = `/${segments.join('/')}`;
				const uri = fileUriFromPath(path, false);
				assert.ok(uri?.startsWith('file:///'));
				assert.equal(fileURLToPath(uri!), path);
				// Same spelling as Node's, so agents that compare strings agree with it (where Node's
				// own URL names the file: it drops trailing control characters and resolves `..`).
				const node = pathToFileURL(path).href;
				if (fileURLToPath(node) === path) {
					assert.equal(uri, node);
				}
			}),
			{ numRuns: 300 },
		);
	});

	it('round-trips every Windows path through url.fileURLToPath (property)', () => {
		const segment = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 }).filter((s) => !/[\\/:*?"<>|\0]/.test(s) && s !== '.' && s !== '..');
		fc.assert(
			fc.property(fc.constantFrom('C', 'D', 'z'), fc.array(segment, { minLength: 1, maxLength: 5 }), (drive, segments) => {
				const path = `${drive.toUpperCase()}:\\${segments.join('\\')}`;
				const uri = fileUriFromPath(path, true);
				assert.ok(uri?.startsWith('file:///'));
				assert.equal(fileURLToPath(uri!, { windows: true }), path);
			}),
			{ numRuns: 300 },
		);
	});
});

describe('agentFileUri', () => {
	it('answers file URIs only', () => {
		assert.equal(agentFileUri({ scheme: 'file', authority: '', fsPath: '/a/b c.ts' }, false), 'file:///a/b%20c.ts');
		for (const scheme of ['untitled', 'git', 'output', 'vscode-notebook-cell', 'vscode-userdata', 'vscode-remote', 'http']) {
			assert.equal(agentFileUri({ scheme, authority: '', fsPath: '/a/b.ts' }, false), undefined, scheme);
		}
		assert.equal(agentFileUri({ scheme: 'file', authority: 'host', fsPath: '//host/a.ts' }, false), undefined);
	});
});

const doc = (name: string, languageId = 'typescript') => ({ uri: `file:///w/${name}`, languageId });

describe('RecentDocuments', () => {
	it('keeps one entry per URI, most recent first', () => {
		const recent = new RecentDocuments(3);
		recent.touch(doc('a'));
		recent.touch(doc('b'));
		recent.touch(doc('a'));
		assert.deepEqual(recent.documents.map((d) => d.uri), ['file:///w/a', 'file:///w/b']);
		assert.equal(recent.touch(doc('a')), false, 'touching the first entry again changes nothing');
		assert.equal(recent.touch(doc('a', 'javascript')), true, 'a new language is a change');
		assert.equal(recent.rank('file:///w/b'), 1);
		assert.equal(recent.rank('file:///w/zzz'), undefined);
	});

	it('drops the oldest past its capacity; append only fills free room', () => {
		const recent = new RecentDocuments(3);
		for (const name of ['a', 'b', 'c', 'd']) {
			recent.touch(doc(name));
		}
		assert.deepEqual(recent.documents.map((d) => d.uri.slice(-1)), ['d', 'c', 'b']);
		assert.equal(recent.append(doc('e')), false);
		const roomy = new RecentDocuments(3);
		roomy.touch(doc('a'));
		assert.equal(roomy.append(doc('a')), false, 'already present');
		assert.equal(roomy.append(doc('b')), true);
		assert.deepEqual(roomy.documents.map((d) => d.uri.slice(-1)), ['a', 'b']);
	});

	it('updates a language in place', () => {
		const recent = new RecentDocuments();
		recent.touch(doc('a'));
		recent.touch(doc('b'));
		assert.equal(recent.setLanguage('file:///w/a', 'javascript'), true);
		assert.equal(recent.setLanguage('file:///w/a', 'javascript'), false);
		assert.equal(recent.setLanguage('file:///w/none', 'javascript'), false);
		assert.deepEqual(recent.documents, [doc('b'), doc('a', 'javascript')]);
	});

	it('matches a reference model and never exceeds its capacity (property)', () => {
		fc.assert(
			fc.property(fc.integer({ min: 1, max: 8 }), fc.array(fc.integer({ min: 0, max: 15 }), { maxLength: 80 }), (capacity, touches) => {
				const recent = new RecentDocuments(capacity);
				for (const t of touches) {
					recent.touch(doc(String(t)));
					assert.ok(recent.size <= capacity);
				}
				// Reference: distinct names by their last touch, newest first, cut to capacity.
				const expected: string[] = [];
				for (const t of [...touches].reverse()) {
					if (!expected.includes(String(t))) {
						expected.push(String(t));
					}
				}
				assert.deepEqual(recent.documents.map((d) => d.uri.slice('file:///w/'.length)), expected.slice(0, capacity));
				assert.deepEqual(RecentDocuments.fromStored(recent.toStored(), capacity).documents, recent.documents);
			}),
		);
	});

	it('restores from workspace state, dropping what it does not understand', () => {
		const stored = {
			version: 1,
			documents: [doc('a'), null, { uri: 'untitled:Untitled-1', languageId: 'plaintext' }, { uri: 'file:///w/b' }, doc('a'), 'x', doc('c', 'json')],
		};
		assert.deepEqual(RecentDocuments.fromStored(stored).documents, [doc('a'), doc('c', 'json')]);
		for (const junk of [undefined, null, 42, 'x', [], { version: 2, documents: [doc('a')] }, { version: 1, documents: 'no' }]) {
			assert.equal(RecentDocuments.fromStored(junk).size, 0);
		}
		const many = { version: 1, documents: Array.from({ length: MAX_RECENT_DOCUMENTS + 50 }, (_, i) => doc(`f${i}`)) };
		assert.equal(RecentDocuments.fromStored(many).size, MAX_RECENT_DOCUMENTS);
	});
});

describe('selectExisting', () => {
	const list = ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l'].map((n) => doc(n));

	it('takes the first `limit` that exist, in order', async () => {
		const gone = new Set(['file:///w/b', 'file:///w/c']);
		const chosen = await selectExisting(list, 3, (uri) => !gone.has(uri));
		assert.deepEqual(chosen.map((d) => d.uri.slice(-1)), ['a', 'd', 'e']);
		assert.deepEqual(await selectExisting(list, 0, () => true), []);
		assert.equal((await selectExisting(list, 100, () => Promise.resolve(true))).length, list.length);
	});

	it('only checks as far as it needs to', async () => {
		const asked: string[] = [];
		await selectExisting(list, 2, (uri) => {
			asked.push(uri);
			return true;
		});
		assert.equal(asked.length, 8, 'one batch of at least 8');
	});
});

describe('open document order', () => {
	it('puts focused documents first (latest first), then the recent list order, then tab order, without duplicates', () => {
		const focus = new FocusOrder();
		const recent = new RecentDocuments();
		for (const name of ['r2', 'r1']) {
			recent.touch(doc(name));
		}
		focus.focus('file:///w/f1');
		focus.focus('file:///w/f2');
		focus.focus('file:///w/f1');
		const tabs = ['t1', 'r2', 'f2', 't0', 'r1', 'f1', 'f2'].map((n) => doc(n));
		assert.deepEqual(
			orderOpenDocuments(tabs, focus, recent).map((d) => d.uri.slice('file:///w/'.length)),
			['f1', 'f2', 'r1', 'r2', 't1', 't0'],
		);
	});

	it('focus order forgets the oldest past its capacity', () => {
		const focus = new FocusOrder(3);
		for (const name of ['a', 'b', 'c', 'd', 'b']) {
			focus.focus(name);
		}
		assert.equal(focus.size, 3);
		assert.equal(focus.rank('a'), undefined);
		assert.ok(focus.rank('b')! > focus.rank('d')!);
	});

	it('is a deduplicated permutation of the tabs (property)', () => {
		fc.assert(
			fc.property(fc.array(fc.integer({ min: 0, max: 20 })), fc.array(fc.integer({ min: 0, max: 20 })), fc.array(fc.integer({ min: 0, max: 20 })), (tabs, focused, touched) => {
				const focus = new FocusOrder();
				focused.forEach((n) => focus.focus(doc(String(n)).uri));
				const recent = new RecentDocuments();
				touched.forEach((n) => recent.touch(doc(String(n))));
				const ordered = orderOpenDocuments(tabs.map((n) => doc(String(n))), focus, recent).map((d) => d.uri);
				assert.deepEqual([...ordered].sort(), [...new Set(tabs.map((n) => doc(String(n)).uri))].sort());
				const ranks = ordered.map((u) => focus.rank(u) ?? -1);
				assert.deepEqual(ranks, [...ranks].sort((a, b) => b - a), 'focused first, newest first');
			}),
		);
	});
});

describe('LanguageResolver', () => {
	const contributions = [
		{ id: 'typescript', extensions: ['.ts', '.cts', '.mts'] },
		{ id: 'typescriptreact', extensions: ['.tsx'] },
		{ id: 'json', extensions: ['.json'], filenames: ['composer.lock'] },
		{ id: 'jsonc', filenames: ['tsconfig.json', '.eslintrc.json'], filenamePatterns: ['tsconfig.*.json'] },
		{ id: 'dockerfile', filenames: ['Dockerfile'], filenamePatterns: ['Dockerfile.*'], extensions: ['.dockerfile'] },
		{ id: 'shellscript', extensions: ['.sh'], firstLine: '^#!.*\\b(bash|sh|zsh)\\b' },
		{ id: 'xml', extensions: ['.xml'], firstLine: '(\\<\\?xml.*)|(\\<svg)|(\\<\\!doctype\\s+svg)' },
		{ id: 'declaration', extensions: ['.d.ts'] },
		{ id: 'broken', firstLine: '(' },
	];
	const resolver = new LanguageResolver(contributions);

	it('matches extensions (longest wins) and exact file names (case-insensitive)', () => {
		assert.equal(resolver.byPath('/w/a.ts'), 'typescript');
		assert.equal(resolver.byPath('/w/A.TS'), 'typescript');
		assert.equal(resolver.byPath('/w/types.d.ts'), 'declaration');
		assert.equal(resolver.byPath('/w/package.json'), 'json');
		assert.equal(resolver.byPath('/w/tsconfig.json'), 'jsonc', 'a file name beats an extension');
		assert.equal(resolver.byPath('/w/composer.lock'), 'json');
		assert.equal(resolver.byPath('C:\\w\\dockerfile'), 'dockerfile');
		assert.equal(resolver.byPath('/w/no-extension'), undefined);
		assert.equal(resolver.byPath('/w.ts/readme'), undefined, 'only the file name counts');
	});

	it('prefers patterns over extensions', () => {
		assert.equal(resolver.byPath('/w/tsconfig.base.json'), 'jsonc');
		assert.equal(resolver.byPath('/w/Dockerfile.dev'), 'dockerfile');
	});

	it('lets later registrations win ties', () => {
		const later = new LanguageResolver([...contributions, { id: 'other-ts', extensions: ['.ts'] }]);
		assert.equal(later.byPath('/w/a.ts'), 'other-ts');
	});

	it('matches extensions without a leading dot as plain endings, longest first', () => {
		const endings = new LanguageResolver([{ id: 'rc', extensions: ['rc'] }, { id: 'bashrc', extensions: ['.bashrc'] }, { id: 'txt', extensions: ['.txt'] }]);
		assert.equal(endings.byPath('/home/.npmrc'), 'rc');
		assert.equal(endings.byPath('/home/.bashrc'), 'bashrc', '.bashrc is longer than rc');
		assert.equal(endings.byPath('/home/notes.txt'), 'txt');
	});

	it('puts files.associations above everything, with patterns on the name or on the path', () => {
		const user = new LanguageResolver(contributions, { '*.ts': 'javascript', 'tsconfig.json': 'json', '**/fixtures/**/*.txt': 'json', 'bad': 42 });
		assert.equal(user.byPath('/w/a.ts'), 'javascript');
		assert.equal(user.byPath('/w/tsconfig.json'), 'json');
		assert.equal(user.byPath('/w/test/fixtures/x/data.txt'), 'json');
		assert.equal(user.byPath('/w/test/data.txt'), undefined);
		assert.equal(user.byPath('/w/a.tsx'), 'typescriptreact');
	});

	it('recognises first lines and ignores invalid patterns', () => {
		assert.equal(resolver.byFirstLine('#!/usr/bin/env bash'), 'shellscript');
		assert.equal(resolver.byFirstLine('<?xml version="1.0"?>'), 'xml');
		assert.equal(resolver.byFirstLine('hello'), undefined);
		assert.equal(resolver.usesFirstLine, true);
		assert.equal(new LanguageResolver([{ id: 'x', extensions: ['.x'] }]).usesFirstLine, false);
	});

	it('translates globs', () => {
		const cases: [string, string, boolean][] = [
			['*.ts', 'a.ts', true],
			['*.ts', 'dir/a.ts', false],
			['**/*.ts', '/abs/dir/a.ts', true],
			['**/*.ts', 'a.ts', true],
			['a?.md', 'ab.md', true],
			['a?.md', 'a.md', false],
			['*.{js,mjs}', 'x.mjs', true],
			['*.{js,mjs}', 'x.cjs', false],
			['[ab].txt', 'b.txt', true],
			['[!ab].txt', 'b.txt', false],
			['a+b(c).txt', 'a+b(c).txt', true],
			['**/.github/workflows/*.yml', '/r/.github/workflows/ci.yml', true],
		];
		for (const [glob, target, expected] of cases) {
			assert.equal(globToRegExp(glob).test(target), expected, `${glob} ~ ${target}`);
		}
	});
});

describe('editor state protocol', () => {
	it('names the RFD methods and capability', () => {
		assert.deepEqual(Object.values(EditorStateMethods), ['workspace/open_documents', 'workspace/recent_documents', 'workspace/active_document']);
		assert.deepEqual(clientEditorStateCapabilities(), { workspace: { openDocuments: {}, recentDocuments: {}, activeDocument: {} } });
	});

	it('refuses bad params with a message naming the field', () => {
		const bad: [unknown, RegExp][] = [
			[{}, /^Invalid params: sessionId: expected a session id/],
			[{ sessionId: 7 }, /sessionId: expected a session id/],
			[{ sessionId: '' }, /sessionId: expected a session id/],
			[{ sessionId: 's', limit: -1 }, /^Invalid params: limit: expected a non-negative integer$/],
			[{ sessionId: 's', limit: 2.5 }, /limit: expected a non-negative integer/],
			[{ sessionId: 's', limit: '3' }, /limit: expected a non-negative integer/],
		];
		for (const [params, message] of bad) {
			const parsed = recentDocumentsParamsSchema.safeParse(params);
			assert.ok(!parsed.success, JSON.stringify(params));
			assert.match(describeZodError(parsed.error), message);
		}
		assert.ok(!sessionParamsSchema.safeParse({}).success);
		assert.ok(sessionParamsSchema.safeParse({ sessionId: 's', _meta: { x: 1 }, extra: true }).success);
	});

	it('defaults and clamps limit', () => {
		const limit = (params: unknown) => {
			const parsed = recentDocumentsParamsSchema.safeParse(params);
			assert.ok(parsed.success);
			return recentLimit(parsed.data.limit);
		};
		assert.equal(limit({ sessionId: 's' }), DEFAULT_RECENT_LIMIT);
		assert.equal(limit({ sessionId: 's', limit: null }), DEFAULT_RECENT_LIMIT);
		assert.equal(limit({ sessionId: 's', limit: 0 }), 0);
		assert.equal(limit({ sessionId: 's', limit: 7 }), 7);
		assert.equal(limit({ sessionId: 's', limit: 1e21 }), MAX_RECENT_DOCUMENTS);
	});
});
