// Reads scenes' cameras as the engine does, for engine_test.go: reads
// {full, scenes: [{cameras: [{entity, data}], canvas, width, height}]}
// on stdin and writes, per scene, the main camera (the director's pick
// among the full-frame cameras) and each camera's projection and extents
// as buildCameraInfo computes them for a screen of width × height (with
// full; without CameraPlugin.ts among the sources only the defaults and
// the main camera are the engine's): with the scene's Canvas, with the
// scene's fit (the project's screen fit the test gives, which the engine
// prefers to the Canvas), and where the view of the camera turned by 30°
// about z puts the world point its turned corner (halfW, halfH) names.
import { mergeIntoDefaults } from '@engine/ecs/component';
import { COMPONENT_META } from '@engine/ecs/component.generated';
import { createDirectorState, resolveMainPOV } from '@engine/camera/CameraDirector';
import { buildCameraInfo } from '@engine/camera/CameraPlugin';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
// A builtin's creation defaults, as the engine's metaDefaults assembles
// them (ecs/component.ts): the C++ defaults, then the editor's.
const defaults = (name: string) => ({ ...COMPONENT_META[name].defaults, ...(COMPONENT_META[name].editorDefaults ?? {}) });
const full = (v: any) => v.x === 0 && v.y === 0 && v.z === 1 && v.w === 1;
const out: any[] = [];
for (const s of input.scenes) {
    const povs = s.cameras.map((c: any) => {
        const d: any = mergeIntoDefaults(defaults('Camera'), c.data);
        return {
            entity: c.entity, isActive: d.isActive, x: 0, y: 0, z: 0, rotation: 0,
            projection: d.projectionType, orthoSize: d.orthoSize, fov: d.fov, near: d.nearPlane, far: d.farPlane,
            viewport: d.viewport, clearFlags: d.clearFlags, priority: d.priority, pixelPerfect: false, cullingMask: d.cullingMask,
        };
    });
    const fullFrame = povs.filter((p: any) => full(p.viewport));
    const main = fullFrame.length ? resolveMainPOV(createDirectorState(), fullFrame, 0, true) : null;
    const canvas = s.canvas ? mergeIntoDefaults(defaults('Canvas'), s.canvas) : null;
    out.push({
        main: main ? main.entity : -1,
        cameras: povs.map((p: any) => {
            const r: any = { orthographic: p.projection === 1, far: p.far, orthoSize: p.orthoSize };
            if (input.full) {
                const info: any = buildCameraInfo(p, s.width, s.height, canvas, [], 0);
                r.halfW = info.halfW;
                r.halfH = info.halfH;
                if (s.fit) {
                    const fitted: any = buildCameraInfo(p, s.width, s.height, s.fit, [], 0);
                    r.fitHalfW = fitted.halfW;
                    r.fitHalfH = fitted.halfH;
                }
                const a = Math.PI / 6;
                const turned: any = buildCameraInfo({ ...p, rotation: a }, s.width, s.height, canvas, [], 0);
                const x = Math.cos(a) * turned.halfW - Math.sin(a) * turned.halfH;
                const y = Math.sin(a) * turned.halfW + Math.cos(a) * turned.halfH;
                const m = turned.viewProjection;
                r.corner = [m[0] * x + m[4] * y + m[12], m[1] * x + m[5] * y + m[13]];
            }
            return r;
        }),
    });
}
process.stdout.write(JSON.stringify(out));
