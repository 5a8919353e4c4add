// Reads Spine atlases with the engine's own page reader, for
// engine_test.go: {atlases: [base64, ...]} on stdin, the page names of
// each on stdout, the bytes decoded as the engine's text fetch decodes
// them (UTF-8, a leading byte order mark dropped).
import { parseSpineAtlasPages } from '@engine/spine/atlasPages';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const decoder = new TextDecoder('utf-8');
const out = input.atlases.map((b64: string) => parseSpineAtlasPages(decoder.decode(Buffer.from(b64, 'base64'))));
process.stdout.write(JSON.stringify(out));
