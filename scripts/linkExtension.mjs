// Installs an extension folder into a VS Code server's extensions folder as a link, for
// scripts/start.mjs: VS Code then loads it as any installed extension, straight from the folder (a
// rebuild shows after Developer: Reload Window), with no workbench URL payload. The payload
// (extensionDevelopmentPath) would need the server's --enable-smoke-test-driver on VS Code 1.139,
// and with that flag 1.139 shows no notification toasts and refuses modal dialogs: a person trying
// the extension would find its messages only in the notification center.
import { existsSync } from 'node:fs';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';

/** The name of the link start.mjs makes in the extensions folder (a real install never has it). */
const LINK_SUFFIX = '-linked';

/**
 * Links `extension` into `extensionsDir` and lists it in the folder's `extensions.json` (the
 * manifest VS Code reads), replacing what an earlier start linked there (another --extension, an
 * older version). Extensions installed in the profile by other means are left alone.
 * @param {string} extensionsDir the server's --extensions-dir
 * @param {string} extension the extension's folder (holding its package.json)
 * @returns {Promise<string>} the extension's id
 */
export async function linkExtension(extensionsDir, extension) {
  const manifest = JSON.parse(await fs.readFile(path.join(extension, 'package.json'), 'utf8'));
  const id = `${manifest.publisher}.${manifest.name}`;
  const name = `${id}-${manifest.version}${LINK_SUFFIX}`;
  await fs.mkdir(extensionsDir, { recursive: true });
  const isOurs = (/** @type {string} */ entry) => entry.endsWith(LINK_SUFFIX);
  for (const entry of await fs.readdir(extensionsDir)) {
    if (isOurs(entry)) await fs.rm(path.join(extensionsDir, entry), { force: true });
  }
  await fs.symlink(path.resolve(extension), path.join(extensionsDir, name), 'dir');

  const listFile = path.join(extensionsDir, 'extensions.json');
  /** @type {{ identifier: { id: string }, relativeLocation?: string }[]} */
  let list = [];
  if (existsSync(listFile)) {
    try {
      const parsed = JSON.parse(await fs.readFile(listFile, 'utf8'));
      if (Array.isArray(parsed)) list = parsed;
    } catch {
      // a damaged list: VS Code would start from an empty one too
    }
  }
  list = list.filter((e) => !(typeof e?.relativeLocation === 'string' && isOurs(e.relativeLocation)) && e?.identifier?.id?.toLowerCase() !== id.toLowerCase());
  const location = path.join(extensionsDir, name);
  list.push({ identifier: { id }, version: manifest.version, location: { $mid: 1, path: location, scheme: 'file' }, relativeLocation: name });
  await fs.writeFile(listFile, JSON.stringify(list));
  return id;
}
