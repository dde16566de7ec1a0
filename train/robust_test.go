package train

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

// TestCancelStopsTrainings (issue 28, class 3): a cancelled context stops
// trainings in flight at their next epoch, through TrainSeeds and the
// oracle alike, instead of letting them run to their last epoch.
func TestCancelStopsTrainings(t *testing.T) {
	d := toyData(t, 2000, 64, 4, 1)
	c := Config{Epochs: MaxEpochs, LR: 0.01, Dropout: 0.5}
	o, err := NewOracle(d, c, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"TrainSeeds", func(ctx context.Context) error {
			_, err := TrainSeeds(ctx, d, GATArch(8, 4, 1), c, nil, []uint64{1, 2, 3, 4}, 2)
			return err
		}},
		{"Oracle", func(ctx context.Context) error {
			o.Cancel(ctx)
			_, err := o.Accuracy(Genome{Arch: GCNArch(16)})
			return err
		}},
	} {
		ctx, cancel := context.WithCancel(context.Background())
		time.AfterFunc(200*time.Millisecond, cancel)
		start := time.Now()
		err := tc.run(ctx)
		if wall := time.Since(start); !errors.Is(err, context.Canceled) || wall > 2*time.Second {
			t.Errorf("%s: %v after %v, want context.Canceled within 2 s", tc.name, err, wall)
		}
		cancel()
	}
}

// TestModelMemoryBound (issue 28, class 2): a feature width read from a
// file (a sparse matrix of a few kilobytes may declare 2^31 columns) is
// refused with the memory it would need, before any allocation.
func TestModelMemoryBound(t *testing.T) {
	p := toyPlanetoid(t, 50, 4, 3, 1)
	p.Features.Cols = 1<<31 - 2
	d, err := NewData(p)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range []Arch{GCNArch(16), GATArch(8, 8, 1)} {
		_, err := Train(d, a, GCNConfig())
		if err == nil || !strings.Contains(err.Error(), "GiB, at most 2 GiB") {
			t.Errorf("%v on 2^31 features: %v", a, err)
		}
	}
	small := toyData(t, 50, 4, 3, 1)
	if need := MemoryEstimate(small, GCNArch(16)); need <= 0 || need > 1<<20 {
		t.Errorf("estimate of a toy model: %v bytes", need)
	}
}
