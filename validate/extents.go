package validate

// assetMiss is an asset reference whose box the extents could not read:
// its file is absent or holds no box. ent is the entity holding it: a
// scene entity, or a template entity for the misses a template keeps.
type assetMiss struct {
	ent         int32
	comp, field string
	ref, why    string
}
