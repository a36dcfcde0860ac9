import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { SharedChecks } from '../../src/common/sharedChecks';

/** A check whose answers the test gives, one by one, and which counts what it was asked. */
function scripted() {
	const asked: string[] = [];
	const answers: ((value: boolean) => void)[] = [];
	const check = (key: string) => {
		asked.push(key);
		return new Promise<boolean>((resolve) => answers.push(resolve));
	};
	return { asked, answers, check };
}

const settled = () => new Promise((resolve) => setImmediate(resolve));

describe('SharedChecks', () => {
	it('one check serves every caller while it runs and until it is freshMs old, then a new one is made', async () => {
		let now = 0;
		const { asked, answers, check } = scripted();
		const checks = new SharedChecks(check, 100, () => now);
		const first = [checks.get('a'), checks.get('a'), checks.get('a')];
		assert.deepEqual(asked, ['a'], 'callers at once share the check');
		answers[0]!(true);
		assert.deepEqual(await Promise.all(first), [true, true, true]);
		now = 99;
		assert.equal(await checks.get('a'), true);
		assert.deepEqual(asked, ['a'], 'a check less than freshMs old still answers');
		now = 100;
		const again = checks.get('a');
		assert.deepEqual(asked, ['a', 'a'], 'after freshMs the file is checked again');
		answers[1]!(false);
		assert.equal(await again, false, 'and the new answer is given (the file was deleted)');
	});

	it('a check still running is shared however long it takes; other keys are checked on their own', async () => {
		let now = 0;
		const { asked, answers, check } = scripted();
		const checks = new SharedChecks(check, 100, () => now);
		const slow = checks.get('a');
		now = 10_000;
		assert.equal(checks.get('a'), slow, 'a hung check is not started again');
		void checks.get('b');
		assert.deepEqual(asked, ['a', 'b']);
		answers[0]!(true);
		await settled();
		void checks.get('a');
		assert.deepEqual(asked, ['a', 'b', 'a'], 'once it has answered, its age counts from when it began');
	});

	it('remembers at most `limit` keys', async () => {
		const { asked, check } = scripted();
		const checks = new SharedChecks(check, 100, () => 0, 2);
		void checks.get('a');
		void checks.get('b');
		void checks.get('c');
		void checks.get('a');
		assert.deepEqual(asked, ['a', 'b', 'c', 'a'], 'the third key made room by forgetting the others');
	});
});
