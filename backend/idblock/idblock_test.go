package idblock_test

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"

	"github.com/shortlink/shortlink/backend/idblock"
	"github.com/shortlink/shortlink/backend/postgres"
	"github.com/shortlink/shortlink/backend/testenv"
)

// childEnv marks a re-executed test binary that allocates IDs and prints them.
const childEnv = "IDBLOCK_CHILD_DATABASE_URL"

func TestMain(m *testing.M) {
	if url := os.Getenv(childEnv); url != "" {
		os.Exit(child(url))
	}
	os.Exit(m.Run())
}

// child allocates IDs from 8 goroutines with a small block size, so blocks are fetched often
// and concurrently with the other processes, and writes one ID per line.
func child(url string) int {
	ctx := context.Background()
	db, err := postgres.Open(ctx, url)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer db.Close()
	n, _ := strconv.Atoi(os.Getenv("IDBLOCK_CHILD_COUNT"))
	alloc := idblock.New(postgres.NewIDSource(db), 37, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	out := bufio.NewWriter(os.Stdout)
	defer func() { _ = out.Flush() }()
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n / 8 {
				id, err := alloc.Next(ctx)
				if err != nil {
					fmt.Fprintln(os.Stderr, err)
					os.Exit(1)
				}
				mu.Lock()
				_, _ = fmt.Fprintln(out, id)
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	return 0
}

func TestUniqueAcrossProcesses(t *testing.T) {
	url := testenv.DatabaseURL(t)
	const procs, perProc = 4, 8000
	outs := make([][]byte, procs)
	var wg sync.WaitGroup
	errs := make(chan error, procs)
	for i := range procs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			cmd := exec.Command(os.Args[0], "-test.run=^$")
			cmd.Env = append(os.Environ(), childEnv+"="+url, "IDBLOCK_CHILD_COUNT="+strconv.Itoa(perProc))
			cmd.Stderr = os.Stderr
			out, err := cmd.Output()
			if err != nil {
				errs <- fmt.Errorf("process %d: %w", i, err)
			}
			outs[i] = out
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	seen := map[int64]int{}
	total := 0
	for p, out := range outs {
		sc := bufio.NewScanner(bytes.NewReader(out))
		for sc.Scan() {
			id, err := strconv.ParseInt(sc.Text(), 10, 64)
			if err != nil || id <= 0 {
				t.Fatalf("process %d printed %q", p, sc.Text())
			}
			if q, dup := seen[id]; dup {
				t.Fatalf("id %d issued to process %d and process %d", id, q, p)
			}
			seen[id] = p
			total++
		}
	}
	if total != procs*perProc {
		t.Fatalf("got %d ids, want %d", total, procs*perProc)
	}
}

func TestUniqueAcrossRestarts(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	seen := map[int64]bool{}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	for restart := range 5 {
		// A new allocator is a restarted process: whatever the old one held unused is a gap.
		alloc := idblock.New(postgres.NewIDSource(db), 100, nil, log)
		for range 150 {
			id, err := alloc.Next(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if seen[id] {
				t.Fatalf("restart %d: id %d issued twice", restart, id)
			}
			seen[id] = true
		}
	}
}

func TestPrefetchAnnouncesBlocks(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	var mu sync.Mutex
	var highs []int64
	alloc := idblock.New(postgres.NewIDSource(db), 10, func(max int64) {
		mu.Lock()
		highs = append(highs, max)
		mu.Unlock()
	}, slog.New(slog.NewTextHandler(io.Discard, nil)))
	var last int64
	for range 95 {
		id, err := alloc.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		mu.Lock()
		top := highs[len(highs)-1]
		mu.Unlock()
		// A block is announced before any of its IDs is handed out.
		if id > top {
			t.Fatalf("id %d handed out before its block (announced up to %d)", id, top)
		}
		last = id
	}
	if last < 95 {
		t.Fatalf("last id %d: ids went backwards or repeated", last)
	}
}

func TestSkipsReservedIDs(t *testing.T) {
	db := testenv.DB(t)
	ctx := context.Background()
	if _, err := db.Pool.Exec(ctx, `INSERT INTO reserved_ids VALUES (3), (4), (7)`); err != nil {
		t.Fatal(err)
	}
	alloc := idblock.New(postgres.NewIDSource(db), 10, nil, slog.New(slog.NewTextHandler(io.Discard, nil)))
	for range 7 {
		id, err := alloc.Next(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if id == 3 || id == 4 || id == 7 {
			t.Fatalf("reserved id %d was issued", id)
		}
	}
}
