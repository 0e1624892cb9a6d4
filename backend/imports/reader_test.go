package imports

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/shortlink/shortlink/backend/apperr"
)

func readAll(t *testing.T, file string) (*Reader, []Row) {
	t.Helper()
	rd, err := NewReader(strings.NewReader(file))
	if err != nil {
		t.Fatalf("NewReader(%q): %v", file, err)
	}
	var rows []Row
	for {
		row, err := rd.Next()
		if err == io.EOF {
			return rd, rows
		}
		if err != nil {
			t.Fatalf("Next: %v", err)
		}
		rows = append(rows, row)
	}
}

func TestReaderHeaders(t *testing.T) {
	cases := []struct {
		name, file, format        string
		url, alias, domain, title string
		expires                   string // RFC 3339, "" for none
		password                  string
		line                      int
	}{
		{"ours", "url,alias,domain,title,expires_at,password\nhttps://a.example/x,ax,sho.rt,A,2030-01-31T12:00:00Z,secret1\n",
			FormatShortlink, "https://a.example/x", "ax", "sho.rt", "A", "2030-01-31T12:00:00Z", "secret1", 2},
		{"ours reordered with spaces", " Title ; URL \nT;  https://a.example/y  \n", FormatShortlink, "https://a.example/y", "", "", "T", "", "", 2},
		{"our links export", "id,code,short_url,url,title,status,created_at,visits,unique_visitors,bots\n7,abc123,http://sho.rt/abc123,https://a.example/z,Z,active,2025-01-01T00:00:00Z,3,2,1\n",
			FormatShortlink, "https://a.example/z", "", "", "Z", "", "", 2},
		{"bitly api fields", "id,link,long_url,title,created_at,archived,tags,custom_bitlinks\nbit.ly/3abc,https://bit.ly/3abc,https://b.example/1,Bee,2024-03-01T10:00:00+0000,false,,\n",
			FormatBitly, "https://b.example/1", "", "", "Bee", "", "", 2},
		{"bitly web export", "\ufeffTitle,Bitlink,Long URL,Created,Clicks\n\"Bee, two\",bit.ly/x,https://b.example/2,2024-03-01,5\n",
			FormatBitly, "https://b.example/2", "", "", "Bee, two", "", "", 2},
		{"shlink web export", "createdAt,domain,shortCode,shortUrl,longUrl,title,tags,visits\n2024-01-01T00:00:00+00:00,,sh-1,https://s.test/sh-1,https://c.example/1,Sea,a|b,4\n",
			FormatShlink, "https://c.example/1", "sh-1", "", "Sea", "", "", 2},
		{"shlink api fields", "shortCode\tlongUrl\tdomain\tvalidUntil\nsh-2\thttps://c.example/2\tsho.rt\t2031-05-06\n",
			FormatShlink, "https://c.example/2", "sh-2", "sho.rt", "", "2031-05-06T00:00:00Z", "", 2},
		{"no header", "https://d.example/1,ignored\n", FormatPlain, "https://d.example/1", "", "", "", "", "", 1},
		{"no header, crlf and blank lines", "\r\n\r\nHTTPS://d.example/2\r\n", FormatPlain, "HTTPS://d.example/2", "", "", "", "", "", 3},
		{"expiry with space", "url,expires_at\nhttps://e.example,2030-02-03 04:05:06\n", FormatShortlink, "https://e.example", "", "", "", "2030-02-03T04:05:06Z", "", 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			rd, rows := readAll(t, c.file)
			if rd.Format() != c.format {
				t.Errorf("format %q, want %q", rd.Format(), c.format)
			}
			if len(rows) != 1 {
				t.Fatalf("%d rows, want 1: %+v", len(rows), rows)
			}
			r := rows[0]
			if r.Err != nil {
				t.Fatalf("row error: %v", r.Err)
			}
			in := r.Input
			if r.N != 1 || r.Line != c.line || r.URL != c.url || in.URL != c.url || in.Alias != c.alias || in.Domain != c.domain || in.Title != c.title {
				t.Errorf("row %+v, want line %d url %q alias %q domain %q title %q", r, c.line, c.url, c.alias, c.domain, c.title)
			}
			exp := ""
			if in.ExpiresAt != nil {
				exp = in.ExpiresAt.Format(time.RFC3339)
			}
			if exp != c.expires {
				t.Errorf("expires %q, want %q", exp, c.expires)
			}
			pw := ""
			if in.Password.Set && in.Password.Value != nil {
				pw = *in.Password.Value
			}
			if pw != c.password {
				t.Errorf("password %q, want %q", pw, c.password)
			}
		})
	}
}

func TestReaderRefusals(t *testing.T) {
	for name, file := range map[string]string{
		"empty":                "",
		"blank lines":          "\n\n\r\n",
		"only commas":          ",,,\n , ,\n",
		"bom only":             "\ufeff",
		"no url column":        "name,title\nx,y\n",
		"first cell not a url": "example.com/a\nexample.com/b\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := NewReader(strings.NewReader(file))
			if !apperr.Is(err, apperr.Invalid) {
				t.Fatalf("NewReader: %v, want invalid", err)
			}
		})
	}
	// A row longer than MaxRowBytes stops the file, a clear invalid rather than memory.
	long := "url\nhttps://a.example/" + strings.Repeat("a", MaxRowBytes+8192) + "\n"
	rd, err := NewReader(strings.NewReader(long))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := rd.Next(); !apperr.Is(err, apperr.Invalid) {
		t.Fatalf("long row: %v, want invalid", err)
	}
	// The bound is exact: a row of MaxRowBytes (its line break included) is read, one byte
	// more stops the file, however the reader's buffer falls.
	for _, pad := range []int{0, 1, 100, 3000} {
		row := func(n int) string {
			cell := "https://a.example/" + strings.Repeat("a", n-len("https://a.example/")-1)
			return cell + "\n"
		}
		file := "url\n" + strings.Repeat("https://b.example/\n", pad) + row(MaxRowBytes) + row(MaxRowBytes+1) + "https://c.example/\n"
		rd, err := NewReader(strings.NewReader(file))
		if err != nil {
			t.Fatal(err)
		}
		for range pad {
			if _, err := rd.Next(); err != nil {
				t.Fatal(err)
			}
		}
		if r, err := rd.Next(); err != nil || len(r.URL) != MaxRowBytes-1 {
			t.Fatalf("pad %d: a row of %d bytes: %v", pad, MaxRowBytes, err)
		}
		if _, err := rd.Next(); !apperr.Is(err, apperr.Invalid) {
			t.Fatalf("pad %d: a row of %d bytes: %v, want invalid", pad, MaxRowBytes+1, err)
		}
	}
}

// TestReaderRows: bad rows get their own errors, numbered among the file's data rows, and the
// rows after them are read as usual.
func TestReaderRows(t *testing.T) {
	file := "url,title,expires_at\n" +
		"https://a.example/1,one,\n" +
		",no url,\n" +
		"\n" +
		",,\n" +
		"https://a.example/2,bad \"quote,\n" +
		"https://a.example/3,\"two\nlines\",\n" +
		"https://a.example/4,,tomorrow\n" +
		"https://a.example/5,five,2030-01-01\n"
	_, rows := readAll(t, file)
	type want struct {
		n, line int
		url     string
		failed  bool
	}
	wants := []want{{1, 2, "https://a.example/1", false}, {2, 3, "", true}, {3, 6, "", true},
		{4, 7, "https://a.example/3", false}, {5, 9, "https://a.example/4", true}, {6, 10, "https://a.example/5", false}}
	if len(rows) != len(wants) {
		t.Fatalf("%d rows, want %d: %+v", len(rows), len(wants), rows)
	}
	for i, w := range wants {
		r := rows[i]
		if r.N != w.n || r.Line != w.line || r.URL != w.url || (r.Err != nil) != w.failed {
			t.Errorf("row %d: %+v, want %+v", i, r, w)
		}
		if r.Err != nil && !apperr.Is(r.Err, apperr.Invalid) {
			t.Errorf("row %d: error %v is not invalid", i, r.Err)
		}
	}
	if rows[3].Input.Title != "two\nlines" {
		t.Errorf("quoted line break: %q", rows[3].Input.Title)
	}
}

// FuzzReader feeds the reader arbitrary files: it never panics, numbers rows 1, 2, 3…, never
// returns a row without a url and without an error, keeps every cell valid to hand on, and reads
// back exactly the rows a CSV writer wrote under our header.
func FuzzReader(f *testing.F) {
	for _, seed := range []string{
		"url\nhttps://a.example\n",
		"url,alias,domain,title,expires_at,password\nhttps://a.example/x,ax,sho.rt,A,2030-01-31T12:00:00Z,secret1\n",
		"\ufeffTitle,Bitlink,Long URL,Created,Clicks\n\"Bee, two\",bit.ly/x,https://b.example/2,2024-03-01,5\n",
		"createdAt;domain;shortCode;shortUrl;longUrl;title\n;;a;;https://c.example;\"x\"\"y\"\n",
		"https://d.example/1\nhttps://d.example/2\n\n,\n",
		"url,title\n\"https://a.example\",\"unterminated\n",
		"url\r\nhttps://a.example/\"bare\"\r\n",
		"long_url\tlink\nhttps://a.example\tbit.ly/1\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, file []byte) {
		rd, err := NewReader(bytes.NewReader(file))
		if err != nil {
			if apperr.CodeOf(err) != apperr.Invalid {
				t.Fatalf("NewReader: %v is not invalid", err)
			}
			return
		}
		for n := 1; ; n++ {
			row, err := rd.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				if apperr.CodeOf(err) != apperr.Invalid {
					t.Fatalf("Next: %v is not invalid", err)
				}
				return
			}
			if row.N != n || row.Line < 1 {
				t.Fatalf("row %d numbered %d, line %d", n, row.N, row.Line)
			}
			if row.Err == nil && row.Input.URL == "" {
				t.Fatalf("row %d has no url and no error", n)
			}
			if row.Input.URL != row.URL {
				t.Fatalf("row %d: url %q vs %q", n, row.Input.URL, row.URL)
			}
			if n > len(file)+1 {
				t.Fatalf("more rows than bytes")
			}
		}
	})
}

// FuzzReaderRoundTrip writes rows with a CSV writer under our header and reads them back.
func FuzzReaderRoundTrip(f *testing.F) {
	f.Add("https://a.example/1", "t,itle", "al-1", "\"q\"")
	f.Add("https://a.example/2", "line\nbreak", "", "")
	f.Fuzz(func(t *testing.T, url, title, alias, password string) {
		url = "https://" + strings.TrimSpace(url)
		for _, s := range []string{url, title, alias, password} {
			if !utf8.ValidString(s) || strings.ContainsAny(s, "\r\x00") {
				return
			}
		}
		var buf bytes.Buffer
		w := csv.NewWriter(&buf)
		_ = w.Write([]string{"url", "title", "alias", "password"})
		_ = w.Write([]string{url, title, alias, password})
		w.Flush()
		rd, err := NewReader(&buf)
		if err != nil {
			t.Fatalf("NewReader: %v", err)
		}
		row, err := rd.Next()
		if err != nil || row.Err != nil {
			t.Fatalf("Next: %v %v", err, row.Err)
		}
		in := row.Input
		pw := ""
		if in.Password.Set {
			pw = *in.Password.Value
		}
		if in.URL != strings.TrimSpace(url) || in.Title != strings.TrimSpace(title) || in.Alias != strings.TrimSpace(alias) || pw != strings.TrimSpace(password) {
			t.Fatalf("read back %+v (password %q) from %q %q %q %q", in, pw, url, title, alias, password)
		}
		if _, err := rd.Next(); !errors.Is(err, io.EOF) {
			t.Fatalf("after the row: %v", err)
		}
	})
}
