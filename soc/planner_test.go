package soc

import (
	"reflect"
	"strings"
	"testing"

	"gnnsim/hw"
	"gnnsim/workload"
)

// wrapped is a unit of another type offering a Roofline's capabilities by
// embedding one: every method is the Roofline's, At and Bind wrap what
// they return, and Bind hands a wrapped fallback's Roofline to the
// Roofline it binds (a fallback must be a Roofline).
type wrapped struct{ *Roofline }

func (w wrapped) At(p hw.OperatingPoint) (hw.Unit, error) {
	u, err := w.Roofline.At(p)
	if err != nil {
		return nil, err
	}
	return wrapped{u.(*Roofline)}, nil
}

func (w wrapped) Bind(p hw.OperatingPoint, env Env) (hw.Unit, error) {
	unit := env.Unit
	env.Unit = func(name string) (hw.Unit, bool) {
		u, ok := unit(name)
		if v, isWrapped := u.(wrapped); isWrapped {
			return v.Roofline, ok
		}
		return u, ok
	}
	u, err := w.Roofline.Bind(p, env)
	if err != nil {
		return nil, err
	}
	return wrapped{u.(*Roofline)}, nil
}

// wrappedSoC returns s with every Roofline unit wrapped.
func wrappedSoC(t *testing.T, s *SoC) *SoC {
	t.Helper()
	w := *s
	w.units = make([]hw.Scalable, len(s.units))
	for i, u := range s.units {
		r, ok := u.(*Roofline)
		if !ok {
			t.Fatalf("unit %s is not a Roofline", s.names[i])
		}
		w.units[i] = wrapped{r}
	}
	return &w
}

// repeat returns n units named by cycling through pattern.
func repeat(pattern []string, n int) string {
	us := make([]string, n)
	for i := range us {
		us[i] = pattern[i%len(pattern)]
	}
	return strings.Join(us, ",")
}

// TestDAGPlannerNotType: the evaluator goes by the DAGPlanner capability,
// not by the *Roofline type: SoCs whose units are Rooflines and wrappers
// embedding them give identical results and layer reports, at every
// granularity, with fallbacks (ViG's knn on the DLA) and with runs of
// segments planned as one.
func TestDAGPlannerNotType(t *testing.T) {
	s := Default()
	w := wrappedSoC(t, s)
	set := s.top()
	for _, tc := range []struct {
		name    string
		model   workload.Model
		g       Granularity
		pattern []string
	}{
		{"googlenet gpu", zooModel(t, "googlenet"), Blocks, []string{"gpu"}},
		{"googlenet dla", zooModel(t, "googlenet"), Layers, []string{"dla"}},
		{"googlenet G,G,D", zooModel(t, "googlenet"), Layers, []string{"G", "G", "D"}},
		{"vig-s G,D", vigS(t, workload.MRConv), Blocks, []string{"G", "D"}},
		{"vig-s G,G,G,D,D", vigS(t, workload.MRConv), Layers, []string{"G", "G", "G", "D", "D"}},
		{"vig-s kernels D,G", vigS(t, workload.MRConv), KernelGroups, []string{"D", "D", "G"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, ew := mustEvaluator(t, s, tc.model, tc.g), mustEvaluator(t, w, tc.model, tc.g)
			m, err := s.ParseMapping(repeat(tc.pattern, len(e.Segments())), tc.g, len(e.Segments()))
			if err != nil {
				t.Fatal(err)
			}
			var want, got Result
			if err := e.EvaluateAt(&want, m, set); err != nil {
				t.Fatal(err)
			}
			if err := ew.EvaluateAt(&got, m, set); err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, want) {
				t.Errorf("wrapped units: %+v\nRooflines: %+v", got, want)
			}
			lw, err := e.Layers(m, set)
			if err != nil {
				t.Fatal(err)
			}
			lg, err := ew.Layers(m, set)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(lg, lw) {
				t.Errorf("wrapped units' layers differ from the Rooflines'")
			}
		})
	}
}
