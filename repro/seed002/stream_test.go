package seed002

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"gnnsim/internal/memavail"
	"gnnsim/sched"
	"gnnsim/workload"
)

// TestScheduleStreamsRecords: with ScheduleOptions.Records the runs come
// out in Runs' order and are not kept, and StreamRecords writes the
// schedule_records table WriteSchedule writes from kept runs, byte for
// byte, whatever the number of seeds run at once (issue 38 item 2: every
// job record of every run was held until the end).
func TestScheduleStreamsRecords(t *testing.T) {
	js, err := NewJobSet(tinyCases(t, 40), Machines(), noisyPredictor{0.2})
	if err != nil {
		t.Fatal(err)
	}
	meta := map[string]string{"gnnsim.command": "test"}
	base := ScheduleOptions{Arrivals: ArrivalOptions{Process: workload.Poisson, Utilisation: 0.8, Exact: true, Jobs: 300},
		Seeds: []uint64{3, 1, 4, 5, 9}, InferenceCycles: 100}
	kept := base
	kept.KeepRecords = true
	want, err := js.Schedule(kept)
	if err != nil {
		t.Fatal(err)
	}
	wantDir := t.TempDir()
	if err := WriteSchedule(wantDir, want, meta); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name      string
		workers   int
		scenarios []Scenario
	}{
		{"serial", 1, nil},
		{"two at once", 2, nil},
		{"all at once", 8, nil},
		{"scenario 2", 3, []Scenario{Scenario2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := base
			o.Workers, o.Scenarios = tc.workers, tc.scenarios
			o.KeepRecords = true // Records wins: nothing kept
			ref := want
			if tc.scenarios != nil {
				ko := o
				ko.Records = nil
				if ref, err = js.Schedule(ko); err != nil {
					t.Fatal(err)
				}
			}
			var got *ScheduleResult
			var handed []sched.Metrics
			dir := t.TempDir()
			err := StreamRecords(filepath.Join(dir, ScheduleRecordsFile), meta, func(add func(*sched.Result) error) error {
				o.Records = func(r *sched.Result) error {
					handed = append(handed, r.Metrics())
					return add(r)
				}
				var err error
				got, err = js.Schedule(o)
				return err
			})
			if err != nil {
				t.Fatal(err)
			}
			if got.Results != nil {
				t.Errorf("%d runs kept with Records set", len(got.Results))
			}
			if fmt.Sprint(handed) != fmt.Sprint(ref.Runs) || fmt.Sprint(got.Runs) != fmt.Sprint(ref.Runs) {
				t.Fatal("runs handed on, or their metrics, differ from a kept schedule's, or their order")
			}
			for k, in := range got.Instances {
				if in == nil || in.Problem != nil || len(in.Case) != 300 {
					t.Fatalf("instance %d: %+v; want its cases without its problem", k, in)
				}
			}
			if tc.scenarios != nil {
				return
			}
			if err := WriteSchedule(dir, got, meta); err != nil {
				t.Fatal(err)
			}
			for _, f := range []string{ScheduleRecordsFile, ScheduleRunsFile, ScheduleMeanFile} {
				a, _ := os.ReadFile(filepath.Join(wantDir, f))
				b, _ := os.ReadFile(filepath.Join(dir, f))
				if len(a) == 0 || !bytes.Equal(a, b) {
					t.Errorf("%s: streamed %d bytes, kept %d, differ", f, len(b), len(a))
				}
			}
		})
	}
	// A failing sink stops the schedule with its error; nothing written.
	stop := errors.New("disk full")
	path := filepath.Join(t.TempDir(), ScheduleRecordsFile)
	err = StreamRecords(path, meta, func(add func(*sched.Result) error) error {
		o := base
		n := 0
		o.Records = func(r *sched.Result) error {
			if n++; n == 3 {
				return stop
			}
			return add(r)
		}
		_, err := js.Schedule(o)
		return err
	})
	if !errors.Is(err, stop) {
		t.Errorf("err %v, want the sink's", err)
	}
	if _, err := os.Stat(path); err == nil {
		t.Error("a failed stream left its file")
	}
}

// BenchmarkScheduleRecordsMemory schedules GNNSIM_BENCH_JOBS jobs
// (default 100,000) a seed, 4 seeds, seven policies and both scenarios,
// streaming every job record to schedule_records.parquet as the CLI's
// --out does, and reports the peak Go heap and process RSS, also per
// 10^6 records written (issue 38 item 2).
func BenchmarkScheduleRecordsMemory(b *testing.B) {
	jobs := 100_000
	if v, err := strconv.Atoi(os.Getenv("GNNSIM_BENCH_JOBS")); err == nil && v > 0 {
		jobs = v
	}
	js, err := NewJobSet(tinyCases(b, 60), Machines(), noisyPredictor{0.2})
	if err != nil {
		b.Fatal(err)
	}
	o := ScheduleOptions{Arrivals: ArrivalOptions{Process: workload.Poisson, Utilisation: 0.85, Exact: true, Jobs: jobs},
		Seeds: []uint64{1, 2, 3, 4}, Workers: 2, InferenceCycles: InferenceCycles}
	path := filepath.Join(b.TempDir(), ScheduleRecordsFile)
	for b.Loop() {
		records := 0
		stop := memavail.PeakHeap()
		err := StreamRecords(path, nil, func(add func(*sched.Result) error) error {
			o.Records = func(r *sched.Result) error {
				records += len(r.Records)
				return add(r)
			}
			_, err := js.Schedule(o)
			return err
		})
		peak := stop()
		if err != nil {
			b.Fatal(err)
		}
		per := 1e6 / float64(records) / (1 << 20)
		b.ReportMetric(float64(records)/1e6, "Mrecords")
		b.ReportMetric(float64(peak)/(1<<20), "heap-MiB")
		b.ReportMetric(float64(peak)*per, "heap-MiB/1e6records")
		b.ReportMetric(float64(memavail.PeakRSS())/(1<<20), "rss-MiB")
	}
}
