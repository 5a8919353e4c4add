package validate

import "slices"

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
	CodeSourceInCell          = "source-in-cell"
	CodeGlobalLightInCell     = "global-light-in-cell"
	CodeMisspeltComponent     = "misspelt-streaming-component"
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

// Rules lists every finding code in a fixed order: each family of rules
// is declared beside the code that checks it (refs.go, partition.go,
// structure.go, instfind.go, sources.go, plane.go, typo.go).
var Rules = slices.Concat(refRules, partitionRules, structureRules, instanceRules, sourceRules, planeRules, typoRules)

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
