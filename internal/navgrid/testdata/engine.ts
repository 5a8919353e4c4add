// Decodes generated tilemaps with the engine's chunk codec, builds its nav
// grid from them and asks its A* for paths, for engine_test.go: reads
// {cases: [...]} on stdin, writes the answers as JSON on stdout.
import { decodeTilemapChunks } from '@engine/tilemap/chunkCodec';
import { navGridFromTiles } from '@engine/ai/nav/navGridFromTilemap';
import { findPath } from '@engine/ai/nav/pathfind';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const out: any[] = [];
for (const c of input.cases) {
    const chunks = decodeTilemapChunks(c.blob);
    const byKey = new Map<string, Uint16Array>();
    for (const ch of chunks) byKey.set(`${ch.x},${ch.y}`, ch.tiles);
    // A tile of the map by its tile coordinates (row 0 at the top).
    const tileAt = (tx: number, ty: number): number => {
        const cx = Math.floor(tx / 16), cy = Math.floor(ty / 16);
        const tiles = byKey.get(`${cx},${cy}`);
        return tiles ? tiles[(ty - cy * 16) * 16 + (tx - cx * 16)] : 0;
    };
    // As navGridFromTilemapLayer reads a layer: grid row 0 is the bottom.
    const grid = navGridFromTiles(
        (x, y) => tileAt(c.minX + x, c.minY + (c.height - 1 - y)),
        { width: c.width, height: c.height, cellSize: 1, blockedTileIds: c.blocked },
    );
    const paths = c.pairs.map((p: number[]) => findPath(grid, { x: p[0], y: p[1] }, { x: p[2], y: p[3] }));
    out.push({
        chunks: chunks.map((ch) => ({ x: ch.x, y: ch.y, tiles: Array.from(ch.tiles) })),
        walkable: Array.from(grid.walkable),
        paths: paths.map((p: any) => (p ? p.map((q: any) => [q.x, q.y]) : null)),
    });
}
process.stdout.write(JSON.stringify(out));
