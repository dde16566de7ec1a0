package sched

// item is a queued job under a key; seq (release order) breaks key ties.
type item struct {
	key float64
	seq int64
	job int32
}

func (a item) less(b item) bool {
	if a.key != b.key {
		return a.key < b.key
	}
	return a.seq < b.seq
}

// minHeap is a binary min-heap of items by value: no allocation per push
// beyond slice growth, and no interface calls as container/heap would make.
type minHeap []item

func (h *minHeap) push(x item) {
	*h = append(*h, x)
	s := *h
	i := len(s) - 1
	for i > 0 {
		p := (i - 1) / 2
		if !s[i].less(s[p]) {
			break
		}
		s[i], s[p] = s[p], s[i]
		i = p
	}
}

func (h *minHeap) pop() item {
	s := *h
	top := s[0]
	last := len(s) - 1
	s[0] = s[last]
	s = s[:last]
	i := 0
	for {
		l := 2*i + 1
		if l >= len(s) {
			break
		}
		c := l
		if r := l + 1; r < len(s) && s[r].less(s[l]) {
			c = r
		}
		if !s[c].less(s[i]) {
			break
		}
		s[i], s[c] = s[c], s[i]
		i = c
	}
	*h = s
	return top
}
