import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { missingFilesProblem, notStartedProblem, problemText } from '../../src/common/chatPageProblem';

// What the chat view says in place of a page that cannot run: the files, and the command that
// brings them back (the view itself is checked in a real VS Code by the start tier).

const fromSource = { fromSource: true, folder: '/src/agent-link' };
const installed = { fromSource: false, folder: '/ext/agent-link-0.1.0' };

describe('the chat page problem', () => {
	it('names each missing file and, from source, the build command', () => {
		const text = problemText(missingFilesProblem(['dist/webview/chat.js', 'dist/webview/codicon.css'], fromSource));
		assert.equal(
			text,
			'The chat cannot open: its page is not built. dist/webview/chat.js and dist/webview/codicon.css are missing from /src/agent-link. '
				+ 'Agent Link runs from its source here: build them with npm run build in that folder (npm start does it too), then hide this view and show it again.',
		);
		assert.match(problemText(missingFilesProblem(['a', 'b', 'c'], fromSource)), /a, b and c are missing/);
		assert.match(problemText(missingFilesProblem(['dist/webview/chat.js'], fromSource)), /dist\/webview\/chat\.js is missing .* build it with npm run build/);
	});

	it('installed, it says to reinstall, not to build', () => {
		const text = problemText(missingFilesProblem(['dist/webview/chat.js'], installed));
		assert.match(text, /reinstall it from the Extensions view/);
		assert.doesNotMatch(text, /npm/);
	});

	it('a script that did not start is named, with what to do', () => {
		const problem = notStartedProblem(fromSource);
		assert.equal(problem.title, 'The chat page did not start');
		assert.match(problemText(problem), /Its script, dist\/webview\/chat\.js, did not load or stopped with an error\. It is in \/src\/agent-link\..*npm run build.*Agent Link: Show Log may say more\./);
		assert.doesNotMatch(problemText(notStartedProblem(installed)), /npm/);
	});

	it('keeps file names and commands apart from the prose, to be shown as code', () => {
		const [files, remedy] = missingFilesProblem(['dist/webview/chat.js'], fromSource).paragraphs;
		assert.deepEqual(files?.filter((p) => typeof p !== 'string'), [{ code: 'dist/webview/chat.js' }, { code: '/src/agent-link' }]);
		assert.deepEqual(remedy?.filter((p) => typeof p !== 'string'), [{ code: 'npm run build' }, { code: 'npm start' }]);
	});
});
