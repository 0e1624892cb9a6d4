package ocr

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/testenv"
)

// requireTesseract fails t when Tesseract is missing under `make test`, which installs it
// (.ci/run, deploy/local/ocr.sh); `make test-unit`, with no program of the suite's, skips it.
func requireTesseract(t *testing.T, r *Tesseract) {
	t.Helper()
	testenv.Need(t, r.Available(context.Background()), "tesseract with eng and chi_sim",
		"run deploy/local/ocr.sh (or apt-get install tesseract-ocr tesseract-ocr-eng tesseract-ocr-chi-sim)")
}

func TestReadsAScreenshot(t *testing.T) {
	r := New(Options{})
	requireTesseract(t, r)
	png, err := os.ReadFile("testdata/words.png") // "Enter your recovery phrase", drawn by Chromium
	if err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	text, err := r.Read(context.Background(), png)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(strings.Fields(text), " "); !strings.Contains(got, "Enter your recovery phrase") {
		t.Errorf("read %q", got)
	}
	t.Logf("read %q in %v", strings.TrimSpace(text), time.Since(start).Round(time.Millisecond))

	if _, err := r.Read(context.Background(), []byte("not a picture")); err == nil {
		t.Error("a file that is no picture was read")
	}
}

// TestMissingTesseract: no program, no reading, and one warning however many pages ask.
func TestMissingTesseract(t *testing.T) {
	var log bytes.Buffer
	r := New(Options{Path: "/nonexistent/tesseract", Log: slog.New(slog.NewTextHandler(&log, nil))})
	for range 3 {
		if _, err := r.Read(context.Background(), []byte{1}); !errors.Is(err, ErrUnavailable) {
			t.Fatalf("err %v, want ErrUnavailable", err)
		}
	}
	if n := strings.Count(log.String(), "tesseract is not installed"); n != 1 {
		t.Errorf("%d warnings, want 1:\n%s", n, log.String())
	}
}

func TestReadTimeout(t *testing.T) {
	r := New(Options{Timeout: time.Nanosecond})
	requireTesseract(t, r)
	png, err := os.ReadFile("testdata/words.png")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := r.Read(context.Background(), png); err == nil {
		t.Error("a reading with no time finished")
	}
}
