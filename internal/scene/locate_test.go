package scene

import "testing"

func TestFieldPosition(t *testing.T) {
	src := []byte(`{
  "name": "t",
  "entities": [
    {"id": 1, "name": "A", "parent": null, "children": [], "components": []},
    {
      "id": 2,
      "name": "Ünïcode",
      "parent": null,
      "children": [3, 4],
      "components": [
        {"type": "Transform", "data": {"position": {"x": 1, "y": 2, "z": 3}}},
        {
          "type": "MeshSkin",
          "data": {
            "joints": [
              1,
              	4
            ]
          }
        },
        {"type": "FollowTarget", "data": {"target": 1}}
      ]
    },
    {"id": 3, "name": "C", "parent": 2, "children": [], "components": [{"type": "followtarget", "data": {"target": 1}}]},
    {"id": 4, "name": "D", "parent": 2, "children": [], "components": []}
  ]
}
`)
	d, err := Parse("t.esscene", src)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		entity    int
		path      string
		line, col int
		ok        bool
	}{
		{1, "id", 6, 7, true},
		{1, "children", 9, 7, true},
		{1, "children[1]", 9, 23, true},
		{1, "Transform", 11, 9, true},
		{1, "Transform.position", 11, 40, true},
		{1, "MeshSkin.joints", 15, 13, true},
		{1, "MeshSkin.joints[0]", 16, 15, true},
		// A tab counts as one column, as in the editors that show columns.
		{1, "MeshSkin.joints[1]", 17, 16, true},
		{1, "FollowTarget.target", 21, 43, true},
		// A missing member: the deepest part that is there.
		{1, "FollowTarget.nothing", 21, 9, true},
		{1, "MeshSkin.joints[9]", 15, 13, true},
		{1, "Nothing.at.all", 0, 0, false},
		// On the record's first line the column counts from the line start.
		{0, "children", 4, 44, true},
		// A project type matches ignoring case.
		{2, "FollowTarget.target", 24, 106, true},
	}
	for _, tc := range cases {
		line, col, ok := d.FieldPosition(tc.entity, tc.path)
		if line != tc.line || col != tc.col || ok != tc.ok {
			t.Errorf("FieldPosition(%d, %q) = %d:%d %v, want %d:%d %v", tc.entity, tc.path, line, col, ok, tc.line, tc.col, tc.ok)
		}
	}
	if got := string(d.SourceLine(1, 21)); got != `        {"type": "FollowTarget", "data": {"target": 1}}` {
		t.Errorf("SourceLine(1, 21) = %q", got)
	}
	d.Detach()
	if _, _, ok := d.FieldPosition(1, "id"); ok {
		t.Error("FieldPosition after Detach reports a position")
	}
}

// FuzzFieldPosition looks up field paths in arbitrary documents: any
// position it gives must lie in the document, and it must never panic.
func FuzzFieldPosition(f *testing.F) {
	f.Add([]byte(`{"entities": [{"id": 1, "components": [{"type": "A", "data": {"b": [1, 2]}}]}]}`), "A.b[1]")
	f.Add([]byte("{\"entities\": [\n{\"id\": 1,\n \"children\": [2]}, {\"id\": 2}]}"), "children[0]")
	f.Fuzz(func(t *testing.T, src []byte, path string) {
		d, err := Parse("f.esscene", src)
		if err != nil {
			return
		}
		lines := 1
		for _, c := range src {
			if c == '\n' {
				lines++
			}
		}
		for i := range d.Entities {
			line, col, ok := d.FieldPosition(i, path)
			if ok && (line < 1 || line > lines || col < 1) {
				t.Fatalf("FieldPosition(%d, %q) = %d:%d, outside the %d-line document", i, path, line, col, lines)
			}
			if ok {
				d.SourceLine(i, line)
			}
		}
	})
}
