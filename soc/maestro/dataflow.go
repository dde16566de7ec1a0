package maestro

import (
	"fmt"
	"strconv"
	"strings"
)

// Dim names a loop dimension of a layer, as MAESTRO spells it.
//
// The constants are in the byte order of their names (C < K < M < N < R < S
// < X < X' < Y < Y'): MAESTRO keeps its dimension tables in a std::map and
// appends the directives of unmapped dimensions in that order, which decides
// their loop position, so the order is part of the model.
type Dim uint8

const (
	DimC  Dim = iota // input channels
	DimK             // output channels (conv); shared dimension (GEMM)
	DimM             // GEMM rows
	DimN             // batch (conv); GEMM columns
	DimR             // filter rows
	DimS             // filter columns
	DimX             // input columns
	DimXo            // output columns, X'
	DimY             // input rows
	DimYo            // output rows, Y'
	numDims
)

var dimNames = [numDims]string{"C", "K", "M", "N", "R", "S", "X", "X'", "Y", "Y'"}

func (d Dim) String() string {
	if d < numDims {
		return dimNames[d]
	}
	return "Dim(" + strconv.Itoa(int(d)) + ")"
}

// ParseDim returns the dimension named s ("K", "Y'", ...).
func ParseDim(s string) (Dim, error) {
	for d, n := range dimNames {
		if n == s {
			return Dim(d), nil
		}
	}
	return 0, fmt.Errorf("maestro: unknown dimension %q (want one of %s)", s, strings.Join(dimNames[:], " "))
}

// Kind is the kind of a dataflow directive.
type Kind uint8

const (
	TemporalMap Kind = iota // the tile moves over time; all sub-clusters see the same tile
	SpatialMap              // consecutive sub-clusters get consecutive tiles
	Cluster                 // groups the sub-clusters below into clusters of Size
)

func (k Kind) String() string {
	switch k {
	case TemporalMap:
		return "TemporalMap"
	case SpatialMap:
		return "SpatialMap"
	case Cluster:
		return "Cluster"
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Size is a directive operand: a number, or Sz(Dim), the full size of a
// layer dimension, resolved when the dataflow meets a layer.
type Size struct {
	N      int  // the number, when !SizeOf
	SizeOf bool // the operand is Sz(Of)
	Of     Dim
}

// Lit returns the literal size n.
func Lit(n int) Size { return Size{N: n} }

// Sz returns the operand Sz(d).
func Sz(d Dim) Size { return Size{SizeOf: true, Of: d} }

func (s Size) String() string {
	if s.SizeOf {
		return "Sz(" + s.Of.String() + ")"
	}
	return strconv.Itoa(s.N)
}

// resolve returns the operand's value for a layer whose dimension sizes are
// dims (0 = the layer has no such dimension).
func (s Size) resolve(dims *[numDims]int) (int, error) {
	if !s.SizeOf {
		return s.N, nil
	}
	if v := dims[s.Of]; v > 0 {
		return v, nil
	}
	return 0, fmt.Errorf("Sz(%s): the layer has no dimension %s", s.Of, s.Of)
}

// Directive is one line of a MAESTRO dataflow. For maps, Size and Offset are
// the tile size and the step between consecutive tiles of Dim. For a
// Cluster, Size is the number of sub-clusters per cluster and Logical
// records the L (logical) rather than P (physical) type, which MAESTRO
// ignores in its cost model.
type Directive struct {
	Kind    Kind
	Size    Size
	Offset  Size // maps only
	Dim     Dim  // maps only
	Logical bool // Cluster only
	Line    int  // source line, 0 when built in code
}

func (d Directive) String() string {
	if d.Kind == Cluster {
		t := "P"
		if d.Logical {
			t = "L"
		}
		return fmt.Sprintf("Cluster(%s,%s);", d.Size, t)
	}
	return fmt.Sprintf("%s(%s,%s) %s;", d.Kind, d.Size, d.Offset, d.Dim)
}

// Dataflow is a parsed MAESTRO dataflow: directives from the outermost loop
// (next to L2) to the innermost (inside a PE), cut into cluster levels by
// Cluster directives. It is immutable once parsed; Analyze binds it to a
// layer and a PE count on every call without changing it.
type Dataflow struct {
	Name       string
	Directives []Directive
}

// String returns the dataflow in MAESTRO syntax; Parse reads it back.
func (df Dataflow) String() string {
	var b strings.Builder
	if df.Name != "" {
		fmt.Fprintf(&b, "// %s\n", strings.ReplaceAll(df.Name, "\n", " "))
	}
	b.WriteString("Dataflow {\n")
	for _, d := range df.Directives {
		b.WriteString("\t")
		b.WriteString(d.String())
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.String()
}

// Levels returns the number of cluster levels (Cluster directives + 1).
func (df Dataflow) Levels() int {
	n := 1
	for _, d := range df.Directives {
		if d.Kind == Cluster {
			n++
		}
	}
	return n
}

// maxLevels bounds the cluster levels: MAESTRO builds one NoC per level
// and its command-line front end builds four.
const maxLevels = 4

// Validate checks what can be checked without a layer: positive literal
// operands, one or two SpatialMaps and no repeated dimension within each
// cluster level, at most maxLevels levels, no empty level.
func (df Dataflow) Validate() error {
	if len(df.Directives) == 0 {
		return fmt.Errorf("maestro: dataflow %q has no directives", df.Name)
	}
	levels := df.Levels()
	if levels > maxLevels {
		return fmt.Errorf("maestro: dataflow %q has %d cluster levels, at most %d are supported", df.Name, levels, maxLevels)
	}
	level, spatial, start := 0, 0, 0
	var seen [numDims]bool
	endLevel := func(i int) error {
		where := lineOf(df.Directives, i, start)
		if i == start {
			return fmt.Errorf("maestro: %scluster level %d has no directives", where, level)
		}
		if spatial == 0 {
			return fmt.Errorf("maestro: %scluster level %d has no SpatialMap", where, level)
		}
		return nil
	}
	for i, d := range df.Directives {
		at := ""
		if d.Line > 0 {
			at = fmt.Sprintf("line %d: ", d.Line)
		}
		switch d.Kind {
		case Cluster:
			if !d.Size.SizeOf && d.Size.N <= 0 {
				return fmt.Errorf("maestro: %scluster size %d is not positive", at, d.Size.N)
			}
			if err := endLevel(i); err != nil {
				return err
			}
			level, spatial, start = level+1, 0, i+1
			seen = [numDims]bool{}
		case TemporalMap, SpatialMap:
			if d.Dim >= numDims {
				return fmt.Errorf("maestro: %sunknown dimension %d", at, d.Dim)
			}
			for _, s := range []Size{d.Size, d.Offset} {
				if s.SizeOf && s.Of >= numDims {
					return fmt.Errorf("maestro: %sSz of unknown dimension %d", at, s.Of)
				}
				if !s.SizeOf && s.N <= 0 {
					return fmt.Errorf("maestro: %s%s size and offset must be positive, got %d", at, d.Kind, s.N)
				}
			}
			if seen[d.Dim] {
				return fmt.Errorf("maestro: %sdimension %s is mapped twice in cluster level %d", at, d.Dim, level)
			}
			seen[d.Dim] = true
			if d.Kind == SpatialMap {
				spatial++
				if spatial > 2 {
					return fmt.Errorf("maestro: %scluster level %d has more than two SpatialMaps", at, level)
				}
			}
		default:
			return fmt.Errorf("maestro: %sunknown directive kind %d", at, d.Kind)
		}
	}
	return endLevel(len(df.Directives))
}

// lineOf names the source line near directive i of a level starting at
// start, for error messages.
func lineOf(ds []Directive, i, start int) string {
	for _, j := range []int{i, i - 1, start} {
		if j >= 0 && j < len(ds) && ds[j].Line > 0 {
			return fmt.Sprintf("line %d: ", ds[j].Line)
		}
	}
	return ""
}
