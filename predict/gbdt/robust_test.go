package gbdt

import (
	"bytes"
	"strings"
	"testing"
)

// TestFeatureInfosChecked (issue 28, class 4): a training range that is
// NaN, infinite or inverted is a damaged file, refused, not a silently
// unknown range; "none" and categorical lists stay unknown ranges.
func TestFeatureInfosChecked(t *testing.T) {
	model := func(info string) []byte {
		return assemble("tree\nversion=v3\nnum_class=1\nnum_tree_per_iteration=1\nlabel_index=0\n"+
			"max_feature_idx=0\nobjective=regression\nfeature_names=x\nfeature_infos="+info+"\n",
			"Tree=0\nnum_leaves=1\nnum_cat=0\nleaf_value=2\nis_linear=0\nshrinkage=1\n\n\n")
	}
	for _, tc := range []struct {
		info string
		ok   bool
	}{
		{"[0:1]", true}, {"none", true}, {"[nan:nan]", false}, {"[0:inf]", false}, {"[2:1]", false},
	} {
		_, err := ReadModel(bytes.NewReader(model(tc.info)))
		if tc.ok != (err == nil) || err != nil && !strings.Contains(err.Error(), "feature_infos") {
			t.Errorf("feature_infos=%s: error %v", tc.info, err)
		}
	}
}
