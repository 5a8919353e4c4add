package validate

import "github.com/worldcook/worldcook/internal/world"

// Rules: every finding code, what reports say about it, and when the
// checker finds it. A rule is one value in the file of its family
// (refs.go, partition.go, structure.go, instfind.go, sources.go,
// plane.go, typo.go): its code, its texts and default severity, the
// phase it needs and the function that finds it. ruleList names each
// once, in the order reports list them; the SARIF rules table, RuleByID,
// the severity a finding gets by default, the documentation test and
// run() all read it (docs/architecture.md, "A new validate rule").

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

// phase is when a rule is found, and so what the checker knows by then.
// Five phases are passes that build the plan and find their rules'
// violations on the way: such a rule has no check of its own, its
// findings are the pass's. In the three others the checker runs the
// rules' own checks, in ruleList order, on the plan built so far. run()
// goes through them in this order, the world phases only for a streamed
// world.
type phase uint8

const (
	// phaseStructure (pass): ids and the hierarchy, from what the model
	// found while it resolved the parents and ordered the entities
	// parents first (world.Faults; structure.go).
	phaseStructure phase = iota
	// phasePartition (pass): while a streamed world is partitioned, its
	// instances expanded by the model and its entities placed
	// (partition.go, place.go, instfind.go).
	phasePartition
	// phaseReferences (pass): while the collected references are
	// classified (refs.go), which also yields Plan.PersistentRefs.
	phaseReferences
	// phaseSources (pass): while a streamed world's sources are read
	// into Plan.Sources, parallel to c.w.Sources() (sources.go).
	phaseSources
	// phaseScene: check runs on every scene, streamed or not, once the
	// references are classified: the model (c.w: its flags, hierarchy,
	// references and, on a streamed world, its instances' expansions) is
	// final.
	phaseScene
	// phaseWorld: check runs on a streamed world once its cells, its
	// references and its sources are known: Plan.Cells, Plan.Persistent,
	// Plan.PersistentRefs, Plan.Sources, c.doc (entity → cell index, -1
	// for the persistent world) and c.pos as well.
	phaseWorld
	// phaseCells: as phaseWorld, but cellEntity runs for each entity of
	// each cell whose flags share a bit with the rule's mask. Every such
	// rule is visited in one pass over the cells' entities, so a rule of
	// its own costs no pass over the world.
	phaseCells
	// phaseAssets (pass): while each cell's asset closure is collected
	// (assets.go).
	phaseAssets
)

// rule is one finding code and how it is found.
type rule struct {
	Rule
	phase phase
	// check finds the rule's findings (phaseScene, phaseWorld); it
	// reports each with c.add.
	check func(c *checker)
	// cellEntity finds them on entity i of cell (phaseCells) when
	// c.flags[i]&mask != 0.
	cellEntity func(c *checker, i int32, cell *Cell)
	mask       world.Flag
}

// ruleList is every rule, in the order reports list them.
var ruleList = []*rule{
	&ruleCrossCellRef, &rulePersistentToCellRef, &ruleDanglingRef,
	&rulePersistentNotRoot, &ruleMultipleStreamedWorld, &ruleBadCellSize,
	&ruleDuplicateID, &ruleParentCycle, &ruleMissingParent, &ruleInconsistentTopology,
	&ruleUnplaceablePrefab, &ruleRefToGeneratedID, &ruleGeneratedIDConflict, &ruleUnresolvedPrefab, &ruleMissingAsset, &ruleDuplicateUUID,
	&ruleUIRootInCell, &ruleGlobalLightInCell, &ruleCameraInCell,
	&ruleBadSourceRadii, &ruleControlInSourceName, &ruleSourceInCell,
	&rulePlaneMismatch, &ruleNothingStreams, &ruleNoStreamingSource,
	&ruleMisspeltComponent,
}

// Rules lists every finding code in a fixed order.
var Rules = func() []Rule {
	out := make([]Rule, len(ruleList))
	for k, r := range ruleList {
		out[k] = r.Rule
	}
	return out
}()

// levelOf is each code's default severity, for findings that state none.
// It is filled by init, not by its declaration, so that the checks,
// which add findings, may be named by ruleList.
var levelOf map[string]string

func init() {
	levelOf = make(map[string]string, len(ruleList))
	for _, r := range ruleList {
		levelOf[r.ID] = r.Level
	}
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

// runRules runs the checks of phase p, in ruleList order.
func (c *checker) runRules(p phase) {
	for _, r := range ruleList {
		if r.phase == p && r.check != nil {
			r.check(c)
		}
	}
}

// runCellRules runs every phaseCells rule in one pass over the cells'
// entities, in cell order, then authored order.
func (c *checker) runCellRules() {
	var rs []*rule
	var mask world.Flag
	for _, r := range ruleList {
		if r.phase == phaseCells {
			rs = append(rs, r)
			mask |= r.mask
		}
	}
	for ci := range c.plan.Cells {
		cell := &c.plan.Cells[ci]
		for _, i := range cell.Entities {
			fl := c.flags[i]
			if fl&mask == 0 {
				continue
			}
			for _, r := range rs {
				if fl&r.mask != 0 {
					r.cellEntity(c, i, cell)
				}
			}
		}
	}
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
