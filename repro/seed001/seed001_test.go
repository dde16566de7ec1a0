package seed001

import (
	"bytes"
	"context"
	"math"
	"os"
	"path/filepath"
	"testing"

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
	for i, w := range []int{1, 2} {
		outs[i] = t.TempDir()
		rep, err := Run(context.Background(), Options{Out: outs[i], Quick: true, Seed: 7, Workers: w, Accuracy: standIn, Sizes: sizes})
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
		if !(rep.SpeedupHyGCN > 0 && rep.SpeedupAWB > 0) {
			t.Errorf("speed-ups %v %v", rep.SpeedupHyGCN, rep.SpeedupAWB)
		}
	}
	for _, f := range []string{"fig1_pairs.parquet", "fig7_frontier.parquet", "fig8_speedup.parquet", "report.md", "fig1_pairs.png", "fig7_cora.svg", "fig8_speedup.png"} {
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
