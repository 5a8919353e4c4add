package validate

// Finding codes. They are stable: CI configurations, SARIF baselines and
// suppressions refer to them.
const (
	CodeCrossCellRef          = "cross-cell-ref"
	CodePersistentToCellRef   = "persistent-to-cell-ref"
	CodeDanglingRef           = "dangling-ref"
	CodePersistentNotRoot     = "persistent-not-root"
	CodeMultipleStreamedWorld = "multiple-streamed-world"
	CodeBadCellSize           = "bad-cell-size"
	CodeDuplicateID           = "duplicate-id"
	CodeParentCycle           = "parent-cycle"
	CodeMissingParent         = "missing-parent"
	CodeInconsistentTopology  = "inconsistent-topology"
	CodeUnplaceablePrefab     = "unplaceable-prefab"
	CodeBadSourceRadii        = "bad-source-radii"
	CodeRefToGeneratedID      = "ref-to-generated-id"
	CodeGeneratedIDConflict   = "generated-id-conflict"
	CodeUnresolvedPrefab      = "unresolved-prefab"
	CodeMissingAsset          = "missing-asset"
	CodeUIRootInCell          = "ui-root-in-cell"
	CodeCameraInCell          = "camera-in-cell"
	CodePlaneMismatch         = "plane-mismatch"
)

// Rule describes one finding code for reports (SARIF rules, --help, docs).
type Rule struct {
	ID    string
	Short string
	Full  string
	Help  string
	// Level is the default severity; dangling-ref becomes an error with
	// --strict.
	Level string
}

// Rules lists every finding code in a fixed order.
var Rules = []Rule{
	{CodeCrossCellRef, "Entity reference crosses from one cell to another",
		"A declared entity-reference field of an entity in one cell names an entity in another cell. Residency loads and unloads cells independently, so the target may not exist when the reference is used.",
		"Move the target under the referencing entity's root (a subtree never leaves its cell), mark both roots WorldPersistent, or declare the field soft in worldcook.yaml if the game resolves the reference itself.",
		SeverityError},
	{CodePersistentToCellRef, "Persistent entity references an entity inside a cell",
		"An entity of the persistent world holds a hard reference to an entity that lives in a cell. The persistent world outlives every cell, so the reference dangles whenever that cell is unloaded.",
		"Mark the target's root WorldPersistent, or declare the field soft in worldcook.yaml if the game tolerates the target being absent.",
		SeverityError},
	{CodeDanglingRef, "Entity reference names no entity of the scene",
		"A declared entity-reference field holds an id that no entity of the scene has. The loader logs it and replaces it with 0 (no entity). 0, negative values, null and strings mean no entity and are not reported.",
		"Set the field to 0 for no entity, or to the id of an existing entity.",
		SeverityWarning},
	{CodePersistentNotRoot, "WorldPersistent or StreamedWorld below the top level",
		"Only top-level entities are placed; a WorldPersistent or StreamedWorld component on a child has no effect on where its subtree goes.",
		"Move the component to the subtree's top-level entity, or make the entity a top-level entity.",
		SeverityError},
	{CodeMultipleStreamedWorld, "More than one StreamedWorld",
		"A scene declares its streamed world once; the first StreamedWorld in authored order decides the cell size and the others are ignored.",
		"Keep one StreamedWorld component and remove the others.",
		SeverityError},
	{CodeBadCellSize, "Cell size or cell index out of range",
		"StreamedWorld.cellSize must be a positive finite number, and every placed position must fall in a cell whose index fits a 32-bit integer.",
		"Set StreamedWorld.cellSize to a positive number of world units (1000 is the engine default), or bring far-away entities nearer the origin.",
		SeverityError},
	{CodeDuplicateID, "Two entities share an id",
		"Entity ids are document-local and must be unique; the engine refuses to load a scene with duplicates.",
		"Give every entity a unique id (re-saving the scene from the editor renumbers them).",
		SeverityError},
	{CodeParentCycle, "An entity is its own ancestor",
		"Following parent links from an entity leads back to it; the engine refuses to load such a scene.",
		"Set the parent of one entity of the cycle to null or to an entity outside the cycle.",
		SeverityError},
	{CodeMissingParent, "Parent id names no entity",
		"An entity's parent is not in the scene. The loader keeps it as a top-level entity, and worldcook places it as one, writing its parent as null.",
		"Set the parent to null or to the id of an existing entity.",
		SeverityWarning},
	{CodeInconsistentTopology, "children lists disagree with parent links",
		"The hierarchy comes from each entity's parent; each parent's children list must name exactly the entities whose parent it is.",
		"Make the children list match the parent links, or re-save the scene from the editor.",
		SeverityError},
	{CodeUnplaceablePrefab, "Prefab instance has no known position",
		"A top-level prefab instance is placed by the Transform.position override on its root, else by its prefab asset's root position; neither is available.",
		"Add a Transform.position override to the instance, pass --assets with the folder holding the prefab and its .meta, or mark the instance WorldPersistent.",
		SeverityError},
	{CodeBadSourceRadii, "Streaming source radii are inconsistent",
		"A WorldStreamingSource needs finite non-negative radii with prefetchRadius ≥ loadRadius and unloadRadius > loadRadius, or cells would be loaded and unloaded every frame at the border.",
		"Set prefetchRadius ≥ loadRadius and unloadRadius > loadRadius; an unloadRadius about 1.5 × loadRadius is a good start.",
		SeverityError},
	{CodeRefToGeneratedID, "Entity reference names an id the engine generates inside a prefab instance",
		"The engine gives a prefab instance's internal entities fresh ids above the highest id of the document it loads. A reference written as one of those ids names the intended entity only while the whole scene loads as one document: a cell document allocates from its own highest id.",
		"Reference the instance root (its id is stable), or unpack the prefab so the target is an authored entity with its own id.",
		SeverityError},
	{CodeGeneratedIDConflict, "A cell's generated instance ids collide with a persistent entity's id",
		"Loading a cell document, the engine gives its prefab instances' internal entities ids above the cell's highest id. When one of those equals the id of a persistent entity that cells reference (persistentRefs), one id names two entities while the cell loads, and a reference may bind to the wrong one.",
		"Give the persistent entity an id below the cell's highest id (renumber it), or mark the instance WorldPersistent.",
		SeverityError},
	{CodeUnresolvedPrefab, "Prefab instance names no prefab asset",
		"The instance's prefab reference (an @uuid: through the .meta sidecars, or a project path) names no prefab file. The engine skips the instance with a warning: nothing of it spawns.",
		"Add the prefab and its .meta to the project, pass --assets with the folder holding them, or fix the reference.",
		SeverityWarning},
	{CodeMissingAsset, "Asset reference leads to no file",
		"A component field, prefab instance or referenced asset (a prefab's meshes, a material's textures, a tileset's texture, a map's tilesets and images) names an asset that is not a regular file inside the project: an @uuid: with no .meta, a path that does not exist, or one that leaves the project. The runtime fails to load it; the manifest counts it as 0 bytes, and for a mesh, tileset or map its extent is unknown, so the cell's bounds do not cover it.",
		"Fix the reference, add the file (and its .meta for an @uuid: reference), or pass --assets with the folders that hold it.",
		SeverityWarning},
	{CodeUIRootInCell, "UI root placed in a cell",
		"A top-level entity carrying Canvas or UICanvas is placed in a grid cell, so the HUD unloads when the streaming sources move away from that cell.",
		"Mark it WorldPersistent.",
		SeverityWarning},
	{CodeCameraInCell, "Camera placed in a cell",
		"A top-level entity carrying Camera is placed in a grid cell, so the camera unloads when the streaming sources move away from that cell.",
		"Mark it WorldPersistent.",
		SeverityWarning},
	{CodePlaneMismatch, "The world is laid out on the other plane than it is cut on",
		"Every top-level entity has the same coordinate on the cut's second axis (z on xz, y on xy) while the other axis spreads over two cells or more and a quarter of the x extent: a 2D scene cut on xz, or a ground-level 3D scene cut on xy. Every entity lands in one row of cells. worldcook reads up to 4096 top-level entities, evenly spaced, to tell.",
		"Cut the world on the plane it is laid out on: --plane xy for a 2D world, --plane xz for a 3D one.",
		SeverityWarning},
}

// RuleByID returns the rule of a finding code.
func RuleByID(id string) (Rule, bool) {
	for _, r := range Rules {
		if r.ID == id {
			return r, true
		}
	}
	return Rule{}, false
}

// Arrow is a rejected reference on the partition plane (for plane "xy" the
// Z fields hold Y).
type Arrow struct {
	FromX, FromZ float64
	ToX, ToZ     float64
	// Dangling marks a reference whose target is not in the scene: only
	// From is known, and To repeats it.
	Dangling bool
}
