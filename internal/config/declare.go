package config

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/worldcook/worldcook/internal/bytesize"
)

// A setting is declared once, as a field of Config (or of one of its
// sections) with struct tags; everything else is derived from it:
//
//	flag:"max-resident-bytes[,s]"  the flag (and its one-letter short form)
//	default:"…"                    the default, in the flag's syntax
//	unit:"bytes"                   what the value is: bytes, count, frames,
//	                               distance, ms, probability, duration, seed,
//	                               path (a file) or dir (see units)
//	enum:"bounds,center|centre"    the only values accepted (| adds an alias)
//	values:"table,jsonl,csv"       values offered to completion; the package
//	                               that owns them checks them
//	min:"1" max:"1024"             a range beyond the unit's own rule
//	positive:"true"                more than 0 (a cell size), not 0 or more
//	help:"…"                       the help line; {min}, {max} and {values}
//	                               in it read as the declared bounds and
//	                               values
//
// A fact that a package below config owns (a limit it enforces, the values
// it accepts, its default) is not repeated in a tag: default, enum, values,
// min and max name it instead, max:"streaming.MaxFrameBudgetMS", and the
// value comes from the owner (owners.go).
//
// A group of settings several sections share is a struct embedded in each
// (SceneInput): its settings are declared once, and are each section's own.
//
// From the flag name come the worldcook.yaml key (camelCase under the
// section: simulate.maxResidentBytes; the flag spelling is accepted as
// the same key) and the environment variable (WORLDCOOK_SIMULATE_MAX_RESIDENT_BYTES;
// WORLDCOOK_QUIET for a global setting). A pointer field is optional: nil
// means "not set", which differs from 0.
//
// To add a setting, add the field with its tags to its section and read
// it in the command: the flag, the environment variable, the yaml key,
// help, completion, validation, `worldcook config` and docs/config.md's
// table all follow (TestEveryFlagIsASetting checks that nothing else
// registers flags by hand).

// Setting is one declared setting.
type Setting struct {
	Section  string // "" for a global setting, else cook, validate or simulate
	Key      string // the worldcook.yaml key inside the section: maxResidentBytes
	Flag     string // max-resident-bytes
	Short    string // one-letter flag, if any
	Env      string // WORLDCOOK_SIMULATE_MAX_RESIDENT_BYTES
	Default  string // in the flag's syntax; "" is the zero value (or unset)
	Unit     string // bytes, count, frames, distance, ms, probability, duration, seed, path, dir, or ""
	Values   []string
	Closed   bool // Values are the only ones accepted, and checked here
	Help     string
	Optional bool // a pointer field: nil when nobody set it

	aliases  map[string]string
	min, max *float64
	positive bool
	index    []int        // the field's index path from Config
	typ      reflect.Type // the field's type (the element type when Optional)
}

// Path is the setting's full key: simulate.maxResidentBytes, quiet.
func (s *Setting) Path() string {
	if s.Section == "" {
		return s.Key
	}
	return s.Section + "." + s.Key
}

// units are the rules a unit implies, and how messages say them.
var units = map[string]struct {
	nonNegative bool
	want        string // what a valid value is, for messages
	typeName    string // the flag's value placeholder in --help
}{
	"":            {false, "", ""},
	"bytes":       {true, "0 or more bytes", "size"},
	"count":       {true, "0 or more", "int"},
	"frames":      {true, "0 or more frames", "frames"},
	"distance":    {true, "a finite distance, 0 or more", "distance"},
	"ms":          {true, "0 or more milliseconds", "ms"},
	"seconds":     {true, "0 or more seconds", "seconds"},
	"rate":        {true, "a number a second, 0 or more", "rate"},
	"probability": {true, "a probability from 0 to 1", "probability"},
	"duration":    {true, "a duration of 0 or more, such as 30s or 2m", "duration"},
	"path":        {false, "", "file"},
	"dir":         {false, "", "dir"},
	"seed":        {false, "", "uint"},
	"extent":      {false, "a width and a height, WxH, such as 1280x720", "WxH"},
}

var (
	durationType = reflect.TypeOf(time.Duration(0))
	configType   = reflect.TypeOf(Config{})
	// declared is every setting, in declaration order: globals, then each
	// section's.
	declared = declare()
	// sectionTypes maps a section's struct type to its name.
	sectionTypes = map[reflect.Type]string{}
)

// Declared returns the settings of section ("" for the global ones), in
// declaration order.
func Declared(section string) []*Setting {
	var out []*Setting
	for _, s := range declared {
		if s.Section == section {
			out = append(out, s)
		}
	}
	return out
}

// Sections lists the command sections, in declaration order.
func Sections() []string {
	var out []string
	for i := 0; i < configType.NumField(); i++ {
		if name := configType.Field(i).Tag.Get("section"); name != "" {
			out = append(out, name)
		}
	}
	return out
}

func lookup(section, key string) *Setting {
	n := normalize(key)
	for _, s := range declared {
		if s.Section == section && normalize(s.Key) == n {
			return s
		}
	}
	return nil
}

// declare reads the tags of Config and its sections. A malformed tag is
// a programming error, found by any test that loads the package.
func declare() []*Setting {
	var out []*Setting
	for i := 0; i < configType.NumField(); i++ {
		f := configType.Field(i)
		if name := f.Tag.Get("section"); name != "" {
			sectionTypes[f.Type] = name
			out = append(out, declareStruct(name, f.Type, []int{i})...)
			continue
		}
		if s := declareField("", f, []int{i}); s != nil {
			out = append(out, s)
		}
	}
	return out
}

// declareStruct reads the settings of a section's struct, in field order.
// An embedded struct is a group of settings several sections share
// (SceneInput): its settings are the section's own, in its place, declared
// once for every section that embeds it.
func declareStruct(section string, t reflect.Type, index []int) []*Setting {
	var out []*Setting
	for j := 0; j < t.NumField(); j++ {
		f := t.Field(j)
		at := append(slices.Clip(index), j)
		if f.Anonymous && f.Type.Kind() == reflect.Struct {
			out = append(out, declareStruct(section, f.Type, at)...)
			continue
		}
		if s := declareField(section, f, at); s != nil {
			out = append(out, s)
		}
	}
	return out
}

func declareField(section string, f reflect.StructField, index []int) *Setting {
	tag := f.Tag.Get("flag")
	if tag == "" {
		return nil
	}
	name, short, _ := strings.Cut(tag, ",")
	s := &Setting{Section: section, Flag: name, Short: short, Key: camel(name),
		Unit: f.Tag.Get("unit"), Help: f.Tag.Get("help"), index: index, typ: f.Type}
	get := func(key string) string { return ownedTag(s.Path(), key, f.Tag.Get(key)) }
	s.Default = get("default")
	s.positive = f.Tag.Get("positive") == "true"
	s.Env = "WORLDCOOK_"
	if section != "" {
		s.Env += strings.ToUpper(section) + "_"
	}
	s.Env += strings.ToUpper(strings.ReplaceAll(name, "-", "_"))
	if f.Type.Kind() == reflect.Pointer {
		s.Optional, s.typ = true, f.Type.Elem()
	}
	if _, ok := units[s.Unit]; !ok {
		panic(fmt.Sprintf("config: %s: unknown unit %q", s.Path(), s.Unit))
	}
	if e := get("enum"); e != "" {
		s.Closed = true
		s.aliases = map[string]string{}
		for _, v := range strings.Split(e, ",") {
			names := strings.Split(v, "|")
			s.Values = append(s.Values, names[0])
			for _, a := range names {
				s.aliases[a] = names[0]
			}
		}
	} else if v := get("values"); v != "" {
		s.Values = strings.Split(v, ",")
	}
	for tag, dst := range map[string]**float64{"min": &s.min, "max": &s.max} {
		if v := get(tag); v != "" {
			x, err := strconv.ParseFloat(v, 64)
			if err != nil {
				panic(fmt.Sprintf("config: %s: %s %q", s.Path(), tag, v))
			}
			*dst = &x
		}
	}
	// A help text that states the range says it from the declaration:
	// "(1 to {max})" reads "(1 to 256)" when max names streaming's 256.
	for name, bound := range map[string]*float64{"{min}": s.min, "{max}": s.max} {
		if bound != nil {
			s.Help = strings.ReplaceAll(s.Help, name, strconv.FormatFloat(*bound, 'f', -1, 64))
		}
	}
	if strings.Contains(s.Help, "{min}") || strings.Contains(s.Help, "{max}") {
		panic(fmt.Sprintf("config: %s: help %q names a bound it does not declare", s.Path(), s.Help))
	}
	// "exit 1 on: {values}" lists an enum's values, where they are many.
	s.Help = strings.ReplaceAll(s.Help, "{values}", strings.Join(s.Values, ", "))
	if s.Default != "" {
		v, err := s.parse([]string{s.Default})
		if err == nil {
			_, err = s.check(v)
		}
		if err != nil {
			panic(fmt.Sprintf("config: %s: default %q: %v", s.Path(), s.Default, err))
		}
	}
	return s
}

// List reports whether the setting holds several values.
func (s *Setting) List() bool { return s.typ.Kind() == reflect.Slice }

// TypeName is the placeholder of the flag's value in --help: the values
// of a one-value setting (plane xz|xy), "list" for a list of values, whose
// help names them (spelt out, they would push every help text of the
// command past the width of a terminal).
func (s *Setting) TypeName() string {
	if len(s.Values) > 0 && s.List() {
		return "list"
	}
	if len(s.Values) > 0 {
		return strings.Join(s.Values, "|")
	}
	if n := units[s.Unit].typeName; n != "" {
		if s.List() {
			return n + "s"
		}
		return n
	}
	switch {
	case s.List():
		return "strings"
	case s.typ == durationType:
		return "duration"
	}
	return s.typ.Kind().String()
}

// parse reads one value in the flag's syntax, the same for a flag, an
// environment variable and a yaml scalar. It says what is wrong with the
// text; rules on the value (ranges, allowed values) are check's.
func (s *Setting) parse(raw []string) (reflect.Value, error) {
	v := reflect.New(s.typ).Elem()
	if s.List() {
		items := make([]string, 0, len(raw))
		for _, r := range raw {
			if r = strings.TrimSpace(r); r != "" {
				if c, ok := s.aliases[r]; ok {
					r = c
				}
				items = append(items, r)
			}
		}
		v.Set(reflect.ValueOf(items))
		return v, nil
	}
	text := ""
	if len(raw) > 0 {
		text = strings.TrimSpace(raw[0])
	}
	switch {
	case s.typ == durationType:
		d, err := time.ParseDuration(text)
		if err != nil {
			return v, fmt.Errorf("%q is not a duration; use a number with a unit, such as 30s, 2m or 1h", text)
		}
		v.SetInt(int64(d))
		return v, nil
	case s.Unit == "bytes":
		n, err := bytesize.Parse(text)
		if err != nil {
			return v, fmt.Errorf("%q is %v", text, err)
		}
		v.SetInt(n)
		return v, nil
	case s.Unit == "extent":
		if _, _, err := ParseExtent(text); err != nil {
			return v, err
		}
		v.SetString(text)
		return v, nil
	}
	switch s.typ.Kind() {
	case reflect.String:
		if c, ok := s.aliases[text]; ok {
			text = c
		}
		v.SetString(text)
	case reflect.Bool:
		// strconv's booleans (true, false, 1, 0, t, f in any case) and
		// nothing else: yes and no are words in YAML 1.2 and in a shell,
		// and a setting either parses the same everywhere or nowhere.
		b, err := strconv.ParseBool(text)
		if err != nil {
			return v, fmt.Errorf("%q is not a boolean; use true or false", text)
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int64:
		n, err := strconv.ParseInt(text, 10, s.typ.Bits())
		if err != nil {
			return v, fmt.Errorf("%q is not a whole number", text)
		}
		v.SetInt(n)
	case reflect.Uint64:
		n, err := strconv.ParseUint(text, 10, 64)
		if err != nil {
			return v, fmt.Errorf("%q is not a whole number of 0 or more", text)
		}
		v.SetUint(n)
	case reflect.Float64:
		x, err := strconv.ParseFloat(text, 64)
		if err != nil {
			return v, fmt.Errorf("%q is not a number", text)
		}
		v.SetFloat(x)
	default:
		panic(fmt.Sprintf("config: %s: unsupported type %s", s.Path(), s.typ))
	}
	return v, nil
}

// check applies the setting's rules to a parsed value and returns what a
// valid value is when it breaks one.
func (s *Setting) check(v reflect.Value) (string, error) {
	if s.Closed {
		// Each item of a list, or the one value.
		items := []string{v.String()}
		if s.List() {
			items = v.Interface().([]string)
		}
		for _, item := range items {
			if !slices.Contains(s.Values, item) {
				return item, errBadValue
			}
		}
		return "", nil
	}
	var x float64
	switch v.Kind() {
	case reflect.Int, reflect.Int64:
		x = float64(v.Int())
	case reflect.Uint64:
		x = float64(v.Uint())
	case reflect.Float64:
		x = v.Float()
	default:
		return "", nil
	}
	u := units[s.Unit]
	want := u.want
	if want == "" {
		want = "a finite number"
	}
	lo, hi := math.Inf(-1), math.Inf(1)
	if u.nonNegative {
		lo = 0
	}
	if s.Unit == "probability" {
		hi = 1
	}
	if s.min != nil {
		lo = *s.min
	}
	if s.max != nil {
		hi = *s.max
	}
	if s.min != nil || s.max != nil {
		want = rangeText(lo, hi, s.Unit)
	}
	if s.positive {
		// One rule, said once, whichever side of 0 the value is on.
		want = strings.Replace(want, "0 or more", "more than 0", 1)
		if x <= 0 {
			return want, errBadValue
		}
	}
	if math.IsNaN(x) || math.IsInf(x, 0) || x < lo || x > hi {
		return want, errBadValue
	}
	return "", nil
}

var errBadValue = fmt.Errorf("bad value")

func rangeText(lo, hi float64, unit string) string {
	noun := map[string]string{"bytes": " bytes", "frames": " frames", "ms": " milliseconds"}[unit]
	n := func(v float64) string { return strconv.FormatFloat(v, 'f', -1, 64) }
	switch {
	case math.IsInf(hi, 1):
		return fmt.Sprintf("at least %s%s", n(lo), noun)
	case math.IsInf(lo, -1):
		return fmt.Sprintf("at most %s%s", n(hi), noun)
	}
	return fmt.Sprintf("from %s to %s%s", n(lo), n(hi), noun)
}

// format writes a value back in the flag's syntax.
func (s *Setting) format(v reflect.Value) string {
	if s.Optional {
		if v.IsNil() {
			return ""
		}
		v = v.Elem()
	}
	switch {
	case s.List():
		return strings.Join(v.Interface().([]string), ",")
	case s.typ == durationType:
		return time.Duration(v.Int()).String()
	}
	return fmt.Sprint(v.Interface())
}

func orList(vs []string) string {
	switch len(vs) {
	case 0:
		return ""
	case 1:
		return vs[0]
	}
	return strings.Join(vs[:len(vs)-1], ", ") + " or " + vs[len(vs)-1]
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

// normalize is the spelling-blind form of a key: maxResidentBytes,
// max-resident-bytes and max_resident_bytes are one key (and, as they
// always were, keys are not case-sensitive).
func normalize(key string) string {
	return strings.ToLower(keyPunct.Replace(key))
}

var keyPunct = strings.NewReplacer("-", "", "_", "")
