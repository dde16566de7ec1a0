package predict

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"gnnsim/accel"
	"gnnsim/dataflow"
	"gnnsim/graphs"
	"gnnsim/internal/boundedio"
	"gnnsim/predict/gbdt"
)

// maxManifestBytes bounds the manifest LoadPredictor reads.
const maxManifestBytes = 1 << 20

// Predictor predicts the latency of all 24 configurations of a GCN layer on
// a graph with the models of a directory, through leaves. It is safe for
// concurrent use.
type Predictor struct {
	man      Manifest
	features FeatureSet
	models   [NumConfigs]*gbdt.Ensemble
	// linearCols are the columns of the log-linear baseline's inputs.
	linearCols []int
	scratch    sync.Pool // *predictScratch
}

// LoadPredictor reads a model directory written by Fitted.Save (or by hand:
// a manifest and 24 LightGBM v2/v3 text models with the feature columns the
// manifest names), or, when it has no manifest.json, a directory of
// LightGBM models trained elsewhere described by a sidecar.json (see
// Sidecar). Everything is checked: the manifest's format, feature set,
// configuration order and hardware, and every model's width and feature
// names.
func LoadPredictor(dir string) (*Predictor, error) {
	path := filepath.Join(dir, ManifestFile)
	var man Manifest
	err := readJSONFile(path, &man)
	if errors.Is(err, os.ErrNotExist) {
		if _, serr := os.Stat(filepath.Join(dir, SidecarFile)); serr == nil {
			return loadSidecar(dir)
		}
		return nil, fmt.Errorf("predict: %s: neither %s (a directory 'gnnsim predict train' wrote) nor %s (LightGBM models trained elsewhere)", dir, ManifestFile, SidecarFile)
	}
	if err != nil {
		return nil, err
	}
	// One directory, one description: a manifest silently winning over a
	// sidecar (or the reverse) would predict with models the user did not
	// mean, perhaps on another scale (log or raw cycles).
	if _, serr := os.Stat(filepath.Join(dir, SidecarFile)); serr == nil {
		return nil, fmt.Errorf("predict: %s holds both %s (written by 'gnnsim predict train') and %s (LightGBM models trained elsewhere): keep only the one meant", dir, ManifestFile, SidecarFile)
	}
	return newPredictor(dir, path, man)
}

// readJSONFile decodes the JSON file at path, of at most
// maxManifestBytes, into v; unknown keys are errors.
func readJSONFile(path string, v any) error {
	fh, err := boundedio.Open(path, boundedio.Manifest)
	if err != nil {
		return fmt.Errorf("predict: %w", err)
	}
	defer fh.Close()
	var buf bytes.Buffer
	if _, err := buf.ReadFrom(io.LimitReader(fh, maxManifestBytes+1)); err != nil {
		return fmt.Errorf("predict: reading %s: %w", path, err)
	}
	if buf.Len() > maxManifestBytes {
		return fmt.Errorf("predict: %s is larger than %d bytes", path, maxManifestBytes)
	}
	dec := json.NewDecoder(&buf)
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("predict: %s: %w", path, err)
	}
	return nil
}

// newPredictor checks man (read from path) and loads its models from dir.
func newPredictor(dir, path string, man Manifest) (*Predictor, error) {
	p := &Predictor{man: man}
	if err := p.checkManifest(); err != nil {
		return nil, fmt.Errorf("predict: %s: %w", path, err)
	}
	for c, e := range man.Models {
		if filepath.IsAbs(e.File) || strings.Contains(filepath.ToSlash(e.File), "..") {
			return nil, fmt.Errorf("predict: %s: model file %q must be a plain name inside the directory", path, e.File)
		}
		m, err := gbdt.LoadModel(filepath.Join(dir, e.File))
		if err != nil {
			return nil, err
		}
		if !slices.Equal(m.FeatureNames(), man.FeatureNames) {
			return nil, fmt.Errorf("predict: %s: features %v, the manifest says %v", e.File, m.FeatureNames(), man.FeatureNames)
		}
		p.models[c] = m
	}
	p.scratch.New = func() any { return new(predictScratch) }
	return p, nil
}

func (p *Predictor) checkManifest() error {
	m := &p.man
	if m.Format != ManifestFormat {
		return fmt.Errorf("format %q, want %q", m.Format, ManifestFormat)
	}
	fs, err := ParseFeatureSet(m.Features)
	if err != nil {
		return err
	}
	p.features = fs
	p.linearCols = fs.linearColumns()
	if !slices.Equal(m.FeatureNames, fs.Names()) {
		return fmt.Errorf("feature_names %v do not match feature set %s %v", m.FeatureNames, fs, fs.Names())
	}
	if m.Target != "cycles" {
		return fmt.Errorf("target %q, want cycles", m.Target)
	}
	names := ConfigNames()
	if len(m.Models) != NumConfigs {
		return fmt.Errorf("%d models, want %d", len(m.Models), NumConfigs)
	}
	for c, e := range m.Models {
		if e.Config != names[c] {
			return fmt.Errorf("model %d is %q, want %q (configurations in the order %s)", c, e.Config, names[c], strings.Join(names, " "))
		}
	}
	if !slices.Contains(names, m.BestFixed) {
		return fmt.Errorf("best_fixed %q is not a configuration", m.BestFixed)
	}
	for _, d := range m.TrainedOn {
		if d.BestFixed != "" && !slices.Contains(names, d.BestFixed) {
			return fmt.Errorf("trained_on %s: best_fixed %q is not a configuration", d.Name, d.BestFixed)
		}
	}
	switch m.Baseline {
	case NoBaseline.String():
		if m.Linear != nil {
			return errors.New("baseline none with linear terms")
		}
	case LogLinear.String():
		if err := checkLinear(m, fs); err != nil {
			return err
		}
	default:
		return fmt.Errorf("unknown baseline %q (want none or loglinear)", m.Baseline)
	}
	if len(m.Hardware) == 0 {
		return errors.New("no hardware listed")
	}
	for i, h := range m.Hardware {
		if !h.valid() {
			return fmt.Errorf("hardware %d: %d PEs with %d for pp aggregation is not a valid PE array", i, h.PEs, h.PPAggPEs)
		}
	}
	return nil
}

// Manifest returns the directory's manifest.
func (p *Predictor) Manifest() Manifest { return p.man }

// FeatureSet returns the feature set the models take.
func (p *Predictor) FeatureSet() FeatureSet { return p.features }

// Hardware returns the PE arrays the models were trained on.
func (p *Predictor) Hardware() []PEArray { return slices.Clone(p.man.Hardware) }

func (p *Predictor) checkHardware(hw PEArray) error {
	if slices.Contains(p.man.Hardware, hw.resolved()) {
		return nil
	}
	var known []string
	for _, h := range p.man.Hardware {
		known = append(known, h.String())
	}
	return fmt.Errorf("predict: the models were trained on %s, not on %s: its tile sizes are outside what they learnt", strings.Join(known, ", "), hw)
}

// Predict writes the predicted latency in cycles of every configuration
// (ConfigNames order) of a GCN layer with F input and G output features on
// graph g, whose features are gf, into out[:NumConfigs], and returns the
// index of the predicted best (ArgMin). hw's PE array must be one the
// models were trained on. g may be nil for a Base predictor. It does not
// allocate.
func (p *Predictor) Predict(g *graphs.Graph, gf *graphs.Features, F, G int, hw accel.HW, out []float64) (int, error) {
	if len(out) < NumConfigs {
		return -1, fmt.Errorf("predict: output has room for %d latencies, need %d", len(out), NumConfigs)
	}
	if err := p.checkHardware(PEArrayOf(hw)); err != nil {
		return -1, err
	}
	if p.features == Full && g == nil {
		return -1, errors.New("predict: the full feature set needs the graph")
	}
	if gf.Nodes <= 0 {
		return -1, errors.New("predict: the graph has no nodes")
	}
	h := PEArrayOf(hw).resolved()
	cfgs, err := dataflow.All(dataflow.Dims{V: gf.Nodes, F: F, G: G}, h.PEs, h.PPAggPEs)
	if err != nil {
		return -1, fmt.Errorf("predict: %w", err)
	}
	var tiles [NumConfigs]dataflow.Tiles
	for c := range cfgs {
		tiles[c] = cfgs[c].Tiles
	}
	return p.predictTiles(g, gf, F, G, &tiles, out)
}

// PredictGraph is Predict for a graph whose features are not at hand: it
// computes them first (graphs.ComputeFeatures, which allocates).
func (p *Predictor) PredictGraph(g *graphs.Graph, F, G int, hw accel.HW, out []float64) (int, error) {
	if g == nil {
		return -1, errors.New("predict: nil graph")
	}
	gf := graphs.ComputeFeatures(g)
	return p.Predict(g, &gf, F, G, hw, out)
}

// PredictSample is Predict for a labelled sample, with the tiles recorded
// in it (those the labels were simulated with).
func (p *Predictor) PredictSample(s *Sample, out []float64) (int, error) {
	if len(out) < NumConfigs {
		return -1, fmt.Errorf("predict: output has room for %d latencies, need %d", len(out), NumConfigs)
	}
	if err := checkSample(s, p.features); err != nil {
		return -1, fmt.Errorf("predict: %w", err)
	}
	if err := p.checkHardware(s.Hardware); err != nil {
		return -1, err
	}
	return p.predictTiles(s.Graph, &s.Features, s.F, s.G, &s.Tiles, out)
}

// Extrapolation lists the features of a prediction (as Predict would make
// it) that lie outside the range the models were trained on, one line per
// feature with its value and the widest training range over the models
// ("F = 4096 outside the trained [16, 64]"). Tree models answer such rows
// with their edge leaves, so the latencies are extrapolations at best.
func (p *Predictor) Extrapolation(g *graphs.Graph, F, G int, hw accel.HW) ([]string, error) {
	if g == nil {
		return nil, errors.New("predict: nil graph")
	}
	gf := graphs.ComputeFeatures(g)
	if gf.Nodes <= 0 {
		return nil, errors.New("predict: the graph has no nodes")
	}
	h := PEArrayOf(hw).resolved()
	cfgs, err := dataflow.All(dataflow.Dims{V: gf.Nodes, F: F, G: G}, h.PEs, h.PPAggPEs)
	if err != nil {
		return nil, fmt.Errorf("predict: %w", err)
	}
	names := p.features.Names()
	var out []string
	seen := map[string]bool{}
	row := make([]float64, 0, NumFullFeatures)
	for c := range cfgs {
		row = p.features.AppendRow(row[:0], g, &gf, F, G, cfgs[c].Tiles)
		rs := p.models[c].FeatureRanges()
		for j, x := range row {
			if j >= len(rs) || !rs[j].Known || seen[names[j]] || x >= rs[j].Min && x <= rs[j].Max {
				continue
			}
			lo, hi := rs[j].Min, rs[j].Max
			for _, m := range p.models { // widest range over the 24 models
				if r := m.FeatureRanges(); j < len(r) && r[j].Known {
					lo, hi = min(lo, r[j].Min), max(hi, r[j].Max)
				}
			}
			if x >= lo && x <= hi {
				continue
			}
			seen[names[j]] = true
			out = append(out, fmt.Sprintf("%s = %.6g outside the trained [%.6g, %.6g]", names[j], x, lo, hi))
		}
	}
	return out, nil
}

// MaxPredictedCycles bounds a prediction: 1e15 cycles is 11 days at
// 1 GHz, far beyond any layer a model of the seeds is trained on, so a
// larger (or non-finite) prediction is a model read on the
// wrong scale, refused rather than printed.
const MaxPredictedCycles = 1e15

// maxLinearInputs is the most inputs a log-linear baseline has (Full).
const maxLinearInputs = 4 + dataflow.NumComposite

// predictScratch is the per-call working memory of a prediction, pooled so
// that predictions do not allocate (leaves takes the row through an
// interface, so a stack array would escape).
type predictScratch struct {
	rows [NumConfigs][NumFullFeatures]float64
	z    [NumConfigs][maxLinearInputs]float64 // baseline inputs of each row
}

func (p *Predictor) predictTiles(g *graphs.Graph, gf *graphs.Features, F, G int, tiles *[NumConfigs]dataflow.Tiles, out []float64) (int, error) {
	sc := p.scratch.Get().(*predictScratch)
	defer p.scratch.Put(sc)
	nf := p.features.NumFeatures()
	nz := len(p.linearCols)
	for c := range tiles {
		// seq and sp share their tiles: reuse the row (S5 is O(V)) and
		// the logs of the baseline inputs.
		same := slices.Index(tiles[:c], tiles[c])
		if same >= 0 {
			sc.rows[c] = sc.rows[same]
		} else {
			p.features.AppendRow(sc.rows[c][:0:nf], g, gf, F, G, tiles[c])
		}
		row := sc.rows[c][:nf]
		v, err := p.models[c].Predict(row)
		if err != nil {
			return -1, fmt.Errorf("predict: model %s: %w", p.man.Models[c].Config, err)
		}
		if p.man.Linear != nil {
			z := sc.z[c][:nz]
			if same >= 0 {
				copy(z, sc.z[same][:nz])
			} else {
				for k, j := range p.linearCols {
					// V, E, F and G are the same in every row.
					if c > 0 && row[j] == sc.rows[0][j] {
						z[k] = sc.z[0][k]
					} else {
						z[k] = logInput(row[j])
					}
				}
			}
			v += p.man.Linear.Terms[c].dot(z)
		}
		out[c] = toLatency(v, p.man.Log)
		if !(math.Abs(out[c]) <= MaxPredictedCycles) {
			return -1, fmt.Errorf("predict: model %s predicts %.3g cycles, beyond %.0g: the models' scale is wrong (log-cycle models read as raw, or the reverse: check \"log\" in %s or %s)",
				p.man.Models[c].Config, out[c], float64(MaxPredictedCycles), ManifestFile, SidecarFile)
		}
	}
	return ArgMin(out[:NumConfigs]), nil
}
