package graphs

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"
)

// Run one fuzzer at a time, e.g.
//
//	go test -run XXX -fuzz FuzzMatrixMarket -fuzztime 60s ./graphs/
//
// Crashers land in testdata/fuzz/<FuzzName>/ and then run with every
// `go test` as regression cases.

// fuzzParseError asserts that a loader error is a ParseError naming a file
// of the given prefix, so that every refusal points at its input.
func fuzzParseError(t *testing.T, err error, filePrefix string) {
	t.Helper()
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %q (%T) is not a *ParseError", err, err)
	}
	if !strings.HasPrefix(pe.File, filePrefix) || pe.Line < 0 {
		t.Fatalf("error %q names %s:%d", err, pe.File, pe.Line)
	}
}

func FuzzTU(f *testing.F) {
	// Seeds: A, indicator, labels, attributes; empty labels or attributes
	// mean the file is absent.
	f.Add([]byte("1, 2\n2,1\n  3 ,  4\n4,\t3\n"), []byte("1\n1\n2\n2\n"), []byte("1\n-1\n"), []byte(" 1.5, 2\n3,4\n5, 6\n7,8e0\n"))
	f.Add([]byte("1,5\n5,3\n4,2\n"), []byte("1\n2\n1\n2\n1\n"), []byte("7\n8\n"), []byte("1\n2\n3\n4\n5\n"))
	f.Add([]byte("1,2\n1,2\n3,3\n2,3\n"), []byte("1\n1\n1\n1\n"), []byte(""), []byte(""))
	f.Add([]byte(""), []byte("1\r\n2\r\n2\r\n\r\n"), []byte("0\n1\n\n"), []byte(""))
	f.Add([]byte("1,2\n\n2,3\n"), []byte("1\n1\n3\n3\n"), []byte("1\n"), []byte("1,2\n3,NaN\n"))
	f.Fuzz(func(t *testing.T, a, ind, labels, attrs []byte) {
		var lr, ar io.Reader
		if len(labels) > 0 {
			lr = bytes.NewReader(labels)
		}
		if len(attrs) > 0 {
			ar = bytes.NewReader(attrs)
		}
		gs, err := readTU("F", bytes.NewReader(a), bytes.NewReader(ind), lr, ar)
		if err != nil {
			fuzzParseError(t, err, "F_")
			return
		}
		nodes := 0
		for _, g := range gs {
			if err := g.Validate(); err != nil {
				t.Fatalf("%s: %v", g.Name, err)
			}
			if g.NumNodes() == 0 {
				t.Fatalf("%s: a graph without nodes", g.Name)
			}
			if g.HasLabel != (lr != nil) || (g.NodeAttr != nil) != (ar != nil) {
				t.Fatalf("%s: HasLabel %v, NodeAttr %v, files present %v %v", g.Name, g.HasLabel, g.NodeAttr != nil, lr != nil, ar != nil)
			}
			nodes += g.NumNodes()
		}
		// One node per non-blank indicator line.
		lines := 0
		for _, l := range bytes.Split(ind, []byte("\n")) {
			if len(bytes.TrimSpace(l)) > 0 {
				lines++
			}
		}
		if nodes != lines {
			t.Fatalf("%d nodes from %d indicator lines", nodes, lines)
		}
	})
}

func FuzzMatrixMarket(f *testing.F) {
	for _, format := range []string{"coordinate", "array"} {
		for _, field := range []string{"pattern", "real", "integer", "complex"} {
			for _, symmetry := range []string{"general", "symmetric", "skew-symmetric", "hermitian"} {
				f.Add([]byte(mtxTestFile(format, field, symmetry)))
			}
		}
	}
	f.Add([]byte("%%MatrixMarket matrix coordinate real symmetric\n4 4 5\n2 1 1\n1 2 1\n1 3 1\n4 2 1\n4 4 1\n"))
	f.Add([]byte("%%MatrixMarket matrix coordinate integer general\r\n%c\r\n\r\n 3\t3  2 \r\n2\t1\t-7\r\n% mid\r\n3 2 +4\r\n"))
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n3 3 1000000000000\n1 2 1\n"))
	f.Add([]byte("%%MatrixMarket matrix array complex hermitian\n2 2\n1 0\n0 2\n3 0\n"))
	f.Add([]byte("%%MatrixMarket matrix coordinate real general\n27 51 1\n1 2 1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// A small node allowance keeps each run cheap; the rule is the
		// same as in ReadMatrixMarket.
		g, err := readMatrixMarket(bytes.NewReader(data), "f.mtx", 1<<12)
		if err != nil {
			fuzzParseError(t, err, "f.mtx")
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		if g.NumNodes() == 0 || g.SelfLoops {
			t.Fatalf("V=%d SelfLoops=%v", g.NumNodes(), g.SelfLoops)
		}
	})
}

func FuzzEdgeList(f *testing.F) {
	for _, s := range []string{
		"1 2\n2\t3\n3,4\n4 , 1\n 5\t\t6 \n",
		"# SNAP header\n% KONECT header\n\n  # indented comment\na b 0.5\nb c -3\r\nc a 1e3\n",
		"a b\nb a\na b\nc c\n",
		"100157 100157\nbradshaw97introduction #id\na,b bradshaw97introduction\n",
		"1 2 NaN\n",
	} {
		f.Add([]byte(s), false)
		f.Add([]byte(s), true)
	}
	f.Fuzz(func(t *testing.T, data []byte, cites bool) {
		read := ReadEdgeList
		if cites {
			read = ReadCites
		}
		g, err := read(bytes.NewReader(data), "f.txt")
		if err != nil {
			fuzzParseError(t, err, "f.txt")
			return
		}
		if err := g.Validate(); err != nil {
			t.Fatal(err)
		}
		// Every node comes from a token of some line, two per edge line.
		if g.NumNodes() == 0 || g.NumNodes() > 2*(bytes.Count(data, []byte("\n"))+1) {
			t.Fatalf("V=%d for %d input lines", g.NumNodes(), bytes.Count(data, []byte("\n"))+1)
		}
	})
}
