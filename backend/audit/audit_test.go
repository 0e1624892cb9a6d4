package audit

import (
	"testing"
	"time"
)

func TestHashAddress(t *testing.T) {
	k1, k2 := DeriveKey([]byte("secret-one-secret-one-secret-one")), DeriveKey([]byte("secret-two-secret-two-secret-two"))
	a := HashAddress(k1, "203.0.113.7")
	if a == "" || a == "203.0.113.7" || len(a) != 32 {
		t.Fatalf("hash %q", a)
	}
	if HashAddress(k1, "203.0.113.7") != a {
		t.Fatal("not stable")
	}
	if HashAddress(k2, "203.0.113.7") == a || HashAddress(k1, "203.0.113.8") == a {
		t.Fatal("hash ignores the key or the address")
	}
	if HashAddress(k1, "") != "" {
		t.Fatal("no address must hash to empty")
	}
}

func TestPaging(t *testing.T) {
	for _, c := range []struct{ in, want int }{{0, 50}, {-3, 50}, {1, 1}, {200, 200}, {1000, 200}} {
		if got := PageLimit(c.in); got != c.want {
			t.Errorf("PageLimit(%d) = %d, want %d", c.in, got, c.want)
		}
	}
	es := []Event{{ID: 9}, {ID: 7}}
	if NextCursor(es, 2) != 7 || NextCursor(es, 3) != 0 || NextCursor(nil, 1) != 0 {
		t.Fatal("NextCursor")
	}
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	if got := Cutoff(now, 400*24*time.Hour); !got.Equal(now.AddDate(0, 0, -400)) {
		t.Fatalf("Cutoff %v", got)
	}
	if Target("link", 7) != "link:7" {
		t.Fatal("Target")
	}
}
