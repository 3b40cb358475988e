import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const baseUrl = process.env.POSEKIT_URL ?? 'http://127.0.0.1:8080';
const here = dirname(fileURLToPath(import.meta.url));
/** The conformance assets beside the checkout (../shared/conformance/assets), or POSEKIT_CONFORMANCE_ASSETS. */
export const assets = process.env.POSEKIT_CONFORMANCE_ASSETS ?? resolve(here, '../../../../../shared/conformance/assets');
export const haveAssets = existsSync(join(assets, 'gltf/Fox/Fox.glb'));
export const asset = (path: string) => new Uint8Array(readFileSync(join(assets, path)));
export const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');
