package graphs

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// mtxTestMatrix is the 4x4 matrix behind the banner-combination tests:
// off-diagonal nonzeros at (2,1), (3,2), (4,1) (1-based, lower triangle)
// and a diagonal nonzero at (3,3). As a graph: edges 0-1, 1-2, 0-3.
var (
	mtxTestLower = [][2]int{{2, 1}, {3, 2}, {4, 1}}
	mtxTestDiag  = [2]int{3, 3}
	mtxTestEdges = edgePairs([2]int32{0, 1}, [2]int32{1, 2}, [2]int32{0, 3})
)

// mtxTestFile writes mtxTestMatrix under the given banner words. General
// matrices store the upper entry (1,4) instead of (4,1), to show that A+Aᵀ
// is taken; skew-symmetric ones omit the diagonal.
func mtxTestFile(format, field, symmetry string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%%%%MatrixMarket matrix %s %s %s\n%% a comment\n%%\n", format, field, symmetry)
	value := map[string]string{"pattern": "", "real": " -2.5e0", "double": " 1", "integer": " 3", "complex": " 0 -1.5"}[field]
	zero := map[string]string{"real": "0.0", "double": "0", "integer": "0", "complex": "0 0"}[field]
	entries := [][2]int{}
	for _, e := range mtxTestLower {
		if symmetry == "general" && e == [2]int{4, 1} {
			e = [2]int{1, 4}
		}
		entries = append(entries, e)
	}
	if symmetry != "skew-symmetric" {
		entries = append(entries, mtxTestDiag)
	}
	if format == "coordinate" {
		fmt.Fprintf(&b, "4 4 %d\n", len(entries))
		for _, e := range entries {
			fmt.Fprintf(&b, "%d %d%s\n", e[0], e[1], value)
		}
		return b.String()
	}
	b.WriteString("4 4\n")
	for j := 1; j <= 4; j++ {
		for i := 1; i <= 4; i++ {
			switch {
			case symmetry == "skew-symmetric" && i <= j, symmetry != "general" && i < j:
				continue // not stored
			case func() bool {
				for _, e := range entries {
					if e == [2]int{i, j} {
						return true
					}
				}
				return false
			}():
				b.WriteString(strings.TrimSpace(value) + "\n")
			default:
				b.WriteString(zero + "\n")
			}
		}
	}
	return b.String()
}

func TestReadMatrixMarketBannerCombinations(t *testing.T) {
	for _, format := range []string{"coordinate", "array"} {
		for _, field := range []string{"pattern", "real", "double", "integer", "complex"} {
			for _, symmetry := range []string{"general", "symmetric", "skew-symmetric", "hermitian"} {
				name := format + " " + field + " " + symmetry
				var refusal string
				switch {
				case format == "array" && field == "pattern":
					refusal = "the array format cannot hold a pattern matrix"
				case field == "pattern" && (symmetry == "skew-symmetric" || symmetry == "hermitian"):
					refusal = "a pattern matrix cannot be " + symmetry
				case symmetry == "hermitian" && field != "complex":
					refusal = "a hermitian matrix must be complex"
				}
				t.Run(name, func(t *testing.T) {
					in := mtxTestFile(format, field, symmetry)
					g, err := ReadMatrixMarket(strings.NewReader(in), "m.mtx")
					if refusal != "" {
						wantParseError(t, err, "m.mtx", 1, "bad banner", refusal)
						return
					}
					if err != nil {
						t.Fatalf("%v\n%s", err, in)
					}
					checkLoadedGraph(t, g, 4, mtxTestEdges)
				})
				// Banner words are case-insensitive.
				up := strings.Replace(mtxTestFile(format, field, symmetry), "matrix "+format, "MATRIX "+strings.ToUpper(format), 1)
				if _, err := ReadMatrixMarket(strings.NewReader(up), "m.mtx"); (err == nil) != (refusal == "") {
					t.Errorf("%s in upper case: %v", name, err)
				}
			}
		}
	}
}

func TestReadMatrixMarketSemantics(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		nodes int
		edges [][2]int32
	}{
		{
			// An explicit zero is a stored entry and hence an edge.
			name:  "coordinate explicit zero is an edge",
			in:    "%%MatrixMarket matrix coordinate real general\n3 3 2\n1 2 0\n3 1 0.0\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}, [2]int32{0, 2}),
		},
		{
			// In array format only nonzero values are edges.
			name:  "array zero is no edge",
			in:    "%%MatrixMarket matrix array real general\n2 2\n0\n0\n-0.0\n5\n",
			nodes: 2, edges: nil,
		},
		{
			name:  "array complex with only an imaginary part is nonzero",
			in:    "%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n0 2\n3 0\n",
			nodes: 2, edges: edgePairs([2]int32{0, 1}),
		},
		{
			name:  "isolated nodes kept, duplicates merged, diagonal dropped",
			in:    "%%MatrixMarket matrix coordinate pattern general\n6 6 5\n1 2\n2 1\n1 2\n5 5\n2 4\n",
			nodes: 6, edges: edgePairs([2]int32{0, 1}, [2]int32{1, 3}),
		},
		{
			// The nonstandard/ rule: 'symmetric' means "mirror every
			// entry", so a file storing both triangles mixed (EVA.mtx)
			// or only the upper one (USPowerGrid.mtx) loads as the
			// undirected pattern of its entries.
			name:  "symmetric storing both triangles mixed",
			in:    "%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n2 1 1\n1 2 1\n1 3 1\n4 2 1\n4 4 1\n",
			nodes: 4, edges: edgePairs([2]int32{0, 1}, [2]int32{0, 2}, [2]int32{1, 3}),
		},
		{
			name:  "symmetric storing the upper triangle",
			in:    "%%MatrixMarket matrix coordinate real symmetric\n4 4 3\n1 2 1\n1 3 1\n2 4 1\n",
			nodes: 4, edges: edgePairs([2]int32{0, 1}, [2]int32{0, 2}, [2]int32{1, 3}),
		},
		{
			name:  "blank lines, comments in the body, tabs, CRLF, trailing blank lines",
			in:    "%%MatrixMarket matrix coordinate integer general\r\n%c\r\n\r\n 3\t3  2 \r\n2\t1\t-7\r\n% mid\r\n\r\n3 2 +4\r\n\r\n\r\n",
			nodes: 3, edges: edgePairs([2]int32{0, 1}, [2]int32{1, 2}),
		},
		{
			name:  "no entries: isolated nodes",
			in:    "%%MatrixMarket matrix coordinate pattern symmetric\n5 5 0\n",
			nodes: 5, edges: nil,
		},
		{
			name:  "1x1 skew-symmetric array stores nothing",
			in:    "%%MatrixMarket matrix array real skew-symmetric\n1 1\n",
			nodes: 1, edges: nil,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMatrixMarket(strings.NewReader(tc.in), "dir/m.mtx")
			if err != nil {
				t.Fatal(err)
			}
			checkLoadedGraph(t, g, tc.nodes, tc.edges)
			if g.Name != "m" || g.Source != "mtx:m.mtx" {
				t.Errorf("Name %q Source %q, want m and mtx:m.mtx", g.Name, g.Source)
			}
		})
	}
}

func TestReadMatrixMarketErrors(t *testing.T) {
	const cg = "%%MatrixMarket matrix coordinate real general\n"
	for _, tc := range []struct {
		name string
		in   string
		line int
		frag string
	}{
		{"empty file", "", 0, "empty file"},
		{"missing banner", "3 3 1\n1 2 1\n", 1, "bad banner"},
		{"banner misspelt", "%%MatrixMarkt matrix coordinate real general\n", 1, "bad banner"},
		{"banner too short", "%%MatrixMarket matrix coordinate real\n", 1, "want 4 words"},
		{"banner vector object", "%%MatrixMarket vector coordinate real general\n", 1, `object "vector"`},
		{"banner unknown format", "%%MatrixMarket matrix sparse real general\n", 1, `format "sparse"`},
		{"banner unknown field", "%%MatrixMarket matrix coordinate boolean general\n", 1, `field "boolean"`},
		{"banner unknown symmetry", "%%MatrixMarket matrix coordinate real upper\n", 1, `symmetry "upper"`},
		{"no size line", cg + "% only comments\n", 2, "no size line"},
		{"size line too short", cg + "3 3\n", 2, "want rows, columns and entries"},
		{"array size line too long", "%%MatrixMarket matrix array real general\n3 3 9\n", 2, "want rows and columns"},
		{"negative rows", cg + "-3 -3 1\n", 2, "negative size -3"},
		{"negative entries", cg + "3 3 -1\n", 2, "negative size -1"},
		{"bad size", cg + "3 3 x\n", 2, `bad integer "x"`},
		{"rectangular", cg + "27 51 0\n", 2, "rectangular 27x51 matrix cannot be a graph adjacency"},
		{"rows beyond int32", cg + "2147483648 2147483648 1\n1 2 1\n", 2, "exceeds the int32 node range"},
		{"zero size", cg + "0 0 0\n", 2, "empty 0x0 matrix"},
		{"rows out of proportion", cg + "2000000000 2000000000 3\n", 2, "2000000000 rows for only 3 entries"},
		{"row index zero", cg + "3 3 2\n1 2 1\n0 1 1\n", 4, "index 0 out of range [1, 3]"},
		{"column index too large", cg + "3 3 2\n1 2 1\n1 4 1\n", 4, "index 4 out of range [1, 3]"},
		{"bad index", cg + "3 3 1\n1.0 2 1\n", 3, `bad index "1.0"`},
		{"NaN value", cg + "3 3 2\n1 2 1\n2 3 NaN\n", 4, `non-finite number "NaN"`},
		{"infinite value", cg + "3 3 1\n1 2 -inf\n", 3, "non-finite number"},
		{"overflowing value", cg + "3 3 1\n1 2 1e999\n", 3, `bad number "1e999"`},
		{"malformed value", cg + "3 3 1\n1 2 1..5\n", 3, `bad number "1..5"`},
		{"missing value", cg + "3 3 1\n1 2\n", 3, "want row, column and 1 values, got 2 fields"},
		{"pattern with a value", "%%MatrixMarket matrix coordinate pattern general\n3 3 1\n1 2 1\n", 3, "want row, column and 0 values, got 3"},
		{"complex missing imaginary part", "%%MatrixMarket matrix coordinate complex general\n3 3 1\n1 2 1\n", 3, "want row, column and 2 values"},
		{"integer field with a real", "%%MatrixMarket matrix coordinate integer general\n3 3 1\n1 2 1.5\n", 3, `bad integer value "1.5"`},
		{"truncated", cg + "3 3 3\n1 2 1\n2 3 1\n", 4, "unexpected end of file after 2 of 3 declared values"},
		{"truncated right after the size line", cg + "3 3 1\n", 2, "after 0 of 1 declared"},
		{"10^12 declared entries", cg + "3 3 1000000000000\n1 2 1\n", 3, "after 1 of 1000000000000 declared"},
		{"more entries than declared", cg + "3 3 1\n1 2 1\n2 3 1\n", 4, "more data than the 1 values the header declares"},
		{"array truncated", "%%MatrixMarket matrix array real symmetric\n3 3\n1\n2\n3\n4\n", 6, "after 4 of 6 declared"},
		{"array two values per line", "%%MatrixMarket matrix array real general\n2 2\n1 2\n3\n4\n", 3, "want 1 numbers, got 2"},
		{"array NaN", "%%MatrixMarket matrix array real general\n2 2\n1\nnan\n3\n4\n", 4, "non-finite"},
		{"array of 2^31-1 squared values, truncated", "%%MatrixMarket matrix array real general\n2147483647 2147483647\n1\n", 3,
			"after 1 of 4611686014132420609 declared"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			g, err := ReadMatrixMarket(strings.NewReader(tc.in), "x.mtx")
			if g != nil {
				t.Errorf("returned a graph along with error %v", err)
			}
			wantParseError(t, err, "x.mtx", tc.line, tc.frag)
		})
	}
}

// TestReadMatrixMarketHugeDeclaredSizeIsCheap checks that a header's claims
// cost nothing before the data backs them: 10^12 declared entries, and the
// largest row count the node rule allows for them, with a truncated body.
func TestReadMatrixMarketHugeDeclaredSizeIsCheap(t *testing.T) {
	in := "%%MatrixMarket matrix coordinate pattern symmetric\n2147483647 2147483647 1000000000000\n" +
		strings.Repeat("2 1\n", 1000)
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	_, err := ReadMatrixMarket(strings.NewReader(in), "huge.mtx")
	runtime.ReadMemStats(&after)
	wantParseError(t, err, "huge.mtx", 1002, "after 1000 of 1000000000000 declared")
	if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 4<<20 {
		t.Errorf("allocated %d bytes for a 4 kB file", alloc)
	}
}

func TestReadMatrixMarketNodeAllowance(t *testing.T) {
	// At the allowance any row count goes; above it, one entry per
	// mtxNodesPerEntry rows is needed.
	for _, tc := range []struct {
		rows, entries int64
		ok            bool
	}{
		{1000, 0, true},
		{1001, 0, false},
		{64 * 20, 20, true},
		{64*20 + 1, 20, false},
	} {
		var b strings.Builder
		fmt.Fprintf(&b, "%%%%MatrixMarket matrix coordinate pattern general\n%d %d %d\n", tc.rows, tc.rows, tc.entries)
		for k := range tc.entries {
			fmt.Fprintf(&b, "%d 1\n", k+2)
		}
		g, err := readMatrixMarket(strings.NewReader(b.String()), "a.mtx", 1000)
		if tc.ok && (err != nil || g.NumNodes() != int(tc.rows)) {
			t.Errorf("%d rows, %d entries: %v", tc.rows, tc.entries, err)
		}
		if !tc.ok {
			wantParseError(t, err, "a.mtx", 2, fmt.Sprintf("%d rows for only %d entries", tc.rows, tc.entries))
		}
	}
}

// mtxOracle computes the undirected edge count of a coordinate .mtx file the
// slow, obvious way, as an independent check of the fast reader.
func mtxOracle(t *testing.T, path string) (rows, cols, edges int) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]int]bool{}
	sized := false
	for _, line := range strings.Split(string(b), "\n") {
		f := strings.Fields(line)
		if len(f) == 0 || strings.HasPrefix(f[0], "%") {
			continue
		}
		if !sized {
			rows, _ = strconv.Atoi(f[0])
			cols, _ = strconv.Atoi(f[1])
			sized = true
			continue
		}
		i, _ := strconv.Atoi(f[0])
		j, _ := strconv.Atoi(f[1])
		if i != j {
			seen[[2]int{min(i, j), max(i, j)}] = true
		}
	}
	return rows, cols, len(seen)
}

// TestReadMatrixMarketRealData loads every file of STATS.tsv: square ones
// must match the oracle and STATS.tsv's size, rectangular ones must be
// refused naming their shape.
func TestReadMatrixMarketRealData(t *testing.T) {
	dir := loaderDataDir(t, "matrix-market")
	stats, err := os.ReadFile(filepath.Join(dir, "STATS.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	files := 0
	for i, line := range strings.Split(strings.TrimSpace(string(stats)), "\n") {
		f := strings.Split(line, "\t")
		if i == 0 {
			if f[0] != "file" || f[5] != "rows" || f[6] != "cols" {
				t.Fatalf("unexpected STATS.tsv header %q", f)
			}
			continue
		}
		file := f[0]
		rows, _ := strconv.Atoi(f[5])
		cols, _ := strconv.Atoi(f[6])
		files++
		t.Run(file, func(t *testing.T) {
			path := filepath.Join(dir, file)
			gs, err := Load(path, FormatAuto)
			if rows != cols {
				want := fmt.Sprintf("rectangular %dx%d matrix cannot be a graph adjacency", rows, cols)
				if err == nil || !strings.Contains(err.Error(), want) || !strings.Contains(err.Error(), path+":") {
					t.Errorf("error %v, want %q naming the file", err, want)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			g := gs[0]
			if err := g.Validate(); err != nil {
				t.Fatal(err)
			}
			orows, ocols, oedges := mtxOracle(t, path)
			if g.NumNodes() != rows || orows != rows || ocols != cols || g.NumEdges() != oedges {
				t.Errorf("V=%d E=%d; STATS rows %d, oracle %dx%d with %d edges", g.NumNodes(), g.NumEdges(), rows, orows, ocols, oedges)
			}
			if want := strings.TrimSuffix(filepath.Base(file), ".mtx"); g.Name != want {
				t.Errorf("Name %q, want %q", g.Name, want)
			}
		})
	}
	if files != 39 {
		t.Errorf("STATS.tsv lists %d files, the data README says 37 + 2 nonstandard", files)
	}
}

// TestReadMatrixMarketNonstandard pins the documented rule on the two
// malformed files: both load as the undirected pattern of their entries.
// USPowerGrid is the Watts-Strogatz power grid: 4,941 nodes, 6,594 edges.
func TestReadMatrixMarketNonstandard(t *testing.T) {
	dir := loaderDataDir(t, "matrix-market", "nonstandard")
	for _, file := range []string{"EVA.mtx", "USPowerGrid.mtx"} {
		path := filepath.Join(dir, file)
		gs, err := Load(path, FormatMTX)
		if err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		g := gs[0]
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		rows, _, edges := mtxOracle(t, path)
		if g.NumNodes() != rows || g.NumEdges() != edges {
			t.Errorf("%s: V=%d E=%d, want %d, %d", file, g.NumNodes(), g.NumEdges(), rows, edges)
		}
		// The same entries declared general give the same graph.
		b, _ := os.ReadFile(path)
		general := bytes.Replace(b, []byte("real symmetric"), []byte("real general"), 1)
		h, err := ReadMatrixMarket(bytes.NewReader(general), file)
		if err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.RowPtr, h.RowPtr) || !slices.Equal(g.Col, h.Col) {
			t.Errorf("%s: symmetric and general readings differ", file)
		}
		if file == "USPowerGrid.mtx" && (g.NumNodes() != 4941 || g.NumEdges() != 6594) {
			t.Errorf("USPowerGrid: V=%d E=%d, want 4941, 6594", g.NumNodes(), g.NumEdges())
		}
		t.Logf("%s: %d nodes, %d edges", file, g.NumNodes(), g.NumEdges())
	}
}

// TestReadMatrixMarketMatchesOmegaReference compares the SuiteSparse graphs
// of the STONNE-Omega reference (ss_<name>) with the CSR it simulated.
func TestReadMatrixMarketMatchesOmegaReference(t *testing.T) {
	ref := loaderOmegaDir(t)
	dir := loaderDataDir(t, "matrix-market")
	checked := 0
	for _, row := range readOmegaGraphsTSV(t, ref) {
		name, ok := strings.CutPrefix(row[1], "ss_")
		if !ok {
			continue
		}
		gs, err := Load(filepath.Join(dir, name+".mtx"), FormatAuto)
		if err != nil {
			t.Fatal(err)
		}
		compareOmegaCSR(t, gs[0], filepath.Join(ref, "graphs", row[1]+".csr"))
		checked++
	}
	if checked == 0 {
		t.Fatal("no SuiteSparse graphs in the omega reference")
	}
	t.Logf("%d SuiteSparse graphs match the omega reference", checked)
}

// BenchmarkReadMatrixMarket parses bcsstk33.mtx (8,738 rows, 300,321
// pattern entries, 2.9 MB) from memory.
func BenchmarkReadMatrixMarket(b *testing.B) {
	data, err := os.ReadFile(filepath.Join(loaderDataDir(b, "matrix-market"), "bcsstk33.mtx"))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		if _, err := ReadMatrixMarket(bytes.NewReader(data), "bcsstk33.mtx"); err != nil {
			b.Fatal(err)
		}
	}
}
