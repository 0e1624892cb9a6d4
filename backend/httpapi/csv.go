package httpapi

import (
	"encoding/csv"
	"fmt"
	"iter"
	"net/http"
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
// same whatever the size of the file.
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
	c.Status(http.StatusOK)
	deadline := http.NewResponseController(c.Writer)
	_ = deadline.SetWriteDeadline(time.Now().Add(csvWriteWindow)) // not every writer can
	w := csv.NewWriter(c.Writer)
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
