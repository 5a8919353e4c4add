package cmd

import (
	"runtime/debug"
	"testing"
)

func TestReadBuildInfo(t *testing.T) {
	vcs := func(rev, modified string) []debug.BuildSetting {
		return []debug.BuildSetting{{Key: "vcs.revision", Value: rev}, {Key: "vcs.modified", Value: modified}}
	}
	for _, tc := range []struct {
		name     string
		override string
		info     *debug.BuildInfo
		ok       bool
		want     string
	}{
		{"release", "", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true, "v1.4.0"},
		{"pseudo-version of a dirty checkout", "", &debug.BuildInfo{Main: debug.Module{Version: "v0.0.0-20261201065600-021dab4c0ffe+dirty"}, Settings: vcs("021dab4c0ffe1234", "true")}, true, "v0.0.0-20261201065600-021dab4c0ffe+dirty"},
		{"no module version, a commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("021dab4c0ffe1234", "false")}, true, "devel-021dab4c0ffe"},
		{"no module version, a dirty commit", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}, Settings: vcs("021dab4", "true")}, true, "devel-021dab4+dirty"},
		{"nothing known", "", &debug.BuildInfo{Main: debug.Module{Version: "(devel)"}}, true, "devel"},
		{"no build info", "", nil, false, "devel"},
		{"-X wins", "v9.9.9", &debug.BuildInfo{Main: debug.Module{Version: "v1.4.0"}}, true, "v9.9.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			old := version
			version = tc.override
			defer func() { version = old }()
			if got := readBuildInfo(tc.info, tc.ok).Version; got != tc.want {
				t.Errorf("version %q, want %q", got, tc.want)
			}
		})
	}
}
