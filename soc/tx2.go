package soc

import _ "embed"

//go:embed tx2.yaml
var tx2YAML []byte

// TX2Spec returns the NVIDIA Jetson TX2 profile (256-core Pascal GPU,
// 128-bit LPDDR4, its GPU and EMC DVFS tables), the platform of HADAS
// Table III, with the GPU's power level calibrated on that table's static
// energies (see tx2.yaml).
func TX2Spec() Spec {
	s, err := ParseSpec(tx2YAML)
	if err != nil {
		panic("soc: embedded tx2.yaml: " + err.Error()) // caught by TestTX2Spec
	}
	return s
}

// TX2 returns the SoC of TX2Spec.
func TX2() *SoC {
	s, err := New(TX2Spec())
	if err != nil {
		panic("soc: tx2 spec: " + err.Error()) // caught by TestTX2Spec
	}
	return s
}
