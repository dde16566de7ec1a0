package bench

import (
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/strictyaml"
	"gnnsim/workload"
)

// Size limits of a sweep, checked before any work starts: a spec beyond
// them is refused rather than left to run for days or exhaust memory.
const (
	// MaxGraphs bounds the graphs of a sweep (all sources together).
	MaxGraphs = 100_000_000
	// MaxChunks bounds the part files of a sweep (graphs / chunk_graphs).
	MaxChunks = 1_000_000
	// MaxFeatures bounds every feature size F and G (workload.MaxFeatures).
	MaxFeatures = workload.MaxFeatures
)

// validName is what a spec name may be: it names a directory under
// results/, so no separators, no leading dot, nothing to escape with.
var validName = regexp.MustCompile(`^[A-Za-z0-9_][A-Za-z0-9._+-]*$`)

// Spec describes a sweep: graph sources x layer kinds x feature sizes x
// configurations x hardware, in one mode, fully seeded. It is read from YAML
// (see bench/testdata/example.yaml for a commented example) and recorded
// verbatim in every output file's metadata.
type Spec struct {
	Name   string        `yaml:"name"`
	Seed   uint64        `yaml:"seed"`
	Graphs []GraphSource `yaml:"graphs"`
	// Layers are the layer kinds every graph runs (gcn, gin, sage, gat for
	// omega); empty means [gcn], and [gcn] is normalised to empty, so that
	// such specs keep their hash and outputs (no layer column).
	Layers []string `yaml:"layers,omitempty"`
	// Model names a whole model to sweep instead of layers; only unit
	// kinds that sweep models accept it (none is built in).
	Model  string     `yaml:"model,omitempty"`
	Sizes  SizeSpec   `yaml:"sizes"`
	Config ConfigSpec `yaml:"configurations"`
	// Unit is the kind of hardware (RegisterUnit); empty means omega, the
	// Omega-style accelerator, and omega is normalised to empty.
	Unit string         `yaml:"unit,omitempty"`
	HW   []HardwareSpec `yaml:"hardware"`
	Mode string         `yaml:"mode"` // omega | extended (default)

	// ChunkGraphs is the number of consecutive graphs per part file: the unit
	// of sharding, resumption and crash loss. Default 256.
	ChunkGraphs int `yaml:"chunk_graphs"`

	// FPGA is the design grid of unit: fpga (see FPGASpec).
	FPGA *FPGASpec `yaml:"fpga,omitempty"`
	// Soc is the model x mapping x DVFS grid of unit: soc (see SocSpec).
	Soc *SocSpec `yaml:"soc,omitempty"`
	// DSA is the model x dataflow x PEs x L2 grid of unit: dsa (see
	// DSASweepSpec).
	DSA *DSASweepSpec `yaml:"dsa,omitempty"`
	// GCoS is the designs x models x data sets grid of unit: gcos (see
	// GCoSSpec).
	GCoS *GCoSSpec `yaml:"gcos,omitempty"`
	// ChunkPoints is, for a unit kind that sweeps design points instead
	// of graphs (fpga, soc, dsa), the number of consecutive points per part file.
	// Default 4096.
	ChunkPoints int `yaml:"chunk_points,omitempty"`

	// dir is the folder of the spec file (LoadSpec), against which the
	// spec's relative paths resolve (Path); "" for a spec not read from a
	// file. It is not part of the spec's text, hash or outputs.
	dir string
}

// Path resolves a file path written in the spec. A relative path is taken
// from the spec file's folder, as Docker Compose, Timeloop and Slurm batch
// files take theirs, so a sweep gives the same result from any working
// directory; when no such file exists there, p is returned as written, so
// a name (a zoo model, a data set, a built-in dataflow) stays a name and a
// path relative to the working directory still works as before. Absolute
// paths, "" and specs not read from a file return p. Outputs record the
// value as written, never the resolved path.
func (s *Spec) Path(p string) string {
	if d := s.dirOf(p); d != "" {
		return filepath.Join(d, p)
	}
	return p
}

// dirOf returns the spec's folder when p is a relative path naming a file
// or folder there, else "".
func (s *Spec) dirOf(p string) string {
	if s == nil || s.dir == "" || p == "" || filepath.IsAbs(p) {
		return ""
	}
	if _, err := os.Stat(filepath.Join(s.dir, p)); err != nil {
		return ""
	}
	return s.dir
}

// MaxPoints bounds the design points of a sweep of a point kind.
const MaxPoints = MaxGraphs

// chunkSize is the number of graphs, or design points, per chunk.
func (s *Spec) chunkSize() int {
	if s.ChunkPoints > 0 {
		return s.ChunkPoints
	}
	return s.ChunkGraphs
}

// GraphSource is either a generator or a path to load.
type GraphSource struct {
	// Dataset labels the graphs in the runs table's dataset column (default:
	// the generator name, or the base name of the path).
	Dataset string `yaml:"dataset,omitempty"`

	// Generated graphs.
	Generator string             `yaml:"generator,omitempty"`
	Preset    string             `yaml:"preset,omitempty"` // graphlaxy presets: small | medium | large
	Count     int                `yaml:"count,omitempty"`
	Seed      *uint64            `yaml:"seed,omitempty"`  // default: the spec seed
	Nodes     []int              `yaml:"nodes,omitempty"` // [min, max]
	Edges     []int              `yaml:"edges,omitempty"` // [min, max]
	Params    map[string]float64 `yaml:"params,omitempty"`

	// Loaded graphs.
	Path string `yaml:"path,omitempty"`
	// Files: only with a directory path that is not a TUDataset, the glob of
	// files to load from it (e.g. "*.mtx"); files refused by the loader
	// (say, rectangular matrices) are skipped and listed in the summary.
	Files  string `yaml:"files,omitempty"`
	Format string `yaml:"format,omitempty"` // tu | mtx | edgelist | cites | graphset; empty = auto
}

// SizeSpec gives each graph its feature sizes F (input) and G (output).
// Mode "cycle" (default) gives graph i F[i mod len(F)] and G[i mod len(G)],
// the rule of the STONNE-Omega reference set; "cross" runs every graph with
// every (F, G) pair; "random" draws F and G uniformly from the lists with the
// spec seed and the graph index.
type SizeSpec struct {
	F    []int  `yaml:"F"`
	G    []int  `yaml:"G"`
	Mode string `yaml:"mode"`
}

// ConfigSpec names the configurations: the cross product of dataflows and
// named tilings, plus custom tilings ("T_Va=4,T_N=2,T_Fa=8,T_Vc=8,T_Gc=1,T_Fc=16")
// crossed with the dataflows.
type ConfigSpec struct {
	Dataflows []string `yaml:"dataflows,omitempty"` // seq | sp | pp; empty = all three
	Tilings   []string `yaml:"tilings,omitempty"`   // a..h or "all"; empty = all eight
	Custom    []string `yaml:"custom,omitempty"`
}

// HardwareSpec names one hardware point of the sweep: an accelerator
// description (an accel.HW spec file, default the built-in one) with its PE
// count optionally overridden. It refers to an accel.HW; it is not a
// description of its own. An empty list means the built-in hardware.
type HardwareSpec struct {
	Name string `yaml:"name,omitempty"`
	File string `yaml:"file,omitempty"`
	// PEs overrides the file's PE count when given (at least 1).
	PEs *int `yaml:"pes,omitempty"`
	// DRAMBytesPerCycle overrides the file's DRAM bandwidth when given
	// (positive; extended mode prices it, omega mode's memory is
	// unlimited).
	DRAMBytesPerCycle *float64 `yaml:"dram_bytes_per_cycle,omitempty"`
}

// SpecError is a spec problem, naming the key and the reason.
type SpecError struct {
	Key, Reason string
}

func (e *SpecError) Error() string { return fmt.Sprintf("spec: %s: %s", e.Key, e.Reason) }

func specErr(key, format string, args ...any) error {
	return &SpecError{Key: key, Reason: fmt.Sprintf(format, args...)}
}

// checkLists refuses a grid list given empty ("pes: []", which would fall
// back to the default as if absent) or naming a value twice (a point
// computed twice, under two ids). lists maps each key to its values.
func checkLists(lists map[string][]string) error {
	for _, key := range slices.Sorted(maps.Keys(lists)) {
		l := lists[key]
		if l != nil && len(l) == 0 {
			return specErr(key, "empty list: give at least one value, or leave the key out for the default")
		}
		for i, v := range l {
			if slices.Contains(l[:i], v) {
				return specErr(fmt.Sprintf("%s[%d]", key, i), "%s listed twice", v)
			}
		}
	}
	return nil
}

// strs formats a list's values for checkLists (nil stays nil).
func strs[T any](l []T) []string {
	if l == nil {
		return nil
	}
	out := make([]string, len(l))
	for i, v := range l {
		out[i] = fmt.Sprint(v)
	}
	return out
}

// ParseSpec reads a YAML spec; unknown keys are errors so a typo never
// silently falls back to a default, and so is a value of the wrong type
// (seed: 1.5, pes: 256.7), which YAML decoders otherwise truncate.
func ParseSpec(data []byte) (*Spec, error) {
	var s Spec
	if err := strictyaml.Decode(data, &s); err != nil {
		if errors.Is(err, strictyaml.ErrEmpty) {
			return nil, specErr("(file)", "empty spec")
		}
		return nil, fmt.Errorf("spec: %w", err)
	}
	if err := s.normalize(); err != nil {
		return nil, err
	}
	return &s, nil
}

// LoadSpec reads a spec file.
func LoadSpec(path string) (*Spec, error) {
	data, err := boundedio.ReadFile(path, boundedio.Spec)
	if err != nil {
		return nil, fmt.Errorf("spec: %w", err)
	}
	s, err := ParseSpec(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	s.dir = filepath.Dir(path)
	return s, nil
}

// normalize fills defaults and checks everything that can be checked without
// touching files or simulating.
func (s *Spec) normalize() error {
	if s.Name != "" && !validName.MatchString(s.Name) {
		return specErr("name", "%q: a name is letters, digits and . _ + - (no path separators, no leading dot); it names the directory results/<name>", s.Name)
	}
	if k, ok := unitKind(s.Unit); ok && k.Points != nil {
		return s.normalizePoints(k)
	}
	if s.ChunkPoints != 0 {
		return specErr("chunk_points", "only unit kinds that sweep design points (%s) read it; graph sweeps have chunk_graphs", strings.Join(pointKinds(), ", "))
	}
	if len(s.Graphs) == 0 {
		return specErr("graphs", "empty list: name at least one generator or path")
	}
	total := 0
	for i := range s.Graphs {
		g := &s.Graphs[i]
		key := fmt.Sprintf("graphs[%d]", i)
		switch {
		case g.Generator != "" && g.Path != "":
			return specErr(key, "give either generator or path, not both")
		case g.Generator == "" && g.Path == "":
			return specErr(key, "needs a generator or a path")
		case g.Path != "":
			switch g.Format {
			case "", "tu", "mtx", "edgelist", "cites", "graphset":
			default:
				return specErr(key+".format", "unknown format %q (want tu, mtx, edgelist, cites or graphset)", g.Format)
			}
		default:
			if g.Count < 0 {
				return specErr(key+".count", "negative count %d", g.Count)
			}
			if g.Count == 0 && g.Preset == "" {
				return specErr(key+".count", "missing or zero (or name a preset)")
			}
			if g.Count > MaxGraphs {
				return specErr(key+".count", "%d graphs is above the limit of %d per sweep", g.Count, MaxGraphs)
			}
			if total += g.Count; total > MaxGraphs {
				return specErr(key+".count", "the sources generate more than %d graphs, the limit per sweep", MaxGraphs)
			}
			for _, r := range []struct {
				k string
				v []int
			}{{"nodes", g.Nodes}, {"edges", g.Edges}} {
				if r.v == nil {
					continue
				}
				if len(r.v) != 2 || r.v[0] < 1 || r.v[1] < r.v[0] {
					return specErr(key+"."+r.k, "want [min, max] with 1 <= min <= max, got %v (leave the key out for the generator's default)", r.v)
				}
			}
			for k, v := range g.Params {
				if math.IsNaN(v) || math.IsInf(v, 0) {
					return specErr(key+".params."+k, "not a finite number")
				}
			}
		}
	}
	if len(s.Sizes.F) == 0 {
		s.Sizes.F = DefaultSizes().F
	}
	if len(s.Sizes.G) == 0 {
		s.Sizes.G = DefaultSizes().G
	}
	for _, k := range []struct {
		name string
		v    []int
	}{{"sizes.F", s.Sizes.F}, {"sizes.G", s.Sizes.G}} {
		for _, x := range k.v {
			if x <= 0 || x > MaxFeatures {
				return specErr(k.name, "feature size %d outside [1, %d]", x, MaxFeatures)
			}
		}
	}
	switch s.Sizes.Mode {
	case "":
		s.Sizes.Mode = "cycle"
	case "cycle", "cross", "random":
	default:
		return specErr("sizes.mode", "unknown mode %q (want cycle, cross or random)", s.Sizes.Mode)
	}
	switch s.Mode {
	case "":
		s.Mode = "extended"
	case "omega", "extended":
	default:
		return specErr("mode", "unknown mode %q (want omega or extended)", s.Mode)
	}
	if s.ChunkGraphs == 0 {
		s.ChunkGraphs = 256
	}
	if s.ChunkGraphs < 0 || s.ChunkGraphs > MaxGraphs {
		return specErr("chunk_graphs", "%d outside [1, %d] (leave it out for 256)", s.ChunkGraphs, MaxGraphs)
	}
	if total > 0 && (total+s.ChunkGraphs-1)/s.ChunkGraphs > MaxChunks {
		return specErr("chunk_graphs", "%d graphs in chunks of %d make more than %d part files; raise chunk_graphs", total, s.ChunkGraphs, MaxChunks)
	}
	for i, h := range s.HW {
		if h.PEs != nil && *h.PEs < 1 {
			return specErr(fmt.Sprintf("hardware[%d].pes", i), "PE count %d must be at least 1 (leave the key out for the hardware file's)", *h.PEs)
		}
		if b := h.DRAMBytesPerCycle; b != nil && !(*b > 0 && !math.IsInf(*b, 0)) {
			return specErr(fmt.Sprintf("hardware[%d].dram_bytes_per_cycle", i), "DRAM bandwidth %v must be positive and finite (leave the key out for the hardware file's)", *b)
		}
	}
	if err := s.checkUnitKeys(); err != nil {
		return err
	}
	k, _ := unitKind(s.Unit)
	return s.checkKindBlocks(k)
}

// normalizePoints checks the spec of a kind that sweeps design points: no
// graph keys, the kind's own keys (k.Points), the chunk size.
func (s *Spec) normalizePoints(k UnitKind) error {
	for _, c := range []struct {
		key string
		set bool
	}{{"graphs", len(s.Graphs) > 0}, {"layers", len(s.Layers) > 0}, {"model", s.Model != ""},
		{"sizes", len(s.Sizes.F)+len(s.Sizes.G) > 0 || s.Sizes.Mode != ""},
		{"configurations", len(s.Config.Dataflows)+len(s.Config.Tilings)+len(s.Config.Custom) > 0},
		{"hardware", len(s.HW) > 0}, {"mode", s.Mode != ""}, {"chunk_graphs", s.ChunkGraphs != 0}} {
		if c.set {
			return specErr(c.key, "unit %s sweeps design points, not graphs: leave %s out (see bench/testdata/%s.yaml)", k.Name, c.key, k.Name)
		}
	}
	if s.ChunkPoints == 0 {
		s.ChunkPoints = 4096
	}
	if s.ChunkPoints < 0 || s.ChunkPoints > MaxPoints {
		return specErr("chunk_points", "%d outside [1, %d] (leave it out for 4096)", s.ChunkPoints, MaxPoints)
	}
	if err := s.checkKindBlocks(k); err != nil {
		return err
	}
	n, err := k.Points(s)
	if err != nil {
		return err
	}
	if n < 1 || n > MaxPoints {
		return specErr("unit", "unit %s: %d design points, want 1..%d", k.Name, n, MaxPoints)
	}
	if (n+s.ChunkPoints-1)/s.ChunkPoints > MaxChunks {
		return specErr("chunk_points", "%d points in chunks of %d make more than %d part files; raise chunk_points", n, s.ChunkPoints, MaxChunks)
	}
	return nil
}

// checkKindBlocks refuses a kind's own block (fpga:, soc:, dsa:) in a spec of another
// kind, so a forgotten unit: key is not a silent omega sweep.
func (s *Spec) checkKindBlocks(k UnitKind) error {
	if s.FPGA != nil && k.Name != fpgaUnit {
		return specErr("fpga", "only unit: fpga reads it (this spec's unit is %s)", k.Name)
	}
	if s.DSA != nil && k.Name != dsaUnit {
		return specErr("dsa", "only unit: dsa reads it (this spec's unit is %s)", k.Name)
	}
	if s.GCoS != nil && k.Name != gcosUnit {
		return specErr("gcos", "only unit: gcos reads it (this spec's unit is %s)", k.Name)
	}
	if s.Soc != nil && k.Name != socUnit {
		return specErr("soc", "only unit: soc reads it (this spec's unit is %s)", k.Name)
	}
	return nil
}

// Canonical returns the spec as normalized YAML: the text recorded in result
// metadata, and what Hash digests.
func (s *Spec) Canonical() string {
	out, err := yaml.Marshal(s)
	if err != nil { // a Spec always marshals; keep the contract anyway
		return fmt.Sprintf("%+v", *s)
	}
	return string(out)
}

// Hash identifies the spec's results: part files of another spec are never
// reused by resume or merge.
func (s *Spec) Hash() string {
	sum := sha256.Sum256([]byte(s.Canonical()))
	return hex.EncodeToString(sum[:8])
}
