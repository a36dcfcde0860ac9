// Test archives written byte by byte, so that hostile ones (paths with "..", absolute paths, links
// pointing out, device entries) can be made: real archivers refuse to write most of them. ustar for
// tar (gzip-compressed with zlib), stored (uncompressed) entries for zip.
import { crc32, gzipSync } from 'node:zlib';

export interface FixtureEntry {
	readonly name: string;
	readonly type?: 'file' | 'directory' | 'symlink' | 'hardlink' | 'chardev';
	readonly content?: string | Buffer;
	readonly target?: string;
	readonly mode?: number;
}

function octal(value: number, width: number): string {
	return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

const TAR_TYPES = { file: '0', hardlink: '1', symlink: '2', chardev: '3', directory: '5' } as const;

export function tarGz(entries: readonly FixtureEntry[]): Buffer {
	const blocks: Buffer[] = [];
	for (const entry of entries) {
		const type = entry.type ?? 'file';
		const data = type === 'file' ? Buffer.from(entry.content ?? '') : Buffer.alloc(0);
		const header = Buffer.alloc(512);
		header.write(entry.name, 0, 100, 'utf8');
		header.write(octal(entry.mode ?? (type === 'directory' ? 0o755 : 0o644), 8), 100, 'ascii');
		header.write(octal(0, 8), 108, 'ascii');
		header.write(octal(0, 8), 116, 'ascii');
		header.write(octal(data.length, 12), 124, 'ascii');
		header.write(octal(Math.floor(Date.UTC(2026, 0, 1) / 1000), 12), 136, 'ascii');
		header.write('        ', 148, 'ascii');
		header.write(TAR_TYPES[type], 156, 'ascii');
		header.write(entry.target ?? '', 157, 100, 'utf8');
		header.write('ustar\0', 257, 'ascii');
		header.write('00', 263, 'ascii');
		let sum = 0;
		for (const byte of header) {
			sum += byte;
		}
		header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
		blocks.push(header, data, Buffer.alloc((512 - (data.length % 512)) % 512));
	}
	blocks.push(Buffer.alloc(1024));
	return gzipSync(Buffer.concat(blocks));
}

export function zip(entries: readonly FixtureEntry[]): Buffer {
	const locals: Buffer[] = [];
	const centrals: Buffer[] = [];
	let offset = 0;
	for (const entry of entries) {
		const type = entry.type ?? 'file';
		const name = Buffer.from(type === 'directory' && !entry.name.endsWith('/') ? `${entry.name}/` : entry.name, 'utf8');
		const data = type === 'symlink' ? Buffer.from(entry.target ?? '') : Buffer.from(type === 'file' ? (entry.content ?? '') : '');
		const fileType = type === 'symlink' ? 0o120000 : type === 'directory' ? 0o040000 : type === 'chardev' ? 0o020000 : 0o100000;
		const mode = fileType | (entry.mode ?? (type === 'directory' ? 0o755 : 0o644));
		const crc = crc32(data);
		const local = Buffer.alloc(30);
		local.writeUInt32LE(0x04034b50, 0);
		local.writeUInt16LE(20, 4);
		local.writeUInt16LE(0x0800, 6);
		local.writeUInt16LE(0, 8);
		local.writeUInt32LE(0, 10);
		local.writeUInt32LE(crc, 14);
		local.writeUInt32LE(data.length, 18);
		local.writeUInt32LE(data.length, 22);
		local.writeUInt16LE(name.length, 26);
		local.writeUInt16LE(0, 28);
		const central = Buffer.alloc(46);
		central.writeUInt32LE(0x02014b50, 0);
		central.writeUInt16LE((3 << 8) | 20, 4); // made by Unix, so the external attributes carry a mode
		central.writeUInt16LE(20, 6);
		central.writeUInt16LE(0x0800, 8);
		central.writeUInt16LE(0, 10);
		central.writeUInt32LE(0, 12);
		central.writeUInt32LE(crc, 16);
		central.writeUInt32LE(data.length, 20);
		central.writeUInt32LE(data.length, 24);
		central.writeUInt16LE(name.length, 28);
		central.writeUInt32LE(((mode & 0xffff) << 16) >>> 0, 38);
		central.writeUInt32LE(offset, 42);
		locals.push(local, name, data);
		centrals.push(central, name);
		offset += local.length + name.length + data.length;
	}
	const directory = Buffer.concat(centrals);
	const end = Buffer.alloc(22);
	end.writeUInt32LE(0x06054b50, 0);
	end.writeUInt16LE(entries.length, 8);
	end.writeUInt16LE(entries.length, 10);
	end.writeUInt32LE(directory.length, 12);
	end.writeUInt32LE(offset, 16);
	return Buffer.concat([...locals, directory, end]);
}
