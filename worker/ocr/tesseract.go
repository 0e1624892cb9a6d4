// Package ocr reads the text of a page's screenshot with Tesseract (Debian's tesseract-ocr,
// with its English and Simplified Chinese data), run as a subprocess: the words a page draws
// with CSS, SVG, a canvas or images, which its DOM does not hold (docs/moderation.md).
package ocr

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os/exec"
	"strings"
	"sync"
	"time"
)

// ErrUnavailable is Read's error when Tesseract is not installed: the review goes on without
// the screenshot's text.
var ErrUnavailable = errors.New("ocr: tesseract is not installed")

// Options configure a Tesseract.
type Options struct {
	// Path is the tesseract program; "" means "tesseract" on the PATH.
	Path string
	// Languages are the trained data to read with, those installed of them; nil means
	// DefaultLanguages.
	Languages []string
	// Timeout bounds one reading; 0 means DefaultTimeout.
	Timeout time.Duration
	// Log gets the warning, once, that Tesseract or a language is missing; nil means none.
	Log *slog.Logger
}

// DefaultLanguages are English and Simplified Chinese (tesseract-ocr-eng, tesseract-ocr-chi-sim).
var DefaultLanguages = []string{"eng", "chi_sim"}

// DefaultTimeout bounds a reading: a screenshot of a viewport takes one to three seconds.
const DefaultTimeout = 8 * time.Second

// maxOutput bounds what is kept of a reading.
const maxOutput = 64 << 10

// Tesseract reads text from PNG images.
type Tesseract struct {
	opts Options
	once sync.Once
	path string // "" when tesseract is missing
	lang string // "eng+chi_sim"
}

// New returns a reader; Tesseract is looked for at its first reading.
func New(opts Options) *Tesseract {
	if opts.Path == "" {
		opts.Path = "tesseract"
	}
	if opts.Languages == nil {
		opts.Languages = DefaultLanguages
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultTimeout
	}
	return &Tesseract{opts: opts}
}

// Available says whether Tesseract is installed, with at least one of the languages.
func (t *Tesseract) Available(ctx context.Context) bool {
	t.find(ctx)
	return t.path != ""
}

// find looks for the program and its languages once, and warns once of what is missing.
func (t *Tesseract) find(ctx context.Context) {
	t.once.Do(func() {
		path, err := exec.LookPath(t.opts.Path)
		if err != nil {
			t.warn("tesseract is not installed: pages are scored without the text of their screenshots",
				"path", t.opts.Path, "err", err.Error())
			return
		}
		lctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), 10*time.Second)
		defer cancel()
		out, err := exec.CommandContext(lctx, path, "--list-langs").CombinedOutput()
		if err != nil {
			t.warn("tesseract does not answer: pages are scored without the text of their screenshots", "path", path, "err", err.Error())
			return
		}
		installed := map[string]bool{}
		for _, l := range strings.Fields(string(out)) {
			installed[l] = true
		}
		var langs, missing []string
		for _, l := range t.opts.Languages {
			if installed[l] {
				langs = append(langs, l)
			} else {
				missing = append(missing, l)
			}
		}
		if len(missing) > 0 {
			t.warn("tesseract lacks languages: install tesseract-ocr-eng and tesseract-ocr-chi-sim", "missing", strings.Join(missing, ","))
		}
		if len(langs) == 0 {
			return
		}
		t.path, t.lang = path, strings.Join(langs, "+")
	})
}

func (t *Tesseract) warn(msg string, args ...any) {
	if t.opts.Log != nil {
		t.opts.Log.Warn("ocr: "+msg, args...)
	}
}

// Read returns the text Tesseract reads in png, white space as it reads it. It returns
// ErrUnavailable when Tesseract is missing, and an error when the reading fails or runs out of
// time (Options.Timeout, or ctx's end).
func (t *Tesseract) Read(ctx context.Context, png []byte) (string, error) {
	t.find(ctx)
	if t.path == "" {
		return "", ErrUnavailable
	}
	ctx, cancel := context.WithTimeout(ctx, t.opts.Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, t.path, "stdin", "stdout", "-l", t.lang)
	// One thread: the worker reads the visitors' screenshots side by side, on a browser's machine.
	cmd.Env = append(cmd.Environ(), "OMP_THREAD_LIMIT=1")
	cmd.Stdin = bytes.NewReader(png)
	var stdout, stderr limitedBuffer
	stdout.max, stderr.max = maxOutput, 4<<10
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	cmd.WaitDelay = time.Second
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return "", fmt.Errorf("ocr: %w", ctx.Err())
		}
		return "", fmt.Errorf("ocr: tesseract: %v: %s", err, strings.TrimSpace(stderr.String()))
	}
	return stdout.String(), nil
}

// limitedBuffer keeps the first max bytes written to it and drops the rest.
type limitedBuffer struct {
	bytes.Buffer
	max int
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	if room := b.max - b.Len(); room > 0 {
		b.Buffer.Write(p[:min(len(p), room)])
	}
	return len(p), nil
}
