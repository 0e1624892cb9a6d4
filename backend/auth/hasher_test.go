package auth

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/shortlink/shortlink/backend/apperr"
)

// gate stands in for argon2id: each derivation announces itself on entered, then blocks until
// released, so a test decides when hashes end. It records the most that ran at once and the
// memory each asked for.
type gate struct {
	entered  chan uint32
	release  chan struct{}
	running  atomic.Int32
	mostSeen atomic.Int32
}

func newGate() *gate {
	return &gate{entered: make(chan uint32, 100), release: make(chan struct{})}
}

func (g *gate) derive(_, _ []byte, _, memory uint32, _ uint8, keyLen uint32) []byte {
	n := g.running.Add(1)
	for {
		m := g.mostSeen.Load()
		if n <= m || g.mostSeen.CompareAndSwap(m, n) {
			break
		}
	}
	g.entered <- memory
	<-g.release
	g.running.Add(-1)
	return make([]byte, keyLen)
}

// TestHasherBound: with the bound at N, N hashes run and the next caller waits; a caller
// still waiting when the wait bound passes is refused with unavailable, without hashing.
func TestHasherBound(t *testing.T) {
	const n = 3
	g := newGate()
	h := NewHasher(n, 50*time.Millisecond)
	h.derive = g.derive
	ctx := context.Background()

	var wg sync.WaitGroup
	calls := []func() error{
		func() error { _, err := h.Hash(ctx, "a password"); return err },
		func() error { _, err := h.Verify(ctx, dummyHash, "a password"); return err },
		func() error { return h.SpendCheck(ctx, "a password") },
	}
	for _, call := range calls {
		wg.Go(func() {
			if err := call(); err != nil {
				t.Errorf("a call within the bound: %v", err)
			}
		})
	}
	for range n {
		if m := <-g.entered; m != argonMemory {
			t.Errorf("a hash asked for %d KiB, want today's %d: an unknown email must cost what a known one does", m, argonMemory)
		}
	}

	// Every slot is held: each kind of call waits out the bound, then is refused.
	for name, call := range map[string]func() error{
		"Hash":       calls[0],
		"Verify":     calls[1],
		"SpendCheck": calls[2],
	} {
		start := time.Now()
		err := call()
		var busy *BusyError
		if !errors.As(err, &busy) || !apperr.Is(err, apperr.Unavailable) || !IsBusy(err) {
			t.Fatalf("%s with every slot busy: %v, want an unavailable *BusyError", name, err)
		}
		if waited := time.Since(start); waited < 50*time.Millisecond {
			t.Errorf("%s was refused after %v, before the wait bound", name, waited)
		}
		if busy.RetrySeconds() != "1" {
			t.Errorf("Retry-After %q, want 1", busy.RetrySeconds())
		}
	}

	// A caller that gives up while waiting gets its own context's error, not unavailable.
	gone, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := h.Hash(gone, "x"); !errors.Is(err, context.Canceled) || IsBusy(err) {
		t.Errorf("Hash with a cancelled context: %v", err)
	}

	close(g.release)
	wg.Wait()
	if most := g.mostSeen.Load(); most != n {
		t.Errorf("%d hashes ran at once, want the bound %d", most, n)
	}
}

// TestHasherQueue: a caller within the wait bound gets the first slot that frees up.
func TestHasherQueue(t *testing.T) {
	g := newGate()
	h := NewHasher(1, time.Minute)
	h.derive = g.derive
	ctx := context.Background()

	first := make(chan error, 1)
	go func() { _, err := h.Hash(ctx, "first"); first <- err }()
	<-g.entered
	second := make(chan error, 1)
	go func() { _, err := h.Verify(ctx, dummyHash, "second"); second <- err }()
	select {
	case <-g.entered:
		t.Fatal("a second hash started while the only slot was held")
	case <-time.After(50 * time.Millisecond):
	}
	g.release <- struct{}{} // the first ends; the second takes its slot
	if err := <-first; err != nil {
		t.Fatal(err)
	}
	<-g.entered
	g.release <- struct{}{}
	if err := <-second; err != nil {
		t.Fatal(err)
	}
	if most := g.mostSeen.Load(); most != 1 {
		t.Errorf("%d hashes ran at once, want 1", most)
	}

	// A wait bound of 0 refuses at once when the slot is busy.
	now := NewHasher(1, 0)
	now.derive = g.derive
	go func() { _, err := now.Hash(ctx, "holder"); first <- err }()
	<-g.entered
	if _, err := now.Hash(ctx, "refused"); !IsBusy(err) {
		t.Errorf("no wait, busy slot: %v, want a *BusyError", err)
	}
	g.release <- struct{}{}
	if err := <-first; err != nil {
		t.Errorf("the holder's hash: %v", err)
	}
}

// TestHasherAtLightCost: a hasher at LightCost makes hashes that say so and check as any other,
// and its check of nobody derives at that same cost: an unknown email still costs what a known
// one does. A default hasher's hashes are at OWASP's parameters.
func TestHasherAtLightCost(t *testing.T) {
	ctx := context.Background()
	light := NewHasherAt(LightCost, 1, time.Minute)
	hash, err := light.Hash(ctx, "a password")
	if err != nil {
		t.Fatal(err)
	}
	p, ok := parseHash(hash)
	if !ok || p.memory != LightCost.MemoryKiB || p.time != LightCost.Passes {
		t.Fatalf("a light hash %q parses as %+v (%v)", hash, p, ok)
	}
	for password, want := range map[string]bool{"a password": true, "another": false} {
		if got, err := light.Verify(ctx, hash, password); err != nil || got != want {
			t.Errorf("Verify(%q) = %v, %v; want %v", password, got, err, want)
		}
	}
	// A hash made at either cost checks with a hasher at the other: each hash carries its own.
	full, err := testHasher.Hash(ctx, "a password")
	if err != nil {
		t.Fatal(err)
	}
	if p, _ := parseHash(full); p.memory != argonMemory || p.time != argonTime {
		t.Errorf("a default hasher's hash %q is not at OWASP's parameters", full)
	}
	if ok, err := light.Verify(ctx, full, "a password"); err != nil || !ok {
		t.Errorf("a light hasher checking a full hash: %v, %v", ok, err)
	}

	g := newGate()
	light.derive = g.derive
	done := make(chan error, 1)
	go func() { done <- light.SpendCheck(ctx, "a password") }()
	if m := <-g.entered; m != LightCost.MemoryKiB {
		t.Errorf("a light hasher's check of nobody asked for %d KiB, want %d", m, LightCost.MemoryKiB)
	}
	close(g.release)
	if err := <-done; err != nil {
		t.Fatal(err)
	}
}
