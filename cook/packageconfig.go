package cook

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"

	"github.com/worldcook/worldcook/internal/jsondoc"

	"github.com/worldcook/worldcook/diag"
	"github.com/worldcook/worldcook/internal/sidefile"
	"github.com/worldcook/worldcook/manifest"
	"github.com/worldcook/worldcook/validate"
)

// The packaged Estella runtime learns of a cooked world from its game
// configuration (game.config.json, PackagedGameConfig in the engine): a
// `worlds` list of {scene, manifest}, where scene is the registered name
// of the streamed scene and manifest the package-relative path of its
// world manifest. It adopts the world whose manifest's scene is the entry
// scene. The engine's own export writes this list when it cuts a world;
// PackageConfig writes the same entry for a world worldcook cooked.

// PackageWorld is one entry of the configuration's worlds list.
type PackageWorld struct {
	Scene    string `json:"scene"`
	Manifest string `json:"manifest"`
}

// maxPackageConfig bounds the configuration read: a game configuration is
// a few kilobytes, and a huge file given by mistake must not be loaded.
const maxPackageConfig = 16 << 20

// PackageEntry returns the worlds entry of a scene cooked into out, for a
// configuration file at config. The runtime reads the manifest's cell
// paths relative to the package root, the configuration's folder, so out
// must be that folder.
func PackageEntry(config, out, sceneName string) (PackageWorld, error) {
	root, err := filepath.Abs(filepath.Dir(config))
	if err != nil {
		return PackageWorld{}, err
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return PackageWorld{}, err
	}
	if root != abs && !sameDir(root, abs) {
		return PackageWorld{}, fmt.Errorf("--package-config %s: the packaged runtime reads the world's cells relative to the configuration's folder %s, but the world is cooked into %s; pass --out %s, or the configuration in %s", config, filepath.Dir(config), out, filepath.Dir(config), out)
	}
	return PackageWorld{Scene: sceneName, Manifest: ManifestPath(sceneName)}, nil
}

// sameDir reports whether a and b name one existing folder (through a
// symbolic link, say).
func sameDir(a, b string) bool {
	sa, err := os.Stat(a)
	if err != nil {
		return false
	}
	sb, err := os.Stat(b)
	return err == nil && os.SameFile(sa, sb)
}

// checkPackageConfigTarget refuses a configuration path that is one of the
// cook's inputs or lies among the files it writes into out, so that
// writing it can never destroy what the run reads or produces. (A simple
// local check: the scenes given and the cook's own output names.)
func checkPackageConfigTarget(config, out string, inputs, sceneNames []string) error {
	// The runtime reads game.config.json; a scene, prefab, .meta or project
	// file given by mistake is a JSON object too, and must not be edited.
	if base := filepath.Base(config); !strings.HasSuffix(base, ".json") || strings.HasSuffix(base, ".world.json") {
		return fmt.Errorf("--package-config %s is not a game configuration (a .json file such as game.config.json); pass the one the packaged runtime reads", config)
	}
	cst, err := os.Stat(config)
	exists := err == nil
	for _, in := range inputs {
		if ist, err := os.Stat(in); err == nil && exists && os.SameFile(cst, ist) {
			return fmt.Errorf("--package-config %s is %s, a scene this cook reads; pass the game's configuration (game.config.json)", config, in)
		}
	}
	absConfig, err := filepath.Abs(config)
	if err != nil {
		return err
	}
	absOut, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(absOut, absConfig)
	if err != nil || strings.HasPrefix(rel, "..") {
		return nil
	}
	rel = filepath.ToSlash(rel)
	owned := rel == manifest.WorldDir || strings.HasPrefix(rel, manifest.WorldDir+"/") || strings.HasPrefix(rel, ".") && strings.Contains(rel, "worldcook")
	for _, name := range sceneNames {
		owned = owned || rel == PersistentPath(name)
	}
	if owned {
		return fmt.Errorf("--package-config %s is a file the cook writes into %s; pass the game's configuration (game.config.json)", config, out)
	}
	return nil
}

// PackageConfig writes the worlds entries into the game configuration at
// file, creating it if absent. An entry whose scene is already listed is
// replaced in place, others are appended; every other key, its order and
// its text are kept byte for byte, and the list is written in the file's
// own indentation. It reports whether the file changed: an up-to-date
// file is not rewritten. With check it writes nothing.
//
// The file is written through side, as every file besides the world is:
// atomically, and never over an input of the run (nil: a guard that knows
// no inputs).
func PackageConfig(file string, worlds []PackageWorld, check bool, side *sidefile.Guard) (bool, error) {
	src, err := readPackageConfig(file)
	if err != nil {
		return false, err
	}
	out, err := editWorlds(file, src, worlds)
	if err != nil {
		return false, err
	}
	if bytes.Equal(out, src) {
		return false, nil
	}
	if check {
		return true, nil
	}
	if side == nil {
		side = sidefile.New()
	}
	if err := side.Check(file, "--package-config"); err != nil {
		return false, err
	}
	f, err := side.Create(file, "--package-config")
	if err != nil {
		return false, fmt.Errorf("--package-config %s: cannot stage the new configuration: %v", file, errors.Unwrap(err))
	}
	if _, err := f.Write(out); err != nil {
		f.Abort()
		return false, fmt.Errorf("--package-config %s: %v", file, err)
	}
	return true, f.Commit()
}

func readPackageConfig(file string) ([]byte, error) {
	st, err := os.Lstat(file)
	if errors.Is(err, fs.ErrNotExist) {
		dir := filepath.Dir(file)
		if dst, err := os.Stat(dir); err != nil || !dst.IsDir() {
			return nil, fmt.Errorf("--package-config %s: folder %s does not exist; pass a file in the game's build folder", file, dir)
		}
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("--package-config %s: %v", file, errors.Unwrap(err))
	}
	switch {
	case st.Mode()&fs.ModeSymlink != 0:
		return nil, fmt.Errorf("--package-config %s is a symbolic link; pass the file it points to, so that what is replaced is plain", file)
	case !st.Mode().IsRegular():
		return nil, fmt.Errorf("--package-config %s is not a regular file; pass the game's configuration (game.config.json)", file)
	case st.Size() > maxPackageConfig:
		return nil, fmt.Errorf("--package-config %s is %d bytes, more than a game configuration's %d; pass the game's configuration (game.config.json)", file, st.Size(), maxPackageConfig)
	}
	f, err := os.Open(file)
	if err != nil {
		return nil, fmt.Errorf("--package-config %s: %v", file, errors.Unwrap(err))
	}
	defer f.Close()
	src, err := io.ReadAll(io.LimitReader(f, maxPackageConfig+1))
	if err != nil {
		return nil, fmt.Errorf("--package-config %s: %v", file, err)
	}
	if len(src) > maxPackageConfig {
		return nil, fmt.Errorf("--package-config %s grew past %d bytes while being read", file, maxPackageConfig)
	}
	return src, nil
}

// member is a top-level key of the configuration and where its value lies.
type member struct {
	key        string
	start, end int // value bytes
}

// scanObject checks that src is one JSON object and returns its top-level
// members and the offset of its closing brace.
func scanObject(file string, src []byte) ([]member, int, error) {
	fail := func(off int64, msg string) error {
		line, col := jsondoc.LineCol(src, int(off))
		return fmt.Errorf("%s:%d:%d: %s; fix the game configuration's JSON", file, line, col, msg)
	}
	dec := json.NewDecoder(bytes.NewReader(src))
	dec.UseNumber()
	syntax := func(err error) error {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return fail(se.Offset, se.Error())
		}
		if errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) {
			return fail(int64(len(src)), "the file ends inside the configuration")
		}
		return fail(dec.InputOffset(), err.Error())
	}
	tok, err := dec.Token()
	if err != nil {
		return nil, 0, syntax(err)
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, 0, fail(0, "the configuration must be a JSON object")
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, 0, syntax(err)
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, 0, syntax(err)
		}
		end := int(dec.InputOffset())
		members = append(members, member{key: key, start: end - len(raw), end: end})
	}
	if _, err := dec.Token(); err != nil {
		return nil, 0, syntax(err)
	}
	closing := int(dec.InputOffset()) - 1
	if _, err := dec.Token(); err != io.EOF {
		return nil, 0, fail(dec.InputOffset(), "text after the configuration's closing brace")
	}
	return members, closing, nil
}

// editWorlds returns src with the worlds list holding worlds.
func editWorlds(file string, src []byte, worlds []PackageWorld) ([]byte, error) {
	if len(bytes.TrimSpace(src)) == 0 {
		src = []byte("{}\n")
	}
	members, closing, err := scanObject(file, src)
	if err != nil {
		return nil, err
	}
	var at *member
	for i := range members {
		if members[i].key != "worlds" {
			continue
		}
		if at != nil {
			line, col := jsondoc.LineCol(src, members[i].start)
			return nil, fmt.Errorf("%s:%d:%d: worlds appears twice; keep one list", file, line, col)
		}
		at = &members[i]
	}
	style := detectStyle(src, members)
	if at == nil {
		// Append the list as the object's last member.
		field := style.nl + style.indent + `"worlds":` + style.colon + style.list(nil, worlds)
		var b bytes.Buffer
		if len(members) == 0 {
			b.Write(bytes.TrimRight(src[:closing], " \t\r\n"))
			b.WriteString(field + style.nl)
			b.Write(src[closing:])
		} else {
			end := members[len(members)-1].end
			b.Write(src[:end])
			b.WriteString("," + field)
			b.Write(src[end:])
		}
		return b.Bytes(), nil
	}
	var entries []json.RawMessage
	if err := json.Unmarshal(src[at.start:at.end], &entries); err != nil {
		line, col := jsondoc.LineCol(src, at.start)
		return nil, fmt.Errorf("%s:%d:%d: worlds must be a list of {scene, manifest}; fix or remove it", file, line, col)
	}
	// Replace the entries of the scenes given, keep every other entry's
	// text; a list that already says the same is left as it is.
	pending := append([]PackageWorld(nil), worlds...)
	handled := map[string]bool{}
	var kept []string
	same := true
	for _, e := range entries {
		var w struct {
			Scene *string `json:"scene"`
		}
		if json.Unmarshal(e, &w) != nil || w.Scene == nil {
			kept = append(kept, string(e))
			continue
		}
		if handled[*w.Scene] {
			// A second entry for a scene just written would contradict it.
			same = false
			continue
		}
		text := string(e)
		for k, p := range pending {
			if p.Scene != *w.Scene {
				continue
			}
			var cur PackageWorld
			json.Unmarshal(e, &cur)
			if cur != p {
				text = style.entry(p)
				same = false
			}
			handled[p.Scene] = true
			pending = append(pending[:k], pending[k+1:]...)
			break
		}
		kept = append(kept, text)
	}
	if same && len(pending) == 0 {
		return src, nil
	}
	list := style.list(kept, pending)
	out := make([]byte, 0, len(src)+len(list))
	out = append(out, src[:at.start]...)
	out = append(out, list...)
	return append(out, src[at.end:]...), nil
}

// style is how a configuration is laid out, so that an edit reads like
// the rest of it: the engine writes JSON.stringify(config, null, 2).
type style struct {
	nl, indent, colon string
}

func detectStyle(src []byte, members []member) style {
	if len(members) == 0 || !bytes.Contains(src, []byte{'\n'}) {
		if len(members) == 0 {
			return style{nl: "\n", indent: "  ", colon: " "}
		}
		return style{}
	}
	// The indentation of the first key: the white space before it on its
	// line.
	keyAt := bytes.LastIndexByte(src[:members[0].start], '"')
	keyAt = bytes.LastIndexByte(src[:keyAt], '"')
	lineStart := bytes.LastIndexByte(src[:keyAt], '\n') + 1
	indent := string(src[lineStart:keyAt])
	if strings.Trim(indent, " \t") != "" {
		indent = "  "
	}
	colon := ""
	between := src[keyAt:members[0].start]
	if bytes.HasSuffix(between, []byte(": ")) {
		colon = " "
	}
	return style{nl: "\n", indent: indent, colon: colon}
}

func (s style) entry(w PackageWorld) string {
	q := func(v string) string {
		b, _ := json.Marshal(v)
		return string(b)
	}
	if s.nl == "" {
		return `{"scene":` + q(w.Scene) + `,"manifest":` + q(w.Manifest) + `}`
	}
	in := s.nl + strings.Repeat(s.indent, 3)
	return "{" + in + `"scene":` + s.colon + q(w.Scene) + "," + in + `"manifest":` + s.colon + q(w.Manifest) +
		s.nl + strings.Repeat(s.indent, 2) + "}"
}

// list renders a worlds list of kept entry texts followed by new entries.
func (s style) list(kept []string, add []PackageWorld) string {
	items := append([]string(nil), kept...)
	for _, w := range add {
		items = append(items, s.entry(w))
	}
	if len(items) == 0 {
		return "[]"
	}
	if s.nl == "" {
		return "[" + strings.Join(items, ",") + "]"
	}
	in := s.nl + strings.Repeat(s.indent, 2)
	return "[" + in + strings.Join(items, ","+in) + s.nl + s.indent + "]"
}

// packageScenes is the configuration's scenes list and entry scene, as
// the runtime reads them.
type packageScenes struct {
	EntryScene string `json:"entryScene"`
	Scenes     []struct {
		Name string `json:"name"`
		Path string `json:"path"`
	} `json:"scenes"`
}

// registeredPaths returns, for each of the scenes named that the game
// configuration at file registers, the path its scenes list gives: where
// the packaged runtime loads the scene from, relative to the package root
// (out, the configuration's folder; see PackageEntry), and where the
// engine's own export writes the persistent world. A scene not registered
// keeps PersistentPath. A path that would leave out (absolute, "..", a
// backslash or a drive), is not a scene file, or lies among the world's
// own files (world/, worldcook's bookkeeping) is refused: the persistent
// world is written only inside out. Inputs are refused later, as for
// every path a cook writes (batchClaims).
func registeredPaths(file, out string, names []string) (map[string]string, error) {
	src, err := readPackageConfig(file)
	if err != nil {
		return nil, err
	}
	var cfg packageScenes
	if len(bytes.TrimSpace(src)) > 0 {
		if err := json.Unmarshal(src, &cfg); err != nil {
			return nil, fmt.Errorf("--persist-at %s: %s: %v; fix the game configuration's scenes list", PersistentAtRegistered, file, err)
		}
	}
	paths := map[string]string{}
	for _, name := range names {
		for _, s := range cfg.Scenes {
			if s.Name != name {
				continue
			}
			if err := checkRegistered(name, s.Path); err != nil {
				return nil, fmt.Errorf("--persist-at %s: %s registers scene %q at %q, which %v; the persistent world is written only inside %s (the package root): fix the scenes entry, or cook with --persist-at %s", PersistentAtRegistered, file, name, s.Path, err, out, PersistentAtName)
			}
			paths[name] = s.Path
			break
		}
	}
	return paths, nil
}

// checkRegistered says why p cannot hold scene's persistent world.
func checkRegistered(scene, p string) error {
	if err := manifest.CheckPath(p); err != nil {
		return errors.New("is not a path inside the package (" + err.Error() + ")")
	}
	if !strings.HasSuffix(p, validate.SceneExt) {
		return fmt.Errorf("is not a %s file", validate.SceneExt)
	}
	first, _, _ := strings.Cut(p, "/")
	if first == worldDir || strings.HasPrefix(path.Base(p), ".") || strings.Contains(p, "/.") || strings.HasPrefix(p, ".") {
		return errors.New("lies among the world's cells or worldcook's bookkeeping")
	}
	if l := layoutOf(scene); l.owns(p) && p != l.persistent() {
		return errors.New("is one of worldcook's own files")
	}
	return nil
}

// PackageNotes reads what the game configuration says about the scenes of
// worlds and returns what would keep the packaged runtime from adopting
// them as cooked: it adopts only the entry scene's world, and loads each
// scene from the path its scenes list gives, which must be the persistent
// world the cook wrote into out. With registered (--persist-at
// registered) the cook wrote it there. Each is a warning whose message
// starts with the configuration file's name.
func PackageNotes(file string, worlds []PackageWorld, registered bool) []diag.Diagnostic {
	src, err := readPackageConfig(file)
	if err != nil || len(src) == 0 {
		return nil
	}
	var cfg packageScenes
	if json.Unmarshal(src, &cfg) != nil {
		return nil
	}
	var notes []diag.Diagnostic
	note := func(format string, args ...any) {
		notes = append(notes, diag.Diagnostic{Severity: diag.SeverityWarning, Message: fmt.Sprintf(format, args...)})
	}
	entry := ""
	for _, s := range cfg.Scenes {
		if s.Path == cfg.EntryScene {
			entry = s.Name
		}
	}
	for _, w := range worlds {
		if entry != "" && entry != w.Scene {
			note("%s boots into scene %q, and the runtime adopts only the entry scene's world: %q will not stream until it is the entry scene", file, entry, w.Scene)
		}
		if registered {
			continue // written at the registered path (RegisteredPaths)
		}
		// The persistent world sits at the package root (see PackageEntry).
		want := PersistentPath(w.Scene)
		for _, s := range cfg.Scenes {
			if s.Name == w.Scene && s.Path != want {
				note("%s registers scene %q at %s, but its persistent world was cooked to %s, so the runtime loads the uncut scene and streams its cells on top: cook with --persist-at %s (cook.persistAt in worldcook.yaml) to write it at %s, or point the scenes entry at %s", file, w.Scene, s.Path, want, PersistentAtRegistered, s.Path, want)
			}
		}
	}
	return notes
}
