package imports

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
	"github.com/shortlink/shortlink/backend/link"
)

// Formats a file's header is read as.
const (
	FormatShortlink = "shortlink" // our columns (url, alias, …) or our links export
	FormatBitly     = "bitly"     // Bitly's export and API fields (long_url, link, …)
	FormatShlink    = "shlink"    // Shlink's export and API fields (longUrl, shortCode, …)
	FormatPlain     = "plain"     // no header: one URL in the first cell of each row
)

// MaxRowBytes bounds one row of a file (a record, quoted line breaks and its own line break
// included): a longer row stops the file (invalid), whatever its length past the bound, and the
// reader holds no more than this and its buffer at a time, whatever the size of the file.
const MaxRowBytes = 64 << 10

// Columns the rows are read into.
const (
	colURL = iota
	colAlias
	colDomain
	colTitle
	colExpires
	colPassword
	colTags
	numCols
)

// headerNames maps a header cell, folded by foldHeader, to the column it names. Our own names
// first; then Bitly's (long_url, the "Long URL" of its web export) and Shlink's (longUrl,
// shortCode, validUntil); a few names spreadsheets commonly use. A tags column (ours, Bitly's,
// Shlink's) is read as tag names separated by semicolons. Columns not named here (Bitly's link,
// Shlink's shortUrl and visits, our export's code and totals) are ignored: a short link of
// another service is not ours to take over.
var headerNames = map[string]int{
	"url": colURL, "longurl": colURL, "destination": colURL, "destinationurl": colURL,
	"originalurl": colURL, "targeturl": colURL, "target": colURL,
	"alias": colAlias, "shortcode": colAlias, "customalias": colAlias, "slug": colAlias, "backhalf": colAlias,
	"domain":    colDomain,
	"title":     colTitle,
	"expiresat": colExpires, "expires": colExpires, "expiration": colExpires, "expirationdate": colExpires,
	"validuntil": colExpires, "metavaliduntil": colExpires,
	"password": colPassword,
	"tags":     colTags,
}

// bitlyNames and shlinkNames are header cells, as written, that only that service's exports have.
var (
	bitlyNames  = []string{"long_url", "custom_bitlinks", "bitlink", "Long URL", "Bitlink"}
	shlinkNames = []string{"longUrl", "shortCode", "shortUrl", "dateCreated", "validUntil", "meta.validUntil"}
)

// foldHeader is a header cell reduced to lower-case letters and digits: "Long URL", "long_url"
// and "longUrl" are all "longurl".
func foldHeader(s string) string {
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if (r >= 'a' && r <= 'z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Row is one data row of a file.
type Row struct {
	// N is the row's number among the file's data rows, from 1; Line is the line of the file
	// it starts on.
	N, Line int
	// URL is the url cell as written (the results file shows it).
	URL string
	// Input is the link the row asks for.
	Input link.Input
	// Err, when set, fails the row before it is tried: a malformed line or an unreadable cell.
	Err error
}

// Reader reads a CSV file of links row by row, in constant memory: a header of ours, Bitly's or
// Shlink's, or none (a first cell that is a URL). The delimiter (comma, semicolon or tab) is
// the one of the first line, and a UTF-8 byte-order mark is skipped.
type Reader struct {
	csv    *csv.Reader
	limit  *rowLimit
	format string
	cols   [numCols]int // index of each column in a record; -1 when absent
	n      int
	// lastLine is the line the last record read without error starts on.
	lastLine int
	// first is the first record of a file without a header: a data row, read already.
	first     []string
	firstLine int
}

// NewReader reads the header of r. It answers invalid for a file that is empty or whose first
// line is neither a header naming a url column nor a row starting with a URL.
func NewReader(r io.Reader) (*Reader, error) {
	lim := &rowLimit{r: r, left: MaxRowBytes}
	br := bufio.NewReaderSize(lim, 4096)
	if bom, err := br.Peek(3); err == nil && bytes.Equal(bom, []byte("\xef\xbb\xbf")) {
		_, _ = br.Discard(3)
	}
	head, _ := br.Peek(4096) // the first line, or as much of it as fits, decides the delimiter
	c := csv.NewReader(br)
	c.Comma = delimiter(head)
	c.FieldsPerRecord = -1
	rd := &Reader{csv: c, limit: lim}
	for i := range rd.cols {
		rd.cols[i] = -1
	}
	var rec []string
	var err error
	for {
		rec, err = rd.read()
		if err == io.EOF {
			return nil, apperr.Errorf(apperr.Invalid, "the file holds no rows").For("file_empty", "file")
		}
		if err != nil && !isParseError(err) {
			return nil, err
		}
		if err == nil && !blank(rec) {
			break
		}
		if err != nil {
			return nil, apperr.Errorf(apperr.Invalid, "the first line of the file is not valid CSV: %s", parseMessage(err)).For("csv_invalid", "file")
		}
	}
	if looksLikeURL(rec[0]) {
		rd.format = FormatPlain
		rd.cols[colURL] = 0
		rd.first, rd.firstLine = rec, rd.line()
		return rd, nil
	}
	for i, cell := range rec {
		if col, ok := headerNames[foldHeader(cell)]; ok && rd.cols[col] < 0 {
			rd.cols[col] = i
		}
	}
	if rd.cols[colURL] < 0 {
		return nil, apperr.Errorf(apperr.Invalid,
			"the file has no url column: its first line must be a header naming one (url, long_url, longUrl…) or a row starting with an http(s) URL").For("csv_no_url_column", "file")
	}
	rd.format = FormatShortlink
	for _, cell := range rec {
		cell = strings.TrimSpace(strings.TrimPrefix(cell, "\ufeff"))
		switch {
		case containsString(bitlyNames, cell):
			rd.format = FormatBitly
		case containsString(shlinkNames, cell):
			rd.format = FormatShlink
		}
	}
	return rd, nil
}

// Format is what the header was read as (Format*).
func (r *Reader) Format() string { return r.format }

// Next returns the next data row, or io.EOF after the last. Rows with nothing in any cell are
// skipped, like blank lines. A malformed row is returned with Err set; an error is returned only
// when the file cannot be read on (a row longer than MaxRowBytes, a failed read).
func (r *Reader) Next() (Row, error) {
	var rec []string
	var err error
	var line int
	if r.first != nil {
		rec, line, r.first = r.first, r.firstLine, nil
	} else {
		for {
			rec, err = r.read()
			if err == io.EOF {
				return Row{}, io.EOF
			}
			if err != nil && !isParseError(err) {
				return Row{}, err
			}
			if err != nil || !blank(rec) {
				break
			}
		}
		if err != nil {
			var pe *csv.ParseError
			errors.As(err, &pe)
			line = pe.StartLine
		} else {
			line = r.line()
		}
	}
	r.n++
	row := Row{N: r.n, Line: line}
	if err != nil {
		row.Err = apperr.Errorf(apperr.Invalid, "line %d is not valid CSV: %s", line, parseMessage(err)).For("csv_invalid", "")
		return row, nil
	}
	cell := func(col int) string {
		if i := r.cols[col]; i >= 0 && i < len(rec) {
			return strings.TrimSpace(rec[i])
		}
		return ""
	}
	row.URL = cell(colURL)
	in := link.Input{URL: row.URL, Alias: cell(colAlias), Domain: cell(colDomain), Title: cell(colTitle)}
	if pw := cell(colPassword); pw != "" {
		in.Password = link.Some(&pw)
	}
	// Tags are separated by semicolons, as our links export writes them; blank ones are left out.
	for _, t := range strings.Split(cell(colTags), ";") {
		if t = strings.TrimSpace(t); t != "" {
			in.Tags = append(in.Tags, t)
		}
	}
	if row.URL == "" {
		row.Err = apperr.Errorf(apperr.Invalid, "url is required").For("url_required", "url")
	} else if exp := cell(colExpires); exp != "" {
		t, err := parseTime(exp)
		if err != nil {
			row.Err = err
		}
		in.ExpiresAt = t
	}
	row.Input = in
	return row, nil
}

// read is the next record; the row limit starts afresh for each. A record longer than
// MaxRowBytes is refused exactly at that length: the read limit alone, which must let the csv
// reader's buffer run ahead, would let some through.
func (r *Reader) read() ([]string, error) {
	r.limit.left = MaxRowBytes + 4096 // the csv reader's buffer runs ahead of the record
	start := r.csv.InputOffset()
	rec, err := r.csv.Read()
	if errors.Is(err, errRowTooLong) || (err == nil && r.csv.InputOffset()-start > MaxRowBytes) {
		return nil, apperr.Errorf(apperr.Invalid, "the row after line %d is longer than %d bytes", r.lastLine, MaxRowBytes).For("csv_row_too_long", "file")
	}
	if err == nil && len(rec) > 0 {
		r.lastLine, _ = r.csv.FieldPos(0)
	}
	return rec, err
}

// line is the line the last record read without error starts on.
func (r *Reader) line() int { return r.lastLine }

// timeLayouts are the expiry times a row may give: RFC 3339, and the plain forms spreadsheets
// write (read as UTC).
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02T15:04", "2006-01-02 15:04", "2006-01-02"}

func parseTime(s string) (*time.Time, error) {
	for _, layout := range timeLayouts {
		if t, err := time.Parse(layout, s); err == nil {
			t = t.UTC()
			return &t, nil
		}
	}
	return nil, apperr.Errorf(apperr.Invalid, "expires_at %q is not a time such as 2030-01-31T12:00:00Z or 2030-01-31", truncate(s, 40)).For("expires_at_invalid", "expires_at")
}

// delimiter is the one of comma, semicolon and tab found most often in the first line of head,
// outside quotes; comma when none is.
func delimiter(head []byte) rune {
	counts := map[rune]int{}
	quoted := false
	for _, b := range head {
		if b == '"' {
			quoted = !quoted
			continue
		}
		if quoted {
			continue
		}
		if b == '\n' || b == '\r' {
			break
		}
		if b == ',' || b == ';' || b == '\t' {
			counts[rune(b)]++
		}
	}
	best := ','
	for _, d := range []rune{';', '\t'} {
		if counts[d] > counts[best] {
			best = d
		}
	}
	return best
}

// looksLikeURL reports whether a first cell is a link rather than a header name.
func looksLikeURL(s string) bool {
	s = strings.ToLower(strings.TrimSpace(strings.TrimPrefix(s, "\ufeff")))
	return strings.HasPrefix(s, "http://") || strings.HasPrefix(s, "https://")
}

func blank(rec []string) bool {
	for _, c := range rec {
		if strings.TrimSpace(c) != "" {
			return false
		}
	}
	return true
}

func containsString(list []string, s string) bool {
	for _, v := range list {
		if v == s {
			return true
		}
	}
	return false
}

func isParseError(err error) bool {
	var pe *csv.ParseError
	return errors.As(err, &pe)
}

func parseMessage(err error) string {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return pe.Err.Error()
	}
	return err.Error()
}

// truncate cuts s to at most n bytes on a character boundary, as valid UTF-8.
func truncate(s string, n int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// storable is s as PostgreSQL text can hold it: valid UTF-8 without NUL characters, at most n
// bytes.
func storable(s string, n int) string {
	return truncate(strings.ReplaceAll(s, "\x00", ""), n)
}

// errRowTooLong stops the csv reader at a record larger than MaxRowBytes.
var errRowTooLong = fmt.Errorf("row longer than %d bytes", MaxRowBytes)

// rowLimit fails a read once more than left bytes have been read since the last record began.
type rowLimit struct {
	r    io.Reader
	left int
}

func (l *rowLimit) Read(p []byte) (int, error) {
	if l.left <= 0 {
		return 0, errRowTooLong
	}
	if len(p) > l.left {
		p = p[:l.left]
	}
	n, err := l.r.Read(p)
	l.left -= n
	return n, err
}
