package validate

import (
	"fmt"
	"sort"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/world"
	"github.com/worldcook/worldcook/internal/world/expand"
)

// Findings from the expansion of prefab instances: what the engine will
// drop, refuse, fail to find or bind to the wrong entity.

// warn is the severity of a finding that --strict makes an error.
func (c *checker) warn() string {
	if c.opts.Strict {
		return SeverityError
	}
	return SeverityWarning
}

// instanceFindings reports what expanding instance entry i found.
func (c *checker) instanceFindings(i int32, in *expand.Instance) {
	ref := prefabRef(c.d, i)
	if in.Unresolved != "" {
		c.add(i, Finding{Diagnostic: diag.Diagnostic{
			Code:     CodeUnresolvedPrefab,
			Severity: c.warn(),
			Message:  fmt.Sprintf("prefab instance %s names %s, which cannot be loaded (%s); the engine skips the instance and nothing of it spawns", c.who(i), ref, in.Unresolved),
			Subject: diag.Subject{
				Field: "prefab",
			},
			Hint: "add the prefab and its .meta to the project, pass --assets with the folder holding them, or fix the reference",
		}})
		return
	}
	t := in.Tpl
	if in.Failed {
		c.add(i, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodeUnplaceablePrefab,
			Message: fmt.Sprintf("prefab instance %s of %s cannot be expanded: %s; the engine refuses to load the scene", c.who(i), ref, in.Why),
			Subject: diag.Subject{
				Field: "prefab",
			},
			Hint: "fix the prefab (or the instance's overrides) so that the editor opens it, then re-save",
		}})
		return
	}
	for _, m := range t.Marks {
		field := "prefab"
		why := "in its prefab " + t.File
		if m.Override {
			field, why = "overrides", "by an override"
		}
		c.add(i, Finding{Diagnostic: diag.Diagnostic{
			Code:    CodePersistentNotRoot,
			Message: fmt.Sprintf("prefab entity %q (%s) of instance %s carries %s %s but is not the instance's root; only top-level entities are placed", t.Addr(m.Ent), c.w.InstancePath(i)+"/"+t.Paths[m.Ent], c.who(i), m.Comp, why),
			Subject: diag.Subject{
				Field: field,
			},
			Hint: fmt.Sprintf("add %s to the instance root instead (a component_added override on its root entity)", m.Comp),
		}})
	}
}

// missingAsset is the finding for an asset reference of entity i (or of
// the instance entity at path) whose file cannot be found or read.
func (c *checker) missingAsset(i int32, path, comp, field, ref, why string) Finding {
	who := c.who(i)
	if path != "" {
		who += " (prefab entity " + path + ")"
	}
	return Finding{Diagnostic: diag.Diagnostic{
		Code:     CodeMissingAsset,
		Severity: c.warn(),
		Message:  fmt.Sprintf("%s %s.%s names %s: %s", who, comp, field, ref, why),
		Subject: diag.Subject{
			Field: comp + "." + field,
		},
		Hint: "add the asset (and its .meta) to the project or fix the reference; until then the cell's bounds do not cover it",
	}}
}

// generatedRef reports a reference to an id the engine generates for an
// instance's internal entity. It returns false when the target is not one.
func (c *checker) generatedRef(r *ref, names func(*ref) (string, string)) bool {
	i, e, ok := c.w.GeneratedAt(r.Target)
	if !ok {
		return false
	}
	t := c.w.Instance(i).Tpl
	field, from := names(r)
	target := r.Target
	c.add(r.From, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeRefToGeneratedID,
		Message: fmt.Sprintf("%s %s references %d, the id the engine generates for %s/%s when it loads the whole scene; a cell document allocates its own ids, so once the world is cut the reference names another entity or none", from, field, r.Target, c.w.InstancePath(i), t.Paths[e]),
		Subject: diag.Subject{
			Field:      field,
			Target:     &target,
			TargetName: t.Paths[e],
		},
		Hint: fmt.Sprintf("reference the instance root %s instead, or unpack the prefab so %s is an authored entity with its own id", c.who(i), t.Paths[e]),
	}})
	return true
}

// cellIDConflicts finds ids a cell document generates for its instances'
// internal entities that equal a persistent entity's id the world binds
// through persistentRefs: loading the cell, one id would name two
// entities, and a reference meant for the persistent entity may bind to
// the instance's internal one, or the reverse.
func (c *checker) cellIDConflicts() {
	refs := c.plan.PersistentRefs
	if len(refs) == 0 || !c.w.AnyExpanded() {
		return
	}
	for ci := range c.plan.Cells {
		cell := &c.plan.Cells[ci]
		top := cell.maxID
		next := top
		for _, i := range cell.Entities {
			in := c.w.Instance(i)
			if in == nil || !in.Expanded() {
				continue
			}
			t := in.Tpl
			lo, hi := next, next+int64(t.Allocs)
			next = hi
			for a := sort.Search(len(refs), func(a int) bool { return refs[a] > lo }); a < len(refs) && refs[a] <= hi; a++ {
				if e, ok := t.At(int32(refs[a] - lo)); ok {
					j, _ := c.d.Lookup(refs[a])
					target := refs[a]
					c.add(i, Finding{Diagnostic: diag.Diagnostic{
						Code:    CodeGeneratedIDConflict,
						Message: fmt.Sprintf("cell %s generates id %d for %s/%s when it loads, the id of persistent entity %s that the world binds through persistentRefs; one id then names two entities", cell.Name, refs[a], c.w.InstancePath(i), t.Paths[e], c.who(int32(j))),
						Subject: diag.Subject{
							Field:      "prefab",
							Target:     &target,
							TargetName: c.d.Entities[j].Name,
							FromCell:   cell.Name,
							ToCell:     "persistent",
						},
						Hint: fmt.Sprintf("give %s an id below %d (the highest id in cell %s), or mark the instance WorldPersistent", c.who(int32(j)), top, cell.Name),
					}})
				}
			}
		}
	}
}

// cameraInCell reports top-level entity i of cell carrying a Camera.
func (c *checker) cameraInCell(i int32, cell *Cell) {
	if c.parent[i] >= 0 {
		return
	}
	c.add(i, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeCameraInCell,
		Message: fmt.Sprintf("%s carries a Camera and is placed in cell %s; the camera unloads with the cell when the streaming sources move away", c.who(i), cell.Name),
		Subject: diag.Subject{
			Field:    "Camera",
			FromCell: cell.Name,
		},
		Hint: "mark it WorldPersistent",
	}})
}

// uiRootInCell reports top-level entity i of cell carrying a Canvas or
// UICanvas.
func (c *checker) uiRootInCell(i int32, cell *Cell) {
	if c.parent[i] >= 0 {
		return
	}
	c.add(i, Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeUIRootInCell,
		Message: fmt.Sprintf("%s is a UI root placed in cell %s; the UI unloads with the cell when the streaming sources move away", c.who(i), cell.Name),
		Subject: diag.Subject{
			Field:    "Canvas",
			FromCell: cell.Name,
		},
		Hint: "mark it WorldPersistent",
	}})
}

// globalLights reports the scene-wide lights entity i of cell spawns:
// its own, or for an instance those of its expansion. An entity the
// engine does not spawn ("visible": false) lights nothing. Entities
// outside instances come here only when the model found their Light2D
// scene-wide (world.GlobalLight).
func (c *checker) globalLights(i int32, of *Cell) {
	cell := of.Name
	if c.flags[i]&fPrefab == 0 {
		if c.d.Entities[i].Hidden {
			return
		}
		if data, ok := c.d.Component(int(i), "Light2D"); ok {
			if kind := world.GlobalLightKind(data); kind != "" {
				c.add(i, c.globalLightFinding(i, "", kind, cell, "Light2D"))
			}
		}
		return
	}
	in := c.w.Instance(i)
	if !in.Expanded() {
		return // nothing of it spawns
	}
	t := in.Tpl
	for _, e := range t.Order {
		if t.Hidden(e) {
			continue
		}
		data, ok := expand.ComponentOf(t.Comps(e), "Light2D")
		if !ok {
			continue
		}
		if kind := world.GlobalLightKind(data); kind != "" {
			path := ""
			if e != t.Root {
				path = c.w.InstancePath(i) + "/" + t.Paths[e]
			}
			c.add(i, c.globalLightFinding(i, path, kind, cell, "prefab"))
		}
	}
}

func (c *checker) globalLightFinding(i int32, path, kind, cell, field string) Finding {
	who := c.who(i)
	if path != "" {
		who += " (prefab entity " + path + ")"
	}
	return Finding{Diagnostic: diag.Diagnostic{
		Code:    CodeGlobalLightInCell,
		Message: fmt.Sprintf("%s carries Light2D of type %s, which lights the whole scene, and is placed in cell %s; the scene loses that light when the cell unloads", who, kind, cell),
		Subject: diag.Subject{
			Field:    field,
			FromCell: cell,
		},
		Hint: "mark it WorldPersistent",
	}}
}

// spawnCounts counts, per cell and for the persistent world, the entities
// the engine spawns: an instance spawns its expansion, or nothing when
// its prefab cannot be found, and an entity with "visible": false is not
// spawned at all.
func (c *checker) spawnCounts() {
	spawn := c.w.SpawnCount
	if c.model != nil {
		// What an entity spawns does not depend on the cut: a model
		// counts it once for all its checks.
		counts := c.model.spawnCounts()
		spawn = func(i int32) int { return int(counts[i]) }
	}
	count := func(list []int32) int {
		n := 0
		for _, i := range list {
			n += spawn(i)
		}
		return n
	}
	c.plan.PersistentSpawnCount = count(c.plan.Persistent)
	for ci := range c.plan.Cells {
		c.plan.Cells[ci].SpawnCount = count(c.plan.Cells[ci].Entities)
	}
	c.plan.Instances = len(c.w.Instances()) > 0
}

// Finding codes of this file's rules. They are stable: CI configurations,
// SARIF baselines and suppressions refer to them.
const (
	CodeUnplaceablePrefab   = "unplaceable-prefab"
	CodeRefToGeneratedID    = "ref-to-generated-id"
	CodeGeneratedIDConflict = "generated-id-conflict"
	CodeUnresolvedPrefab    = "unresolved-prefab"
	CodeMissingAsset        = "missing-asset"
	CodeDuplicateUUID       = "duplicate-uuid"
	CodeUIRootInCell        = "ui-root-in-cell"
	CodeGlobalLightInCell   = "global-light-in-cell"
	CodeCameraInCell        = "camera-in-cell"
)

var ruleUnplaceablePrefab = rule{
	Rule: Rule{ID: CodeUnplaceablePrefab, Level: SeverityError,
		Short: "Prefab instance has no known position",
		Full:  "A top-level prefab instance is placed by its expanded root's Transform (the prefab's, after the instance's overrides); when the prefab cannot be read, by the Transform.position override on its root. Neither is known: the prefab is missing and no override places it, or the Transform or its override is malformed. (An expanded root without a Transform is no finding: it stays persistent, as any Transform-less root.)",
		Help:  "Add a Transform.position override to the instance or pass --assets with the folder holding the prefab and its .meta (prefab missing), fix the malformed Transform, or mark the instance WorldPersistent."},
	phase: phasePartition,
}

var ruleRefToGeneratedID = rule{
	Rule: Rule{ID: CodeRefToGeneratedID, Level: SeverityError,
		Short: "Entity reference names an id the engine generates inside a prefab instance",
		Full:  "The engine gives a prefab instance's internal entities fresh ids above the highest id of the document it loads. A reference written as one of those ids names the intended entity only while the whole scene loads as one document: a cell document allocates from its own highest id.",
		Help:  "Reference the instance root (its id is stable), or unpack the prefab so the target is an authored entity with its own id."},
	phase: phaseReferences,
}

var ruleGeneratedIDConflict = rule{
	Rule: Rule{ID: CodeGeneratedIDConflict, Level: SeverityError,
		Short: "A cell's generated instance ids collide with a persistent entity's id",
		Full:  "Loading a cell document, the engine gives its prefab instances' internal entities ids above the cell's highest id. When one of those equals the id of a persistent entity that cells reference (persistentRefs), one id names two entities while the cell loads, and a reference may bind to the wrong one.",
		Help:  "Give the persistent entity an id below the cell's highest id (renumber it), or mark the instance WorldPersistent."},
	phase: phaseWorld,
	check: (*checker).cellIDConflicts,
}

var ruleUnresolvedPrefab = rule{
	Rule: Rule{ID: CodeUnresolvedPrefab, Level: SeverityWarning,
		Short: "Prefab instance names no prefab asset",
		Full:  "The instance's prefab reference (an @uuid: through the .meta sidecars, or a project path) names no prefab file. The engine skips the instance with a warning: nothing of it spawns.",
		Help:  "Add the prefab and its .meta to the project, pass --assets with the folder holding them, or fix the reference."},
	phase: phasePartition,
}

var ruleMissingAsset = rule{
	Rule: Rule{ID: CodeMissingAsset, Level: SeverityWarning,
		Short: "Asset reference leads to no file",
		Full:  "A component field, prefab instance or referenced asset (a prefab's meshes, a material's textures, a tileset's texture, a map's tilesets and images) names an asset that is not a regular file inside the project: an @uuid: with no .meta, a path that does not exist, or one that leaves the project. The runtime fails to load it; the manifest counts it as 0 bytes, and for a mesh, tileset or map its extent is unknown, so the cell's bounds do not cover it.",
		Help:  "Fix the reference, add the file (and its .meta for an @uuid: reference), or pass --assets with the folders that hold it."},
	phase: phaseAssets,
}

var ruleDuplicateUUID = rule{
	Rule: Rule{ID: CodeDuplicateUUID, Level: SeverityError,
		Short: "Asset reference through a uuid two .meta files carry",
		Full:  "An @uuid: reference (in the scene or in an asset it loads) names a uuid that two .meta sidecars under the asset folders both carry. Which file it loads depends on which sidecar is found first, so copying in an unrelated asset with a copied .meta changes the world.",
		Help:  "Give one of the two files a new uuid: delete its .meta and let the editor write a new one."},
	phase: phaseAssets,
}

var ruleUIRootInCell = rule{
	Rule: Rule{ID: CodeUIRootInCell, Level: SeverityWarning,
		Short: "UI root placed in a cell",
		Full:  "A top-level entity carrying Canvas or UICanvas is placed in a grid cell, so the HUD unloads when the streaming sources move away from that cell.",
		Help:  "Mark it WorldPersistent."},
	phase:      phaseCells,
	cellEntity: (*checker).uiRootInCell,
	mask:       fCanvas,
}

var ruleGlobalLightInCell = rule{
	Rule: Rule{ID: CodeGlobalLightInCell, Level: SeverityWarning,
		Short: "Scene-wide light placed in a cell",
		Full:  "An entity in a grid cell carries a Light2D the renderer applies to the whole scene: directional (type 1) or ambient (type 2, with or without an environment). When the cell unloads the scene loses that light. Point (0) and spot (3) lights light around their position and may live in cells.",
		Help:  "Mark it WorldPersistent."},
	phase:      phaseCells,
	cellEntity: (*checker).globalLights,
	mask:       fGlobalLight | fPrefab,
}

var ruleCameraInCell = rule{
	Rule: Rule{ID: CodeCameraInCell, Level: SeverityWarning,
		Short: "Camera placed in a cell",
		Full:  "A top-level entity carrying Camera is placed in a grid cell, so the camera unloads when the streaming sources move away from that cell.",
		Help:  "Mark it WorldPersistent."},
	phase:      phaseCells,
	cellEntity: (*checker).cameraInCell,
	mask:       fCamera,
}
