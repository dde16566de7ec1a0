package graphs

import (
	"bytes"
	"errors"
	"fmt"
	"io"

	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding"
)

// A graph's CSR and node attributes are list columns holding one list per
// graph, so a graph of 10^8 edges is one Parquet row with 2*10^8 column
// ids. parquet-go's row reader turns every such value into a 24-byte
// parquet.Value and grows the row by appending before it fills the Go
// struct: about 190 bytes of allocation per edge, and most of the time of
// reading a large set. readList instead walks the column chunk page by
// page and copies each page's decoded values straight into the graph's
// slice, so reading costs the page buffers (garbage after each page) plus
// the final slices: on a 9.5M-edge R-MAT graph, 9.5 s and 3.1 GB of
// allocation became about 1 s and 270 MB.

// listLeaf names the leaf column of a list column of the set schema.
func listLeaf(name string) []string { return []string{name, "list", "element"} }

// readList reads the list column name of pf column-wise and returns one
// slice per row (nil for an empty list), rows in file order. want is the
// number of rows the file must hold. values extracts a page's values
// (dictionary-encoded pages are resolved by readList). hint, when not nil,
// gives the length each row's list should have (from the row's scalar
// columns): a row read from many pages (a streamed set's) is then
// allocated once instead of growing by doubling, which would need up to
// three times its size at the last copy. A hint is only a capacity, and
// only taken up to the values the column chunks declare.
func readList[T any](pf *parquet.File, name string, want int, hint []int64, values func(encoding.Values) ([]T, error)) ([][]T, error) {
	leaf, ok := pf.Schema().Lookup(listLeaf(name)...)
	if !ok {
		return nil, fmt.Errorf("no column %q", name)
	}
	if leaf.MaxRepetitionLevel != 1 || leaf.MaxDefinitionLevel < 1 || leaf.MaxDefinitionLevel > 255 {
		return nil, fmt.Errorf("column %q is not a list of values (repetition %d, definition %d)",
			name, leaf.MaxRepetitionLevel, leaf.MaxDefinitionLevel)
	}
	lv := levels{max: byte(leaf.MaxDefinitionLevel), list: byte(leaf.MaxDefinitionLevel)}
	if leaf.Node.Optional() {
		lv.list-- // the last level before max marks a null element
	}
	out := make([][]T, 0, want)
	for g, rg := range pf.RowGroups() {
		chunks := rg.ColumnChunks()
		if leaf.ColumnIndex >= len(chunks) {
			return nil, fmt.Errorf("row group %d has no column %q", g, name)
		}
		lv.hint, lv.declared = hint, chunks[leaf.ColumnIndex].NumValues()
		pages := chunks[leaf.ColumnIndex].Pages()
		if lv.declared >= prefetchValues {
			pages = prefetch(pages)
		}
		var err error
		out, err = func() ([][]T, error) {
			defer pages.Close() // also on a decoder's panic: stops a prefetch
			return readListPages(pages, out, want, lv, values)
		}()
		if err != nil {
			return nil, fmt.Errorf("column %q, row group %d: %w", name, g, err)
		}
	}
	if len(out) != want {
		return nil, fmt.Errorf("column %q holds %d rows, want %d", name, len(out), want)
	}
	return out, nil
}

// prefetchValues is the size of a column chunk (in values) from which
// readList decompresses and decodes its pages on a second goroutine, one
// page ahead of the copy into the graph's slices: reading a 10^9-edge
// set's 2*10^9 column ids was one core's work.
var prefetchValues int64 = 1 << 23

// prefetch returns pages read one page ahead on their own goroutine, in
// the same order and with the same errors. A panic of the decoder (see
// recoverCorrupt) is carried over and raised again by ReadPage, in the
// caller's goroutine, where the readers recover it.
func prefetch(pages parquet.Pages) parquet.Pages {
	p := &prefetched{Pages: pages, next: make(chan fetched), stop: make(chan struct{})}
	go p.run()
	return p
}

type fetched struct {
	page  parquet.Page
	err   error
	panic any
}

type prefetched struct {
	parquet.Pages
	next   chan fetched
	stop   chan struct{}
	done   bool // ReadPage returned an error or a panic: nothing follows
	closed bool
}

func (p *prefetched) run() {
	defer close(p.next)
	for {
		f := p.fetch()
		select {
		case p.next <- f:
		case <-p.stop:
			parquet.Release(f.page)
			return
		}
		if f.err != nil || f.panic != nil {
			return
		}
	}
}

func (p *prefetched) fetch() (f fetched) {
	defer func() {
		if r := recover(); r != nil {
			f = fetched{panic: r}
		}
	}()
	page, err := p.Pages.ReadPage()
	return fetched{page: page, err: err}
}

// ReadPage returns the next page.
func (p *prefetched) ReadPage() (parquet.Page, error) {
	if p.done {
		return nil, io.EOF
	}
	f, ok := <-p.next
	if !ok {
		p.done = true
		return nil, io.EOF
	}
	if f.panic != nil {
		p.done = true
		panic(f.panic)
	}
	if f.err != nil {
		p.done = true
	}
	return f.page, f.err
}

// SeekToRow is not supported: readList reads the pages in order.
func (p *prefetched) SeekToRow(int64) error {
	return errors.New("graphs: prefetched pages cannot seek")
}

// Close stops the prefetching goroutine, then closes the pages.
func (p *prefetched) Close() error {
	if p.closed {
		return nil
	}
	p.closed = true
	close(p.stop)
	for range p.next { // wait for run to end: it uses the pages
	}
	return p.Pages.Close()
}

// releasePageValues is the largest page readListPages hands back to
// parquet-go's buffer pool (16 MB of int32 values).
const releasePageValues = 1 << 22

// readListPages appends the rows of one column chunk to out.
func readListPages[T any](pages parquet.Pages, out [][]T, want int, lv levels, values func(encoding.Values) ([]T, error)) ([][]T, error) {
	for {
		p, err := pages.ReadPage()
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		out, err = appendPage(p, out, want, lv, values)
		if err != nil {
			return out, err
		}
		// A small page (a streamed set's, or one of many small graphs)
		// goes back to parquet-go's pool, so the next page reuses its
		// buffers: dropped, the pages of a 10^8-edge streamed set piled up
		// 0.8 GB of garbage before the collector ran. A large page (a
		// whole graph's list, as parquet-go writes it) is dropped: the
		// pool would keep buffers as large as the biggest graph alive for
		// two more GC cycles, and the next GC frees it.
		if p.NumValues() <= releasePageValues {
			parquet.Release(p)
		}
	}
}

// levels are the definition levels of a list column: max marks a value,
// levels below list an empty (or null) list, levels in between a null
// element (only when the element is optional, as pyarrow writes lists).
type levels struct {
	max, list byte
	// hint and declared size the rows' slices: see readList.
	hint     []int64
	declared int64
}

// appendPage splits page p into rows by its repetition levels (0 starts a
// row) and appends each row's values to out. An entry without a value
// alone in its row is an empty or null list, read as empty; a null element
// is an error, since a CSR cannot hold one.
func appendPage[T any](p parquet.Page, out [][]T, want int, lv levels, values func(encoding.Values) ([]T, error)) ([][]T, error) {
	rep, def := p.RepetitionLevels(), p.DefinitionLevels()
	n := len(rep)
	if int64(n) != p.NumValues() || len(def) != n {
		return out, fmt.Errorf("page with %d values has %d repetition and %d definition levels", p.NumValues(), n, len(def))
	}
	vals, err := pageValues(p, values)
	if err != nil {
		return out, err
	}
	k := 0 // next unread entry of vals
	for i := 0; i < n; {
		// The row segment is [i, j): up to the next repetition level 0.
		j := n
		if next := bytes.IndexByte(rep[i+1:], 0); next >= 0 {
			j = i + 1 + next
		}
		if rep[i] == 0 {
			if len(out) == want {
				return out, fmt.Errorf("more than %d rows", want)
			}
			out = append(out, nil)
			if r := len(out) - 1; r < len(lv.hint) && lv.hint[r] > 0 && lv.hint[r] <= lv.declared {
				out[r] = make([]T, 0, lv.hint[r])
			}
		} else if len(out) == 0 {
			return out, errors.New("first page starts inside a row")
		}
		present := bytes.Count(def[i:j], []byte{lv.max})
		switch {
		case present == j-i:
			if k+present > len(vals) {
				return out, fmt.Errorf("page holds %d values, its levels need more", len(vals))
			}
			r := len(out) - 1
			out[r] = append(out[r], vals[k:k+present]...)
			k += present
		case j-i != 1 || rep[i] != 0 || def[i] >= lv.list:
			return out, errors.New("null element in a list")
		}
		i = j
	}
	if k != len(vals) {
		return out, fmt.Errorf("page holds %d values, its levels use %d", len(vals), k)
	}
	return out, nil
}

// pageValues returns the values of p, looking dictionary indexes up.
func pageValues[T any](p parquet.Page, values func(encoding.Values) ([]T, error)) ([]T, error) {
	d := p.Dictionary()
	if d == nil {
		return values(p.Data())
	}
	dict, err := values(d.Page().Data())
	if err != nil {
		return nil, err
	}
	idx := p.Data()
	if idx.Kind() != encoding.Int32 {
		return nil, errors.New("dictionary page without int32 indexes")
	}
	ix := idx.Int32()
	vals := make([]T, len(ix))
	for i, x := range ix {
		if x < 0 || int(x) >= len(dict) {
			return nil, fmt.Errorf("dictionary index %d out of range [0,%d)", x, len(dict))
		}
		vals[i] = dict[x]
	}
	return vals, nil
}

// int32Values and float64Values extract a page's values, checking the
// physical type first (encoding.Values panics on a mismatch).
func int32Values(v encoding.Values) ([]int32, error) {
	if v.Kind() != encoding.Int32 {
		return nil, fmt.Errorf("values of type %v, want INT32", v.Kind())
	}
	return v.Int32(), nil
}

func float64Values(v encoding.Values) ([]float64, error) {
	if v.Kind() != encoding.Double {
		return nil, fmt.Errorf("values of type %v, want DOUBLE", v.Kind())
	}
	return v.Double(), nil
}
