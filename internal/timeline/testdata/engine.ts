// Evaluates generated timelines with the engine's own loader and sampler,
// for engine_test.go: reads {cases: [...]} on stdin, writes the answers
// as JSON on stdout (numbers in their shortest round-trip form).
import { parseTimelineAsset } from '@engine/timeline/TimelineLoader';
import { evaluateChannel, applyWrapMode, sampleTimeline } from '@engine/timeline/TimelineEvaluator';
import { TrackType } from '@engine/timeline/TimelineTypes';
import { q } from '@engine/math/quat';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
// The selection of engine sources beside worldcook has no math/quat: the
// rotation writers are compared only against a whole engine checkout.
const probe = q.normalize({ w: 2, x: 0, y: 0, z: 0 });
const realQuat = typeof probe === 'object' && probe.w === 1;
const TransformDef = { name: 'Transform' };

const out = { realQuat, cases: [] as any[] };
for (const c of input.cases) {
    const asset = parseTimelineAsset(JSON.parse(JSON.stringify(c.asset)));
    const values: number[][] = [];
    for (const track of asset.tracks) {
        if (track.type !== TrackType.Property) continue;
        for (const ch of track.channels) {
            values.push(c.times.map((t: number) => evaluateChannel(ch, t)));
        }
    }
    // A playback clock as the engine's drive advances it: add the frame's
    // delta times the speed, then wrap.
    const clock: number[] = [];
    let t = 0;
    for (let i = 0; i < c.frames; i++) {
        const w = applyWrapMode(t + c.dt * c.speed, asset.duration, c.mode);
        t = w.time;
        clock.push(t, w.stopped ? 1 : 0);
    }
    const poses: any[] = [];
    if (realQuat) {
        const ents: Record<string, any> = {};
        for (const e of c.entities) ents[e.path] = JSON.parse(JSON.stringify(e.transform));
        const deps = {
            world: {
                has: () => true,
                get: (e: any) => JSON.parse(JSON.stringify(ents[e])),
                set: (e: any, _d: any, data: any) => { ents[e] = data; },
            },
            getComponent: (name: string) => (name === 'Transform' ? TransformDef as any : undefined),
            resolveChild: (_root: any, p: string) => (p in ents ? p as any : null),
        };
        for (const time of c.times) {
            sampleTimeline(asset, time, '' as any, deps as any);
            poses.push(c.entities.map((e: any) => ents[e.path]));
        }
    }
    out.cases.push({ values, clock, poses });
}
process.stdout.write(JSON.stringify(out));
