package buildinfo

import (
	"encoding/base64"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// Metafile is the --metafile document (docs/json.md).
type Metafile struct {
	MessageType string     `json:"message_type"`
	Inputs      []MetaFile `json:"inputs"`
	Outputs     []MetaOut  `json:"outputs"`
}

// MetaFile is one input: its path as the cook read it, bytes and blake3.
// JSON strings are UTF-8, and a file name need not be: a path that is not
// valid UTF-8 is given in Path with each run of invalid bytes as U+FFFD, for
// people, and exactly, as its bytes in standard base64, in PathBase64
// (absent for every other path), for tools.
type MetaFile struct {
	Path       string `json:"path"`
	PathBase64 string `json:"pathBase64,omitempty"`
	Bytes      int64  `json:"bytes"`
	Blake3     string `json:"blake3"`
}

// MetaOut is one output and the inputs (paths as in Inputs) it was made
// from. InputsBase64, present only when an input's path is not valid
// UTF-8, gives each input's path as PathBase64 does ("" for a valid one),
// in the order of Inputs.
type MetaOut struct {
	MetaFile
	Scene        string   `json:"scene"`
	SceneBase64  string   `json:"sceneBase64,omitempty"`
	Inputs       []string `json:"inputs"`
	InputsBase64 []string `json:"inputsBase64,omitempty"`
}

// metaFile is the entry of the file at p.
func metaFile(p string, n int64, sum string) MetaFile {
	p = filepath.ToSlash(p)
	return MetaFile{Path: strings.ToValidUTF8(p, "\uFFFD"), PathBase64: exact(p), Bytes: n, Blake3: sum}
}

// exact is p in base64 when p is not valid UTF-8, else "".
func exact(p string) string {
	if utf8.ValidString(p) {
		return ""
	}
	return base64.StdEncoding.EncodeToString([]byte(p))
}

// Metafile hashes every input and output as it is on disk now. An input
// that changed since the cook read it gets its new digest: run it right
// after the cook, under the same conditions as the depfile.
func (g *Graph) Metafile() (*Metafile, error) {
	m := &Metafile{MessageType: "cook_metafile", Inputs: []MetaFile{}, Outputs: []MetaOut{}}
	for _, p := range g.Inputs() {
		n, sum, err := hashFile(p)
		if err != nil {
			return nil, err
		}
		m.Inputs = append(m.Inputs, metaFile(p, n, sum))
	}
	for _, s := range g.Scenes {
		for _, o := range s.Outputs {
			n, sum, err := hashFile(o.Path)
			if err != nil {
				return nil, err
			}
			out := MetaOut{MetaFile: metaFile(o.Path, n, sum), Scene: strings.ToValidUTF8(s.File, "\uFFFD"), SceneBase64: exact(s.File), Inputs: make([]string, len(o.Inputs))}
			exacts := make([]string, len(o.Inputs))
			for i, p := range o.Inputs {
				f := metaFile(p, 0, "")
				out.Inputs[i], exacts[i] = f.Path, f.PathBase64
				if f.PathBase64 != "" {
					out.InputsBase64 = exacts
				}
			}
			m.Outputs = append(m.Outputs, out)
		}
	}
	return m, nil
}

// WriteMetafile writes the metafile as one indented JSON document.
func (g *Graph) WriteMetafile(w io.Writer) error {
	m, err := g.Metafile()
	if err != nil {
		return err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(data, '\n'))
	return err
}
