// What an agent's initialize answer says about signing out and additional directories, and which
// folders a session in a multi-root workspace is given besides its cwd (src/common/agentAbilities.ts).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { canSignOut, otherFolders, takesAdditionalDirectories } from '../../src/common/agentAbilities';

describe('agent abilities: sign-out and additional directories', () => {
	it('auth.logout advertised only as an object; anything else is not advertised', () => {
		assert.equal(canSignOut({ auth: { logout: {} } }), true);
		assert.equal(canSignOut({ auth: { logout: { _meta: { x: 1 } } } }), true);
		for (const caps of [undefined, null, {}, { auth: null }, { auth: {} }, { auth: { logout: null } }, { auth: { logout: true } }, { auth: { logout: 'yes' } }, { auth: 'logout' }, 'auth']) {
			assert.equal(canSignOut(caps), false, JSON.stringify(caps));
		}
	});

	it('a malformed neighbour does not hide an advertised capability', () => {
		assert.equal(canSignOut({ auth: { logout: {} }, sessionCapabilities: 'nonsense' }), true);
		assert.equal(takesAdditionalDirectories({ auth: 42, sessionCapabilities: { additionalDirectories: {}, list: 'x' } }), true);
	});

	it('sessionCapabilities.additionalDirectories advertised only as an object', () => {
		assert.equal(takesAdditionalDirectories({ sessionCapabilities: { additionalDirectories: {} } }), true);
		for (const caps of [undefined, {}, { sessionCapabilities: {} }, { sessionCapabilities: { additionalDirectories: null } }, { sessionCapabilities: { additionalDirectories: true } }, { additionalDirectories: {} }]) {
			assert.equal(takesAdditionalDirectories(caps), false, JSON.stringify(caps));
		}
	});

	it('the other folders: every absolute folder but the cwd, each once, in order', () => {
		assert.deepEqual(otherFolders('/w/api', ['/w/api', '/w/web app', '/w/docs']), ['/w/web app', '/w/docs']);
		assert.deepEqual(otherFolders('/w/docs', ['/w/api', '/w/web app', '/w/docs']), ['/w/api', '/w/web app']);
		assert.deepEqual(otherFolders('/w/api/', ['/w/api', '/w/web', '/w/web/']), ['/w/web'], 'trailing separators');
		assert.deepEqual(otherFolders('/home/me', ['/w/api']), ['/w/api'], 'a cwd outside the folders');
		assert.deepEqual(otherFolders('/w/api', ['/w/api']), [], 'one folder');
		assert.deepEqual(otherFolders('/w/api', []), []);
		assert.deepEqual(otherFolders('/w/api', ['relative', '', '/w/b']), ['/w/b'], 'never a relative path');
		assert.deepEqual(otherFolders('C:\\w\\api', ['C:\\w\\api', 'C:\\w\\web', '\\\\server\\share']), ['C:\\w\\web', '\\\\server\\share'], 'Windows paths');
		assert.deepEqual(otherFolders('/', ['/', '/w']), ['/w'], 'the root');
	});
});
