package streaming

import (
	"cmp"
	"slices"

	"github.com/worldcook/worldcook/manifest"
)

// Asset is one file the world's cells share: a texture, mesh, material,
// prefab. Path is relative to the project; Bytes is its size.
type Asset struct {
	Path  string
	Bytes int64
}

// assetsFromManifest fills in the world's assets and each cell's indices
// into them. Cell asset paths the top-level list lacks cannot occur in a
// manifest that passed its check; they are skipped.
func assetsFromManifest(m *manifest.Manifest, w *World) {
	if len(m.Assets) == 0 {
		return
	}
	at := make(map[string]int32, len(m.Assets))
	w.Assets = make([]Asset, len(m.Assets))
	for i, a := range m.Assets {
		w.Assets[i] = Asset{Path: a.Path, Bytes: a.Bytes}
		at[a.Path] = int32(i)
	}
	index := func(paths []string) []int32 {
		out := make([]int32, 0, len(paths))
		for _, p := range paths {
			if k, ok := at[p]; ok {
				out = append(out, k)
			}
		}
		return out
	}
	w.PersistentAssets = index(m.Persistent.List())
	for i := range m.Cells {
		w.Cells[i].Assets = index(m.Cells[i].List())
	}
}

// assetBook reference-counts the world's assets as the runtime holds them,
// for either scheduler. A holder takes a hold on each of a cell's assets
// when it starts loading the cell (so a second request sees the asset as
// already paid for), makes them resident when that load completes, and
// lets go when the cell holds nothing any more; the persistent world holds
// its assets for the whole run. The first load to take an asset that
// nothing holds pays its bytes; an asset is freed in the frame its count
// drops to 0. The book holds counts only: when a cell takes or drops its
// holds is each scheduler's rule (scheduler.go for the budgeted one, where
// proxies hold no assets; estella.go for the runtime's asset scopes), and
// each adds resident to its own resident bytes.
type assetBook struct {
	assets []Asset
	cells  []Cell // the world's: each lists its assets
	refs   []int32
	loaded []bool
	loads  []int32 // times each asset became resident
	holds  []bool  // per cell: the cell holds its assets

	resident                 int64 // bytes of the resident assets
	frameLoads, frameUnloads int
	sum                      AssetSummary
}

// newAssetBook returns the book of w's assets, already holding the
// persistent world's (resident from the first frame, and reported as that
// frame's loads), or nil for a world without assets or when their costs
// are ignored.
func newAssetBook(w *World, ignore bool) *assetBook {
	if len(w.Assets) == 0 || ignore {
		return nil
	}
	b := &assetBook{
		assets: w.Assets,
		cells:  w.Cells,
		refs:   make([]int32, len(w.Assets)),
		loaded: make([]bool, len(w.Assets)),
		loads:  make([]int32, len(w.Assets)),
		holds:  make([]bool, len(w.Cells)),
	}
	b.sum.Distinct = len(w.Assets)
	for _, k := range w.PersistentAssets {
		b.refs[k]++
		b.arrive(k)
	}
	return b
}

// checkAssets reports whether every asset index of the world is in range.
func (w *World) checkAssets() bool {
	ok := func(ix []int32) bool {
		for _, k := range ix {
			if k < 0 || int(k) >= len(w.Assets) {
				return false
			}
		}
		return true
	}
	for _, a := range w.Assets {
		if a.Bytes < 0 {
			return false
		}
	}
	if !ok(w.PersistentAssets) {
		return false
	}
	for _, c := range w.Cells {
		if !ok(c.Assets) {
			return false
		}
	}
	return true
}

// fresh returns the bytes and paths of cell i's assets that nothing holds:
// what a request for the cell has to load besides its document.
func (b *assetBook) fresh(i int32) (int64, []string) {
	var n int64
	var paths []string
	for _, k := range b.cells[i].Assets {
		if b.refs[k] == 0 {
			n += b.assets[k].Bytes
			paths = append(paths, b.assets[k].Path)
		}
	}
	return n, paths
}

// acquire takes cell i's holds for a request just dispatched.
func (b *assetBook) acquire(i int32) {
	if b.holds[i] {
		return
	}
	b.holds[i] = true
	for _, k := range b.cells[i].Assets {
		b.refs[k]++
	}
}

// complete makes cell i's assets resident: its request finished.
func (b *assetBook) complete(i int32) {
	if !b.holds[i] {
		return
	}
	for _, k := range b.cells[i].Assets {
		b.arrive(k)
	}
}

func (b *assetBook) arrive(k int32) {
	if b.loaded[k] {
		return
	}
	b.loaded[k] = true
	b.loads[k]++
	b.resident += b.assets[k].Bytes
	b.frameLoads++
	b.sum.Loads++
}

// release drops cell i's holds; assets nobody holds any more are freed
// now, in the order the cell lists them.
func (b *assetBook) release(i int32) {
	if !b.holds[i] {
		return
	}
	b.holds[i] = false
	for _, k := range b.cells[i].Assets {
		b.refs[k]--
		if b.refs[k] > 0 {
			continue
		}
		if b.loaded[k] {
			b.loaded[k] = false
			b.resident -= b.assets[k].Bytes
			b.frameUnloads++
			b.sum.Unloads++
		}
	}
}

// scope is the number of assets cell i holds: the size of its asset
// scope in the runtime's terms (0 when it holds none).
func (b *assetBook) scope(i int32) int {
	if !b.holds[i] {
		return 0
	}
	return len(b.cells[i].Assets)
}

// report moves the frame's asset counts into its report.
func (b *assetBook) report(rep *FrameReport) {
	rep.ResidentAssetBytes = b.resident
	rep.AssetLoads, rep.AssetUnloads = b.frameLoads, b.frameUnloads
	b.frameLoads, b.frameUnloads = 0, 0
	if b.resident > b.sum.PeakResidentAssetBytes {
		b.sum.PeakResidentAssetBytes, b.sum.PeakFrame = b.resident, rep.Frame
	}
}

// maxReloaded is how many of the most reloaded assets a summary names.
const maxReloaded = 10

// AssetSummary totals what a run did with the world's assets.
type AssetSummary struct {
	// Distinct is the number of assets the world lists.
	Distinct int `json:"distinct"`
	// PeakResidentAssetBytes is the most asset bytes resident at the end
	// of a frame, and PeakFrame the first frame it was reached.
	PeakResidentAssetBytes int64 `json:"peakResidentAssetBytes"`
	PeakFrame              int   `json:"peakFrame"`
	// Loads and Unloads count assets becoming resident and being freed.
	Loads   int `json:"loads"`
	Unloads int `json:"unloads"`
	// Reloaded is the number of assets that became resident more than once:
	// freed while a later cell still wanted them (thrash).
	Reloaded int `json:"reloaded"`
	// MostReloaded are the assets loaded most often, most first (then by
	// path), at most ten, only those loaded more than once.
	MostReloaded []AssetLoads `json:"mostReloaded"`
}

// AssetLoads is how many times one asset became resident.
type AssetLoads struct {
	Path  string `json:"path"`
	Loads int    `json:"loads"`
}

func (b *assetBook) summary() *AssetSummary {
	sum := b.sum
	sum.MostReloaded = []AssetLoads{}
	for k, n := range b.loads {
		if n > 1 {
			sum.Reloaded++
			sum.MostReloaded = append(sum.MostReloaded, AssetLoads{Path: b.assets[k].Path, Loads: int(n)})
		}
	}
	slices.SortFunc(sum.MostReloaded, func(x, y AssetLoads) int {
		if c := cmp.Compare(y.Loads, x.Loads); c != 0 {
			return c
		}
		return cmp.Compare(x.Path, y.Path)
	})
	if len(sum.MostReloaded) > maxReloaded {
		sum.MostReloaded = sum.MostReloaded[:maxReloaded]
	}
	return &sum
}
