// A CPU profile of the extension host, taken from inside it with the inspector protocol (the same
// profile VS Code's own "Start Extension Host Profile" records). Benchmarks only.
import { Session } from 'node:inspector';

export interface Profile {
	stop(): Promise<object>;
}

export async function startProfile(): Promise<Profile> {
	const session = new Session();
	session.connect();
	const post = (method: string, params?: object) =>
		new Promise<unknown>((resolve, reject) => session.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))));
	await post('Profiler.enable');
	await post('Profiler.setSamplingInterval', { interval: 500 });
	await post('Profiler.start');
	return {
		async stop() {
			const { profile } = (await post('Profiler.stop')) as { profile: object };
			session.disconnect();
			return profile;
		},
	};
}
