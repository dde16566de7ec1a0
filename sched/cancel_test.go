package sched

import (
	"context"
	"errors"
	"reflect"
	"testing"
)

// TestRunContext: a run whose Context is done stops with its error
// (a SIGTERM stops gnnsim schedule within a few thousand events), a live
// Context changes nothing.
func TestRunContext(t *testing.T) {
	sp := mixProblem100k(t)
	want, err := RunShared(sp, EFT(), Options{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	live, err := RunShared(sp, EFT(), Options{Seed: 1, Context: context.Background()})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(live.Metrics(), want.Metrics()) || live.Events != want.Events {
		t.Errorf("a live context changed the run: %+v, want %+v", live.Metrics(), want.Metrics())
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if res, err := RunShared(sp, EFT(), Options{Seed: 1, Context: ctx}); !errors.Is(err, context.Canceled) || res != nil {
		t.Errorf("cancelled shared run: %v, %v; want context.Canceled", res, err)
	}
}
