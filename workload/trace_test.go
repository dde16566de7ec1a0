package workload

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gnnsim/internal/pqio"
)

const goodCSV = `# a replayed trace
arrival_cycle,job_id,graph,nodes,edges,kind
300,1,cora,2708,5278,GCN
100,2,,10,9,sage
# comment between rows
100,3,ENZYMES_1,,,gat
`

func TestParseCSV(t *testing.T) {
	jobs, err := ParseCSV(strings.NewReader(goodCSV), "t.csv", ReadOptions{F: 16, G: 8})
	if err != nil {
		t.Fatal(err)
	}
	// Sorted by arrival, ties in file order.
	want := []Job{
		{ID: 2, Arrival: 100, GraphIndex: -1, Nodes: 10, Edges: 9, F: 16, G: 8, Kind: SAGE},
		{ID: 3, Arrival: 100, Graph: "ENZYMES_1", GraphIndex: -1, F: 16, G: 8, Kind: GAT},
		{ID: 1, Arrival: 300, Graph: "cora", GraphIndex: -1, Nodes: 2708, Edges: 5278, F: 16, G: 8, Kind: GCN},
	}
	if len(jobs) != len(want) {
		t.Fatalf("got %d jobs, want %d", len(jobs), len(want))
	}
	for i := range want {
		if jobs[i] != want[i] {
			t.Errorf("job %d = %+v, want %+v", i, jobs[i], want[i])
		}
	}
}

func TestParseCSVErrors(t *testing.T) {
	tests := []struct {
		name, in string
		opt      ReadOptions
		want     string
	}{
		{"empty", "", ReadOptions{}, "t.csv: empty trace"},
		{"unknown column", "job_id,arrival,nodes\n", ReadOptions{}, `t.csv:1: unknown column "arrival"`},
		{"repeated column", "job_id,job_id\n", ReadOptions{}, `t.csv:1: column "job_id" appears twice`},
		{"no arrival", "job_id,nodes,edges\n1,2,1\n", ReadOptions{}, `t.csv:1: missing required column "arrival_cycle"`},
		{"no width", "job_id,arrival_cycle,nodes,edges\n1,0,2,1\n", ReadOptions{}, "t.csv:2: missing f"},
		{"bad int", "job_id,arrival_cycle,nodes,edges,f,g\n1,0,2,1,4,4\n2,x5,2,1,4,4\n", ReadOptions{}, `t.csv:3: column arrival_cycle: "x5" is not an integer`},
		{"negative arrival", "job_id,arrival_cycle,nodes,edges\n1,-1,2,1\n", ReadOptions{F: 1, G: 1}, "t.csv:2: arrival_cycle = -1"},
		{"nodes without edges", "job_id,arrival_cycle,nodes\n1,0,2\n", ReadOptions{F: 1, G: 1}, "t.csv:2: nodes and edges must be given together"},
		{"no graph", "job_id,arrival_cycle,graph\n1,0,\n", ReadOptions{F: 1, G: 1}, "t.csv:2: no nodes/edges, no graph and no graph_index"},
		{"too many edges", "job_id,arrival_cycle,nodes,edges\n1,0,3,4\n", ReadOptions{F: 1, G: 1}, "t.csv:2: job 1: 4 edges exceed"},
		{"bad kind", "job_id,arrival_cycle,nodes,edges,kind\n1,0,3,2,mlp\n", ReadOptions{F: 1, G: 1}, `t.csv:2: unknown layer kind "mlp"`},
		{"zero f", "job_id,arrival_cycle,nodes,edges,f\n1,0,3,2,0\n", ReadOptions{F: 1, G: 1}, "t.csv:2: f = 0"},
		{"duplicate id", "job_id,arrival_cycle,nodes,edges\n1,0,3,2\n\n1,5,3,2\n", ReadOptions{F: 1, G: 1}, "t.csv:4: job_id 1 already used at t.csv:2"},
		{"short row", "job_id,arrival_cycle,nodes,edges\n1,0,3\n", ReadOptions{F: 1, G: 1}, "t.csv: record on line 2: wrong number of fields"},
		{"bad graph index", "job_id,arrival_cycle,nodes,edges,graph_index\n1,0,3,2,-4\n", ReadOptions{F: 1, G: 1}, "t.csv:2: graph_index = -4"},
		{"header only", "job_id,arrival_cycle,graph_index\n", ReadOptions{F: 1, G: 1}, "t.csv:1: a header but no jobs"},
	}
	for _, tt := range tests {
		_, err := ParseCSV(strings.NewReader(tt.in), "t.csv", tt.opt)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want it to contain %q", tt.name, err, tt.want)
		}
	}
}

// TestParseCSVMinimal: the minimal trace the schedule help documents,
// job_id, arrival_cycle and graph_index, is a valid trace (issue 17,
// class 8: it was refused with "no nodes/edges and no graph").
func TestParseCSVMinimal(t *testing.T) {
	jobs, err := ParseCSV(strings.NewReader("job_id,arrival_cycle,graph_index\n7,100,1\n3,0,0\n"), "t.csv", ReadOptions{F: 1, G: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].ID != 3 || jobs[0].GraphIndex != 0 || jobs[1].GraphIndex != 1 || jobs[1].Arrival != 100 {
		t.Fatalf("jobs = %+v", jobs)
	}
}

func sampleJobs() []Job {
	return []Job{
		{ID: 10, Arrival: 0, Graph: "a, with comma", GraphIndex: 2, Nodes: 5, Edges: 4, F: 3, G: 7, Kind: GIN},
		{ID: 11, Arrival: 50, GraphIndex: -1, Nodes: 1, Edges: 0, F: 1, G: 1, Kind: GAT},
		{ID: 12, Arrival: 50, Graph: "c", GraphIndex: 0, Nodes: 100, Edges: 4950, F: 512, G: 512, Kind: GCN},
	}
}

func TestTraceRoundTrip(t *testing.T) {
	jobs := sampleJobs()
	dir := t.TempDir()

	var buf bytes.Buffer
	if err := WriteCSV(&buf, jobs); err != nil {
		t.Fatal(err)
	}
	csvPath := filepath.Join(dir, "trace.csv")
	if err := os.WriteFile(csvPath, buf.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	pqPath := filepath.Join(dir, "trace.parquet")
	if err := WriteParquet(pqPath, jobs, map[string]string{"seed": "1"}); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{csvPath, pqPath} {
		got, err := ReadTrace(p, ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != len(jobs) {
			t.Fatalf("%s: %d jobs, want %d", p, len(got), len(jobs))
		}
		for i := range jobs {
			if got[i] != jobs[i] {
				t.Errorf("%s: job %d = %+v, want %+v", p, i, got[i], jobs[i])
			}
		}
	}
	if _, err := ReadTrace(filepath.Join(dir, "trace.json"), ReadOptions{}); err == nil {
		t.Error("unknown extension accepted")
	}
	if _, err := ReadTrace(filepath.Join(dir, "missing.csv"), ReadOptions{}); err == nil {
		t.Error("missing file accepted")
	}
	bad := jobs
	bad[1].F = 0
	if err := WriteParquet(filepath.Join(dir, "bad.parquet"), bad, nil); err == nil {
		t.Error("invalid job written")
	}
}

// Parquet traces from other tools: narrower integer types, only some
// columns, and the errors for columns that are missing, unknown or null.
func TestReadParquetForeign(t *testing.T) {
	dir := t.TempDir()
	type minimal struct {
		JobID   int32  `parquet:"job_id"`
		Arrival int64  `parquet:"arrival_cycle"`
		Graph   string `parquet:"graph"`
	}
	p := filepath.Join(dir, "min.parquet")
	if err := pqio.Write(p, []minimal{{2, 9, "g2"}, {1, 3, "g1"}}, nil); err != nil {
		t.Fatal(err)
	}
	jobs, err := ReadParquet(p, ReadOptions{F: 8, G: 8})
	if err != nil {
		t.Fatal(err)
	}
	if len(jobs) != 2 || jobs[0].ID != 1 || jobs[0].Graph != "g1" || jobs[0].Nodes != 0 || jobs[1].Arrival != 9 || jobs[0].Kind != GCN {
		t.Errorf("got %+v", jobs)
	}
	if _, err := ReadParquet(p, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "row 1: missing f") {
		t.Errorf("missing widths: %v", err)
	}

	type extra struct {
		JobID   int64 `parquet:"job_id"`
		Arrival int64 `parquet:"arrival_cycle"`
		Prio    int64 `parquet:"priority"`
	}
	p = filepath.Join(dir, "extra.parquet")
	if err := pqio.Write(p, []extra{{1, 0, 3}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(p, ReadOptions{F: 1, G: 1}); err == nil || !strings.Contains(err.Error(), `unknown column "priority"`) {
		t.Errorf("unknown column: %v", err)
	}

	type noArrival struct {
		JobID int64 `parquet:"job_id"`
		Nodes int64 `parquet:"nodes"`
	}
	p = filepath.Join(dir, "noarr.parquet")
	if err := pqio.Write(p, []noArrival{{1, 3}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(p, ReadOptions{F: 1, G: 1}); err == nil || !strings.Contains(err.Error(), `missing required column "arrival_cycle"`) {
		t.Errorf("missing column: %v", err)
	}

	type nullable struct {
		JobID   int64  `parquet:"job_id"`
		Arrival *int64 `parquet:"arrival_cycle,optional"`
		Nodes   int64  `parquet:"nodes"`
		Edges   int64  `parquet:"edges"`
	}
	p = filepath.Join(dir, "null.parquet")
	five := int64(5)
	if err := pqio.Write(p, []nullable{{1, &five, 3, 2}, {2, nil, 3, 2}}, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(p, ReadOptions{F: 1, G: 1}); err == nil || !strings.Contains(err.Error(), "null.parquet: row 2: missing arrival_cycle") {
		t.Errorf("null arrival: %v", err)
	}

	// A 19-byte file whose footer claims 4 GB: parquet-go would allocate
	// it; the reader must refuse first (found by FuzzReadParquet).
	p = filepath.Join(dir, "footer.parquet")
	if err := os.WriteFile(p, []byte(corruptFooter), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(p, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "footer of 4072651436 bytes") {
		t.Errorf("corrupt footer: %v", err)
	}

	p = filepath.Join(dir, "garbage.parquet")
	if err := os.WriteFile(p, []byte("not parquet at all"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadParquet(p, ReadOptions{}); err == nil || !strings.Contains(err.Error(), "garbage.parquet") {
		t.Errorf("garbage file: %v", err)
	}
}

// FuzzParseCSV checks that no input panics, and that whatever parses
// cleanly (with sizes given) survives a write/parse round trip unchanged.
func FuzzParseCSV(f *testing.F) {
	f.Add(goodCSV)
	f.Add("job_id,arrival_cycle,nodes,edges,f,g,kind\n1,0,3,2,4,4,gin\n")
	f.Add("job_id,arrival_cycle,graph\n1,0,\"x\ny\"\n")
	f.Add("\ufeffjob_id,arrival_cycle,nodes,edges\n9223372036854775807,9223372036854775807,3037000500,1\n")
	f.Fuzz(func(t *testing.T, in string) {
		jobs, err := ParseCSV(strings.NewReader(in), "fuzz.csv", ReadOptions{F: 2, G: 3})
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.csv") {
				t.Fatalf("error does not name the file: %v", err)
			}
			return
		}
		for i := range jobs {
			if jobs[i].Nodes == 0 {
				return // graph references: nothing to round-trip without a lookup
			}
			if err := jobs[i].Validate(); err != nil {
				t.Fatalf("parsed an invalid job: %v", err)
			}
			if i > 0 && jobs[i].Arrival < jobs[i-1].Arrival {
				t.Fatal("jobs not sorted by arrival")
			}
		}
		var buf bytes.Buffer
		if err := WriteCSV(&buf, jobs); err != nil {
			t.Fatal(err)
		}
		again, err := ParseCSV(&buf, "again.csv", ReadOptions{})
		if err != nil {
			t.Fatalf("re-parse: %v\n%s", err, buf.String())
		}
		for i := range jobs {
			if again[i] != jobs[i] {
				// Graph names are trimmed on parsing; a name that is
				// pure whitespace round-trips to "" and is fine.
				if strings.TrimSpace(jobs[i].Graph) == again[i].Graph && jobs[i].Graph != again[i].Graph {
					continue
				}
				t.Fatalf("round trip: %+v != %+v", again[i], jobs[i])
			}
		}
	})
}

const corruptFooter = "PAR1\x15\x06\x15\x10\x15\x22\x15\xac\xba\xbf\xf2PAR1"

// FuzzReadParquet feeds arbitrary bytes (seeded with valid traces) to the
// Parquet reader: errors are fine, panics are not, and whatever reads
// cleanly is a valid trace.
func FuzzReadParquet(f *testing.F) {
	var buf bytes.Buffer
	rows := []traceRow{{JobID: 1, Arrival: 5, Graph: "g", Nodes: 3, Edges: 2, F: 4, G: 4, Kind: "gcn"}}
	if err := pqio.Encode(&buf, rows, nil); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("PAR1PAR1"))
	f.Add([]byte(corruptFooter))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		p := filepath.Join(dir, "f.parquet")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		jobs, err := ReadParquet(p, ReadOptions{F: 1, G: 1})
		if err != nil {
			return
		}
		for i := range jobs {
			if jobs[i].Nodes == 0 {
				continue
			}
			if err := jobs[i].Validate(); err != nil {
				t.Fatalf("read an invalid job: %v", err)
			}
		}
	})
}

// TestTraceJobCap: a replayed trace may hold as many jobs as a generated
// one (MaxTraceJobs), not more (issue 38 item 9: 10^7 rows ran 75 minutes).
func TestTraceJobCap(t *testing.T) {
	for _, tc := range []struct {
		n  int
		ok bool
	}{{MaxTraceJobs, true}, {MaxTraceJobs + 1, false}} {
		var b strings.Builder
		b.WriteString("arrival_cycle,job_id,nodes,edges\n")
		for i := range tc.n {
			fmt.Fprintf(&b, "%d,%d,10,20\n", i, i)
		}
		jobs, err := ParseCSV(strings.NewReader(b.String()), "big.csv", ReadOptions{F: 16, G: 8})
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "more than") {
			t.Errorf("%d rows: %d jobs, %v", tc.n, len(jobs), err)
		}
	}
}
