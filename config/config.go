// Package config resolves worldcook's settings once, from flags, WORLDCOOK_*
// environment variables, worldcook.yaml and defaults (in that order of
// precedence), into one typed Config. Nothing below cmd/ reads viper.
package config

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/spf13/pflag"
	"github.com/spf13/viper"
)

// DefaultFile is the configuration file read from the working directory
// when --config is not given.
const DefaultFile = "worldcook.yaml"

// Config is every setting a worldcook command uses.
type Config struct {
	Quiet bool `mapstructure:"quiet"`
	JSON  bool `mapstructure:"json"`

	Cook     Cook     `mapstructure:"cook"`
	Validate Validate `mapstructure:"validate"`
	Simulate Simulate `mapstructure:"simulate"`

	// Components declares project component types whose fields hold entity
	// ids, so that validation checks them like the engine's own.
	Components map[string]Component `mapstructure:"components"`

	// AssetRefs extends which fields and files reference assets, for the
	// asset lists of the manifest and simulate's asset costs.
	AssetRefs AssetRefs `mapstructure:"assetRefs"`

	// File is the configuration file that was read, if any.
	File string `mapstructure:"-"`
}

// Component declares a project component's entity-reference fields.
type Component struct {
	EntityFields []string `mapstructure:"entityFields"`
	// SoftFields are entity fields the game resolves itself and tolerates
	// missing: they are not checked against residency boundaries.
	SoftFields []string `mapstructure:"softFields"`
}

// AssetRefs extends the built-in asset reference rules.
type AssetRefs struct {
	// Fields are more keys whose string values name assets.
	Fields []string `mapstructure:"fields"`
	// Kinds are keyed by file extension (".esdialog"); a listed kind
	// replaces the built-in one for its extension.
	Kinds map[string]AssetKind `mapstructure:"kinds"`
}

// AssetKind says how the asset files with one extension are read.
type AssetKind struct {
	// Follow: the file is JSON whose references are assets too.
	Follow bool `mapstructure:"follow"`
	// FileRelative: plain paths inside it are relative to its folder.
	FileRelative bool `mapstructure:"fileRelative"`
	// Fields are reference fields of this kind only.
	Fields []string `mapstructure:"fields"`
}

// Cook holds the cook and partition settings (validate shares the partition ones).
type Cook struct {
	Out        string   `mapstructure:"out"`
	Plane      string   `mapstructure:"plane"`
	ScenesRoot string   `mapstructure:"scenesRoot"`
	Assets     []string `mapstructure:"assets"`
	Check      bool     `mapstructure:"check"`
	Jobs       int      `mapstructure:"jobs"`
	Timings    bool     `mapstructure:"timings"`
	Strict     bool     `mapstructure:"strict"`
	Progress   string   `mapstructure:"progress"`
}

// Validate holds the validate command's settings.
type Validate struct {
	Format     string   `mapstructure:"format"`
	Strict     bool     `mapstructure:"strict"`
	Map        string   `mapstructure:"map"`
	Plane      string   `mapstructure:"plane"`
	ScenesRoot string   `mapstructure:"scenesRoot"`
	Assets     []string `mapstructure:"assets"`
}

// Simulate holds the streaming simulation settings. Pointer fields are
// optional: nil means "not set" (no cap, no pinning, no LOD, the authored
// radii), which is different from 0.
type Simulate struct {
	Path             string   `mapstructure:"path"`
	LoadRadius       *float64 `mapstructure:"loadRadius"`
	UnloadRadius     *float64 `mapstructure:"unloadRadius"`
	PrefetchRadius   *float64 `mapstructure:"prefetchRadius"`
	Budget           *int64   `mapstructure:"budget"`
	MaxInFlight      *int     `mapstructure:"maxInFlight"`
	LatencyFrames    int      `mapstructure:"latencyFrames"`
	IOBytesPerFrame  *int64   `mapstructure:"ioBytesPerFrame"`
	LODRadius        *float64 `mapstructure:"lodRadius"`
	MaxResidentBytes *int64   `mapstructure:"maxResidentBytes"`
	PinnedRadius     *float64 `mapstructure:"pinnedRadius"`
	EvictCooldown    int      `mapstructure:"evictCooldown"`
	Distance         string   `mapstructure:"distance"`
	IO               string   `mapstructure:"io"`
	Concurrency      int      `mapstructure:"concurrency"`
	FrameBudgetMS    float64  `mapstructure:"frameBudgetMs"`
	FailRate         float64  `mapstructure:"failRate"`
	Seed             uint64   `mapstructure:"seed"`
	Retries          int      `mapstructure:"retries"`
	RetryBackoff     int      `mapstructure:"retryBackoff"`
	RetryTimeout     int      `mapstructure:"retryTimeout"`
	Format           string   `mapstructure:"format"`
	Plot             string   `mapstructure:"plot"`
	Map              string   `mapstructure:"map"`
	Plane            string   `mapstructure:"plane"`
	ScenesRoot       string   `mapstructure:"scenesRoot"`
	Assets           []string `mapstructure:"assets"`
	AssetCosts       string   `mapstructure:"assetCosts"`
}

// Loader binds command-line flags to configuration keys and resolves them.
// A command registers its flags with Bind, then calls Resolve once.
type Loader struct {
	v *viper.Viper
}

// NewLoader returns a Loader that reads WORLDCOOK_* variables from env.
func NewLoader() *Loader {
	return &Loader{v: viper.New()}
}

// Bind connects every flag in fs to the key section.camelName (or
// camelName when section is empty) and to the environment variable
// WORLDCOOK_[SECTION_]FLAG_NAME, e.g. --load-radius of simulate is
// simulate.loadRadius in worldcook.yaml and WORLDCOOK_SIMULATE_LOAD_RADIUS.
func (l *Loader) Bind(section string, fs *pflag.FlagSet) error {
	var err error
	prefix := "WORLDCOOK_"
	if section != "" {
		prefix += strings.ToUpper(section) + "_"
	}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Name == "help" || f.Name == "config" {
			return
		}
		key := camel(f.Name)
		if section != "" {
			key = section + "." + key
		}
		env := prefix + strings.ToUpper(strings.ReplaceAll(f.Name, "-", "_"))
		if e := l.v.BindPFlag(key, f); e != nil && err == nil {
			err = e
		}
		if e := l.v.BindEnv(key, env); e != nil && err == nil {
			err = e
		}
	})
	return err
}

// Resolve reads the configuration file (explicit, or ./worldcook.yaml if
// present) and returns the typed configuration.
func (l *Loader) Resolve(file string) (*Config, error) {
	cfg := &Config{}
	if file == "" {
		if _, err := os.Stat(DefaultFile); err == nil {
			file = DefaultFile
		}
	}
	if file != "" {
		l.v.SetConfigFile(file)
		l.v.SetConfigType("yaml")
		if err := l.v.ReadInConfig(); err != nil {
			var nf viper.ConfigFileNotFoundError
			if errors.As(err, &nf) || os.IsNotExist(errors.Unwrap(err)) {
				return nil, fmt.Errorf("config file %s not found; pass an existing file to --config", file)
			}
			return nil, fmt.Errorf("config file %s: %v; fix the YAML or pass another file to --config", file, err)
		}
		cfg.File = file
	}
	if err := l.v.Unmarshal(cfg); err != nil {
		return nil, fmt.Errorf("configuration: %v; check the value types in %s and WORLDCOOK_* variables", err, orDefault(file, "the environment"))
	}
	l.clearUnset(cfg)
	return cfg, nil
}

// clearUnset turns optional settings that nobody gave back into nil: flags
// carry a zero default, but an unset cap must mean "no cap", not 0.
func (l *Loader) clearUnset(cfg *Config) {
	s := &cfg.Simulate
	fields := map[string]func(){
		"simulate.loadradius":       func() { s.LoadRadius = nil },
		"simulate.unloadradius":     func() { s.UnloadRadius = nil },
		"simulate.prefetchradius":   func() { s.PrefetchRadius = nil },
		"simulate.budget":           func() { s.Budget = nil },
		"simulate.maxinflight":      func() { s.MaxInFlight = nil },
		"simulate.iobytesperframe":  func() { s.IOBytesPerFrame = nil },
		"simulate.lodradius":        func() { s.LODRadius = nil },
		"simulate.maxresidentbytes": func() { s.MaxResidentBytes = nil },
		"simulate.pinnedradius":     func() { s.PinnedRadius = nil },
	}
	for key, clear := range fields {
		if !l.v.IsSet(key) {
			clear()
		}
	}
}

func camel(flag string) string {
	parts := strings.Split(flag, "-")
	for i := 1; i < len(parts); i++ {
		if parts[i] != "" {
			parts[i] = strings.ToUpper(parts[i][:1]) + parts[i][1:]
		}
	}
	return strings.Join(parts, "")
}

func orDefault(s, d string) string {
	if s == "" {
		return d
	}
	return s
}
