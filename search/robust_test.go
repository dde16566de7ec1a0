package search

import (
	"context"
	"errors"
	"testing"
)

// TestCancelledBatchSkipped (issue 28, class 3): once the run is
// cancelled, the evaluations left in a batch are skipped (each can be a
// training), and the run reports the cancellation.
func TestCancelledBatchSkipped(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	calls := 0
	ev := evaluator[int]{ctx: ctx, workers: 1, eval: func(g int) (Evaluation, error) {
		calls++
		if calls == 2 {
			cancel()
		}
		return Evaluation{Objectives: []float64{float64(g)}}, nil
	}}
	out := make([]Evaluation, 10)
	err := ev.run([]int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9}, out)
	if !errors.Is(err, context.Canceled) || calls != 2 {
		t.Errorf("%d evaluations, error %v; want 2 and context.Canceled", calls, err)
	}
}
