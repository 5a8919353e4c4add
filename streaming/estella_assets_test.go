package streaming

import (
	"reflect"
	"regexp"
	"strings"
	"testing"
)

// The runtime model's asset scopes over assetWorld (assets_test.go): tex
// (1000 B) shared by c00 and c01, mesh (500 B) of c01 only, sky (300 B)
// held by the persistent world and listed by c02 too. Cells are 100 B.

// estAssetFrame is what a frame says about assets: the bytes it requested,
// the resident bytes (documents and assets), the resident asset bytes and
// the assets loaded and freed.
type estAssetFrame struct {
	requested, resident, assets int64
	loads, unloads              int
}

func assetsOf(r *EstellaFrame) estAssetFrame {
	return estAssetFrame{r.RequestedBytes, r.ResidentBytes, r.ResidentAssetBytes, r.AssetLoads, r.AssetUnloads}
}

// estAssetStep is one frame of a scripted run: where the source stands,
// the trace it must produce and its asset figures.
type estAssetStep struct {
	x      float64
	trace  string
	assets estAssetFrame
}

func runEstellaAssets(t *testing.T, e *Estella, steps []estAssetStep) {
	t.Helper()
	for k, s := range steps {
		r := e.Step([]Point{{X: s.x, Z: 5}})
		if got := estellaTrace(&r); got != s.trace {
			t.Errorf("frame %d:\n got %s\nwant %s", k+1, got, s.trace)
		}
		if got := assetsOf(&r); got != s.assets {
			t.Errorf("frame %d assets: got %+v, want %+v", k+1, got, s.assets)
		}
	}
}

func newEstellaAssets(t *testing.T, source Source, host EstellaHost) *Estella {
	t.Helper()
	e, err := NewEstella(assetWorld(6), []Source{source}, host)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

// TestEstellaSharedAssetLoadedOnce: a texture two cells share is paid for
// by the first preparation, costs the second nothing, survives the first
// cell's unload and is freed in the frame the second one's unload
// completes; the persistent world's sky is never freed.
func TestEstellaSharedAssetLoadedOnce(t *testing.T) {
	// No speculation (prefetch = load), so each cell is prepared only when
	// wanted; prepare takes a frame, publish and unload none.
	e := newEstellaAssets(t, src("camera", 5, 4, 4, 6), EstellaHost{Prepare: ModelIO{LatencyFrames: 1}})
	runEstellaAssets(t, e, []estAssetStep{
		// The sky is resident from frame 1, reported as its load.
		{5, "req=[c00] miss=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{100 + 1000, 300, 300, 1, 0}},
		{5, "done=[c00] publishing=[c00] pub=[c00] res=1 fly=0", estAssetFrame{0, 100 + 1300, 1300, 1, 0}},
		// c01's texture is held by c00: it costs its document and mesh.
		{12, "req=[c01] miss=[c01] res=1 fly=1 holes=[c01]", estAssetFrame{100 + 500, 1400, 1300, 0, 0}},
		{12, "done=[c01] publishing=[c01] pub=[c01] res=2 fly=0", estAssetFrame{0, 200 + 1800, 1800, 1, 0}},
		// c00 goes; c01 keeps the texture. c02 lists only the sky.
		{18, "req=[c02] unld=[c00] miss=[c02] res=1 fly=1 holes=[c02]", estAssetFrame{100, 100 + 1800, 1800, 0, 0}},
		// c01 goes and frees the texture and the mesh; c02, arriving and
		// leaving in this frame, lets go of the sky the world keeps.
		{100, "done=[c02] publishing=[c02] pub=[c02] unld=[c01,c02] res=0 fly=0", estAssetFrame{0, 300, 300, 0, 2}},
		{100, "res=0 fly=0", estAssetFrame{0, 300, 300, 0, 0}},
	})
	sum := e.Summary()
	want := AssetSummary{Distinct: 3, PeakResidentAssetBytes: 1800, PeakFrame: 4, Loads: 3, Unloads: 2, MostReloaded: []AssetLoads{}}
	if sum.Assets == nil || !reflect.DeepEqual(*sum.Assets, want) {
		t.Errorf("asset summary %+v, want %+v", sum.Assets, want)
	}
	if sum.PeakResidentBytes != 2000 || sum.PeakResidentFrame != 4 {
		t.Errorf("peak resident %d at frame %d, want 2000 (documents and assets) at 4", sum.PeakResidentBytes, sum.PeakResidentFrame)
	}
	if refs := sum.Runtime.AssetRefsByCell; refs == nil || len(*refs) != 0 {
		t.Errorf("nothing is resident at the end, yet assetRefsByCell is %v", refs)
	}
}

// TestEstellaAssetRefsByCell: the runtime's report gives each resident
// cell's scope size, for the cells cellEntityCounts has.
func TestEstellaAssetRefsByCell(t *testing.T) {
	e := newEstellaAssets(t, src("camera", 12, 4, 4, 6), EstellaHost{})
	e.Step([]Point{{X: 19, Z: 5}}) // c01 and c02 are wanted
	got := e.Report()
	refs := got.AssetRefsByCell
	if want := map[string]int{"c01": 2, "c02": 1}; refs == nil || !reflect.DeepEqual(*refs, want) {
		t.Fatalf("assetRefsByCell %v, want %v", refs, want)
	}
	if len(*refs) != len(got.CellEntityCounts) {
		t.Errorf("assetRefsByCell %v and cellEntityCounts %v name different cells", *refs, got.CellEntityCounts)
	}
}

// TestEstellaDiscardReleasesScope: prepared cells nobody wants any more
// are discarded and release their scopes, which the runtime counts as
// cancelledRefs; an asset only they held is freed in that frame.
func TestEstellaDiscardReleasesScope(t *testing.T) {
	// Load 4, prefetch 15: at x = 5 c00 is wanted, c01 and c02 speculated.
	e := newEstellaAssets(t, src("camera", 5, 15, 4, 6), EstellaHost{Prepare: ModelIO{LatencyFrames: 1}})
	runEstellaAssets(t, e, []estAssetStep{
		// c00 pays the texture, c01 then only its mesh, c02 nothing.
		{5, "req=[c00,c01,c02] miss=[c00] res=0 fly=3 holes=[c00]", estAssetFrame{1100 + 600 + 100, 300, 300, 1, 0}},
		// Prepared assets are resident too: the runtime has loaded them.
		{5, "done=[c00,c01,c02] prep=[c01,c02] publishing=[c00] pub=[c00] res=1 fly=0", estAssetFrame{0, 100 + 1800, 1800, 2, 0}},
		// The source jumps away: c00 unloads (c01 still holds the
		// texture), then c01 and c02 are discarded, releasing 2 + 1
		// references: the texture and the mesh go, the sky stays.
		{-40, "cncl=[c01,c02] unld=[c00] res=0 fly=0 refs=3", estAssetFrame{0, 300, 300, 0, 2}},
	})
	if s := e.Summary(); s.Runtime.CancelledRefs != 3 || s.Assets.Unloads != 2 {
		t.Errorf("cancelledRefs %d, asset unloads %d; want 3 and 2", s.Runtime.CancelledRefs, s.Assets.Unloads)
	}
	// A preparation that completes after its source turned back is
	// discarded by its own callback, releasing what it took.
	e = newEstellaAssets(t, src("camera", 5, 4, 4, 6), EstellaHost{Prepare: ModelIO{LatencyFrames: 2}})
	runEstellaAssets(t, e, []estAssetStep{
		{5, "req=[c00] miss=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{1100, 300, 300, 1, 0}},
		{-40, "res=0 fly=1", estAssetFrame{0, 300, 300, 0, 0}},
		{-40, "done=[c00] cncl=[c00] res=0 fly=0 refs=1", estAssetFrame{0, 300, 300, 1, 1}},
	})
}

// TestEstellaUnloadWhilePublishingKeepsScope: a cell the source leaves
// while it publishes keeps its assets through publishing and unloading;
// they are freed when its unload completes, not when it is asked for.
func TestEstellaUnloadWhilePublishingKeepsScope(t *testing.T) {
	e := newEstellaAssets(t, src("camera", 5, 4, 4, 6), EstellaHost{Prepare: ModelIO{LatencyFrames: 1}, PublishFrames: 2, UnloadFrames: 1})
	runEstellaAssets(t, e, []estAssetStep{
		{5, "req=[c00] miss=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{1100, 300, 300, 1, 0}},
		{5, "done=[c00] publishing=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{0, 1300, 1300, 1, 0}},
		{100, "res=0 fly=1", estAssetFrame{0, 1300, 1300, 0, 0}},
		{100, "pub=[c00] unld=[c00] res=0 fly=0", estAssetFrame{0, 1300, 1300, 0, 0}},
		{100, "res=0 fly=0", estAssetFrame{0, 300, 300, 0, 1}},
	})
	if r := e.ResidencyOf("c00"); r != ResUnloaded {
		t.Errorf("c00 is %v, want unloaded", r)
	}
}

// TestEstellaPersistentAssetsFromFrameOne: the persistent world's assets
// are resident from frame 1 whatever the sources do, and never freed.
func TestEstellaPersistentAssetsFromFrameOne(t *testing.T) {
	e := newEstellaAssets(t, src("camera", -100, 4, 4, 6), EstellaHost{})
	runEstellaAssets(t, e, []estAssetStep{
		{-100, "res=0 fly=0", estAssetFrame{0, 300, 300, 1, 0}},
		{-100, "res=0 fly=0", estAssetFrame{0, 300, 300, 0, 0}},
		// Through c02 and away: its sky reference costs nothing and frees
		// nothing.
		{25, "req=[c02] done=[c02] publishing=[c02] pub=[c02] miss=[c02] res=1 fly=0", estAssetFrame{100, 400, 300, 0, 0}},
		{-100, "unld=[c02] res=0 fly=0", estAssetFrame{0, 300, 300, 0, 0}},
	})
	a := e.Summary().Assets
	if a.Loads != 1 || a.Unloads != 0 || a.PeakResidentAssetBytes != 300 || a.PeakFrame != 1 {
		t.Errorf("asset summary %+v", a)
	}
}

// TestEstellaFailedPrepareReleasesScope: a failed preparation returns the
// cell to unloaded with nothing held; the next update asks again and
// pays the texture again, since nothing made it resident.
func TestEstellaFailedPrepareReleasesScope(t *testing.T) {
	e := newEstellaAssets(t, src("camera", 5, 4, 4, 6), EstellaHost{Prepare: ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 1}}})
	runEstellaAssets(t, e, []estAssetStep{
		{5, "req=[c00] miss=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{1100, 300, 300, 1, 0}},
		{5, "req=[c00] fail=[c00] res=0 fly=1 holes=[c00]", estAssetFrame{1100, 300, 300, 0, 0}},
	})
}

// TestEstellaPrepareMovesAssetBytes: with a bandwidth, a preparation moves
// its document and its fresh assets, so the texture makes c00 slower.
func TestEstellaPrepareMovesAssetBytes(t *testing.T) {
	for _, tc := range []struct {
		ignore bool
		done   int
	}{{false, 3}, {true, 2}} {
		e := newEstellaAssets(t, src("camera", 5, 4, 4, 6), EstellaHost{Prepare: ModelIO{BytesPerFrame: Int64(550)}, IgnoreAssets: tc.ignore})
		done := 0
		for f := 1; f <= 4 && done == 0; f++ {
			if r := e.Step([]Point{{X: 5, Z: 5}}); len(r.Completed) > 0 {
				done = f
			}
		}
		if done != tc.done {
			t.Errorf("IgnoreAssets %v: c00 prepared at frame %d, want %d", tc.ignore, done, tc.done)
		}
	}
}

// TestEstellaIgnoreAssets: a host that ignores assets, or a world without
// them, gives the same frames and summary, scripted scenarios included.
func TestEstellaIgnoreAssets(t *testing.T) {
	run := func(w *World, sc estellaScenario, ignore bool) ([]EstellaFrame, EstellaSummary) {
		host := sc.host
		host.IgnoreAssets = ignore
		e, err := NewEstella(w, sc.sources, host)
		if err != nil {
			t.Fatal(err)
		}
		var frames []EstellaFrame
		for _, f := range sc.frames {
			pos := make([]Point, len(f.xs))
			for i, x := range f.xs {
				pos[i] = Point{X: x, Z: 5}
			}
			frames = append(frames, e.Step(pos))
		}
		return frames, e.Summary()
	}
	for _, sc := range estellaScenarios {
		bare, bareSum := run(rowWorld(sc.cells), sc, false)
		off, offSum := run(assetWorld(sc.cells), sc, true)
		if !reflect.DeepEqual(bare, off) || !reflect.DeepEqual(bareSum, offSum) {
			t.Errorf("%s: IgnoreAssets differs from a world without assets", sc.name)
		}
		if offSum.Assets != nil || offSum.Runtime.AssetRefsByCell != nil {
			t.Errorf("%s: IgnoreAssets still reports assets", sc.name)
		}
		// Counting assets changes the bytes and the references a discard
		// releases, never what the runtime decides.
		on, _ := run(assetWorld(sc.cells), sc, false)
		refs := regexp.MustCompile(` refs=\d+`)
		for k := range on {
			a, b := refs.ReplaceAllString(estellaTrace(&on[k]), ""), refs.ReplaceAllString(estellaTrace(&bare[k]), "")
			if a != b {
				t.Errorf("%s frame %d: assets changed the decisions:\n%s\n%s", sc.name, k+1, a, b)
			}
		}
	}
}

// TestSchedulersRefuseBadAssetLists: a world whose asset lists name an
// asset it does not have, or give one a negative size, is refused by
// either scheduler with one message, never indexed out of range.
func TestSchedulersRefuseBadAssetLists(t *testing.T) {
	for _, tc := range []struct {
		name  string
		spoil func(*World)
	}{
		{"cell index past the list", func(w *World) { w.Cells[1].Assets = []int32{0, 3} }},
		{"negative cell index", func(w *World) { w.Cells[0].Assets = []int32{-1} }},
		{"persistent index past the list", func(w *World) { w.PersistentAssets = []int32{7} }},
		{"negative size", func(w *World) { w.Assets[2].Bytes = -1 }},
	} {
		w := assetWorld(4)
		tc.spoil(w)
		const want = "the world's asset lists name assets it does not have"
		if _, err := NewEstella(w, []Source{src("camera", 5, 4, 4, 6)}, EstellaHost{}); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: runtime model: %v", tc.name, err)
		}
		if _, err := NewScheduler(w, []Source{src("camera", 5, 4, 4, 6)}, Settings{}, NewModelLoader(ModelIO{})); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: budgeted scheduler: %v", tc.name, err)
		}
	}
}
