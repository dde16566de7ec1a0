package seed001

import (
	"gnnsim/internal/shared"

	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"gnnsim/graphs"
	nas "gnnsim/nas/gcos"
)

// standIn is a deterministic accuracy for tests (the trainer is tested in
// package train): wider, attentive, unsampled GNNs score higher.
func standIn(ctx context.Context, ds nas.Dataset) (Oracle, error) {
	f := func(a nas.Arch) (float64, error) {
		x := 0.6
		for _, l := range a.Layers {
			if l.Attention.Scored() {
				x += 0.04
			}
			x += 0.05 * l.Sampling
		}
		x += 0.01 * math.Log2(float64(a.Layers[0].Hidden))
		return min(x, 1), nil
	}
	return Oracle{Search: f, Report: f, From: "test stand-in"}, nil
}

func TestRunSmall(t *testing.T) {
	sizes := Sizes{Fig1GNNs: 4, Fig1Accels: 5, CoSearch: 20, HWSearch: 20, PoolSize: 10}
	var outs [2]string
	var logs [2]bytes.Buffer
	for i, w := range []int{1, 2} {
		outs[i] = t.TempDir()
		rep, err := Run(context.Background(), Options{Out: outs[i], Quick: true, Seed: 7, Workers: w, Accuracy: standIn, Sizes: sizes, Log: &logs[i]})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Fig1) != 20 {
			t.Errorf("figure 1: %d pairs, want 20", len(rep.Fig1))
		}
		if len(rep.Fig7) != 2+3 {
			t.Errorf("figure 7: %d points", len(rep.Fig7))
		}
		if len(rep.Fig8) != 4*3*3 {
			t.Errorf("figure 8: %d rows, want 36", len(rep.Fig8))
		}
		if !(rep.SpeedupHyGCN > 0 && rep.SpeedupAWB > 0 && rep.SpeedupHyGCNSparseX > 0 && rep.SpeedupAWBHBM > 0) {
			t.Errorf("speed-ups %v %v %v %v", rep.SpeedupHyGCN, rep.SpeedupAWB, rep.SpeedupHyGCNSparseX, rep.SpeedupAWBHBM)
		}
		if len(rep.Fig8Sets) != 4 || len(rep.RedditSensitivity) != 3*len(RedditGammas) {
			t.Errorf("figure 8: %d data sets, %d Reddit sensitivity rows", len(rep.Fig8Sets), len(rep.RedditSensitivity))
		}
		// A faster baseline can only shrink the speed-up: HyGCN-like given
		// sparse X, AWB-GCN-like given more bandwidth.
		for _, st := range rep.Fig8Sets {
			if st.SpeedupHyGCNSparseX > st.SpeedupHyGCN*(1+1e-9) || st.SpeedupAWBHBM > st.SpeedupAWB*(1+1e-9) {
				t.Errorf("%s: a favoured baseline is slower: %+v", st.Dataset, st)
			}
		}
		// The paper's scale: a two-layer GCN on Cora takes 1-50 us on a
		// 4,096-DSP accelerator at 330 MHz.
		if rep.CoraGCNMicros < 1 || rep.CoraGCNMicros > 50 {
			t.Errorf("Cora GCN on its searched accelerator: %.1f us, want 1-50", rep.CoraGCNMicros)
		}
		if !(rep.CoraGCNMACs > 0 && rep.CoraGCNMACs < rep.CoraGCNDenseMACs/10) {
			t.Errorf("Cora GCN: %d MACs with sparse features, %d with dense", rep.CoraGCNMACs, rep.CoraGCNDenseMACs)
		}
	}
	// The pieces run side by side, but the log reads as a serial run's.
	if !bytes.Equal(logs[0].Bytes(), logs[1].Bytes()) || !strings.HasPrefix(logs[0].String(), "seed001: figure 1") {
		t.Errorf("logs differ between 1 and 2 workers or start wrong:\n%s\n---\n%s", logs[0].String(), logs[1].String())
	}
	for _, f := range []string{"fig1_pairs.parquet", "fig7_frontier.parquet", "fig8_speedup.parquet", "report.md", "fig1_pairs.png", "fig7_cora.svg", "fig8_speedup.png", "fig8_per_dataset.png", "fig8_per_dataset.parquet", "fig8_reddit_gamma.parquet"} {
		a, err := os.ReadFile(filepath.Join(outs[0], f))
		if err != nil {
			t.Fatal(err)
		}
		if filepath.Ext(f) == ".parquet" || f == "report.md" {
			b, err := os.ReadFile(filepath.Join(outs[1], f))
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(a, b) {
				t.Errorf("%s differs between 1 and 2 workers", f)
			}
		}
	}
}

func TestRunErrors(t *testing.T) {
	if _, err := Run(context.Background(), Options{}); err == nil {
		t.Error("no output directory accepted")
	}
	if _, err := Run(context.Background(), Options{Out: t.TempDir(), Sizes: Sizes{CoSearch: -1}, Accuracy: standIn}); err == nil {
		t.Error("negative size accepted")
	}
}

// TestDatasetsFeatureDensity: without data the published densities, with
// it the measured ones, which for the complete Cora and CiteSeer files are
// the published counts and for PubMed's 1,060 rows an estimate within
// 1 % of the full count.
func TestDatasetsFeatureDensity(t *testing.T) {
	pub, err := Datasets("")
	if err != nil {
		t.Fatal(err)
	}
	for i, ds := range pub {
		if ds.Graph != nil || ds.FeatureDensity != published[i].FeatureDensity || (ds.Rows != nil) != (ds.Name == "reddit") {
			t.Errorf("%s without data: graph %v, density %v", ds.Name, ds.Graph != nil, ds.FeatureDensity)
		}
		if want := ds.Name == "reddit"; (ds.FeatureDensity == 0) != want {
			t.Errorf("%s: density %v", ds.Name, ds.FeatureDensity)
		}
	}
	shared.RequireData(t, "planetoid", "ind", "ind.cora.graph")
	got, err := Datasets(shared.Data())
	if err != nil {
		t.Fatal(err)
	}
	for i, ds := range got[:3] {
		tol := 1e-12
		if ds.Name == "pubmed" {
			tol = 0.01
		}
		if ds.Graph == nil || math.Abs(ds.FeatureDensity/pub[i].FeatureDensity-1) > tol {
			t.Errorf("%s: measured density %v, published %v", ds.Name, ds.FeatureDensity, pub[i].FeatureDensity)
		}
	}
}

// TestRedditRows: Reddit's profile has its published size and mean degree
// (232,965 posts, 114,615,892 entries, 492), a heavier tail at a smaller
// exponent, and is the same on every call.
func TestRedditRows(t *testing.T) {
	prev := math.Inf(1)
	for _, g := range RedditGammas {
		r, err := RedditRows(g)
		if err != nil {
			t.Fatal(err)
		}
		st, err := graphs.RowPtrStats(r)
		if err != nil {
			t.Fatal(err)
		}
		if st.Rows != RedditNodes || st.Entries != RedditEntries || math.Round(st.Mean) != 492 {
			t.Errorf("exponent %v: %+v", g, st)
		}
		if !(st.Top1PctShare < prev) {
			t.Errorf("exponent %v: top 1 %% hold %.3f, not less than at a smaller exponent (%.3f)", g, st.Top1PctShare, prev)
		}
		prev = st.Top1PctShare
	}
	a, _ := RedditRows(RedditGamma)
	b, _ := RedditRows(RedditGamma)
	if !slices.Equal(a, b) {
		t.Error("Reddit's profile differs between calls")
	}
}
