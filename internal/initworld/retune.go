package initworld

import (
	"fmt"
	"strings"

	"github.com/worldcook/worldcook/internal/regular"
	"github.com/worldcook/worldcook/internal/scene"
)

// Retune is the edit `worldcook tune --diff` makes: the recommended radii
// put on the scene's streaming sources, where the runtime reads them, and
// the cell size on its StreamedWorld. Like init's, the edit keeps every
// other byte: a value the scene writes is replaced in place, a field it
// leaves out is added after the component's last one.
type Retune struct {
	// Sources are the entity ids of the WorldStreamingSources to edit.
	Sources []int64
	// Load, Unload and Prefetch are the radii to write.
	Load, Unload, Prefetch float64
	// CellSize, when above 0, is the StreamedWorld cellSize to write.
	CellSize float64
	// Name is the scene's path in the diff, a slash path relative to the
	// folder the diff applies from ("": as DiffPath names it).
	Name string
}

// RetuneFile reads the scene at file and returns the edit r makes of it
// (Result.Before, After and Diff; Notes name the sources it could not
// edit); with write it also replaces the file by the result, atomically,
// unless the file is read-only.
func RetuneFile(file string, r Retune, write bool) (*Result, error) {
	if write {
		// A link, a special file or a read-only scene is refused
		// before anything is read.
		if err := writable(file); err != nil {
			return nil, err
		}
	}
	src, err := regular.ReadFile(file, "scene")
	if err != nil {
		return nil, err
	}
	res, err := MakeRetune(file, src, r)
	if err != nil {
		return nil, err
	}
	if write && len(res.Diff) > 0 {
		if err := Write(res); err != nil {
			return nil, err
		}
	}
	return res, nil
}

// MakeRetune returns the edit r makes of the scene in src (read from
// file).
func MakeRetune(file string, src []byte, r Retune) (*Result, error) {
	d, err := scene.Parse(file, src)
	if err != nil {
		return nil, err
	}
	res := &Result{File: file, Before: src, Streamed: true}
	var ins []insertion
	set := func(i int, comp string, fields [][2]string) error {
		in, err := setFields(d, i, comp, fields)
		ins = append(ins, in...)
		return err
	}
	radii := [][2]string{{"prefetchRadius", formatNum(r.Prefetch)}, {"loadRadius", formatNum(r.Load)}, {"unloadRadius", formatNum(r.Unload)}}
	for _, id := range r.Sources {
		i, ok := d.Lookup(id)
		switch {
		case !ok:
			return nil, fmt.Errorf("%s: no entity %d to set the radii on", file, id)
		case d.Entities[i].IsPrefab():
			line, col := d.RecordPosition(i)
			res.Notes = append(res.Notes, fmt.Sprintf("%s:%d:%d: %s is a prefab instance: its WorldStreamingSource is the prefab's; set the radii there, or with property overrides on the instance", file, line, col, who(&d.Entities[i].ID, d.Entities[i].Name)))
			continue
		}
		if err := set(i, "WorldStreamingSource", radii); err != nil {
			return nil, err
		}
	}
	if r.CellSize > 0 {
		found := false
		for i := range d.Entities {
			if data, ok := d.Component(i, "StreamedWorld"); ok {
				found = true
				if v, ok := scene.Field(data, "cellSize"); ok && string(v) == formatNum(r.CellSize) {
					break // as written already
				}
				if err := set(i, "StreamedWorld", [][2]string{{"cellSize", formatNum(r.CellSize)}}); err != nil {
					return nil, err
				}
				break
			}
		}
		if !found {
			return nil, fmt.Errorf("%s has no StreamedWorld to set cellSize %s on; make it a streamed world first (worldcook init)", file, formatNum(r.CellSize))
		}
	}
	if _, err := res.edit(r.Name, ins); err != nil {
		return nil, err
	}
	return res, nil
}

// setFields returns the edits that give entity i's component comp each
// field its value (JSON text): a field present is replaced unless it has
// the value already, an absent one added after the data's last member.
func setFields(d *scene.Document, i int, comp string, fields [][2]string) ([]insertion, error) {
	rec := d.Authored(i)
	base := d.Offset(i)
	var data []byte
	scene.Members(rec, func(k, v []byte) bool {
		if string(k) == "components" && scene.KindOf(v) == scene.Array {
			scene.Each(v, func(el []byte) bool {
				if t, ok := scene.Field(el, "type"); ok && string(t) == `"`+comp+`"` {
					data, _ = scene.Field(el, "data")
				}
				return data == nil
			})
		}
		return true
	})
	if data == nil || scene.KindOf(data) != scene.Object {
		return nil, d.EntityError(i, comp, "has no data object to set "+fields[0][0]+" in", "give the component a data object")
	}
	return setIn(d, i, base+offsetIn(rec, data), data, fields)
}

// setIn returns the edits that give each field its value (JSON text) in
// data, an object of entity i's record at offset at of the scene: a field
// present is replaced unless it has the value already, an absent one
// added after the object's last member.
func setIn(d *scene.Document, i, at int, data []byte, fields [][2]string) ([]insertion, error) {
	rec := d.Authored(i)
	var ins []insertion
	var missing []string
	for _, f := range fields {
		key, val := f[0], f[1]
		v, ok := scene.Field(data, key)
		switch {
		case !ok:
			missing = append(missing, key)
		case string(v) != val:
			ins = append(ins, insertion{At: at + offsetIn(data, v), Cut: len(v), Text: val})
		}
	}
	if len(missing) == 0 {
		return ins, nil
	}
	min := compact(rec)
	colon := ": "
	if min {
		colon = ":"
	}
	var lastVal []byte
	var lastKeyAt int
	scene.Members(data, func(k, v []byte) bool {
		lastVal, lastKeyAt = v, offsetIn(data, k)-1
		return true
	})
	byKey := map[string]string{}
	for _, f := range fields {
		byKey[f[0]] = f[1]
	}
	if lastVal == nil {
		// An empty object: the fields go inside it, on its line.
		parts := make([]string, len(missing))
		for k, key := range missing {
			parts[k] = `"` + key + `"` + colon + byKey[key]
		}
		if min {
			return append(ins, insertion{At: at + 1, Text: strings.Join(parts, ",")}), nil
		}
		return append(ins, insertion{At: at + 1, Text: " " + strings.Join(parts, ", ") + " "}), nil
	}
	var text strings.Builder
	sep := separator(d.Src, spaceBefore(d.Src, at+lastKeyAt), at+lastKeyAt)
	for _, key := range missing {
		text.WriteString(sep + `"` + key + `"` + colon + byKey[key])
	}
	return append(ins, insertion{At: at + offsetIn(data, lastVal) + len(lastVal), Text: text.String()}), nil
}
