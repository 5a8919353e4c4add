package streaming

import (
	"bytes"
	"testing"

	json "github.com/goccy/go-json"
)

// assetWorld is rowWorld(n) with assets: tex (1000 B) shared by c00 and
// c01, mesh (500 B) of c01 only, sky (300 B) held by the persistent world
// and listed by c02 too.
func assetWorld(n int) *World {
	w := rowWorld(n)
	w.Assets = []Asset{{"assets/mesh.esmesh", 500}, {"assets/sky.png", 300}, {"assets/tex.png", 1000}}
	w.PersistentAssets = []int32{1}
	w.Cells[0].Assets = []int32{2}
	w.Cells[1].Assets = []int32{0, 2}
	w.Cells[2].Assets = []int32{1}
	return w
}

func TestAssetsSharedTexture(t *testing.T) {
	// The source starts over c00 with a load radius reaching c00 only.
	s := newSim(t, assetWorld(6), []Source{src("cam", 5, 4, 4, 6)}, Settings{}, ModelIO{LatencyFrames: 1})
	r := s.at(5)
	eq(t, "frame 1 requested", r.Requested, []string{"c00"})
	if r.RequestedBytes != 100+1000 {
		t.Errorf("frame 1 requested %d bytes, want the document and the texture (1100)", r.RequestedBytes)
	}
	// The persistent world's sky is resident from frame 1.
	if r.ResidentAssetBytes != 300 || r.ResidentBytes != 300 || r.AssetLoads != 1 {
		t.Errorf("frame 1: resident assets %d, resident %d, asset loads %d; want 300, 300, 1", r.ResidentAssetBytes, r.ResidentBytes, r.AssetLoads)
	}
	r = s.at(5)
	if r.ResidentBytes != 300+100+1000 || r.ResidentAssetBytes != 1300 || r.AssetLoads != 1 {
		t.Errorf("frame 2: resident %d (assets %d, %d loads), want 1400 (1300, 1)", r.ResidentBytes, r.ResidentAssetBytes, r.AssetLoads)
	}
	// Step to x=12: c01 is wanted; its texture is resident, so it costs its
	// document and its mesh only.
	r = s.at(12)
	eq(t, "frame 3 requested", r.Requested, []string{"c01"})
	if r.RequestedBytes != 100+500 {
		t.Errorf("c01 requested %d bytes, want 600 (document and mesh; the texture is shared)", r.RequestedBytes)
	}
	s.at(12)
	// At x=18, c00 (distance 8 > 6) is unloaded; c01 keeps the texture.
	r = s.at(18)
	eq(t, "unloaded", r.Unloaded, []string{"c00"})
	if r.AssetUnloads != 0 || r.ResidentAssetBytes != 300+1000+500 {
		t.Errorf("unloading c00 freed %d assets, resident assets %d; want 0 freed, 1800", r.AssetUnloads, r.ResidentAssetBytes)
	}
	// Far away from both: unloading c01 frees the texture and the mesh in
	// that frame; the sky stays with the persistent world.
	// (c02, requested at x=18, arrives and goes in the same frame: its only
	// asset is the persistent world's sky.)
	r = s.at(45)
	eq(t, "unloaded", r.Unloaded, []string{"c01", "c02"})
	if r.AssetUnloads != 2 || r.ResidentAssetBytes != 300 {
		t.Errorf("unloading c01 freed %d assets, resident assets %d; want 2 freed, 300", r.AssetUnloads, r.ResidentAssetBytes)
	}
	sum := s.s.Summary()
	if sum.Assets == nil || sum.Assets.PeakResidentAssetBytes != 1800 || sum.Assets.Loads != 3 || sum.Assets.Unloads != 2 || sum.Assets.Reloaded != 0 {
		t.Errorf("asset summary %+v", sum.Assets)
	}
}

func TestAssetsPersistentShareCostsNothing(t *testing.T) {
	// c02 lists the persistent sky: a request for it pays its document only.
	s := newSim(t, assetWorld(6), []Source{src("cam", 25, 4, 4, 6)}, Settings{}, ModelIO{LatencyFrames: 1})
	r := s.at(25)
	eq(t, "requested", r.Requested, []string{"c02"})
	if r.RequestedBytes != 100 {
		t.Errorf("requested %d bytes, want 100", r.RequestedBytes)
	}
	s.at(25)
	r = s.at(55)
	eq(t, "unloaded", r.Unloaded, []string{"c02"})
	if r.AssetUnloads != 0 || r.ResidentAssetBytes != 300 {
		t.Errorf("the persistent sky was freed: %d unloads, %d resident", r.AssetUnloads, r.ResidentAssetBytes)
	}
}

func TestAssetsEvictionMeasuresFreedBytes(t *testing.T) {
	// c00 and c01 share the texture. Evicting c01 (the farther) frees its
	// document and its mesh (600 B) but not the shared texture; a cap that
	// this does not meet makes the scheduler evict c00 too, which frees the
	// texture.
	w := assetWorld(4)
	s := newSim(t, w, []Source{src("cam", 10, 8, 8, 30)}, Settings{EvictCooldown: 5}, ModelIO{LatencyFrames: 1})
	s.at(10)
	r := s.at(10)
	if r.ResidentBytes != 300+100+100+1000+500 {
		t.Fatalf("resident %d before the cap, want 2000", r.ResidentBytes)
	}
	limit := int64(1450)
	s.s.set.MaxResidentBytes = &limit
	r = s.at(3) // c01 is now the farther
	eq(t, "evicted", r.Evicted, []string{"c01"})
	if r.AssetUnloads != 1 || r.ResidentBytes != 300+100+1000 {
		t.Errorf("evicting c01 freed %d assets, resident %d; want the mesh only, 1400", r.AssetUnloads, r.ResidentBytes)
	}
	limit = 1350
	r = s.at(3)
	eq(t, "evicted", r.Evicted, []string{"c00"})
	if r.AssetUnloads != 1 || r.ResidentBytes != 300 {
		t.Errorf("evicting c00 freed %d assets, resident %d; want the texture, 300", r.AssetUnloads, r.ResidentBytes)
	}
	// Everything left is the persistent world's: over a cap below it,
	// nothing more can go.
	limit = 0
	if r = s.at(3); len(r.Evicted) != 0 || r.ResidentBytes != 300 {
		t.Errorf("evicted %v, resident %d; the persistent sky cannot be evicted", r.Evicted, r.ResidentBytes)
	}
}

func TestAssetsEvictionKeepsGoingUntilFreed(t *testing.T) {
	// One step: a cap that evicting c01 alone cannot meet, because the
	// texture it lists is c00's too.
	s := newSim(t, assetWorld(4), []Source{src("cam", 10, 8, 8, 30)}, Settings{EvictCooldown: 5}, ModelIO{LatencyFrames: 1})
	s.at(10)
	s.at(10)
	limit := int64(1350)
	s.s.set.MaxResidentBytes = &limit
	r := s.at(3)
	eq(t, "evicted", r.Evicted, []string{"c01", "c00"})
	if r.AssetUnloads != 2 || r.ResidentBytes != 300 {
		t.Errorf("freed %d assets, resident %d; want 2, 300", r.AssetUnloads, r.ResidentBytes)
	}
}

func TestAssetsLargerThanBudget(t *testing.T) {
	// A budget below the texture's size: the first request of a frame goes
	// anyway, so c00 loads with its texture; c01 would pay for the mesh
	// that does not fit the rest of the frame's budget and waits a frame.
	budget := int64(200)
	s := newSim(t, assetWorld(4), []Source{src("cam", 10, 12, 12, 30)}, Settings{Budget: &budget}, ModelIO{LatencyFrames: 1})
	r := s.at(10)
	eq(t, "frame 1 requested", r.Requested, []string{"c00"})
	if r.RequestedBytes != 1100 {
		t.Errorf("frame 1 requested %d, want 1100 (over the budget: first request)", r.RequestedBytes)
	}
	r = s.at(10)
	// c01 now costs document + mesh (600): over 200, but first of the frame.
	eq(t, "frame 2 requested", r.Requested, []string{"c01"})
	if r.RequestedBytes != 600 {
		t.Errorf("frame 2 requested %d, want 600", r.RequestedBytes)
	}
	r = s.at(10)
	eq(t, "frame 3 requested", r.Requested, []string{"c02"})
	if r.RequestedBytes != 100 {
		t.Errorf("frame 3 requested %d, want 100 (the sky is the persistent world's)", r.RequestedBytes)
	}
	// A zero budget still admits one request a frame, whatever its assets.
	zero := int64(0)
	z := newSim(t, assetWorld(4), []Source{src("cam", 10, 12, 12, 30)}, Settings{Budget: &zero}, ModelIO{LatencyFrames: 1})
	if r := z.at(10); len(r.Requested) != 1 || r.RequestedBytes != 1100 {
		t.Errorf("zero budget: requested %v (%d bytes), want c00 alone (1100)", r.Requested, r.RequestedBytes)
	}
}

func TestAssetsCancellationReleasesHolds(t *testing.T) {
	// c00 and c01 are in flight (long latency) when the source leaves:
	// both are cancelled and the texture and mesh, never resident, are
	// neither resident nor held; a later request pays for them again.
	s := newSim(t, assetWorld(6), []Source{src("cam", 10, 12, 12, 14)}, Settings{}, ModelIO{LatencyFrames: 5})
	r := s.at(10)
	eq(t, "requested", r.Requested, []string{"c00", "c01", "c02"})
	if r.RequestedBytes != 100+1000+100+500+100 {
		t.Errorf("requested %d bytes", r.RequestedBytes)
	}
	r = s.at(55)
	eq(t, "cancelled", r.Cancelled, []string{"c00", "c01", "c02"})
	if r.AssetUnloads != 0 || r.ResidentAssetBytes != 300 {
		t.Errorf("cancelling: %d asset unloads, %d resident asset bytes; want 0, 300", r.AssetUnloads, r.ResidentAssetBytes)
	}
	for k, n := range s.s.book.refs {
		want := int32(0)
		if k == 1 {
			want = 1 // the persistent sky
		}
		if n != want {
			t.Errorf("asset %s has %d holds after the cancellations, want %d", s.s.book.assets[k].Path, n, want)
		}
	}
	r = s.at(10)
	if r.RequestedBytes != 100+1000+100+500+100 {
		t.Errorf("requested again %d bytes, want the assets paid again", r.RequestedBytes)
	}
}

func TestAssetsFailureReleasesHolds(t *testing.T) {
	s := newSim(t, assetWorld(3), []Source{src("cam", 5, 4, 4, 6)}, Settings{Retry: RetryPolicy{Retries: 0}}, ModelIO{LatencyFrames: 1, Fail: FailureModel{Rate: 1}})
	s.at(5)
	s.at(5) // the attempt fails; c00 is given up
	if n := s.s.book.refs[2]; n != 0 {
		t.Errorf("the texture has %d holds after the failed load, want 0", n)
	}
}

func TestAssetCostsOff(t *testing.T) {
	// IgnoreAssets, and a world without assets, simulate alike.
	run := func(w *World, set Settings) []FrameReport {
		s := newSim(t, w, []Source{src("cam", 5, 12, 12, 14)}, set, ModelIO{LatencyFrames: 2})
		var out []FrameReport
		for _, x := range []float64{5, 5, 15, 25, 35, 45, 55, 5, 5} {
			out = append(out, s.at(x))
		}
		return out
	}
	var a, b bytes.Buffer
	for _, r := range run(assetWorld(6), Settings{IgnoreAssets: true}) {
		a.WriteString(frameText(r))
	}
	for _, r := range run(rowWorld(6), Settings{}) {
		b.WriteString(frameText(r))
	}
	if a.String() != b.String() {
		t.Errorf("with asset costs off:\n%s\nwithout assets:\n%s", a.String(), b.String())
	}
}

func frameText(r FrameReport) string {
	b, _ := json.Marshal(r)
	return string(b) + "\n"
}

func TestAssetReportsAreDeterministic(t *testing.T) {
	run := func() string {
		s := newSim(t, assetWorld(8), []Source{src("cam", 5, 12, 10, 14)}, Settings{}, ModelIO{LatencyFrames: 2})
		var b bytes.Buffer
		for f := 0; f < 40; f++ {
			x := float64((f * 7) % 80)
			b.WriteString(frameText(s.at(x)))
		}
		sum, _ := json.Marshal(s.s.Summary())
		b.Write(append(sum, '\n'))
		return b.String()
	}
	first := run()
	for k := 0; k < 3; k++ {
		if got := run(); got != first {
			t.Fatalf("run %d differs", k+2)
		}
	}
	if !bytes.Contains([]byte(first), []byte(`"reloaded":2,"mostReloaded":[{"path":"assets/mesh.esmesh","loads":4},{"path":"assets/tex.png","loads":4}]`)) {
		t.Errorf("a route back and forth reloads the texture; summary: %s", first[bytes.LastIndexByte([]byte(first[:len(first)-1]), '\n')+1:])
	}
}
