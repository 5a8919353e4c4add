// Composes the world transforms of scenes as the engine's own cook does,
// for engine_test.go: each scene's entities walked from their roots with
// the engine's rotate and multiplyQuat (partitionWorld.ts, run as it is),
// and the whole scene cut by partitionWorld itself (cells, their bounds and
// members). Reads {scenes: [SceneData]} on stdin.
import { partitionWorld, rotate, multiplyQuat } from '@residency/partitionWorld?expose=rotate,multiplyQuat';
import { readFileSync } from 'fs';

type V = { x: number; y: number; z: number };
type Q = [number, number, number, number];
const input = JSON.parse(readFileSync(0, 'utf8'));

function tr(e: any): { p: V; r: Q; s: V } {
    const t = (e.components ?? []).find((c: any) => c.type === 'Transform')?.data ?? {};
    const p = t.position ?? {}, r = t.rotation ?? {}, s = t.scale ?? {};
    return {
        p: { x: p.x ?? 0, y: p.y ?? 0, z: p.z ?? 0 },
        r: [r.x ?? 0, r.y ?? 0, r.z ?? 0, r.w ?? 1],
        s: { x: s.x ?? 1, y: s.y ?? 1, z: s.z ?? 1 },
    };
}

const out = input.scenes.map((scene: any) => {
    const byId = new Map<number, any>();
    for (const e of scene.entities) byId.set(e.id, e);
    const world: Record<string, { position: V; rotation: Q; scale: V }> = {};
    const walk = (id: number, position: V, rotation: Q, scale: V) => {
        world[id] = { position, rotation, scale };
        for (const e of scene.entities) {
            if (e.parent !== id) continue;
            const l = tr(e);
            const scaled = { x: l.p.x * scale.x, y: l.p.y * scale.y, z: l.p.z * scale.z };
            const turned = rotate(rotation, scaled);
            walk(e.id, { x: position.x + turned.x, y: position.y + turned.y, z: position.z + turned.z },
                multiplyQuat(rotation, l.r), { x: scale.x * l.s.x, y: scale.y * l.s.y, z: scale.z * l.s.z });
        }
    };
    for (const e of scene.entities) {
        if (e.parent === null || !byId.has(e.parent)) {
            const l = tr(e);
            walk(e.id, l.p, l.r, l.s);
        }
    }
    const part = partitionWorld(scene, 'world', { entityFieldsOf: () => [] });
    const cells = (part?.cells ?? []).map((c: any) => ({
        name: c.name, minX: c.minX, minZ: c.minZ, maxX: c.maxX, maxZ: c.maxZ,
        ids: c.data.entities.map((e: any) => e.id),
    }));
    return { world, cells, errors: part?.errors ?? [] };
});
process.stdout.write(JSON.stringify(out));
