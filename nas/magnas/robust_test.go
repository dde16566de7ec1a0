package magnas

import (
	"strings"
	"testing"
)

// TestAccuracyCSVDuplicates (issue 28, class 5): an architecture listed
// twice is refused rather than the last row silently winning.
func TestAccuracyCSVDuplicates(t *testing.T) {
	row := "d4G.fc1.ffn1.w192|d2M.fc0.ffn0|d3S.fc1.ffn1.w96|d4E.fc0.ffn1.w320"
	_, err := ReadAccuracyCSV(strings.NewReader("arch,top1\n"+row+",93.5\n"+row+",12\n"), "t.csv")
	if err == nil || !strings.Contains(err.Error(), "line 3") || !strings.Contains(err.Error(), "appears twice") {
		t.Errorf("duplicate rows: %v", err)
	}
}
