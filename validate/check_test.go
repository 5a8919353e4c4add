package validate

import (
	"slices"
	"testing"
)

// baseWorld is a small streamed world with cellSize 100 on XZ:
//
//	1 Settings      StreamedWorld            persistent
//	2 Player        WorldPersistent          persistent
//	3 Camera        WorldPersistent          persistent
//	4 House (10,10)                          cell 0_0
//	5   Door local (150,0,0) → world x=160    cell 0_0 (goes with its root)
//	6 Shed (50,50)                           cell 0_0
//	7 Tower (250,10)                         cell 2_0
//	0 Zero (-50,-50)                         cell -1_-1 (id 0 is never a target)
//
// extra adds components to entities by id.
func baseWorld(extra map[int64][]string) []E {
	es := []E{
		{ID: 1, Name: "Settings", C: []string{sw("100")}},
		{ID: 2, Name: "Player", C: []string{tr(0, 0, 0), persistent}},
		{ID: 3, Name: "Camera", C: []string{persistent}},
		{ID: 4, Name: "House", C: []string{tr(10, 0, 10)}},
		{ID: 5, Name: "Door", Parent: at(4), C: []string{tr(150, 0, 0)}},
		{ID: 6, Name: "Shed", C: []string{tr(50, 0, 50)}},
		{ID: 7, Name: "Tower", C: []string{tr(250, 0, 10)}},
		{ID: 0, Name: "Zero", C: []string{tr(-50, 0, -50)}},
	}
	for k := range es {
		es[k].C = append(es[k].C, extra[es[k].ID]...)
	}
	return es
}

func TestPartitionBaseWorld(t *testing.T) {
	p := check(t, Options{}, baseWorld(nil)...)
	if !p.Streamed || p.CellSize != 100 {
		t.Fatalf("streamed %v cellSize %v", p.Streamed, p.CellSize)
	}
	want := map[int64]string{1: "persistent", 2: "persistent", 3: "persistent", 4: "test.cell_0_0", 5: "test.cell_0_0", 6: "test.cell_0_0", 7: "test.cell_2_0", 0: "test.cell_-1_-1"}
	for id, cell := range want {
		if got := cellOf(t, p, id); got != cell {
			t.Errorf("entity %d in %s, want %s", id, got, cell)
		}
	}
	if len(p.Findings) != 0 {
		t.Errorf("findings: %v", codes(p))
	}
	var names []string
	for _, c := range p.Cells {
		names = append(names, c.Name)
	}
	if !slices.Equal(names, []string{"test.cell_-1_-1", "test.cell_0_0", "test.cell_2_0"}) {
		t.Errorf("cells %v", names)
	}
	c := p.Cells[1]
	if c.Roots != 2 || len(c.Entities) != 3 || c.File != "test.cell_0_0.json" {
		t.Errorf("cell 0_0: %+v", c)
	}
	if c.Bounds != (Rect{MinX: 0, MinZ: 0, MaxX: 160, MaxZ: 100}) || c.Overhang.Entity != 5 || c.Overhang.By != 60 {
		t.Errorf("cell 0_0 bounds %+v overhang %+v", c.Bounds, c.Overhang)
	}
}

// TestReferenceRelationships covers every cell relationship of docs/validate.md, "Entity references".
func TestReferenceRelationships(t *testing.T) {
	follow := map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}}}
	cases := []struct {
		name     string
		extra    map[int64][]string
		opts     Options
		want     []string
		prefRefs []int64
	}{
		{name: "same subtree child to root", extra: map[int64][]string{5: {joint("4")}}},
		{name: "same subtree root to child", extra: map[int64][]string{4: {joint("5")}}},
		{name: "same cell", extra: map[int64][]string{4: {joint("6")}}},
		{name: "child to same cell", extra: map[int64][]string{5: {joint("6")}}},
		{name: "cell to persistent", extra: map[int64][]string{4: {joint("2")}}, prefRefs: []int64{2}},
		{name: "persistent to persistent", extra: map[int64][]string{2: {joint("3")}}},
		{name: "cell to cell", extra: map[int64][]string{4: {joint("7")}}, want: []string{"cross-cell-ref@4:RevoluteJoint.connectedEntity"}},
		{name: "child to another cell", extra: map[int64][]string{5: {joint("7")}}, want: []string{"cross-cell-ref@5:RevoluteJoint.connectedEntity"}},
		{name: "persistent to cell", extra: map[int64][]string{2: {joint("7")}}, want: []string{"persistent-to-cell-ref@2:RevoluteJoint.connectedEntity"}},
		{name: "persistent to child in cell", extra: map[int64][]string{2: {comp("UISlider", `{"fill": 5, "handle": 3}`)}}, want: []string{"persistent-to-cell-ref@2:UISlider.fill"}},
		{name: "zero is no entity", extra: map[int64][]string{4: {joint("0")}}},
		{name: "minus one is no entity", extra: map[int64][]string{4: {joint("-1")}}},
		{name: "null and string are no entity", extra: map[int64][]string{4: {comp("UISlider", `{"fill": null, "handle": "7"}`)}}},
		{name: "dangling", extra: map[int64][]string{4: {joint("99")}}, want: []string{"dangling-ref@4:RevoluteJoint.connectedEntity"}},
		{name: "not an id", extra: map[int64][]string{4: {joint("5.5")}}, want: []string{"dangling-ref@4:RevoluteJoint.connectedEntity"}},
		{name: "list with mixed elements",
			extra: map[int64][]string{4: {comp("MeshSkin", `{"joints": [5, 7, 0, -1, 2, 99, "x", 6, 7]}`)}},
			want: []string{
				"cross-cell-ref@4:MeshSkin.joints[1]",
				"cross-cell-ref@4:MeshSkin.joints[8]",
				"dangling-ref@4:MeshSkin.joints[5]",
			},
			prefRefs: []int64{2}},
		{name: "3D joint", extra: map[int64][]string{6: {comp("HingeJoint3D", `{"connectedEntity": 7}`)}}, want: []string{"cross-cell-ref@6:HingeJoint3D.connectedEntity"}},
		{name: "every builtin single field", extra: map[int64][]string{7: {
			comp("ParticleEmitter", `{"subEmitter": 4}`), comp("UIScroll", `{"content": 4}`), comp("UIToggle", `{"check": 4}`),
			comp("UIDropdown", `{"label": 4}`), comp("Parent", `{"entity": 4}`), comp("Children", `{"entities": [4]}`)}},
			want: []string{"cross-cell-ref@7:Children.entities[0]", "cross-cell-ref@7:Parent.entity", "cross-cell-ref@7:ParticleEmitter.subEmitter",
				"cross-cell-ref@7:UIDropdown.label", "cross-cell-ref@7:UIScroll.content", "cross-cell-ref@7:UIToggle.check"}},
		{name: "undeclared project field", extra: map[int64][]string{4: {comp("FollowTarget", `{"target": 7}`)}}},
		{name: "project field", extra: map[int64][]string{4: {comp("FollowTarget", `{"target": 7}`)}}, opts: Options{Components: follow},
			want: []string{"cross-cell-ref@4:FollowTarget.target"}},
		{name: "project type names match regardless of case", extra: map[int64][]string{4: {comp("FollowTarget", `{"target": 7}`), joint("7")}},
			opts: Options{Components: map[string]ComponentFields{"followtarget": {Entity: []string{"target"}}, "revolutejoint": {Soft: []string{"connectedEntity"}}}},
			want: []string{"cross-cell-ref@4:FollowTarget.target"}},
		{name: "project list field", extra: map[int64][]string{2: {comp("Squad", `{"members": [2, 3, 7]}`)}},
			opts: Options{Components: map[string]ComponentFields{"Squad": {Entity: []string{"members"}}}},
			want: []string{"persistent-to-cell-ref@2:Squad.members[2]"}},
		{name: "soft project field", extra: map[int64][]string{4: {comp("FollowTarget", `{"target": 7}`)}},
			opts: Options{Components: map[string]ComponentFields{"FollowTarget": {Entity: []string{"target"}, Soft: []string{"target"}}}}},
		{name: "soft builtin field", extra: map[int64][]string{4: {joint("7")}},
			opts: Options{Components: map[string]ComponentFields{"RevoluteJoint": {Soft: []string{"connectedEntity"}}}}},
		{name: "strict dangling", extra: map[int64][]string{4: {joint("99")}}, opts: Options{Strict: true}, want: []string{"dangling-ref@4:RevoluteJoint.connectedEntity"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			p := check(t, tc.opts, baseWorld(tc.extra)...)
			want := tc.want
			if want == nil {
				want = []string{}
			}
			if got := codes(p); !slices.Equal(got, want) {
				t.Errorf("findings\n got %v\nwant %v", got, want)
			}
			if tc.prefRefs == nil {
				tc.prefRefs = []int64{}
			}
			if len(p.PersistentRefs) != len(tc.prefRefs) || (len(tc.prefRefs) > 0 && p.PersistentRefs[0] != tc.prefRefs[0]) {
				t.Errorf("persistentRefs %v, want %v", p.PersistentRefs, tc.prefRefs)
			}
			for _, f := range p.Findings {
				wantSev := SeverityError
				if f.Code == CodeDanglingRef && !tc.opts.Strict {
					wantSev = SeverityWarning
				}
				if f.Severity != wantSev {
					t.Errorf("%s severity %s, want %s", f.Code, f.Severity, wantSev)
				}
				if f.File != "test.esscene" || f.Line == 0 || f.EntityName == "" || f.Hint == "" || f.Message == "" {
					t.Errorf("incomplete finding %+v", f)
				}
				if f.Code == CodeCrossCellRef || f.Code == CodePersistentToCellRef {
					if f.Target == nil || f.TargetName == "" || f.FromCell == "" || f.ToCell == "" || f.FromCell == f.ToCell || f.Arrow == nil {
						t.Errorf("reference finding lacks target or cells: %+v", f)
					}
				}
			}
		})
	}
}
