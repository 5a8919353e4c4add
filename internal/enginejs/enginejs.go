// Package enginejs runs the engine's own TypeScript in Node for tests
// that compare worldcook with it: a test's entry file is bundled with the
// engine's sources by esbuild (from npm) and run by node, reading the
// test's input on stdin and writing its answer on stdout. Where node,
// esbuild or the sources are missing the test is skipped with a message
// saying what to install (.ci/run installs esbuild into Cache()).
package enginejs

import (
	"bytes"
	_ "embed"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/worldcook/worldcook/internal/corpus"
)

//go:embed build.cjs
var buildScript []byte

// EsbuildVersion is the esbuild .ci/run installs; any recent one works.
const EsbuildVersion = "0.28.2"

// Cache is the folder npm installs esbuild into for the tests, outside
// the repository: $WORLDCOOK_NPM_CACHE, else worldcook/npm under the
// user's cache folder.
func Cache() string {
	if d := os.Getenv("WORLDCOOK_NPM_CACHE"); d != "" {
		return d
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(d, "worldcook", "npm")
}

// esbuild is the esbuild package folder, or "" when it is not installed.
func esbuild() string {
	c := Cache()
	if c == "" {
		return ""
	}
	d := filepath.Join(c, "node_modules", "esbuild")
	if _, err := os.Stat(filepath.Join(d, "package.json")); err != nil {
		return ""
	}
	return d
}

// Engine returns the engine's sdk/src folder the tests compare against:
// the shared sources (corpus.EngineSDK), or skips.
func Engine(t testing.TB) string {
	t.Helper()
	d := corpus.EngineSDK()
	if d == "" {
		t.Skip("the engine's sources are not there (../shared/estella-sdk/engine/sdk/src, or WORLDCOOK_ENGINE_SDK): skipping the comparison with the engine")
	}
	return d
}

// Bundle bundles entry, a TypeScript file whose "@engine/..." imports name
// files under sdk, into one ES module for node, and returns its path.
func Bundle(t testing.TB, sdk, entry string) string {
	t.Helper()
	node := Node(t)
	eb := esbuild()
	if eb == "" {
		t.Skipf("esbuild is not installed in %s: run `npm install --prefix %s esbuild@%s` (.ci/run does) to compare with the engine", Cache(), Cache(), EsbuildVersion)
	}
	dir := t.TempDir()
	script := filepath.Join(dir, "build.cjs")
	if err := os.WriteFile(script, buildScript, 0o644); err != nil {
		t.Fatal(err)
	}
	abs, err := filepath.Abs(entry)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "bundle.mjs")
	cmd := exec.Command(node, script, eb, sdk, abs, out)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("bundling %s with the engine's sources: %v\n%s", entry, err, stderr.String())
	}
	return out
}

// Node returns the node program, or skips.
func Node(t testing.TB) string {
	t.Helper()
	p, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not installed: skipping the comparison with the engine's TypeScript")
	}
	return p
}

// Run runs a bundled module with input on stdin and returns its stdout.
func Run(t testing.TB, bundle string, input []byte) []byte {
	t.Helper()
	cmd := exec.Command(Node(t), bundle)
	cmd.Stdin = bytes.NewReader(input)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("node %s: %v\n%s", bundle, err, stderr.String())
	}
	return stdout.Bytes()
}
