// Runs the recorder `worldcook route --recorder` prints, for
// recorder_test.go: formats the numbers it is given, and, with a whole
// engine checkout, records a source moving through a real World of the
// engine (its own wasm stand-in from its tests holds the built-in
// components) frame by frame. Reads {numbers, frames} on stdin.
import { formatNumber, RouteRecorder, recordFrame, recordRoute, drivenSource } from '../recorder';
import * as engine from 'esengine';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const out: any = { numbers: input.numbers.map((v: number) => formatNumber(v)) };

const { World, Transform, Camera, Name, defineComponent } = engine as any;
let mock: any = null;
try {
    mock = await import('@engine/../tests/mocks/wasm');
} catch {
    mock = null;
}
if (typeof World === 'function' && mock && typeof mock.createMockModule === 'function') {
    const world = new World();
    const mod = mock.createMockModule();
    world.connectCpp(mod.getRegistry(), mod);
    // The streaming component is a project's (or the residency module's):
    // registered by name, as the recorder looks it up.
    const Source = defineComponent('WorldStreamingSource', { loadRadius: 3000, prefetchRadius: 3000, unloadRadius: 4000, enabled: true });
    const cam = world.spawn();
    world.insert(cam, Transform, { position: { x: 5, y: 6, z: 7 }, worldPosition: { x: 5, y: 6, z: 7 } });
    world.insert(cam, Camera, { isActive: true, priority: 0 });
    const recorders: Record<string, any> = {};
    for (const plane of ['xz', 'xy']) {
        const camOnly = new RouteRecorder(plane as any);
        recordFrame(world, camOnly);
        recorders['camera-' + plane] = camOnly.csv();
    }
    const player = world.spawn();
    world.insert(player, Name, { value: 'Player, one' });
    world.insert(player, Source, {});
    const rec = new RouteRecorder('xz');
    const named = new RouteRecorder('xy');
    for (const f of input.frames) {
        // The engine's transform system writes worldPosition each frame.
        world.insert(player, Transform, { position: { x: f[0], y: f[1], z: f[2] }, worldPosition: { x: f[0], y: f[1], z: f[2] } });
        recordFrame(world, rec);
        recordFrame(world, named, 'Player, one');
    }
    recorders.source = rec.csv();
    recorders.named = named.csv();
    out.driven = drivenSource(world)?.name;
    out.recorders = recorders;
    // The system a game adds: it must take the engine's own scheduler.
    recordRoute({ plane: 'xz', saveKey: '' });
    out.system = true;
}
process.stdout.write(JSON.stringify(out));
