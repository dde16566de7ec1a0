package graphs

import (
	"fmt"
	"strconv"
)

// Select keeps the graph of gs named sel, or the one at index sel (a name
// wins); all of them when sel is empty. Errors name --graph, the flag
// every command selects a graph with.
func Select(gs []*Graph, sel string) ([]*Graph, error) {
	if sel == "" {
		if len(gs) == 0 {
			return nil, fmt.Errorf("no graphs to simulate")
		}
		return gs, nil
	}
	for _, g := range gs {
		if g.Name == sel {
			return []*Graph{g}, nil
		}
	}
	if i, err := strconv.Atoi(sel); err == nil {
		if i < 0 || i >= len(gs) {
			return nil, fmt.Errorf("--graph %d: index out of range (the file holds %d graphs)", i, len(gs))
		}
		return []*Graph{gs[i]}, nil
	}
	return nil, fmt.Errorf("--graph %q: no graph of that name", sel)
}
