// Plays generated timelines as the engine's drive plays them (the clock
// advanced by dt × speed, wrapped by applyWrapMode, every property track
// sampled by sampleTimeline), and follows the source up its parents, for
// timeline_engine_test.go. The parents' composition is T·R·S as the
// engine's transform system multiplies them (it is C++, so it is spelled
// out here); a follow camera moves by the engine's own followStep.
import { parseTimelineAsset } from '@engine/timeline/TimelineLoader';
import { applyWrapMode, sampleTimeline } from '@engine/timeline/TimelineEvaluator';
import { followStep } from '@engine/camera/FollowTarget';
import { readFileSync } from 'fs';

type TRS = { position: any; rotation: any; scale: any };
const input = JSON.parse(readFileSync(0, 'utf8'));

function matrix(t: TRS): number[][] {
    const { x, y, z, w } = t.rotation;
    const r = [
        [1 - 2 * (y * y + z * z), 2 * (x * y - z * w), 2 * (x * z + y * w)],
        [2 * (x * y + z * w), 1 - 2 * (x * x + z * z), 2 * (y * z - x * w)],
        [2 * (x * z - y * w), 2 * (y * z + x * w), 1 - 2 * (x * x + y * y)],
    ];
    const s = [t.scale.x, t.scale.y, t.scale.z];
    const p = [t.position.x, t.position.y, t.position.z];
    return [0, 1, 2].map((i) => [r[i][0] * s[0], r[i][1] * s[1], r[i][2] * s[2], p[i]]);
}
function mul(a: number[][], b: number[][]): number[][] {
    return [0, 1, 2].map((i) => [0, 1, 2, 3].map((j) =>
        a[i][0] * b[0][j] + a[i][1] * b[1][j] + a[i][2] * b[2][j] + (j === 3 ? a[i][3] : 0)));
}

const out: any[] = [];
for (const c of input.cases) {
    const asset = parseTimelineAsset(JSON.parse(JSON.stringify(c.asset)));
    const ents: TRS[] = c.entities.map((e: any) => JSON.parse(JSON.stringify(e.transform)));
    const byPath: Record<string, number> = {};
    c.entities.forEach((e: any, i: number) => { if (e.path != null) byPath[e.path] = i; });
    const deps = {
        world: {
            has: () => true,
            get: (e: number) => JSON.parse(JSON.stringify(ents[e])),
            set: (e: number, _d: any, data: any) => { ents[e] = data; },
        },
        getComponent: (name: string) => (name === 'Transform' ? ({} as any) : undefined),
        resolveChild: (_root: any, p: string) => (p in byPath ? byPath[p] : null),
    };
    const where = (i: number): number[] => {
        const chain: number[] = [];
        for (let k = i; k >= 0; k = c.entities[k].parent) chain.push(k);
        let m = [[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0]];
        for (let k = chain.length - 1; k >= 0; k--) m = mul(m, matrix(ents[chain[k]]));
        return [m[0][3], m[1][3], m[2][3]];
    };
    const dt = 1 / c.fps;
    const step = dt * c.speed;
    const span = asset.duration * (c.wrap === 0 ? 1 : c.loops);
    let cam = c.camera ? { ...c.camera.position } : null;
    const frames: number[][] = [];
    let clock = 0, played = 0;
    for (let f = 0; ; f++) {
        let stopped = false;
        if (f > 0) {
            const w = applyWrapMode(clock + step, asset.duration, c.wrap);
            clock = w.time; stopped = w.stopped; played += step;
        }
        sampleTimeline(asset, clock, 0 as any, deps as any);
        if (cam) {
            const t = ents[c.source].position;
            if (f > 0) {
                const fc = c.camera;
                cam = followStep(cam, { x: t.x + fc.offsetX, y: t.y + fc.offsetY, z: fc.followZ ? t.z + fc.offsetZ : cam.z }, fc.deadzone, fc.damping, dt);
            }
            frames.push([cam.x, cam.y, cam.z]);
        } else {
            frames.push(where(c.source));
        }
        if (stopped || (c.wrap !== 0 && played >= span) || frames.length > 100000) break;
    }
    out.push(frames);
}
process.stdout.write(JSON.stringify(out));
