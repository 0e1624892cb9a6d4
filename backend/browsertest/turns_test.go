package browsertest

import (
	"bufio"
	"os/exec"
	"testing"
	"time"
)

// TestTurnsAcrossProcesses: a turn held in another process (a flock on the turn file, as
// another test binary holds it) keeps this one waiting until that process lets go; a test
// holding a turn gets it again at once, and gives it back when it ends.
func TestTurnsAcrossProcesses(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("BROWSER_TURNS_DIR", dir)
	t.Setenv("BROWSER_TURNS", "1")
	t.Setenv("PLAYWRIGHT_DRIVER_PATH", "turns-only") // no browser is started here

	// flock(1) takes the only turn, then echoes through cat until its stdin closes.
	holder := exec.Command("flock", dir+"/turn-0", "cat")
	stdin, err := holder.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := holder.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := holder.Start(); err != nil {
		t.Fatalf("flock: %v", err)
	}
	if _, err := stdin.Write([]byte("held\n")); err != nil {
		t.Fatal(err)
	}
	if line, err := bufio.NewReader(stdout).ReadString('\n'); err != nil || line != "held\n" {
		t.Fatalf("the other process: %q, %v", line, err)
	}

	got := make(chan struct{})
	before := missed.Load()
	go t.Run("waits", func(t *testing.T) {
		Turn(t)
		Turn(t) // held already: at once
		close(got)
	})
	// Two rounds that found every turn taken prove the waiter looked while the other
	// process held it.
	for missed.Load() < before+2 {
		select {
		case <-got:
			t.Fatal("a turn was given while another process held the only one")
		case <-time.After(turnPoll):
		}
	}
	select {
	case <-got:
		t.Fatal("a turn was given while another process held the only one")
	default:
	}
	_ = stdin.Close()
	if err := holder.Wait(); err != nil {
		t.Fatal(err)
	}
	select {
	case <-got:
	case <-time.After(30 * time.Second):
		t.Fatal("the turn was not given once the other process let go")
	}
	again := make(chan struct{})
	go t.Run("again", func(t *testing.T) { Turn(t); close(again) })
	select {
	case <-again:
	case <-time.After(30 * time.Second):
		t.Fatal("the turn was not given back when its test ended")
	}
}
