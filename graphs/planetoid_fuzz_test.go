package graphs

import (
	"os"
	"path/filepath"
	"testing"
)

// FuzzPlanetoidPickle feeds arbitrary bytes to the three pickle decoders of
// the Planetoid files. Every outcome must be a valid value or a ParseError
// naming the file: never a panic, never an invalid matrix or graph.
//
//	go test -run XXX -fuzz FuzzPlanetoidPickle -fuzztime 60s ./graphs/
func FuzzPlanetoidPickle(f *testing.F) {
	f.Add(pickleCSRBytes(2, 3, []int32{0, 2, 3}, []int32{0, 2, 1}, []float32{1, 0.5, 2}))
	f.Add(pickleOneHotBytes(3, 0, 2, -1, 1))
	f.Add(pickleGraphBytes(map[int][]int{0: {1, 2}, 2: {0}}))
	f.Add([]byte("\x80\x02}q\x00."))
	f.Add([]byte("\x80\x02\x95\xff\xff\xff\xff\xff\xff\xff\x7f."))
	f.Add([]byte("\x80\x02T\xff\xff\xff\x7fabc."))
	f.Add([]byte("\x80\x02\xff."))
	// Truncations of the real files, when the shared data is present.
	dir := os.Getenv("GNNSIM_DATA")
	if dir == "" {
		dir = filepath.Join("..", "..", "shared", "data")
	}
	for _, s := range []string{"x", "y", "graph"} {
		b, err := os.ReadFile(filepath.Join(dir, "planetoid", "ind", "ind.cora."+s))
		if err != nil {
			continue
		}
		for _, n := range []int{0, 1, 2, 40, 100, 200, 211, len(b) / 2, len(b) - 2, len(b) - 1} {
			f.Add(b[:min(n, len(b))])
		}
		if len(b) < 1<<15 {
			f.Add(b)
		}
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if m, err := pickleSparse(data, "P.x"); err != nil {
			fuzzParseError(t, err, "P.x")
		} else if err := m.Validate(); err != nil {
			t.Fatal(err)
		}
		if labels, classes, err := pickleOneHot(data, "P.y"); err != nil {
			fuzzParseError(t, err, "P.y")
		} else {
			for _, l := range labels {
				if l < -1 || int(l) >= classes {
					t.Fatalf("label %d of %d classes", l, classes)
				}
			}
		}
		if u, v, n, err := pickleAdjacency(data, "P.graph"); err != nil {
			fuzzParseError(t, err, "P.graph")
		} else if n <= 1<<16 {
			g, err := FromEdges(n, u, v)
			if err != nil {
				t.Fatal(err)
			}
			if err := g.Validate(); err != nil {
				t.Fatal(err)
			}
		}
	})
}

// FuzzPlanetoidNPZ feeds arbitrary bytes to the .npz reader: a data set
// with a valid graph and features, or a ParseError naming the file.
//
//	go test -run XXX -fuzz FuzzPlanetoidNPZ -fuzztime 60s ./graphs/
func FuzzPlanetoidNPZ(f *testing.F) {
	toy := npzBytes(f, toyNPZ(f))
	f.Add(toy)
	for _, n := range []int{0, 30, len(toy) / 2, len(toy) - 1} {
		f.Add(toy[:n])
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := decodePlanetoidNPZ(data, "F.npz")
		if err != nil {
			fuzzParseError(t, err, "F.npz")
			return
		}
		if err := p.Graph.Validate(); err != nil {
			t.Fatal(err)
		}
		if err := p.Features.Validate(); err != nil {
			t.Fatal(err)
		}
		if len(p.Labels) != p.NumNodes() || p.Features.Rows != p.NumNodes() {
			t.Fatalf("%d labels, %d feature rows for %d nodes", len(p.Labels), p.Features.Rows, p.NumNodes())
		}
	})
}
