package httpapi

import (
	"compress/gzip"
	"encoding/csv"
	"fmt"
	"io"
	"iter"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"
)

// csvWriteWindow is how long the client gets to take each part of a CSV download: the
// server's WriteTimeout would otherwise end a long export half-way.
const csvWriteWindow = time.Minute

// streamCSV answers rows as a CSV attachment named filename: the header, then one record per
// row, which fill sets (record has the header's length). The first row is read before the
// status is sent, so that a store that cannot be read gives an error answer rather than an
// empty file; an error after that cuts the connection, which tells the client the file is
// incomplete where a clean end would not. Rows are written as they come: memory stays the
// same whatever the size of the file. A client that accepts gzip (Accept-Encoding) gets the
// file compressed as it is written (docs/architecture.md#statistics); the compressed stream is closed only
// after the last row, so a cut export is an incomplete gzip stream too.
func streamCSV[T any](s *Server, c *gin.Context, filename string, header []string, rows iter.Seq2[T, error], fill func(row T, record []string)) {
	next, stop := iter.Pull2(rows)
	defer stop()
	row, err, ok := next()
	if ok && err != nil {
		s.fail(c, err)
		return
	}
	h := c.Writer.Header()
	h.Set("Content-Type", "text/csv; charset=utf-8")
	h.Set("Content-Disposition", fmt.Sprintf(`attachment; filename=%q`, filename))
	h.Set("Cache-Control", "no-store")
	h.Add("Vary", "Accept-Encoding")
	var out io.Writer = c.Writer
	var zw *gzip.Writer
	if acceptsGzip(c.Request.Header.Values("Accept-Encoding")) {
		h.Set("Content-Encoding", "gzip")
		zw, _ = gzip.NewWriterLevel(c.Writer, gzip.BestSpeed) // the level is valid
		out = zw
	}
	c.Status(http.StatusOK)
	deadline := http.NewResponseController(c.Writer)
	_ = deadline.SetWriteDeadline(time.Now().Add(csvWriteWindow)) // not every writer can
	w := csv.NewWriter(out)
	record := make([]string, len(header))
	for i, name := range header {
		record[i] = csvCell(name)
	}
	_ = w.Write(record)
	for n := 1; ok; row, err, ok = next() {
		if err != nil {
			s.log.Error("csv export", "file", filename, "err", err, "request_id", c.GetString(requestIDKey))
			panic(http.ErrAbortHandler)
		}
		clear(record)
		fill(row, record)
		if err := w.Write(record); err != nil {
			return // the client went away
		}
		if n++; n%1000 == 0 {
			_ = deadline.SetWriteDeadline(time.Now().Add(csvWriteWindow))
		}
	}
	w.Flush()
	if zw != nil {
		_ = zw.Close() // the client went away if it fails
	}
}

// acceptsGzip reads Accept-Encoding's values: gzip with a weight above zero, or, when gzip is
// not named, * with one.
func acceptsGzip(values []string) bool {
	gzipQ, starQ := -1.0, -1.0
	for _, v := range values {
		for part := range strings.SplitSeq(v, ",") {
			fields := strings.Split(part, ";")
			q := 1.0
			for _, p := range fields[1:] {
				if w, ok := strings.CutPrefix(strings.ToLower(strings.TrimSpace(p)), "q="); ok {
					if q, _ = strconv.ParseFloat(w, 64); q < 0 { // an unreadable weight is 0
						q = 0
					}
				}
			}
			switch strings.ToLower(strings.TrimSpace(fields[0])) {
			case "gzip", "x-gzip":
				gzipQ = max(gzipQ, q)
			case "*":
				starQ = max(starQ, q)
			}
		}
	}
	if gzipQ >= 0 {
		return gzipQ > 0
	}
	return starQ > 0
}

// csvCell defuses a cell a spreadsheet would run as a formula (CSV injection): one starting
// with =, +, -, @, a tab or a carriage return is prefixed with a single quote. Phone numbers in
// E.164 (+86…) get the quote too, which spreadsheets show as text.
func csvCell(v string) string {
	if v != "" && strings.ContainsRune("=+-@\t\r", rune(v[0])) {
		return "'" + v
	}
	return v
}
