// Expands prefab instance entries as the engine's prefab core does, for
// engine_test.go: each entry through expandEntry (sceneInstance.ts, run as
// it is: the prefab flattened, nested prefabs mounted, the entry's
// overrides applied, the root attached under the entry's parent). Reads
// {prefabs: {path: PrefabData}, scenes: [[entry]]} on stdin and writes,
// per scene and entry, the root's parent and components.
import { expandEntry } from '@engine/prefab/sceneInstance';
import { readFileSync } from 'fs';

const input = JSON.parse(readFileSync(0, 'utf8'));
const load = (p: string) => input.prefabs[p] ?? null;
let next = 1_000_000;
const out = input.scenes.map((entries: any[]) =>
    entries.map((entry: any) => {
        const { entities, rootId } = expandEntry(load(entry.prefab), entry, () => next++, load);
        const root = entities.find((e) => e.id === rootId)!;
        return { id: entry.id, parent: root.parent, components: root.components };
    }),
);
process.stdout.write(JSON.stringify(out));
