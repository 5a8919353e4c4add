package cmd

import (
	"fmt"
	"runtime"
	"runtime/debug"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/spf13/cobra"
)

// version may be set at build time with -ldflags "-X .../cmd.version=v1.2.3";
// otherwise it comes from the build information go build stamps.
var version = ""

// buildInfo is what `worldcook version` reports.
type buildInfo struct {
	Type     string `json:"message_type"`
	Version  string `json:"version"`
	Revision string `json:"revision,omitempty"`
	Time     string `json:"time,omitempty"`
	Modified bool   `json:"modified,omitempty"`
	Go       string `json:"go"`
	OS       string `json:"os"`
	Arch     string `json:"arch"`
}

// readBuildInfo finds worldcook's version: the -X override, else the
// module version go build stamps (a release tag, or a pseudo-version of
// the commit with +dirty for uncommitted changes), else the commit itself
// (a build with the module version unknown, such as go run or
// -buildvcs=false, still says which source it is when it knows), else
// "devel".
func readBuildInfo(info *debug.BuildInfo, ok bool) buildInfo {
	b := buildInfo{Type: "version", Version: version, Go: runtime.Version(), OS: runtime.GOOS, Arch: runtime.GOARCH}
	if !ok {
		info = &debug.BuildInfo{}
	}
	for _, s := range info.Settings {
		switch s.Key {
		case "vcs.revision":
			b.Revision = s.Value
		case "vcs.time":
			b.Time = s.Value
		case "vcs.modified":
			b.Modified = s.Value == "true"
		}
	}
	if b.Version == "" && info.Main.Version != "" && info.Main.Version != "(devel)" {
		b.Version = info.Main.Version
	}
	if b.Version == "" && b.Revision != "" {
		b.Version = "devel-" + b.Revision[:min(12, len(b.Revision))]
		if b.Modified {
			b.Version += "+dirty"
		}
	}
	if b.Version == "" {
		b.Version = "devel"
	}
	return b
}

// versionString is the version as --version and the SARIF tool record
// give it.
func versionString() string { return readBuildInfo(debug.ReadBuildInfo()).Version }

func (b buildInfo) line() string {
	return strings.Join([]string{"worldcook", b.Version, b.OS + "/" + b.Arch, b.Go}, " ")
}

func newVersionCmd(a *app) *cobra.Command {
	return &cobra.Command{
		Use:   "version",
		Short: "Print worldcook's version",
		Long: `Print worldcook's version, platform and Go version. The version is the one
go build stamps from the module and its git checkout (a tag, or the commit
as a pseudo-version, +dirty with uncommitted changes). With --json, one
JSON object with the commit and its time as well (docs/json.md).`,
		Example: "  worldcook version\n  worldcook version --json",
		Args:    cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			// The version is what a broken worldcook.yaml is reported
			// with, so it does not need the settings to resolve: --json
			// (or WORLDCOOK_JSON, when they do) is all it reads.
			asJSON := cmd.Flag("json").Value.String() == "true"
			if cfg, err := a.config(cmd); err == nil {
				asJSON = cfg.JSON
			}
			b := readBuildInfo(debug.ReadBuildInfo())
			if asJSON {
				return json.NewEncoder(a.io.Out).Encode(b)
			}
			_, err := fmt.Fprintln(a.io.Out, b.line())
			return err
		},
	}
}
