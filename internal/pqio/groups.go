package pqio

import "io"

// EncodeGroups writes rows as one Parquet file to w as Encode does, but
// ends a row group after each run of rows: groups holds the runs' lengths
// (each at most RowGroupRows; their sum is len(rows)). A writer that
// replaces some column chunks of the file (graphs' streamed sets) uses it
// to get every other chunk, the schema and the metadata from parquet-go.
func EncodeGroups[T any](w io.Writer, rows []T, groups []int, meta map[string]string) error {
	sw := newWriter[T](w, meta)
	start := 0
	for _, n := range groups {
		if _, err := sw.pw.Write(rows[start : start+n]); err != nil {
			sw.pw.Close()
			return err
		}
		if err := sw.pw.Flush(); err != nil {
			sw.pw.Close()
			return err
		}
		start += n
	}
	return sw.pw.Close()
}

// Compress returns src compressed as every page pqio writes (zstd at the
// default level, one frame), reusing dst's storage; the encoders are the
// ones all files share. It is safe for concurrent use.
func Compress(dst, src []byte) ([]byte, error) { return codec.Encode(dst, src) }
