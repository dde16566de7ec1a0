package workload

import "testing"

func TestVocabularyRoundTrip(t *testing.T) {
	for a := range Attention(len(attentionNames)) {
		if got, err := ParseAttention(a.String()); err != nil || got != a {
			t.Errorf("ParseAttention(%q) = %v, %v", a, got, err)
		}
	}
	for a := range Aggregation(len(aggregationNames)) {
		if got, err := ParseAggregation(a.String()); err != nil || got != a {
			t.Errorf("ParseAggregation(%q) = %v, %v", a, got, err)
		}
	}
	for a := range Activation(len(activationNames)) {
		if got, err := ParseActivation(a.String()); err != nil || got != a {
			t.Errorf("ParseActivation(%q) = %v, %v", a, got, err)
		}
	}
}

func TestVocabularyAliasesAndClasses(t *testing.T) {
	for s, want := range map[string]Attention{"skip": AttConstant, "None": AttConstant, "GAT-sym": AttGATSym} {
		if got, err := ParseAttention(s); err != nil || got != want {
			t.Errorf("ParseAttention(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	if got, err := ParseAggregation("sum"); err != nil || got != AggAdd {
		t.Errorf("ParseAggregation(sum) = %v, %v", got, err)
	}
	for s, want := range map[string]Activation{"identity": ActLinear, "none": ActLinear, "leaky-relu": ActLeakyReLU, "LeakyReLU": ActLeakyReLU, "skip": ActSkip} {
		if got, err := ParseActivation(s); err != nil || got != want {
			t.Errorf("ParseActivation(%q) = %v, %v; want %v", s, got, err, want)
		}
	}
	for _, s := range []string{"", "swish", "gcn2"} {
		if _, err := ParseActivation(s); err == nil {
			t.Errorf("ParseActivation(%q) accepted", s)
		}
	}
	scored := map[Attention]bool{AttGAT: true, AttGATSym: true, AttCOS: true, AttLinear: true, AttGeneLinear: true}
	for a := range Attention(len(attentionNames) + 1) {
		if a.Scored() != scored[a] {
			t.Errorf("%v.Scored() = %v", a, a.Scored())
		}
	}
	if !ActLinear.Identity() || !ActSkip.Identity() || ActReLU.Identity() {
		t.Error("Identity: want linear and skip only")
	}
	if s := Activation(200).String(); s != "Activation(200)" || Activation(200).Valid() {
		t.Errorf("Activation(200) = %q", s)
	}
}
