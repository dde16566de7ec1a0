package magnas

import (
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"gnnsim/internal/boundedio"
	"gnnsim/internal/csvtab"
	"gnnsim/workload"
)

// Accuracy gives a candidate architecture's top-1 accuracy (%). Source
// names where the number comes from; every output carries it.
type Accuracy interface {
	Top1(a Arch) (float64, error)
	Source() string
}

// Datasets are the four data sets of MaGNAS (Section 5.1.2).
var Datasets = []string{"cifar10", "cifar100", "flowers", "tiny-imagenet"}

// baselineTop1 is MaGNAS Table 2: top-1 (%) of the ViG-S baselines b0-b3
// (MRConv, EdgeConv, GIN, GraphSAGE everywhere) per data set.
var baselineTop1 = map[string]map[workload.LayerKind]float64{
	"cifar10":       {workload.MRConv: 94.15, workload.EdgeConv: 94.15, workload.GIN: 94.20, workload.SAGE: 94.27},
	"cifar100":      {workload.MRConv: 82.13, workload.EdgeConv: 82.13, workload.GIN: 81.49, workload.SAGE: 82.10},
	"flowers":       {workload.MRConv: 89.71, workload.EdgeConv: 90.29, workload.GIN: 86.37, workload.SAGE: 88.92},
	"tiny-imagenet": {workload.MRConv: 68.12, workload.EdgeConv: 68.15, workload.GIN: 67.62, workload.SAGE: 68.32},
}

// proxyDrop is the accuracy (points) the proxy takes from the smallest
// subnet relative to the largest: gnnsim's choice, not fitted (MaGNAS
// publishes no accuracy of small subnets apart from its Pareto picks,
// which lose less than one point on every data set: Table 2). Harder data
// sets lose more.
var proxyDrop = map[string]float64{"cifar10": 1.0, "cifar100": 2.5, "flowers": 3.0, "tiny-imagenet": 3.0}

// Proxy is the default accuracy: a documented stand-in for the trained
// supernet, which cannot be trained here (MISSION section 10).
//
//	top1(a) = sum_i d_i acc_b(op_i) / sum_i d_i  -  drop x (1 - cap(a))
//
// where acc_b(op) is the Table 2 baseline accuracy of the ViG-S with op
// throughout (so the largest subnet with one op reproduces its baseline
// exactly), and cap(a) in [0, 1] is the architecture's capacity: the log
// of its MACs with every graph op replaced by MRConv (so capacity does not
// reward an op's cost, only depth, fc1, FFN and width), scaled between the
// smallest and the largest subnet. The proxy is monotone in depth, fc1,
// FFN and FFN width.
type Proxy struct {
	Dataset string
	net     workload.SupernetSpace
	lo, hi  float64 // log MACs of the smallest and largest subnet

	mu    sync.Mutex
	cache map[string]float64
}

// NewProxy returns the proxy for one of Datasets on net.
func NewProxy(dataset string, net workload.SupernetSpace) (*Proxy, error) {
	if _, ok := baselineTop1[dataset]; !ok {
		return nil, fmt.Errorf("magnas: no accuracy anchors for data set %q (have %s)", dataset, strings.Join(Datasets, ", "))
	}
	p := &Proxy{Dataset: dataset, net: net, cache: map[string]float64{}}
	small := Uniform(len(net.K), workload.Superblock{Depth: slices.Min(net.Depths), Op: workload.MRConv, PreFC: false, FFN: false, FFNHidden: slices.Min(net.Hidden)})
	large := Baseline(net, workload.MRConv)
	var err error
	if p.lo, err = p.logMACs(small); err != nil {
		return nil, err
	}
	if p.hi, err = p.logMACs(large); err != nil {
		return nil, err
	}
	return p, nil
}

func (p *Proxy) logMACs(a Arch) (float64, error) {
	neutral := slices.Clone(a)
	for i := range neutral {
		neutral[i].Op = workload.MRConv
		if !neutral[i].FFN {
			neutral[i].FFNHidden = p.net.Hidden[0]
		}
	}
	m, err := p.net.Model(neutral)
	if err != nil {
		return 0, fmt.Errorf("magnas: proxy: %w", err)
	}
	macs, err := m.MACs()
	if err != nil {
		return 0, fmt.Errorf("magnas: proxy: %w", err)
	}
	return math.Log(float64(macs)), nil
}

// Source names the proxy and its data set.
func (p *Proxy) Source() string { return "proxy:" + p.Dataset }

// Top1 returns the proxy accuracy of a.
func (p *Proxy) Top1(a Arch) (float64, error) {
	key := a.String()
	p.mu.Lock()
	v, ok := p.cache[key]
	p.mu.Unlock()
	if ok {
		return v, nil
	}
	base := baselineTop1[p.Dataset]
	var sum, depth float64
	for _, sb := range a {
		b, ok := base[sb.Op]
		if !ok {
			return 0, fmt.Errorf("magnas: proxy: graph op %s has no baseline", sb.Op)
		}
		sum += float64(sb.Depth) * b
		depth += float64(sb.Depth)
	}
	if depth == 0 {
		return 0, errors.New("magnas: proxy: architecture with no blocks")
	}
	lm, err := p.logMACs(a)
	if err != nil {
		return 0, err
	}
	capacity := 1.0
	if p.hi > p.lo {
		capacity = min(max((lm-p.lo)/(p.hi-p.lo), 0), 1)
	}
	v = sum/depth - proxyDrop[p.Dataset]*(1-capacity)
	p.mu.Lock()
	p.cache[key] = v
	p.mu.Unlock()
	return v, nil
}

// TableAccuracy is accuracy read from a user's CSV: measured top-1 per
// architecture.
type TableAccuracy struct {
	Name string
	top1 map[string]float64
}

// ReadAccuracyCSV reads a CSV with a header naming the columns "arch" (the
// form of Arch.String, e.g. "d4G.fc0.ffn1.w192|...") and "top1" (percent,
// 0..100); other columns are ignored. name (a file name) goes into Source.
func ReadAccuracyCSV(r io.Reader, name string) (*TableAccuracy, error) {
	prefix := "magnas: accuracy table " + name
	tab, err := csvtab.Open(r, csvtab.Options{Ragged: true, Name: prefix})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", prefix, err)
	}
	col, err := tab.Need([]string{"arch", "top1"}, true)
	if err != nil {
		return nil, fmt.Errorf("%s: header needs columns arch and top1", prefix)
	}
	ai, ti := col["arch"], col["top1"]
	t := &TableAccuracy{Name: name, top1: map[string]float64{}}
	_, err = tab.Each(func(rec []string, line int) error {
		if len(rec) <= max(ai, ti) {
			return fmt.Errorf("%s: line %d has %d fields", prefix, line, len(rec))
		}
		a, err := ParseArch(rec[ai])
		if err != nil {
			return fmt.Errorf("%s: line %d: %w", prefix, line, err)
		}
		v, err := strconv.ParseFloat(strings.TrimSpace(rec[ti]), 64)
		if err != nil || !(v >= 0 && v <= 100) {
			return fmt.Errorf("%s: line %d: top1 %q is not a percentage", prefix, line, rec[ti])
		}
		if _, dup := t.top1[a.String()]; dup {
			return fmt.Errorf("%s: line %d: architecture %s appears twice", prefix, line, a)
		}
		t.top1[a.String()] = v
		return nil
	})
	if err != nil {
		return nil, err
	}
	if len(t.top1) == 0 {
		return nil, fmt.Errorf("magnas: accuracy table %s has no rows", name)
	}
	return t, nil
}

// Source names the table.
func (t *TableAccuracy) Source() string { return "table:" + t.Name }

// Top1 returns the table's accuracy of a; an architecture the table lacks
// is an error (the search cannot score it).
func (t *TableAccuracy) Top1(a Arch) (float64, error) {
	v, ok := t.top1[a.String()]
	if !ok {
		return 0, fmt.Errorf("magnas: accuracy table %s has no row for %s", t.Name, a)
	}
	return v, nil
}

// LoadAccuracyCSV reads the accuracy CSV file at path (ReadAccuracyCSV).
func LoadAccuracyCSV(path string) (*TableAccuracy, error) {
	f, err := boundedio.Open(path, boundedio.CSV)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return ReadAccuracyCSV(f, path)
}
