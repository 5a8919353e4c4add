package grid

import (
	"strconv"
	"strings"
)

// cellTag separates a scene's name from a cell's indices in the cell's
// name: "main.cell_-1_3".
const cellTag = ".cell_"

// fileExt is the extension of a cell document's file.
const fileExt = ".json"

// Name is the name of cell k of a scene, "<scene>.cell_<x>_<z>"
// ("levels/boss.cell_-1_3"), as the Estella runtime registers it; a cell
// of level L > 0 is "<scene>.cell_L<L>_<x>_<z>" ("main.cell_L2_0_-1"),
// which no level-0 name spells, since an index never starts with "L".
func Name(scene string, k Key) string {
	b := make([]byte, 0, len(scene)+24)
	b = append(b, scene...)
	b = appendCell(b, k)
	return string(b)
}

// appendCell appends what follows the scene's name in cell k's name: the
// one place a cell's spelling is made, for Name and for ParseFile's
// check that it reads back only what Name writes.
func appendCell(b []byte, k Key) []byte {
	mustLevel(k)
	b = append(b, cellTag...)
	if k.Level != 0 {
		b = append(b, 'L')
		b = strconv.AppendInt(b, int64(k.Level), 10)
		b = append(b, '_')
	}
	b = strconv.AppendInt(b, int64(k.X), 10)
	b = append(b, '_')
	return strconv.AppendInt(b, int64(k.Z), 10)
}

// File is the file name, inside world/, of the document of the cell
// named name (a Name): FileSafe(name) + ".json".
func File(name string) string { return FileSafe(name) + fileExt }

// FilePrefix is what the file names of a scene's cells start with, before
// ".cell_": the scene's name made file-safe as part of a cell's name (a
// scene named "." keeps its dot, where FileSafe(".") alone is "_").
func FilePrefix(scene string) string {
	k := Key{}
	return strings.TrimSuffix(FileSafe(Name(scene, k)), string(appendCell(nil, k)))
}

// ParseFile reads a cell document's file name, "<prefix>.cell_<x>_<z>.json"
// or "<prefix>.cell_L<level>_<x>_<z>.json", back to the prefix (the
// scene's FilePrefix) and the cell's key. It
// accepts exactly the spellings File writes: no sign on a positive index,
// no leading zero, no "-0", indices within int32, and the last ".cell_" of
// the name is the one that counts (a scene may be named "a.cell_1_2"). The
// prefix is not checked: whether the file is a given scene's is for the
// caller to ask, comparing it with FilePrefix(scene) or the whole name
// with File(Name(scene, k)).
func ParseFile(file string) (prefix string, k Key, ok bool) {
	base, ok := strings.CutSuffix(file, fileExt)
	if !ok {
		return "", Key{}, false
	}
	i := strings.LastIndex(base, cellTag)
	if i < 0 {
		return "", Key{}, false
	}
	rest := base[i+len(cellTag):]
	var level int64
	if lv, after, ok := strings.Cut(rest, "_"); ok && strings.HasPrefix(lv, "L") {
		var err error
		if level, err = strconv.ParseInt(lv[1:], 10, 32); err != nil || level < 1 || level > MaxLevel {
			return "", Key{}, false
		}
		rest = after
	}
	xs, zs, ok := strings.Cut(rest, "_")
	if !ok {
		return "", Key{}, false
	}
	x, err1 := strconv.ParseInt(xs, 10, 32)
	z, err2 := strconv.ParseInt(zs, 10, 32)
	if err1 != nil || err2 != nil {
		return "", Key{}, false
	}
	k = Key{Level: int32(level), X: int32(x), Z: int32(z)}
	if string(appendCell(nil, k)) != base[i:] {
		return "", Key{}, false
	}
	return base[:i], k, true
}

// FileSafe replaces every byte outside [A-Za-z0-9_.-] with '_', so a cell
// or manifest named after a scene in a sub-folder ("levels/boss") becomes
// one flat file name that never leaves world/.
func FileSafe(name string) string {
	b := []byte(name)
	for i, c := range b {
		if !safeByte(c) {
			b[i] = '_'
		}
	}
	// ".." alone would still name the parent directory.
	if s := string(b); s == "." || s == ".." {
		return strings.Repeat("_", len(s))
	}
	return string(b)
}

func safeByte(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '.' || c == '-'
}
