package buildinfo

import (
	"io"
	"path/filepath"

	json "github.com/goccy/go-json"
)

// Metafile is the --metafile document (docs/json.md).
type Metafile struct {
	MessageType string     `json:"message_type"`
	Inputs      []MetaFile `json:"inputs"`
	Outputs     []MetaOut  `json:"outputs"`
}

// MetaFile is one input: its path as the cook read it, bytes and blake3.
type MetaFile struct {
	Path   string `json:"path"`
	Bytes  int64  `json:"bytes"`
	Blake3 string `json:"blake3"`
}

// MetaOut is one output and the inputs (paths as in Inputs) it was made
// from.
type MetaOut struct {
	MetaFile
	Scene  string   `json:"scene"`
	Inputs []string `json:"inputs"`
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
		m.Inputs = append(m.Inputs, MetaFile{Path: filepath.ToSlash(p), Bytes: n, Blake3: sum})
	}
	for _, s := range g.Scenes {
		for _, o := range s.Outputs {
			n, sum, err := hashFile(o.Path)
			if err != nil {
				return nil, err
			}
			ins := make([]string, len(o.Inputs))
			for i, p := range o.Inputs {
				ins[i] = filepath.ToSlash(p)
			}
			m.Outputs = append(m.Outputs, MetaOut{MetaFile: MetaFile{Path: filepath.ToSlash(o.Path), Bytes: n, Blake3: sum}, Scene: s.File, Inputs: ins})
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
